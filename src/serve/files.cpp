#include "files.hpp"

#include <httplib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo::serve {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxWebFile = 64ull << 20;  // 64 MB: no page file is near it
constexpr std::size_t kMaxKept = 64u << 20;          // bytes of page files kept in memory

bool is_folder(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

}  // namespace

std::string find_web_root(const std::string& given) {
  std::error_code ec;
  if (!given.empty()) {
    if (!is_folder(given)) throw Error("--web-root " + shown_name(given) + " is not a folder");
    return fs::canonical(given, ec).string();
  }
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  for (const fs::path& p :
       {self.parent_path() / "web", self.parent_path() / ".." / "share" / "tanbo" / "web"}) {
    if (is_folder(p)) return fs::canonical(p, ec).string();
  }
  return "";
}

namespace {

// The real file of URL path `path` under `root` (see WebFiles::get), or nullopt.
std::optional<fs::path> web_file_path(const std::string& root, const std::string& path) {
  if (root.empty() || path.empty() || path[0] != '/') return std::nullopt;
  if (path.find('\0') != std::string::npos || path.find('\\') != std::string::npos) {
    return std::nullopt;
  }
  std::istringstream parts(path.substr(1));
  std::string part;
  fs::path rel;
  while (std::getline(parts, part, '/')) {
    if (part == "." || part == "..") return std::nullopt;
    if (!part.empty()) rel /= part;
  }
  if (rel.empty()) return std::nullopt;
  std::error_code ec;
  // The real file, symbolic links followed: it must still be inside the (canonical) root.
  const fs::path real = fs::canonical(fs::path(root) / rel, ec);
  if (ec) return std::nullopt;
  const std::string r = real.string();
  if (r.size() <= root.size() || r.compare(0, root.size(), root) != 0 || r[root.size()] != '/') {
    return std::nullopt;
  }
  if (!fs::is_regular_file(real, ec) || fs::file_size(real, ec) > kMaxWebFile || ec) {
    return std::nullopt;
  }
  return real;
}

std::optional<std::string> read_whole(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  if (!in) return std::nullopt;
  return content.str();
}

}  // namespace

std::shared_ptr<const std::string> gzipped(const std::string& text) {
#ifdef CPPHTTPLIB_ZLIB_SUPPORT
  std::string packed;
  httplib::detail::gzip_compressor gzip;
  const bool ok = gzip.compress(text.data(), text.size(), true, [&](const char* data, size_t n) {
    packed.append(data, n);
    return true;
  });
  if (ok && packed.size() < text.size()) {
    return std::make_shared<const std::string>(std::move(packed));
  }
#else
  (void)text;
#endif
  return nullptr;
}

std::shared_ptr<const WebFiles::File> WebFiles::get(const std::string& path) {
  const auto real = web_file_path(root_, path);
  if (!real) return nullptr;
  std::error_code size_error;
  std::error_code time_error;
  const std::uintmax_t size = fs::file_size(*real, size_error);
  const fs::file_time_type changed = fs::last_write_time(*real, time_error);
  if (size_error || time_error) return nullptr;
  const std::string key = real->string();
  {
    std::lock_guard lock(mutex_);
    const auto it = files_.find(key);
    if (it != files_.end() && it->second->size == size && it->second->changed == changed) {
      return it->second;
    }
  }
  auto content = read_whole(*real);
  if (!content) return nullptr;
  auto file = std::make_shared<File>();
  file->type = content_type(real->filename().string());
  file->size = size;
  file->changed = changed;
  file->content = std::make_shared<const std::string>(std::move(*content));
  std::lock_guard lock(mutex_);
  const auto old = files_.find(key);
  const std::size_t freed =
      old == files_.end()
          ? 0
          : old->second->content->size() + (old->second->gzip ? old->second->gzip->size() : 0);
  // Kept (and compressed) within kMaxKept only: the folder's files are few and small, but it
  // is the server's owner's, not the server's, to say.
  if (kept_ - freed + 2 * file->content->size() <= kMaxKept) {
    file->gzip = gzipped(*file->content);  // (under the lock: once, not by every thread at once)
    kept_ = kept_ - freed + file->content->size() + (file->gzip ? file->gzip->size() : 0);
    files_[key] = file;
  }
  return file;
}

std::string content_type(const std::string& name) {
  static const std::pair<const char*, const char*> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".ico", "image/x-icon"},
      {".txt", "text/plain; charset=utf-8"},
      {".wasm", "application/wasm"},
      {".woff2", "font/woff2"},
  };
  const std::string lower = to_lower(name);
  for (const auto& [ext, type] : kTypes) {
    const std::string_view e = ext;
    if (lower.size() >= e.size() && lower.compare(lower.size() - e.size(), e.size(), e) == 0) {
      return type;
    }
  }
  return "application/octet-stream";
}

bool RateLimit::allow(const std::string& client) {
  if (rate_ <= 0) return true;
  const auto now = std::chrono::steady_clock::now();
  const double burst = std::max(4.0, 4 * rate_);
  std::lock_guard lock(mutex_);
  if (buckets_.size() > 100000) buckets_.clear();  // many addresses: start every one afresh
  auto [it, fresh] = buckets_.try_emplace(client);
  Bucket& b = it->second;
  if (fresh) {
    b.tokens = burst;
  } else {
    const double seconds = std::chrono::duration<double>(now - b.last).count();
    b.tokens = std::min(burst, b.tokens + seconds * rate_);
  }
  b.last = now;
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

}  // namespace tanbo::serve
