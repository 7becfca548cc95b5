// The fuzzing campaign: runs the cases of a seed, counts outcomes by stage, reason, rule,
// lowering and recipe feature, shrinks and saves every failure, and prints a summary.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

#include "core/Error.h"
#include "core/Printer.h"
#include "tests/fuzz/DiffFuzz.h"
#include "tests/fuzz/Reproducers.h"

namespace tessera::fuzz {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Crash reporting: the case being run is written to a file first; a fatal signal names it.
char g_in_progress[4096] = {0};

extern "C" void on_fatal_signal(int sig) {
  const char* head =
      sig == SIGALRM ? "\ntessera_fuzz: a case ran too long (watchdog); its reproducer: "
                     : "\ntessera_fuzz: crashed on a fatal signal; the reproducer of the case: ";
  ssize_t ignored = ::write(2, head, std::strlen(head));
  ignored = ::write(2, g_in_progress, std::strlen(g_in_progress));
  ignored = ::write(2, "\n(tessera_fuzz --replay FILE runs it again)\n", 44);
  (void)ignored;
  std::signal(sig == SIGALRM ? SIGABRT : sig, SIG_DFL);
  std::raise(sig == SIGALRM ? SIGABRT : sig);
}

void write_file(const fs::path& path, const std::string& text) {
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
}

template <class Map>
void print_counts(const std::string& title, const Map& counts, std::size_t limit = 60) {
  std::vector<std::pair<std::size_t, std::string>> rows;
  for (const auto& [k, v] : counts)
    rows.push_back({v, k});
  std::sort(rows.rbegin(), rows.rend());
  std::cout << title << "\n";
  for (std::size_t i = 0; i < rows.size() && i < limit; ++i)
    std::cout << "  " << rows[i].first << "  " << rows[i].second << "\n";
  if (rows.size() > limit)
    std::cout << "  ... " << rows.size() - limit << " more\n";
}

} // namespace

int Fuzzer::campaign() {
  auto t0 = Clock::now();
  fs::path out_dir = options_.out_dir;
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  fs::path in_progress = out_dir / "in-progress-case.json";
  std::snprintf(g_in_progress, sizeof g_in_progress, "%s", in_progress.c_str());
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGALRM})
    std::signal(sig, on_fatal_signal);

  std::size_t passed = 0, rejected = 0, failures = 0, generator_failures = 0;
  std::map<std::string, std::size_t> reasons, rules_used, lowerings, kinds_covered, lowered_kinds,
      features, steps_hist, failure_list;
  double device_seconds = 0, slowest = 0;
  uint64_t n = options_.first;
  for (; n < options_.first + options_.cases; ++n) {
    if (options_.minutes > 0 && seconds_since(t0) > options_.minutes * 60)
      break;
    // Watchdog against hangs. A case of several launches builds each kernel on its own: about
    // 7 s on an idle 2-core machine, and more than 60 s when other builds share the cores.
    ::alarm(240);
    CaseSpec spec;
    try {
      spec = make_case(n);
    } catch (const Error& e) {
      ++generator_failures;
      ++reasons["generator: " + normalize_reason(e.what())];
      continue;
    }
    write_file(in_progress, reproducer(spec, {}).dump(2) + "\n");
    Outcome o = run(spec);
    session_.cache().clear_memory();
    device_seconds += o.device_seconds;
    slowest = std::max(slowest, o.seconds);

    std::map<std::string, std::size_t> counts;
    count_kinds(spec.program, counts);
    for (const auto& [k, v] : counts)
      ++kinds_covered[k];
    if (o.lowered) {
      counts.clear();
      count_kinds(o.lowered, counts);
      for (const auto& [k, v] : counts)
        ++lowered_kinds[k];
    }
    for (const auto& s : spec.history)
      ++rules_used[s.rule];
    ++steps_hist[cat(spec.history.size(), " rewrites")];
    std::string lowering = spec.lowering;
    if (o.variant.mapping)
      lowering += " (mapping: " + rewrite::describe(*o.variant.mapping) + ")";
    ++lowerings[lowering];
    const Recipe& r = spec.recipe;
    ++features[cat(r.dims, "-D")];
    for (auto k : r.kinds)
      ++features["input " + to_string(k)];
    ++features[cat(r.kinds.size(), " input(s)")];
    if (r.generate)
      ++features["generate"];
    if (r.size_mode)
      ++features[r.size_mode == 1 ? "symbolic sizes" : "baked sizes"];
    if (r.names)
      ++features[r.names == 1 ? "same user function names" : "tricky names"];

    if (options_.verbose)
      std::cout << "case " << n << ": " << r.describe() << " | " << spec.history.size()
                << " rewrites, " << lowering << " -> "
                << (o.status == Outcome::Pass       ? "ok"
                    : o.status == Outcome::Rejected ? "rejected"
                                                    : "FAILED")
                << (o.stage.empty() ? "" : " at " + o.stage) << " (" << o.seconds << " s)\n";
    if (options_.verbose && o.status == Outcome::Rejected) // what was rejected, and why
      std::cout << "  " << o.message << "\n  rewritten: " << (o.rewritten ? print(o.rewritten) : "")
                << "\n  lowered:   " << (o.lowered ? print(o.lowered) : "") << "\n";
    if (o.status == Outcome::Pass) {
      ++passed;
    } else if (o.status == Outcome::Rejected) {
      ++rejected;
      ++reasons[o.stage + ": " + normalize_reason(o.message)];
    } else {
      ++failures;
      std::cout << "\nFAILURE in case " << n << " (seed " << options_.seed << ") at " << o.stage
                << ": " << o.message << "\n";
      CaseSpec small = spec;
      Outcome so = o;
      if (options_.shrink) {
        ::alarm(0);
        small = shrink(spec, o);
        so = run(small);
        if (so.status != Outcome::Failure) { // flaky: keep the original
          small = spec;
          so = o;
        }
      }
      json repro = reproducer(small, so);
      repro["original_case"] = reproducer(spec, o);
      fs::path file = out_dir / cat("failure-seed", options_.seed, "-case", n, ".json");
      write_file(file, repro.dump(2) + "\n");
      ++failure_list[cat(o.stage, ": ", normalize_reason(o.message))];
      std::cout << "minimal reproducer (" << file.string() << "; replay with tessera_fuzz --replay "
                << file.string() << "):\n";
      json brief = repro;
      brief.erase("original_case");
      brief.erase("program");
      brief.erase("lowered");
      std::cout << brief.dump(2) << "\n";
      if (static_cast<int>(failures) >= options_.max_failures) {
        ++n;
        break;
      }
    }
    if ((n - options_.first + 1) % 50 == 0)
      std::cout << "[" << n - options_.first + 1 << " cases, "
                << static_cast<int>(seconds_since(t0)) << " s] " << passed << " passed, "
                << rejected << " rejected, " << failures << " failed" << std::endl;
  }
  ::alarm(0);
  fs::remove(in_progress, ec);
  double total = seconds_since(t0);

  std::cout << "\n=== tessera_fuzz summary (seed " << options_.seed << ") ===\n";
  std::cout << n - options_.first << " cases in " << total << " s (" << device_seconds
            << " s building and running kernels; "
            << "slowest case " << slowest << " s)\n";
  if (options_.census)
    std::cout << "census: kernels were generated, not run (\"passed\" means generated)\n";
  std::cout << "passed " << passed << ", rejected " << rejected << ", failed " << failures
            << ", generator gave up " << generator_failures << "\n";
  if (!open_bug_names().empty()) {
    std::cout << "names left out while a known bug is open (tests/fuzz/KnownBugs.cpp):";
    for (const auto& name : open_bug_names())
      std::cout << " " << name;
    std::cout << "\n";
  }
  print_counts("rejections and generator problems by reason:", reasons);
  print_counts("failures:", failure_list);
  print_counts("rewrites per case:", steps_hist);
  print_counts("rules applied:", rules_used);
  print_counts("lowerings:", lowerings);
  print_counts("recipe features:", features);
  print_counts("programs containing each node kind (original programs):", kinds_covered, 100);
  print_counts("lowered programs containing each node kind:", lowered_kinds, 100);
  std::cout << (failures ? "FAILED" : "OK") << ": " << failures << " failure(s) in "
            << n - options_.first << " cases\n";
  return static_cast<int>(failures);
}

} // namespace tessera::fuzz
