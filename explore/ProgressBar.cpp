#include "explore/ProgressBar.h"

#include <algorithm>
#include <cstdio>

namespace tessera::explore {

std::string progress_line(const Progress& p, int width) {
  double fraction = p.total ? static_cast<double>(p.done) / static_cast<double>(p.total) : 0.0;
  if (p.budget_s > 0)
    fraction = std::max(fraction, std::min(1.0, p.elapsed_s / p.budget_s));
  int filled = std::clamp(static_cast<int>(fraction * width + 0.5), 0, width);
  std::string line(static_cast<std::size_t>(width + 2), '.');
  line.front() = '[';
  line.back() = ']';
  for (int i = 0; i < filled; ++i)
    line[static_cast<std::size_t>(i + 1)] = '#';
  char buf[160];
  std::snprintf(buf, sizeof buf, " %zu/%zu points  %.1f/%.0f s", p.done, p.total, p.elapsed_s,
                p.budget_s);
  line += buf;
  if (p.best_ms > 0) {
    std::snprintf(buf, sizeof buf, "  best %.2f GB/s", p.best_gb_per_s);
    line += buf;
    if (p.baseline_ms > 0) {
      std::snprintf(buf, sizeof buf, " (%.2fx)", p.baseline_ms / p.best_ms);
      line += buf;
    }
  }
  if (!p.phase.empty())
    line += "  " + p.phase;
  return line;
}

void ProgressBar::update(const Progress& progress) {
  show_text(progress_line(progress));
}

void ProgressBar::show_text(const std::string& text) {
  if (!enabled_)
    return;
  std::string line = text;
  std::size_t length = line.size();
  if (length < last_length_)
    line += std::string(last_length_ - length, ' ');
  last_length_ = length;
  out_ << '\r' << line << std::flush;
  drawn_ = true;
}

void ProgressBar::finish() {
  if (enabled_ && drawn_)
    out_ << '\n' << std::flush;
  drawn_ = false;
}

} // namespace tessera::explore
