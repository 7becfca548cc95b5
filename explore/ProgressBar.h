// A one-line text progress bar for long explorations, redrawn in place on a terminal:
//   [##########..........]  12/40 points  23.1/120 s  best 5.64 GB/s (4.7x)  work-group sizes
#pragma once

#include <ostream>
#include <string>

#include "explore/Explorer.h"

namespace tessera::explore {

// The bar's text for a progress state (no carriage return), `width` characters of bar.
std::string progress_line(const Progress& progress, int width = 24);

class ProgressBar {
public:
  // Draws nothing when not enabled (e.g. stderr is not a terminal and --progress was not given).
  ProgressBar(std::ostream& out, bool enabled) : out_(out), enabled_(enabled) {}
  ~ProgressBar() { finish(); }
  void update(const Progress& progress);
  // Draws a line of text in the bar's place (e.g. the enumeration's progress, before points).
  void show_text(const std::string& line);
  // Ends the line (once).
  void finish();

private:
  std::ostream& out_;
  bool enabled_;
  bool drawn_ = false;
  std::size_t last_length_ = 0;
};

} // namespace tessera::explore
