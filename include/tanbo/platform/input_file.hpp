// The one way the program reads a file a user names: game files, SGF records, DOT boards,
// study lists (docs/hardening.md, "Limits").
//
// - Only a regular file is read: a directory is refused as one, a FIFO, device or socket at
//   once (the file is opened without blocking and checked on the descriptor opened, so that
//   nothing swapped in between the check and the read is read).
// - A file larger than its kind's limit is refused before anything is read, and a read stops
//   at the limit (a file that grows while it is read is refused too): no file, not even a
//   sparse one of terabytes, takes more memory than its limit.
// - Every refusal is a tanbo::Error naming the file as the caller named it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tanbo {

// The largest game file or SGF record read (their text is also refused beyond it): 64 MB, a
// game of millions of moves.
inline constexpr std::uint64_t kMaxGameFileBytes = std::uint64_t{64} << 20;
// The largest DOT board file read: 1 GB.
inline constexpr std::uint64_t kMaxDotFileBytes = std::uint64_t{1} << 30;

// A size for messages: "64 MB", "1 GB", "1 TB", or bytes when it is not a whole number of those.
std::string size_text(std::uint64_t bytes);

// Throws tanbo::Error "NAME: has SIZE bytes, over the LIMIT limit for KIND" when `size` is
// over `max_bytes`. `kind` names the kind of file in the plural ("game files", "DOT files").
void check_input_size(std::uint64_t size, std::uint64_t max_bytes, std::string_view name,
                      std::string_view kind);

// Throws tanbo::Error "NAME: is a directory, ..." or "NAME: is not a regular file (a FIFO);
// ..." unless the open file `fd` is a regular file.
void need_regular_file(int fd, std::string_view name);

// A file opened for reading; refused (tanbo::Error) when it cannot be opened, is not a regular
// file, or is larger than `max_bytes`. `name` is the file as messages show it (shown_name).
class InputFile {
 public:
  InputFile(const std::string& path, std::string name, std::uint64_t max_bytes, std::string kind);
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  // The file's size when it was opened.
  std::uint64_t size() const { return size_; }
  // Its whole text, reading at most max_bytes + 1 bytes.
  std::string read();
  // The next bytes, up to `size` of them, for a file read piece by piece (binary files too
  // large to hold at once): fewer only at the end of the file (0 there). Throws tanbo::Error on
  // a read error, or when the file grew past max_bytes since it was opened.
  std::size_t read_some(char* buffer, std::size_t size);

 private:
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::uint64_t read_ = 0;  // bytes read by read_some
  std::uint64_t max_bytes_;
  std::string name_, kind_;
};

// InputFile(path, name, max_bytes, kind).read().
std::string read_input_file(const std::string& path, const std::string& name,
                            std::uint64_t max_bytes, const std::string& kind);

// Reads from the start of the open regular file `fd` what InputFile::read reads (the caller
// checked it is a regular file), refusing it at once when its size is over the limit.
std::string read_input_fd(int fd, std::string_view name, std::uint64_t max_bytes,
                          std::string_view kind);

}  // namespace tanbo
