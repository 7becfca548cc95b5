// tessera_fuzz: differential fuzzing of the rewrite system, the lowering and the code generator
// against the reference interpreter, on an OpenCL device (PoCL by default; TESSERA_DEVICE).
//
//   tessera_fuzz --cases 40 --seed 1               what CI runs (the extended tier: 200)
//   tessera_fuzz --cases 100000 --minutes 60       a long run by hand
//   tessera_fuzz --replay failure.json             re-runs a reproducer and prints the outcome
//   tessera_fuzz --write-corpus fuzz/corpus/expr   the seed corpus of the libFuzzer harness
//
// Every failure is shrunk and printed as a reproducer (the program and the rule history in
// JSON), also written to --out. The exit status is 1 when any case failed.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "core/Error.h"
#include "core/Json.h"
#include "core/Printer.h"
#include "rewrite/Lower.h"
#include "runtime/Device.h"
#include "runtime/Session.h"
#include "stencils/Catalog.h"
#include "tests/fuzz/DiffFuzz.h"
#include "tests/fuzz/Reproducers.h"

using namespace tessera;

namespace {

// Runs one case and prints its programs, its kernel and the outcome; 1 when it failed.
int run_and_print(fuzz::Fuzzer& fuzzer, const fuzz::CaseSpec& spec) {
  std::cout << "program:   " << print(spec.program) << "\n";
  fuzz::Outcome out = fuzzer.run(spec);
  if (out.rewritten)
    std::cout << "rewritten: " << print(out.rewritten) << "\n";
  if (out.lowered)
    std::cout << "lowered:   " << print(out.lowered) << "\n";
  if (!out.kernel_source.empty())
    std::cout << "kernel:\n" << out.kernel_source << "\n";
  const char* status = out.status == fuzz::Outcome::Pass       ? "PASSED"
                       : out.status == fuzz::Outcome::Rejected ? "REJECTED"
                                                               : "FAILED";
  std::cout << status << (out.stage.empty() ? "" : " at " + out.stage) << " " << out.message
            << "\n";
  return out.status == fuzz::Outcome::Failure ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"tessera_fuzz: interpreter vs. generated kernels on random programs and rewrites"};
  fuzz::FuzzOptions o;
  std::string replay, device;
  app.add_option("--cases", o.cases, "Number of cases (default 300)");
  app.add_option("--seed", o.seed, "Seed of the campaign (default 1)");
  app.add_option("--first", o.first,
                 "Index of the first case (default 0; --first 876 --cases 1 re-runs case 876)");
  app.add_option("--minutes", o.minutes, "Stop after this many minutes (default: no limit)");
  app.add_option("--out", o.out_dir, "Directory for reproducers (default fuzz-failures)");
  app.add_option("--max-failures", o.max_failures, "Stop after this many failures (default 5)");
  app.add_option("--max-steps", o.max_steps, "Rewrites per case, at most (default 4)");
  app.add_flag(
      "--no-shrink", [&](int64_t) { o.shrink = false; }, "Report failures unshrunk");
  app.add_flag("-v,--verbose", o.verbose, "One line per case");
  app.add_flag("--census", o.census,
               "Stop each case after code generation (rejection counts; kernels are not run)");
  app.add_option("--replay", replay, "Re-run the reproducer in this file");
  bool show = false;
  app.add_flag("--show", show,
               "Run case --first alone and print its programs and kernel (a failure seen on "
               "another device, whose reproducer stayed there)");
  app.add_option("--device", device, "OpenCL device (default: TESSERA_DEVICE, else PoCL)");
  std::string repro_dir;
  app.add_option("--write-reproducers", repro_dir,
                 "Write the reproducers of the fixed (regressions) and open (known) bugs the "
                 "fuzzer found into this directory and exit");
  std::string corpus_dir;
  app.add_option(
      "--write-corpus", corpus_dir,
      "Write expression files (the catalog's stencils at small sizes, plain and lowered, "
      "and random programs) into this directory, as a seed corpus of fuzz/load_expr, "
      "and exit");
  CLI11_PARSE(app, argc, argv);

  if (!corpus_dir.empty()) {
    std::filesystem::create_directories(corpus_dir);
    int written = 0;
    // Compact JSON, small files only: libFuzzer mutates small inputs faster.
    auto save = [&](const std::string& name, const Expr& e) {
      std::string text = expr_to_json(e).dump();
      if (text.size() > 16384)
        return;
      std::ofstream(std::filesystem::path(corpus_dir) / (name + ".json")) << text;
      ++written;
    };
    for (const auto& s : stencils::catalog()) {
      std::vector<ArithExpr> extents(static_cast<std::size_t>(s.dims),
                                     ArithExpr(s.dims == 3 ? 4 : 8));
      Expr p = s.build(extents);
      Expr lowered = rewrite::lower_default(p);
      save(s.name, p);
      if (save_expr(lowered) != save_expr(p))
        save(s.name + "-lowered", lowered);
    }
    std::mt19937 rng(1);
    for (int i = 0; written < 48 && i < 400; ++i) {
      try {
        save(cat("random-", i), fuzz::build_program(fuzz::random_recipe(rng)));
      } catch (const Error&) {
      }
    }
    std::cout << written << " expression files in " << corpus_dir << "\n";
    return 0;
  }

  if (!repro_dir.empty()) {
    std::filesystem::create_directories(repro_dir);
    for (const auto* cases : {&fuzz::regression_cases(), &fuzz::known_bug_cases()})
      for (const auto& c : *cases) {
        std::ofstream out(std::filesystem::path(repro_dir) / c.file);
        out << fuzz::case_reproducer(c).dump(2) << "\n";
        std::cout << (std::filesystem::path(repro_dir) / c.file).string() << ": "
                  << (cases == &fuzz::known_bug_cases() ? "open bug: " : "fixed: ") << c.name
                  << "\n";
      }
    return 0;
  }

  // Thousands of kernels are built once each: PoCL's on-disk kernel cache would only grow.
  ::setenv("POCL_KERNEL_CACHE", "0", 0);
  try {
    runtime::Device dev = runtime::select_device_from_env(device);
    // Programs are built once: no on-disk build cache unless TESSERA_CACHE_DIR asks for one.
    const char* cache = std::getenv("TESSERA_CACHE_DIR");
    runtime::Session session = cache && *cache ? runtime::Session(dev) : runtime::Session(dev, "");
    std::cout << "device: " << session.device().description() << "\n";
    fuzz::Fuzzer fuzzer(session, o);
    if (!replay.empty()) {
      std::ifstream in(replay);
      if (!in)
        user_error("cannot read '" + replay + "'");
      nlohmann::json j;
      try {
        j = nlohmann::json::parse(in);
      } catch (const nlohmann::json::exception& e) {
        user_error(cat("'", replay, "' is not JSON: ", e.what()));
      }
      return run_and_print(fuzzer, fuzz::Fuzzer::spec_from_reproducer(j));
    }
    if (show)
      return run_and_print(fuzzer, fuzzer.make_case(o.first));
    return fuzzer.campaign() > 0 ? 1 : 0;
  } catch (const Error& e) {
    std::cerr << "tessera_fuzz: " << e.what() << "\n";
    return 2;
  }
}
