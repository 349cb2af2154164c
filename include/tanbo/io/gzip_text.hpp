// Text files that may be compressed with gzip, written and read a piece at a time: proof
// certificates of hundreds of millions of positions take gigabytes as text and a tenth of that
// compressed (docs/solved.md, "Proofs anyone can check").
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <streambuf>
#include <string>
#include <string_view>

#include "tanbo/io/safe_file.hpp"

namespace tanbo {

// Whether `path` asks for a compressed file: its name ends in ".gz", in any case.
bool is_gzip_name(std::string_view path);

// Compresses what it is given into the gzip format, handing the compressed bytes to `out` (a
// write_file_atomic sink) as they come. finish() ends the stream; until then the bytes handed
// on are not a whole gzip file.
class GzipWriter {
 public:
  explicit GzipWriter(FileSink out, int level = 6);
  ~GzipWriter();
  GzipWriter(const GzipWriter&) = delete;
  GzipWriter& operator=(const GzipWriter&) = delete;

  void write(std::string_view text);
  void finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// write_file_atomic(path, produce, verify), compressed with gzip (level 6) on the way when
// `path`'s name ends in ".gz" (`verify` then gets the compressed file: TextInput reads it).
void write_text_file_atomic(const std::string& path,
                            const std::function<void(const FileSink&)>& produce,
                            const FileCheck& verify = {});

// A text file read as a stream a piece at a time: as it is, or inflated when it begins as a
// gzip file does (whatever its name; members written one after another are read on). The file
// is opened as InputFile opens it, refused when it is larger than `max_bytes`; its text is
// bounded by `max_bytes` too, so a small file that inflates without end is refused at the
// limit. A read error, damaged gzip data or text over the limit throws tanbo::Error from the
// read that meets it (for reads straight from rdbuf(), as read_line makes them; the stream's
// own reads set badbit instead).
class TextInput : public std::istream {
 public:
  TextInput(const std::string& path, std::string name, std::uint64_t max_bytes, std::string kind);
  ~TextInput() override;

 private:
  class Buffer;
  std::unique_ptr<Buffer> buffer_;
};

}  // namespace tanbo
