#include "tanbo/study/report.hpp"

#include <algorithm>
#include <ostream>

#include "text.hpp"

namespace tanbo {

namespace {

using study_text::fixed;
using study_text::pad;
using study_text::pct;

}  // namespace

void print_study_table(const std::vector<StudyTally>& tallies, std::ostream& out) {
  std::size_t w = 8;
  for (const auto& t : tallies) {
    w = std::max(w, t.topology.size() + (t.setup == "default" ? 0 : t.setup.size() + 3));
  }
  out << pad("topology", w + 2) << pad("games", 6, true) << pad("first wins", 12, true)
      << "  95% interval     " << pad("length", 8, true) << pad("sd", 7, true)
      << pad("removals", 10, true) << "\n";
  for (const auto& t : tallies) {
    const Interval ci =
        wilson_interval(static_cast<double>(t.first_wins), static_cast<double>(t.games));
    const std::string name = t.setup == "default" ? t.topology : t.topology + " | " + t.setup;
    out << pad(name, w + 2) << pad(std::to_string(t.games), 6, true)
        << pad(pct(t.first_rate()), 12, true) << "  "
        << pad("[" + pct(ci.lo) + ", " + pct(ci.hi) + "]", 17)
        << pad(fixed(t.mean_length(), 1), 8, true) << pad(fixed(t.sd_length(), 1), 7, true)
        << pad(fixed(t.removals_per_game(), 2), 10, true);
    if (t.unfinished) out << "  (" << t.unfinished << " cut off)";
    out << "\n";
  }
}

Canvas study_chart(const std::vector<StudyTally>& tallies, const std::string& title) {
  const int scale = 2;
  int label_w = Canvas::text_width("topology", scale);
  for (const auto& t : tallies) label_w = std::max(label_w, Canvas::text_width(t.topology, scale));
  const int left = 20 + label_w + 20, plot_w = 500, row_h = 34, top = 60;
  const int width = std::max(left + plot_w + 40, 40 + Canvas::text_width(title, scale));
  const int height = top + row_h * static_cast<int>(tallies.size()) + 70;
  Canvas c(static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height));
  const Rgb black{0, 0, 0}, grid{215, 215, 215}, half{200, 60, 60}, bar{40, 90, 170};
  c.text(20, 16, title, black, scale);
  const int bottom = top + row_h * static_cast<int>(tallies.size());
  auto xpos = [&](double rate) { return left + static_cast<int>(rate * plot_w + 0.5); };
  for (int k = 0; k <= 4; ++k) {
    const int x = xpos(k / 4.0);
    c.vline(x, top - 6, bottom, k == 2 ? half : grid);
    const std::string lab = std::to_string(k * 25) + "%";
    c.text(x - Canvas::text_width(lab, scale) / 2, bottom + 10, lab, black, scale);
  }
  c.hline(left, left + plot_w, bottom, black);
  c.text(left, bottom + 36, "first player win rate, 95% interval", black, scale);
  for (std::size_t i = 0; i < tallies.size(); ++i) {
    const auto& t = tallies[i];
    const int y = top + row_h * static_cast<int>(i) + row_h / 2;
    c.text(20, y - 7, t.topology, black, scale);
    if (t.games == 0) continue;
    const Interval ci =
        wilson_interval(static_cast<double>(t.first_wins), static_cast<double>(t.games));
    const int x0 = xpos(ci.lo), x1 = xpos(ci.hi), xm = xpos(t.first_rate());
    c.fill_rect(x0, y - 1, x1, y + 1, bar);
    c.fill_rect(x0, y - 7, x0 + 1, y + 7, bar);
    c.fill_rect(x1 - 1, y - 7, x1, y + 7, bar);
    c.fill_rect(xm - 4, y - 4, xm + 4, y + 4, black);
  }
  return c;
}

}  // namespace tanbo
