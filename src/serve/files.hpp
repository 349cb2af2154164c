// The page's static files, served only from inside their folder, and the per-client rate
// limit of the API.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace tanbo::serve {

// The page's folder: `given` when not empty (tanbo::Error when it is not a folder), else
// web/ next to the running program, else ../share/tanbo/web from there; "" when none exists.
std::string find_web_root(const std::string& given);

// A file of the page: its content and content type.
struct WebFile {
  std::string content;
  std::string type;
};

// The file at URL path `path` ("/js/app.js", already percent-decoded) under `root`; nullopt
// when the path has a "." or ".." part, a NUL, a backslash, leads (through symbolic links)
// outside `root`, or names no regular file.
std::optional<WebFile> read_web_file(const std::string& root, const std::string& path);

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
