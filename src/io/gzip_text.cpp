// Text files compressed with gzip (include/tanbo/io/gzip_text.hpp), through zlib.
#include "tanbo/io/gzip_text.hpp"

#include <zlib.h>

#include <vector>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/platform/input_file.hpp"

namespace tanbo {

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;
constexpr int kGzipWindow = 15 + 16;  // zlib's window bits, + 16: a gzip header and trailer
constexpr int kAnyWindow = 15 + 32;   // + 32: inflate finds zlib or gzip by the header

}  // namespace

bool is_gzip_name(std::string_view path) {
  return path.size() >= 3 && to_lower(path.substr(path.size() - 3)) == ".gz";
}

// ---- writing

struct GzipWriter::Impl {
  FileSink out;
  z_stream z{};
  std::vector<unsigned char> buffer = std::vector<unsigned char>(kChunk);
  bool open = false;

  // Deflates what z holds, with `flush`, handing every full buffer on.
  void pump(int flush) {
    do {
      z.next_out = buffer.data();
      z.avail_out = static_cast<uInt>(buffer.size());
      const int status = deflate(&z, flush);
      if (status == Z_STREAM_ERROR) throw Error("compressing the output failed");
      out(std::string_view(reinterpret_cast<const char*>(buffer.data()),
                           buffer.size() - z.avail_out));
    } while (z.avail_out == 0);
  }
};

GzipWriter::GzipWriter(FileSink out, int level) : impl_(std::make_unique<Impl>()) {
  impl_->out = std::move(out);
  if (deflateInit2(&impl_->z, level, Z_DEFLATED, kGzipWindow, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw Error("cannot start compressing the output (zlib)");
  }
  impl_->open = true;
}

GzipWriter::~GzipWriter() {
  if (impl_->open) deflateEnd(&impl_->z);
}

void GzipWriter::write(std::string_view text) {
  while (!text.empty()) {  // (avail_in is 32 bits wide)
    const std::size_t n = std::min<std::size_t>(text.size(), kChunk);
    impl_->z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    impl_->z.avail_in = static_cast<uInt>(n);
    impl_->pump(Z_NO_FLUSH);
    text.remove_prefix(n);
  }
}

void GzipWriter::finish() {
  impl_->z.avail_in = 0;
  impl_->pump(Z_FINISH);
}

void write_text_file_atomic(const std::string& path,
                            const std::function<void(const FileSink&)>& produce,
                            const FileCheck& verify) {
  if (!is_gzip_name(path)) {
    write_file_atomic(path, produce, verify);
    return;
  }
  write_file_atomic(
      path,
      [&](const FileSink& sink) {
        GzipWriter gzip(sink);
        produce([&gzip](std::string_view piece) { gzip.write(piece); });
        gzip.finish();
      },
      verify);
}

// ---- reading

class TextInput::Buffer : public std::streambuf {
 public:
  Buffer(const std::string& path, std::string name, std::uint64_t max_bytes, std::string kind)
      : file_(path, name, max_bytes, kind),
        name_(std::move(name)),
        kind_(std::move(kind)),
        max_bytes_(max_bytes),
        in_(kChunk),
        text_(kChunk) {
    fill_input();
    gzip_ = in_size_ >= 2 && in_[0] == 0x1f && in_[1] == 0x8b;
    if (gzip_ && inflateInit2(&z_, kAnyWindow) != Z_OK) {
      throw Error(name_ + ": cannot start reading it (zlib)");
    }
  }
  ~Buffer() override {
    if (gzip_) inflateEnd(&z_);
  }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const std::size_t n = gzip_ ? inflate_some() : copy_some();
    if (n == 0) return traits_type::eof();
    text_bytes_ += n;
    if (text_bytes_ > max_bytes_) {
      throw Error(name_ + ": its text is over the " + size_text(max_bytes_) + " limit for " +
                  kind_);
    }
    setg(text_.data(), text_.data(), text_.data() + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  void fill_input() {
    in_size_ = file_.read_some(reinterpret_cast<char*>(in_.data()), in_.size());
    in_used_ = 0;
  }

  // The file's bytes as they are.
  std::size_t copy_some() {
    if (in_used_ == in_size_) fill_input();
    const std::size_t n = in_size_ - in_used_;
    std::copy(in_.begin() + static_cast<std::ptrdiff_t>(in_used_),
              in_.begin() + static_cast<std::ptrdiff_t>(in_size_), text_.begin());
    in_used_ = in_size_;
    return n;
  }

  // Inflated text, at least a byte of it unless the file has ended.
  std::size_t inflate_some() {
    z_.next_out = reinterpret_cast<Bytef*>(text_.data());
    z_.avail_out = static_cast<uInt>(text_.size());
    while (z_.avail_out == text_.size()) {
      if (in_used_ == in_size_) {
        fill_input();
        if (in_size_ == 0) {
          if (member_open_) throw Error(name_ + ": the compressed text ends early");
          break;
        }
      }
      // Between members, only another member (its first byte 0x1f) may follow.
      if (!member_open_ && in_[in_used_] != 0x1f) {
        throw Error(name_ +
                    ": it goes on after the end of its compressed text, with bytes that "
                    "are not gzip");
      }
      z_.next_in = in_.data() + in_used_;
      z_.avail_in = static_cast<uInt>(in_size_ - in_used_);
      const int status = inflate(&z_, Z_NO_FLUSH);
      in_used_ = in_size_ - z_.avail_in;
      if (status == Z_STREAM_END) {
        inflateReset(&z_);  // another member may follow
        member_open_ = false;
      } else if (status == Z_OK || status == Z_BUF_ERROR) {
        member_open_ = true;
      } else {
        throw Error(name_ + ": damaged compressed data (" + (z_.msg ? z_.msg : "zlib") + ")");
      }
    }
    return text_.size() - z_.avail_out;
  }

  InputFile file_;
  std::string name_, kind_;
  std::uint64_t max_bytes_;
  std::vector<unsigned char> in_;
  std::size_t in_size_ = 0, in_used_ = 0;
  std::vector<char> text_;
  std::uint64_t text_bytes_ = 0;
  bool gzip_ = false;
  bool member_open_ = false;  // inside a gzip member
  z_stream z_{};
};

TextInput::TextInput(const std::string& path, std::string name, std::uint64_t max_bytes,
                     std::string kind)
    : std::istream(nullptr),
      buffer_(std::make_unique<Buffer>(path, std::move(name), max_bytes, std::move(kind))) {
  rdbuf(buffer_.get());
}

TextInput::~TextInput() = default;

}  // namespace tanbo
