#include "explore/Plot.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "explore/Space.h"

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
std::string quoted(const std::string& text) {
  std::string s = "'";
  for (char c : text)
    s += c == '\'' ? std::string("''") : std::string(1, c);
  return s + "'";
}

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}

void write_data(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out)
    user_error(cat("cannot write the plot data file ", path));
}

} // namespace

std::string gnuplot_script(const Report& r, const std::string& data_dir,
                           const std::string& svg_path) {
  const PointResult* best = r.best ? r.find(*r.best) : nullptr;
  const PointResult* base = r.baseline ? r.find(*r.baseline) : nullptr;
  double top = r.copy_gb_per_s;
  for (const auto& p : r.points)
    if (p.status == "ok")
      top = std::max(top, p.gb_per_s);
  std::ostringstream s;
  s << "set terminal svg size 960,560 dynamic enhanced font 'Helvetica,12' background rgb "
       "'white'\n";
  s << "set output " << quoted(svg_path) << "\n";
  s << "set title "
    << quoted(cat(r.stencil, " ", size_text(r.size), " on ", r.device_name, " (", r.strategy, ", ",
                  r.points.size(), " of ", r.space_points, " points measured)"))
    << " noenhanced\n";
  s << "set xlabel 'point (variants in rewrite order, each followed by its work-group sizes)'\n";
  s << "set ylabel 'achieved bandwidth [GB/s] (input read once + output written once)'\n";
  s << "set grid\nset key below horizontal maxrows 2 noenhanced\nset bmargin 7\n";
  s << "set yrange [0:" << fixed(top * 1.12 + 1e-9, 3) << "]\n";
  s << "set xrange [-1:" << std::max<std::size_t>(r.space_points, 1) << "]\n";
  s << "copy = " << fixed(r.copy_gb_per_s, 4) << "\n";
  std::string d = data_dir + "/";
  s << "plot " << quoted(d + "ok.dat")
    << " using 1:2 with points pt 7 ps 0.6 lc rgb '#4477aa' title 'variants (checked)', \\\n";
  bool any_failed = false;
  for (const auto& p : r.points)
    any_failed |= p.status != "ok";
  if (any_failed)
    s << "     " << quoted(d + "failed.dat")
      << " using 1:2 with points pt 2 ps 0.8 lc rgb '#bb5566' title 'failed or mismatch (at 0)', "
         "\\\n";
  if (base && base->status == "ok")
    s << "     " << quoted(d + "baseline.dat")
      << " using 1:2 with points pt 9 ps 1.8 lc rgb '#cc3311' title "
      << quoted(cat("plain MapGlb lowering ", fixed(base->gb_per_s, 2), " GB/s")) << ", \\\n";
  if (best && best->status == "ok")
    s << "     " << quoted(d + "best.dat")
      << " using 1:2 with points pt 5 ps 1.5 lc rgb '#228833' title "
      << quoted(cat("best ", fixed(best->gb_per_s, 2), " GB/s",
                    r.speedup > 0 ? cat(" (", fixed(r.speedup, 2), "x)") : std::string()))
      << ", \\\n";
  s << "     copy with lines dt 2 lw 2 lc rgb '#555555' title "
    << quoted(cat("copy bandwidth ", fixed(r.copy_gb_per_s, 2), " GB/s (roofline)")) << "\n";
  return s.str();
}

void plot_report(const Report& r, const std::string& svg_path) {
  std::string gnuplot = find_gnuplot();
  if (gnuplot.empty())
    user_error("gnuplot not found (looked for $TESSERA_GNUPLOT, then `gnuplot` on PATH): install "
               "it, e.g. `apt-get install gnuplot-nox` (scripts/install-deps.sh does)");
  bool any = false;
  for (const auto& p : r.points)
    any |= p.status == "ok";
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

  std::ostringstream ok, failed, base, best;
  for (const auto& p : r.points) {
    if (p.status == "ok")
      ok << p.id << " " << p.gb_per_s << "\n";
    else
      failed << p.id << " 0\n";
    if (p.status == "ok" && r.baseline && p.id == *r.baseline)
      base << p.id << " " << p.gb_per_s << "\n";
    if (p.status == "ok" && r.best && p.id == *r.best)
      best << p.id << " " << p.gb_per_s << "\n";
  }
  // gnuplot warns about empty files; a point far left of the range keeps them valid.
  auto or_dummy = [](const std::ostringstream& s) {
    return s.str().empty() ? std::string("-100 -1\n") : s.str();
  };
  write_data((dir / "ok.dat").string(), or_dummy(ok));
  write_data((dir / "failed.dat").string(), or_dummy(failed));
  write_data((dir / "baseline.dat").string(), or_dummy(base));
  write_data((dir / "best.dat").string(), or_dummy(best));
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
