// The page's static files, served only from inside their folder, and the per-client rate
// limit of the API.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace tanbo::serve {

// The page's folder: `given` when not empty (tanbo::Error when it is not a folder), else
// web/ next to the running program, else ../share/tanbo/web from there; "" when none exists.
std::string find_web_root(const std::string& given);

// The page's files as they are served: each read once and kept, with its gzip form, while it
// stays the same (its size and time of change), so that an answer costs no compression. (Each
// request compressed the file anew: 30 ms of CPU for three.js's 1.5 MB, and the page's files
// count against no rate, so one client could keep every core busy.)
class WebFiles {
 public:
  struct File {
    std::string type;
    std::shared_ptr<const std::string> content;
    std::shared_ptr<const std::string> gzip;  // nullptr when it is no smaller, or not kept
    std::uintmax_t size = 0;
    std::filesystem::file_time_type changed;
  };
  explicit WebFiles(std::string root) : root_(std::move(root)) {}
  // The file at URL path `path` ("/js/app.js", already percent-decoded) under the root;
  // nullptr when the path has a "." or ".." part, a NUL, a backslash, leads (through symbolic
  // links) outside the root, or names no regular file. Read again when it has changed; files
  // past 64 MB in all are not kept (nor compressed).
  std::shared_ptr<const File> get(const std::string& path);

 private:
  std::string root_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const File>> files_;  // by real path
  std::size_t kept_ = 0;                                                // bytes of files_
};

// The gzip form of `text`; nullptr when it is no smaller or cannot be made.
std::shared_ptr<const std::string> gzipped(const std::string& text);

// The content type of a file name by its extension (text/javascript for .js and .mjs).
std::string content_type(const std::string& name);

// A token bucket per client address: `rate` requests a second on average, bursts of
// 4 * rate (at least 4); rate 0 lets everything through.
class RateLimit {
 public:
  explicit RateLimit(double rate) : rate_(rate) {}
  bool allow(const std::string& client);

 private:
  struct Bucket {
    double tokens = 0;
    std::chrono::steady_clock::time_point last;
  };
  double rate_;
  std::mutex mutex_;
  std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace tanbo::serve
