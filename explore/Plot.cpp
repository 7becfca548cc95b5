#include "explore/Plot.h"
#include "core/Format.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "core/AtomicFile.h"
#include "core/Bytes.h"
#include "core/Error.h"
#include "explore/ComputeCeiling.h"
#include "explore/Family.h"
#include "explore/Space.h"
#include "runtime/Device.h"

namespace tessera::explore {

namespace fs = std::filesystem;

std::string find_gnuplot() {
  if (const char* env = std::getenv("TESSERA_GNUPLOT"); env && *env)
    return ::access(env, X_OK) == 0 ? std::string(env) : std::string();
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty())
      continue;
    fs::path candidate = fs::path(dir) / "gnuplot";
    if (::access(candidate.c_str(), X_OK) == 0)
      return candidate.string();
  }
  return "";
}

namespace {

// A gnuplot single-quoted string.
std::string gnuplot_string(const std::string& text) {
  std::string s = "'";
  for (char c : text)
    s += c == '\'' ? std::string("''") : std::string(1, c);
  return s + "'";
}

void write_data(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out)
    user_error(cat("cannot write the plot data file ", path));
}

// Colours of the families (colour-blind safe, Paul Tol's "bright" set and grey).
const char* family_colour(std::size_t index) {
  static const char* colours[] = {"#ee6677", "#228833", "#4477aa", "#ccbb44", "#66ccee",
                                  "#aa3377", "#994f00", "#44aa99", "#882255", "#888888"};
  return colours[index % (sizeof colours / sizeof *colours)];
}

// Where every point goes in the first panel: one column per family present (in the order of
// variant_families), the family's points spread across its column from the fastest.
struct Layout {
  std::vector<std::string> families;              // present, in order
  std::map<int, std::size_t> family_of;           // point id -> index in families
  std::map<int, double> x;                        // point id -> x
  std::map<std::size_t, const PointResult*> best; // family index -> its fastest checked point
};

Layout layout(const Report& r) {
  Layout l;
  std::map<std::string, std::vector<const PointResult*>> members;
  for (const auto& p : r.points)
    members[variant_family(p.history)].push_back(&p);
  for (const auto& f : variant_families())
    if (members.count(f))
      l.families.push_back(f);
  for (std::size_t i = 0; i < l.families.size(); ++i) {
    auto& list = members[l.families[i]];
    std::stable_sort(list.begin(), list.end(), [](const PointResult* a, const PointResult* b) {
      return (a->status == PointStatus::Ok ? a->gb_per_s : -1.0) >
             (b->status == PointStatus::Ok ? b->gb_per_s : -1.0);
    });
    for (std::size_t k = 0; k < list.size(); ++k) {
      double spread = list.size() > 1 ? static_cast<double>(k) / (list.size() - 1) : 0.5;
      l.x[list[k]->id] = static_cast<double>(i) - 0.35 + 0.7 * spread;
      l.family_of[list[k]->id] = i;
    }
    if (!list.empty() && list.front()->status == PointStatus::Ok)
      l.best[i] = list.front();
  }
  return l;
}

// "v12 32x8": the variant and its work-group size.
std::string point_name(const PointResult& p) {
  return cat("v", p.variant, p.local == "auto" ? std::string() : " " + p.local);
}

// The fastest bandwidth measured up to each trace event: (seconds, GB/s). Every point moves
// the same bytes, so a point's GB/s scales with the inverse of the event's median time.
std::vector<std::pair<double, double>> best_so_far(const Report& r) {
  std::vector<TraceEvent> trace = r.trace;
  std::stable_sort(trace.begin(), trace.end(),
                   [](const TraceEvent& a, const TraceEvent& b) { return a.t_s < b.t_s; });
  std::vector<std::pair<double, double>> steps;
  double best = 0;
  for (const auto& e : trace) {
    const PointResult* p = r.find(e.point);
    if (!p || p->status != PointStatus::Ok || e.median_ms <= 0 || p->median_ms <= 0)
      continue;
    best = std::max(best, p->gb_per_s * p->median_ms / e.median_ms);
    steps.emplace_back(e.t_s, best);
  }
  return steps;
}

} // namespace

std::string gnuplot_script(const Report& r, const std::string& data_dir,
                           const std::string& svg_path) {
  const PointResult* best = r.best ? r.find(*r.best) : nullptr;
  const PointResult* base = r.baseline ? r.find(*r.baseline) : nullptr;
  Layout l = layout(r);
  double top = r.copy_gb_per_s;
  for (const auto& p : r.points)
    if (p.status == PointStatus::Ok)
      top = std::max(top, p.gb_per_s);
  std::string d = data_dir + "/";
  std::ostringstream s;
  s << "set terminal svg size 1000,1000 dynamic enhanced font 'Helvetica,12' background rgb "
       "'white'\n";
  s << "set output " << gnuplot_string(svg_path) << "\n";
  s << "set multiplot layout 2,1 title "
    << gnuplot_string(cat(r.stencil, " ", size_text(r.size), " on ", r.device_name, " (",
                          r.strategy, ", ", r.points.size(), " of ", r.space_points,
                          " points measured)"))
    << " noenhanced\n";

  // Panel 1: every point by family, the best of each family labelled, the roofline.
  s << "set xlabel 'variant family (its points from the fastest, left to right)'\n";
  s << "set ylabel 'achieved bandwidth [GB/s]'\n";
  s << "set grid ytics\nset key below horizontal maxrows 3 noenhanced\n";
  s << "set yrange [0:" << fixed(top * 1.2 + 1e-9, 3) << "]\n";
  s << "set xrange [-0.6:" << fixed(static_cast<double>(l.families.size()) - 0.4, 1) << "]\n";
  s << "set xtics (";
  for (std::size_t i = 0; i < l.families.size(); ++i)
    s << (i ? ", " : "") << gnuplot_string(l.families[i]) << " " << i;
  s << ") noenhanced\n";
  for (const auto& [family, p] : l.best)
    s << "set label " << family + 1 << " "
      << gnuplot_string(cat(point_name(*p), ": ", fixed(p->gb_per_s, 2))) << " at "
      << fixed(l.x.at(p->id), 3) << "," << fixed(p->gb_per_s, 4)
      << " offset 0.6,0.8 font ',10' noenhanced\n";
  s << "copy = " << fixed(r.copy_gb_per_s, 4) << "\n";
  s << "plot ";
  for (std::size_t i = 0; i < l.families.size(); ++i)
    s << gnuplot_string(d + cat("family", i, ".dat"))
      << " using 1:2 with points pt 7 ps 0.7 lc rgb '" << family_colour(i) << "' title "
      << gnuplot_string(l.families[i]) << ", \\\n     ";
  bool any_failed = false;
  for (const auto& p : r.points)
    any_failed |= p.status != PointStatus::Ok;
  if (any_failed)
    s << gnuplot_string(d + "failed.dat")
      << " using 1:2 with points pt 2 ps 0.8 lc rgb '#bb5566' title 'failed or mismatch (at 0)', "
         "\\\n     ";
  if (base && base->status == PointStatus::Ok)
    s << gnuplot_string(d + "baseline.dat")
      << " using 1:2 with points pt 9 ps 1.8 lc rgb '#cc3311' title "
      << gnuplot_string(cat("plain MapGlb lowering ", fixed(base->gb_per_s, 2), " GB/s"))
      << ", \\\n     ";
  if (best && best->status == PointStatus::Ok)
    s << gnuplot_string(d + "best.dat")
      << " using 1:2 with points pt 4 ps 2.2 lw 2 lc rgb '#000000' title "
      << gnuplot_string(cat("best: ", point_name(*best), " (", variant_family(best->history), ") ",
                            fixed(best->gb_per_s, 2), " GB/s",
                            r.speedup > 0 ? cat(", ", fixed(r.speedup, 2), "x") : std::string()))
      << ", \\\n     ";
  s << "copy with lines dt 2 lw 2 lc rgb '#555555' title "
    << gnuplot_string(
           cat("copy roofline ", fixed(r.copy_gb_per_s, 2), " GB/s",
               r.cache_bytes == 0 ? std::string()
               : r.cache_resident()
                   ? cat(" (the problem fits in the ", tessera::format_bytes(r.cache_bytes),
                         " cache: cache-resident, not bounded by it)")
                   : cat(" (the problem is ", fixed(r.footprint_bytes / r.cache_bytes, 1), "x the ",
                         tessera::format_bytes(r.cache_bytes), " cache)")));
  // The compute ceiling in the panel's unit: the bandwidth at which the program's flops per
  // byte reach the measured peak.
  const double intensity = arithmetic_intensity(r);
  if (intensity > 0 && r.peak_gflops > 0) {
    const double compute = r.peak_gflops / intensity;
    s << ", \\\n     " << fixed(compute, 4) << " with lines dt 3 lw 2 lc rgb '#aa3377' title "
      << gnuplot_string(cat("compute ceiling ", fixed(r.peak_gflops, 1), " GFLOP/s (",
                            r.peak_precision, "), ", fixed(r.flops_per_output, 1),
                            " flops per output: ", fixed(compute, 2), " GB/s",
                            compute > top * 1.2 ? " (above the panel)" : ""));
  }
  s << "\n";

  // Panel 2: the best bandwidth found so far against the exploration time, and when each
  // strategy came within 5% of the best.
  s << "unset label\nset xtics autofreq\nset grid xtics ytics\nset autoscale y\n";
  s << "set xlabel 'exploration time [s]'\nset ylabel 'best so far [GB/s]'\n";
  double end = std::max(r.total_elapsed_s, 1e-3);
  for (const auto& st : r.strategies)
    if (st.time_to_5pct_s)
      end = std::max(end, *st.time_to_5pct_s);
  s << "set xrange [0:" << fixed(end * 1.05, 3) << "]\nset yrange [0:*]\n";
  int label = 0;
  for (const auto& st : r.strategies)
    if (st.time_to_5pct_s) {
      ++label;
      s << "set label " << label << " " << gnuplot_string(cat(st.name, " (", st.how, ")")) << " at "
        << fixed(*st.time_to_5pct_s, 3) << ", graph " << fixed(0.05 + 0.07 * label, 2)
        << " offset 0.5,0 font ',10' noenhanced\n";
    }
  s << "plot " << gnuplot_string(d + "trace.dat")
    << " using 1:2 with steps lw 2 lc rgb '#4477aa' title "
    << gnuplot_string(cat("best so far (", r.strategy, ", measured)")) << ", \\\n     "
    << gnuplot_string(d + "strategies.dat")
    << " using 1:2 with impulses lw 2 lc rgb '#ee6677' title 'time to within 5% of the best, "
       "per strategy'\n";
  s << "unset multiplot\n";
  return s.str();
}

void plot_report(const Report& r, const std::string& svg_path) {
  std::string gnuplot = find_gnuplot();
  if (gnuplot.empty())
    user_error("gnuplot not found (looked for $TESSERA_GNUPLOT, then `gnuplot` on PATH): install "
               "it, e.g. `apt-get install gnuplot-nox` (scripts/install-deps.sh does)");
  bool any = false;
  for (const auto& p : r.points)
    any |= p.status == PointStatus::Ok;
  if (!any)
    user_error("the report has no successfully measured point to plot");

  std::string pattern = (fs::temp_directory_path() / "tessera-plot-XXXXXX").string();
  if (!::mkdtemp(pattern.data()))
    user_error("cannot create a temporary directory for the plot");
  fs::path dir = pattern;
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{dir};

  Layout l = layout(r);
  std::vector<std::ostringstream> families(l.families.size());
  std::ostringstream failed, base, best, trace, strategies;
  for (const auto& p : r.points) {
    double x = l.x.at(p.id);
    if (p.status == PointStatus::Ok)
      families[l.family_of.at(p.id)] << x << " " << p.gb_per_s << "\n";
    else
      failed << x << " 0\n";
    if (p.status == PointStatus::Ok && r.baseline && p.id == *r.baseline)
      base << x << " " << p.gb_per_s << "\n";
    if (p.status == PointStatus::Ok && r.best && p.id == *r.best)
      best << x << " " << p.gb_per_s << "\n";
  }
  auto steps = best_so_far(r);
  for (const auto& [t, gb] : steps)
    trace << t << " " << gb << "\n";
  double final_best = steps.empty() ? 0 : steps.back().second;
  for (const auto& st : r.strategies)
    if (st.time_to_5pct_s)
      strategies << *st.time_to_5pct_s << " " << 0.95 * final_best << "\n";
  // gnuplot warns about empty files; a point far outside the ranges keeps them valid.
  auto or_dummy = [](const std::ostringstream& s) {
    return s.str().empty() ? std::string("-100 -1\n") : s.str();
  };
  for (std::size_t i = 0; i < families.size(); ++i)
    write_data((dir / cat("family", i, ".dat")).string(), or_dummy(families[i]));
  write_data((dir / "failed.dat").string(), or_dummy(failed));
  write_data((dir / "baseline.dat").string(), or_dummy(base));
  write_data((dir / "best.dat").string(), or_dummy(best));
  write_data((dir / "trace.dat").string(), or_dummy(trace));
  write_data((dir / "strategies.dat").string(), or_dummy(strategies));
  fs::path svg = dir / "plot.svg";
  write_data((dir / "plot.gp").string(), gnuplot_script(r, dir.string(), svg.string()));
  std::string command = "'" + gnuplot + "' '" + (dir / "plot.gp").string() + "' > '" +
                        (dir / "gnuplot.log").string() + "' 2>&1";
  int status = std::system(command.c_str());
  std::ifstream in(svg, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  if (status != 0 || content.str().find("<svg") == std::string::npos) {
    std::ifstream log(dir / "gnuplot.log");
    std::stringstream text;
    text << log.rdbuf();
    std::string log_text = text.str();
    while (!log_text.empty() && (log_text.back() == '\n' || log_text.back() == ' '))
      log_text.pop_back();
    std::string how = status == -1          ? std::string("could not be started")
                      : WIFSIGNALED(status) ? cat("was killed by signal ", WTERMSIG(status))
                      : WEXITSTATUS(status) != 0
                          ? cat("failed with exit status ", WEXITSTATUS(status))
                          : std::string("wrote no SVG picture");
    user_error(cat("gnuplot ('", gnuplot, "') ", how,
                   log_text.empty() ? std::string(" and printed nothing") : cat(": ", log_text),
                   "; no picture was written"));
  }
  write_file_atomically(svg_path, content.str());
}

} // namespace tessera::explore
