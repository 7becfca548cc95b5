// Pictures of reports, drawn by gnuplot (SVG), in two panels:
//   1. every measured point's achieved bandwidth, one column per variant family (plain,
//      coarsened, tiled, streaming, temporal, ...; explore/Family.h) in its own colour, the
//      fastest point of each family labelled with its variant and work-group size, the
//      baseline and the overall best marked, failed points at zero, and the device's measured
//      copy bandwidth as a horizontal line: the roofline of these bandwidth-bound kernels;
//   2. the best bandwidth found so far against the exploration time (the measured run's
//      trace), with the time at which each strategy came within 5% of the best.
#pragma once

#include <string>

#include "explore/Report.h"

namespace tessera::explore {

// $TESSERA_GNUPLOT when set, else `gnuplot` found on PATH; empty when there is none.
std::string find_gnuplot();

// The gnuplot script plot_report runs (data files in `data_dir`, output to `svg_path`).
std::string gnuplot_script(const Report& report, const std::string& data_dir,
                           const std::string& svg_path);

// Writes the SVG atomically. Error when gnuplot is missing (naming the package to install),
// fails, or the report has no measured point.
void plot_report(const Report& report, const std::string& svg_path);

} // namespace tessera::explore
