#include "tanbo/platform/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "tanbo/core/error.hpp"

namespace tanbo {

namespace {

// What a file that is not a regular one is, for the refusal.
std::string not_regular(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory, not a file";
  const char* what = S_ISFIFO(mode)   ? "a FIFO"
                     : S_ISCHR(mode)  ? "a character device"
                     : S_ISBLK(mode)  ? "a block device"
                     : S_ISSOCK(mode) ? "a socket"
                                      : "a special file";
  return std::string("is not a regular file (") + what +
         "); only regular files are read or written";
}

}  // namespace

std::string size_text(std::uint64_t bytes) {
  constexpr std::uint64_t kMb = std::uint64_t{1} << 20, kGb = std::uint64_t{1} << 30;
  constexpr std::uint64_t kTb = std::uint64_t{1} << 40;
  if (bytes >= kTb && bytes % kTb == 0) return std::to_string(bytes / kTb) + " TB";
  if (bytes >= kGb && bytes % kGb == 0) return std::to_string(bytes / kGb) + " GB";
  if (bytes >= kMb && bytes % kMb == 0) return std::to_string(bytes / kMb) + " MB";
  return std::to_string(bytes) + " bytes";
}

void check_input_size(std::uint64_t size, std::uint64_t max_bytes, std::string_view name,
                      std::string_view kind) {
  if (size <= max_bytes) return;
  throw Error(std::string(name) + ": has " + std::to_string(size) + " bytes, over the " +
              size_text(max_bytes) + " limit for " + std::string(kind));
}

void need_regular_file(int fd, std::string_view name) {
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) return;
  throw Error(std::string(name) + ": " + not_regular(st.st_mode));
}

InputFile::InputFile(const std::string& path, std::string name, std::uint64_t max_bytes,
                     std::string kind)
    : max_bytes_(max_bytes), name_(std::move(name)), kind_(std::move(kind)) {
  if (path.find('\0') != std::string::npos)
    throw Error(name_ + ": a file name cannot hold a NUL byte");
  // A device is not even opened (opening one may act on it); what the path names may change
  // before the open, so the descriptor opened is checked again. O_NONBLOCK: opening a FIFO
  // without a writer returns at once instead of waiting for one.
  struct stat named {};
  if (::stat(path.c_str(), &named) == 0 && !S_ISREG(named.st_mode)) {
    throw Error(name_ + ": " + not_regular(named.st_mode));
  }
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd_ < 0) {
    const int e = errno;
    throw Error(name_ + ": cannot open (" + std::strerror(e) + ")");
  }
  try {
    need_regular_file(fd_, name_);
    struct stat st {};
    ::fstat(fd_, &st);
    size_ = static_cast<std::uint64_t>(st.st_size);
    check_input_size(size_, max_bytes_, name_, kind_);
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::string InputFile::read() {
  return read_input_fd(fd_, name_, max_bytes_, kind_);
}

std::size_t InputFile::read_some(char* buffer, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd_, buffer + done, size - done);
    if (n < 0) {
      const int e = errno;
      if (e == EINTR) continue;
      throw Error(name_ + ": read error (" + std::strerror(e) + ")");
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  read_ += done;
  if (read_ > max_bytes_) {
    throw Error(name_ + ": is over the " + size_text(max_bytes_) + " limit for " + kind_);
  }
  return done;
}

std::string read_input_file(const std::string& path, const std::string& name,
                            std::uint64_t max_bytes, const std::string& kind) {
  return InputFile(path, name, max_bytes, kind).read();
}

std::string read_input_fd(int fd, std::string_view name, std::uint64_t max_bytes,
                          std::string_view kind) {
  std::string text;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    const auto size = static_cast<std::uint64_t>(st.st_size);
    check_input_size(size, max_bytes, name, kind);
    text.reserve(static_cast<std::size_t>(size));
  }
  ::lseek(fd, 0, SEEK_SET);
  char buf[65536];
  for (;;) {
    // At most one byte past the limit: enough to know the file is over it.
    const std::uint64_t room = max_bytes + 1 - text.size();
    const ssize_t n = ::read(fd, buf, std::min<std::uint64_t>(room, sizeof buf));
    if (n < 0) {
      const int e = errno;
      if (e == EINTR) continue;
      throw Error(std::string(name) + ": read error (" + std::strerror(e) + ")");
    }
    if (n == 0) return text;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) {
      throw Error(std::string(name) + ": is over the " + size_text(max_bytes) + " limit for " +
                  std::string(kind));
    }
  }
}

}  // namespace tanbo
