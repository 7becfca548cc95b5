// tessera explore --devices SPEC: the variants dealt out to every device SPEC matches ("all":
// every device of the host), each device exploring its share in a thread of its own with the
// whole budget, the reports merged by device (explore/DeviceShares.h).
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "compile/DeviceLimits.h"
#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/FilePlan.h"
#include "explore/DeviceShares.h"
#include "runtime/DeviceMatch.h"
#include "runtime/Session.h"
#include "tools/Commands.h"
#include "tools/Problem.h"

namespace tessera::tools {

int explore_devices_command(const ExploreCommandOptions& x) {
  const auto start = std::chrono::steady_clock::now();
  if (x.resume || !x.plot.empty() || !x.device.empty())
    user_error("--devices explores on several devices at once: it takes no --device, --resume "
               "or --plot (give one device with --device for those)");
  auto source = resolve_program(x.stencil, x.program, x.steps, x.boundary);
  auto extents = parse_numeric_size(x.size, source.info.dims, source.info.name);
  if (!(x.budget_s > 0))
    user_error(cat("--budget must be a positive number of seconds, got ", x.budget_s));
  FilePlan()
      .input(x.program, "the --program file", "the program")
      .output(x.json, "--json", "the report")
      .check();
  auto devices = runtime::matching_devices(runtime::list_devices(), x.devices);

  rewrite::EnumerateOptions control;
  control.deadline_seconds = std::max(0.1, 0.4 * x.budget_s);
  explore::apply_device_limits(control, devices); // placements every device allows
  explore::Problem problem = make_problem(source, extents, x.depth, control);
  auto shares = explore::split_variants(problem, static_cast<int>(devices.size()));
  if (!x.quiet)
    std::cout << "explore " << source.info.name << " " << x.size << " on " << devices.size()
              << " device(s), budget " << x.budget_s << " s each, " << x.strategy << "\n"
              << "variants: " << problem.enumeration << "\n"
              << std::flush;

  std::vector<explore::Report> reports(devices.size());
  std::vector<std::string> errors(devices.size());
  std::vector<std::thread> threads;
  for (std::size_t d = 0; d < devices.size(); ++d)
    threads.emplace_back([&, d] {
      try {
        if (const char* fail = std::getenv("TESSERA_FAIL_DEVICE");
            fail && std::atoi(fail) == int(d))
          throw Error(cat("device error injected for testing (TESSERA_FAIL_DEVICE=", fail, ")"));
        runtime::Session session(devices[d]);
        explore::ExploreOptions options;
        options.budget_s = x.budget_s;
        options.start = start;
        options.strategy = explore::parse_strategy(x.strategy);
        options.repeats = x.repeats;
        options.seed = x.seed;
        options.depth = x.depth;
        reports[d] = explore::explore(session, shares[d].problem, options);
      } catch (const std::exception& e) {
        errors[d] = e.what();
      }
    });
  for (auto& t : threads)
    t.join();
  // A device that failed leaves its share unmeasured; the others' results are kept, and the run
  // ends with status 1.
  bool any_failed = false;
  for (std::size_t d = 0; d < devices.size(); ++d)
    if (!errors[d].empty()) {
      any_failed = true;
      reports[d].device_description = devices[d].description();
      std::cerr << "error: device " << d << " (" << devices[d].name << ") failed, its "
                << shares[d].problem.variants.size() << " variants are not measured: " << errors[d]
                << "\n";
    }

  nlohmann::json merged = explore::merge_reports(shares, reports, errors);
  for (std::size_t d = 0; d < devices.size(); ++d) {
    const auto& best = merged["devices"][d]["best"];
    if (!errors[d].empty()) {
      std::cout << "device " << d << ": " << devices[d].name << ": failed\n";
      continue;
    }
    std::cout << "device " << d << ": " << devices[d].name << ", "
              << shares[d].problem.variants.size() << " variants: ";
    if (best.is_null())
      std::cout << "no point measured successfully\n";
    else
      std::cout << "best variant " << best["variant"] << " (local "
                << best["local"].get<std::string>() << ") " << std::fixed << std::setprecision(3)
                << best["median_ms"].get<double>() << " ms, " << std::setprecision(2)
                << best["gb_per_s"].get<double>() << " GB/s\n";
  }
  const auto& best = merged["best"];
  if (best.is_null())
    std::cout << "result: none: no point was measured successfully\n";
  else
    std::cout << "result: best variant " << best["variant"] << " on device " << best["device"]
              << ", " << std::fixed << std::setprecision(3) << best["median_ms"].get<double>()
              << " ms\n";
  if (!x.json.empty()) {
    write_file_atomically(x.json, merged.dump(2) + "\n");
    std::cout << "report: " << x.json << "\n";
  }
  return best.is_null() || any_failed ? 1 : 0;
}

} // namespace tessera::tools
