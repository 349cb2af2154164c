#include "files.hpp"

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

std::optional<WebFile> read_web_file(const std::string& root, const std::string& path) {
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
  std::ifstream in(real, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  if (!in) return std::nullopt;
  return WebFile{content.str(), content_type(real.filename().string())};
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
