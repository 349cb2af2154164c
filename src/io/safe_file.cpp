#include "tanbo/io/safe_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/platform/input_file.hpp"

namespace tanbo {

namespace {

std::string errno_text(int e) {
  return std::strerror(e);
}

// ---------------------------------------------------------------- paths

struct Target {
  std::string path;  // the file written (symbolic links followed)
  std::string dir;   // its folder
  std::string base;  // its name in the folder

  std::string shown() const { return shown_name(path); }  // for messages
};

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Follows symbolic links to the file they name (which need not exist yet), so that a write
// through a link reaches the real game and keeps the link.
std::string follow_links(const std::string& given) {
  std::string path = given;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(path.c_str(), buf, sizeof buf);
    if (n < 0)
      throw Error(shown_name(given) + ": cannot follow the link (" + errno_text(errno) + ")");
    std::string next(buf, static_cast<std::size_t>(n));
    path = next.front() == '/' ? next : folder_of(path) + "/" + next;
  }
  throw Error(shown_name(given) + ": too many levels of symbolic links");
}

Target target_of(const std::string& given) {
  if (given.find('\0') != std::string::npos) {
    throw Error(shown_name(given) + ": a file name cannot hold a NUL byte");
  }
  Target t;
  t.path = follow_links(given);
  t.dir = folder_of(t.path);
  const auto slash = t.path.rfind('/');
  t.base = slash == std::string::npos ? t.path : t.path.substr(slash + 1);
  if (t.base.empty() || t.base == "." || t.base == "..")
    throw Error(shown_name(given) + ": not a file name");
  return t;
}

std::string temp_prefix(const Target& t) {
  return "." + t.base + ".tmp.";
}

// Flushes a folder's entries (the rename) to disk. Best effort: some file systems refuse it.
void sync_folder(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// ---------------------------------------------------------------- the writer's lock

// An exclusive flock on the file now at a path. The lock is on the inode: a writer that renamed
// a new file into place released an inode nobody reads any more, so a waiter that wakes up on it
// checks that the path still names the inode it locked, and starts again on the new one.
class WriteLock {
 public:
  // Locks `t.path` when it exists (exists() tells), waiting at most lock_timeout().
  explicit WriteLock(const Target& t) {
    const auto deadline = std::chrono::steady_clock::now() + lock_timeout();
    auto pause = std::chrono::microseconds(500);
    for (;;) {
      if (!open_existing(t)) return;
      if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) {
        if (still_named(t)) return;
      } else if (errno != EWOULDBLOCK && errno != EINTR) {
        const int e = errno;
        release();
        throw Error(t.shown() + ": cannot lock it (" + errno_text(e) +
                    "); the file was not changed");
      }
      release();
      if (std::chrono::steady_clock::now() >= deadline) {
        throw Error(t.shown() + ": another program is writing it (waited " + waited_text() +
                    " for its lock; TANBO_LOCK_TIMEOUT sets the wait); the file was not changed");
      }
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(20000));
    }
  }
  WriteLock(const WriteLock&) = delete;
  WriteLock& operator=(const WriteLock&) = delete;
  ~WriteLock() { release(); }

  bool exists() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  // The locked file's status (its permissions and owner), null when there is no file.
  const struct stat* status() const { return fd_ >= 0 ? &st_ : nullptr; }

 private:
  // Opens the path into fd_ with `flags`; false when there is nothing there. Refuses (and
  // closes) what is not a plain file.
  bool open_regular(const Target& t, int flags) {
    fd_ = ::open(t.path.c_str(), flags);
    if (fd_ < 0) {
      if (errno == ENOENT) return false;
      throw Error(t.shown() + ": cannot open it (" + errno_text(errno) + ")");
    }
    try {
      need_regular_file(fd_, t.shown());
    } catch (...) {
      release();
      throw;
    }
    return true;
  }
  // Opens the file at the path; false when there is none. Refuses what is not a plain file
  // with one name.
  bool open_existing(const Target& t) {
    // What the name is comes first, from a descriptor that opens nothing (O_PATH): a device or
    // a FIFO is refused without being opened, as the input layer refuses it, since opening one
    // may act on it (a FIFO's waiting writer goes on, a tape rewinds). Then the file is opened
    // and checked again (the name may have changed meanwhile).
    if (!open_regular(t, O_PATH | O_CLOEXEC | O_NOFOLLOW)) return false;
    release();
    if (!open_regular(t, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)) return false;
    struct stat st {};
    ::fstat(fd_, &st);
    if (st.st_nlink > 1) {
      release();
      throw Error(t.shown() + ": the file has " + std::to_string(st.st_nlink) +
                  " hard links, and replacing it would leave the others behind; use a copy or "
                  "a symbolic link instead (the file was not changed)");
    }
    // The file is replaced by a rename, which asks only the folder's permission: a file its
    // user may not write is refused here, as a write in place would be.
    if (::faccessat(AT_FDCWD, t.path.c_str(), W_OK, AT_EACCESS) != 0 && errno == EACCES) {
      release();
      throw Error(t.shown() + ": cannot write it (" + errno_text(EACCES) +
                  "); the file was not changed");
    }
    st_ = st;
    return true;
  }

  bool still_named(const Target& t) const {
    struct stat st {};
    return ::stat(t.path.c_str(), &st) == 0 && st.st_ino == st_.st_ino && st.st_dev == st_.st_dev;
  }

  static std::string waited_text() {
    std::ostringstream os;
    os << static_cast<double>(lock_timeout().count()) / 1000.0 << " s";
    return os.str();
  }

  void release() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the flock
    fd_ = -1;
  }

  int fd_ = -1;
  struct stat st_ {};
};

// Removes the temporary files that writers of `t` left when they were killed. A live writer
// holds a lock on its temporary file, so a file whose lock can be taken has no writer, unless
// the writer made it an instant ago and has not locked it yet: it writes nothing before the
// lock, so an empty file is left alone until it is a minute old.
void remove_abandoned_temps(const Target& t) {
  DIR* d = ::opendir(t.dir.c_str());
  if (!d) return;
  const std::string prefix = temp_prefix(t);
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string path = t.dir + "/" + name;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) continue;
    struct stat st {};
    const bool abandoned =
        ::fstat(fd, &st) == 0 && (st.st_size > 0 || st.st_mtime < std::time(nullptr) - 60);
    if (abandoned && ::flock(fd, LOCK_EX | LOCK_NB) == 0) ::unlink(path.c_str());
    ::close(fd);
  }
  ::closedir(d);
}

// ---------------------------------------------------------------- the temporary file

// write(2) past the file-size limit raises SIGXFSZ, which kills the process by default. While
// this guard lives the signal is blocked for the calling thread, so write fails with EFBIG
// instead; a signal that became pending is consumed before the old mask returns.
class FileSizeSignalGuard {
 public:
  FileSizeSignalGuard() {
    sigemptyset(&xfsz_);
    sigaddset(&xfsz_, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &xfsz_, &old_);
  }
  ~FileSizeSignalGuard() {
    const timespec now{0, 0};
    while (sigtimedwait(&xfsz_, nullptr, &now) == SIGXFSZ) {
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }

 private:
  sigset_t xfsz_{}, old_{};
};

// Creates a file of a new name `prefix` + six letters or digits, as mkstemp does, but with the
// permissions `mode` less the umask, as any new file gets (mkstemp gives 0600, and setting
// the mode afterwards would have to guess the umask). Returns the descriptor, or -1 (errno).
int create_unique(const std::string& prefix, mode_t mode, std::string& path) {
  static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  thread_local std::mt19937_64 rng(std::random_device{}() ^ static_cast<std::uint64_t>(::getpid()));
  for (int attempt = 0; attempt < 1000; ++attempt) {
    path = prefix;
    for (int i = 0; i < 6; ++i) path += letters[rng() % (sizeof letters - 1)];
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;  // (errno is EEXIST)
}

// A locked temporary file beside the target, removed unless it is put in place. It gets the
// permissions and, as far as this user may give them, the owner and group of the file it
// replaces (`replaced`), or for a new file those of the umask and the user.
class TempFile {
 public:
  TempFile(const Target& t, const struct stat* replaced) : target_(t) {
    std::string name;
    fd_ = create_unique(t.dir + "/" + temp_prefix(t), replaced ? 0600 : 0666, name);
    if (fd_ < 0) {
      throw Error(t.shown() + ": cannot write in its folder " + shown_name(t.dir) + " (" +
                  errno_text(errno) + "); the file was not changed");
    }
    path_ = name;
    ::flock(fd_, LOCK_EX);  // marks it as in use (see remove_abandoned_temps)
    if (replaced) {
      // (root may give any owner; another user the group only, of the groups it is in; where
      // neither is allowed the file takes the writer's, as any new file does)
      if (::fchown(fd_, replaced->st_uid, replaced->st_gid) != 0 &&
          ::fchown(fd_, static_cast<uid_t>(-1), replaced->st_gid) != 0) {
        // the writer's owner and group stay
      }
      ::fchmod(fd_, replaced->st_mode & 07777);  // after fchown, which clears set-id bits
    }
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
    if (fd_ >= 0) ::close(fd_);
  }

  const std::string& path() const { return path_; }
  // Writes and flushes `contents`.
  void fill(std::string_view contents) {
    append(contents);
    flush();
  }
  // Writes `contents` after what was written before.
  void append(std::string_view contents) {
    FileSizeSignalGuard guard;
    std::size_t done = 0;
    while (done < contents.size()) {
      const ssize_t n = ::write(fd_, contents.data() + done, contents.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        fail("writing");
      }
      done += static_cast<std::size_t>(n);
    }
  }
  void flush() {
    if (::fsync(fd_) != 0) fail("flushing");
  }

  // Renames the file over the target.
  void replace_target() {
    if (::rename(path_.c_str(), target_.path.c_str()) != 0) fail("renaming");
    path_.clear();
    sync_folder(target_.dir);
  }

  // Gives the file the target's name only if that name is free; false when it is taken.
  bool create_target() {
    if (::link(path_.c_str(), target_.path.c_str()) != 0) {
      if (errno == EEXIST) return false;
      fail("linking");
    }
    ::unlink(path_.c_str());
    path_.clear();
    sync_folder(target_.dir);
    return true;
  }

 private:
  [[noreturn]] void fail(const char* step) const {
    const int e = errno;
    throw Error(target_.shown() + ": cannot write, " + step + " failed (" + errno_text(e) +
                "); the file was not changed");
  }

  Target target_;
  std::string path_;
  int fd_ = -1;
};

}  // namespace

std::chrono::milliseconds lock_timeout() {
  if (const char* s = std::getenv("TANBO_LOCK_TIMEOUT")) {
    char* end = nullptr;
    const double seconds = std::strtod(s, &end);
    if (end != s && *end == '\0' && seconds >= 0 && seconds <= 86400) {
      return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
    }
    // Refused rather than passed over: "60s" or "-1" would otherwise wait 10 s without a word.
    throw Error("TANBO_LOCK_TIMEOUT=" + quote_input(s) +
                " is not a number of seconds from 0 to 86400 (how long a writer waits for "
                "another's lock); nothing was written");
  }
  return std::chrono::seconds(10);
}

void write_file_atomic(const std::string& path, std::string_view contents) {
  write_file_atomic(path, [&](const FileSink& sink) { sink(contents); });
}

void write_file_atomic(const std::string& path,
                       const std::function<void(const FileSink&)>& produce) {
  write_file_atomic(path, produce, FileCheck{});
}

void write_file_atomic(const std::string& path, const std::function<void(const FileSink&)>& produce,
                       const FileCheck& verify) {
  const Target t = target_of(path);
  const WriteLock lock(t);
  remove_abandoned_temps(t);
  TempFile tmp(t, lock.status());
  produce([&tmp](std::string_view piece) { tmp.append(piece); });
  tmp.flush();
  if (verify) verify(tmp.path());
  tmp.replace_target();
}

void check_writable(const std::string& path) {
  const Target t = target_of(path);
  const WriteLock lock(t);
  const TempFile tmp(t, nullptr);  // removed again when it goes
}

void check_not_an_input(const std::string& output, const std::vector<std::string>& inputs,
                        std::string_view option) {
  struct stat out {};
  if (output.empty() || ::stat(output.c_str(), &out) != 0) return;
  for (const std::string& input : inputs) {
    struct stat in {};
    if (input.empty() || ::stat(input.c_str(), &in) != 0) continue;
    if (in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
      throw Error(std::string(option) + " " + shown_name(output) + " is the input " +
                  shown_name(input) + ": it would be replaced; write elsewhere");
    }
  }
}

void create_file_exclusive(const std::string& path, std::string_view contents) {
  const Target t = target_of(path);
  if (::access(t.path.c_str(), F_OK) == 0) throw Error(shown_name(path) + " exists already");
  TempFile tmp(t, nullptr);
  tmp.fill(contents);
  if (!tmp.create_target()) throw Error(shown_name(path) + " exists already");
}

void update_file(const std::string& path,
                 const std::function<std::optional<std::string>(const std::string&)>& change) {
  const Target t = target_of(path);
  const WriteLock lock(t);
  if (!lock.exists()) throw Error(shown_name(path) + ": cannot open (" + errno_text(ENOENT) + ")");
  remove_abandoned_temps(t);
  const std::optional<std::string> text =
      change(read_input_fd(lock.fd(), shown_name(path), kMaxGameFileBytes, "game files"));
  if (!text) return;
  TempFile tmp(t, lock.status());
  tmp.fill(*text);
  tmp.replace_target();
}

std::string read_text_file(const std::string& path, const std::string& kind) {
  return read_input_file(path, shown_name(path), kMaxGameFileBytes, kind);
}

}  // namespace tanbo
