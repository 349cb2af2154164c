// The number and column formats the study library's tables and CSV share.
#pragma once

#include <iomanip>
#include <sstream>
#include <string>

namespace tanbo::study_text {

// x with `digits` decimals ("0.4500").
inline std::string fixed(double x, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << x;
  return os.str();
}

// A rate as a percentage with one decimal ("45.0%").
inline std::string pct(double x) {
  return fixed(100.0 * x, 1) + "%";
}

// `s` padded with spaces to `width`, on the right (left-aligned) or on the left (`right`).
inline std::string pad(const std::string& s, std::size_t width, bool right = false) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

}  // namespace tanbo::study_text
