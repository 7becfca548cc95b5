// tessera explore / report / plot.
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <unistd.h>

#include "core/Error.h"
#include "explore/Explorer.h"
#include "explore/Plot.h"
#include "explore/ProgressBar.h"
#include "explore/Report.h"
#include "explore/runtime/Device.h"
#include "explore/runtime/Session.h"
#include "stencils/Catalog.h"
#include "tools/Commands.h"
#include "tools/Problem.h"
#include "tools/ProgramSource.h"

namespace tessera::tools {

namespace {

std::atomic<bool> interrupted{false};

extern "C" void on_interrupt(int) {
  interrupted.store(true);
  std::signal(SIGINT, SIG_DFL); // a second Ctrl-C ends the program at once
}

// Installs the Ctrl-C handler for the lifetime of an exploration.
struct InterruptGuard {
  InterruptGuard() {
    interrupted.store(false);
    previous = std::signal(SIGINT, on_interrupt);
  }
  ~InterruptGuard() { std::signal(SIGINT, previous == SIG_ERR ? SIG_DFL : previous); }
  void (*previous)(int) = SIG_DFL;
};

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

} // namespace

int explore_command(const ExploreCommandOptions& x) {
  const auto start = std::chrono::steady_clock::now();
  auto source = resolve_program(x.stencil, x.program, x.steps);
  const auto& info = source.info;
  auto extents = parse_numeric_size(x.size, info.dims, info.name);
  explore::Strategy strategy = explore::parse_strategy(x.strategy);
  if (!(x.budget_s > 0))
    user_error(cat("--budget must be a positive number of seconds, got ", x.budget_s));
  if (x.resume && x.json.empty())
    user_error("--resume needs --json FILE: the report to continue");
  std::optional<explore::Report> previous;
  if (x.resume) {
    if (std::filesystem::exists(x.json))
      previous = explore::read_report(x.json);
    else
      std::cerr << "note: " << x.json << " does not exist yet: starting a new exploration\n";
  }
  if (!x.plot.empty() && explore::find_gnuplot().empty())
    user_error("--plot needs gnuplot, which was not found: install it (apt-get install "
               "gnuplot-nox) or leave out --plot");

  // The device first: an unknown device should fail before the enumeration's work.
  runtime::Session session = runtime::Session::from_env(x.device);
  explore::Problem problem = make_problem(info, extents, x.depth);

  explore::ExploreOptions options;
  options.budget_s = x.budget_s;
  options.start = start;
  options.strategy = strategy;
  options.repeats = x.repeats;
  options.seed = x.seed;
  options.depth = x.depth;
  options.resume = previous;
  options.stop = &interrupted;
  bool bar_enabled = x.progress || ::isatty(STDERR_FILENO);
  explore::ProgressBar bar(std::cerr, bar_enabled);
  options.on_progress = [&](const explore::Progress& p) { bar.update(p); };
  if (!x.json.empty())
    options.on_checkpoint = [&](const explore::Report& r) { explore::write_report(r, x.json); };

  if (!x.quiet) {
    std::cout << "explore " << info.name << " " << x.size << " on " << session.device().name << " ("
              << session.device().platform_name << "), budget " << x.budget_s << " s, "
              << x.strategy << "\n";
    std::cout << "variants: " << problem.enumeration << "\n" << std::flush;
  }
  explore::Report report;
  {
    InterruptGuard guard;
    report = explore::explore(session, problem, options);
  }
  bar.finish();
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!x.quiet)
    std::cout << explore::format_report(report, 5);
  const explore::PointResult* best = report.best ? report.find(*report.best) : nullptr;
  const explore::PointResult* base = report.baseline ? report.find(*report.baseline) : nullptr;
  if (best && base && report.speedup > 0)
    std::cout << "result: best " << fixed(best->median_ms, 3) << " ms, " << fixed(best->gb_per_s, 2)
              << " GB/s (" << fixed(100 * best->fraction_of_copy, 1) << "% of the copy bandwidth "
              << fixed(report.copy_gb_per_s, 2) << " GB/s); plain MapGlb lowering "
              << fixed(base->median_ms, 3) << " ms; best / baseline = " << fixed(report.speedup, 2)
              << "x\n";
  std::cout << "finished in " << fixed(elapsed, 1) << " s of the " << fixed(x.budget_s, 0)
            << " s budget" << (elapsed <= x.budget_s ? "" : " (OVER BUDGET)")
            << (report.interrupted ? " (interrupted: continue with --resume)" : "") << "\n";
  if (!x.json.empty())
    std::cout << "report: " << x.json << "\n";
  if (!x.plot.empty()) {
    explore::plot_report(report, x.plot);
    std::cout << "plot: " << x.plot << "\n";
  }
  return report.interrupted ? 130 : 0;
}

int report_command(const std::string& path) {
  auto report = explore::read_report(path);
  std::cout << explore::format_report(report);
  return 0;
}

int plot_command(const std::string& path, const std::string& svg) {
  auto report = explore::read_report(path);
  explore::plot_report(report, svg);
  std::cout << "wrote " << svg << "\n";
  return 0;
}

} // namespace tessera::tools
