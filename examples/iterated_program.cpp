// docs/api.md's whole path for an iterated stencil: three time steps of a 2-D heat equation.
// Its variants are programs of kernels (one launch per step, the plain lowering among them) or
// single kernels (the steps fused by temporal tiling), so the path takes a program of kernels
// from end to end:
//   1. the stencil is written with the DSL; make_problem(..., steps) iterates it;
//   2. its variants are explored within a time budget and the best one taken;
//   3. emit_program gives its kernels, write_kernel_files writes them with their launch
//      description (every launch in order);
//   4. run_kernel runs the program of kernels on the user's own buffer, checked against the
//      interpreter; so does the plain lowering (three launches, whatever the best is), and the
//      first diamond-tiled variant (a scratch buffer, per-launch arguments) when there is one.
// OUTDIR also gets the buffer and the interpreter's result (heat.input.bin, heat.expected.bin:
// raw f32), with which examples/host_runner.cpp runs the written files without tessera.
//
// Build and run: cmake --build build --target example_iterated_program &&
//   ./build/examples/example_iterated_program OUTDIR [--size 64] [--steps 3] [--budget 10]
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "tessera/tessera.h"

using namespace tessera;

namespace {

// One step: u + 0.1 * (the 5-point Laplacian of u), clamped boundary, on an N x N grid.
Expr heat_step() {
  ArithExpr N = size("N");
  Val u = input("u", Type::array(Type::array(f32(), N), N));
  return program(
      {u}, u | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1) | map_nd(2, [](Val w) {
             Val north = w.at(0).at(1), west = w.at(1).at(0), centre = w.at(1).at(1),
                 east = w.at(1).at(2), south = w.at(2).at(1);
             return (centre + 0.1 * (north + west + east + south - 4.0 * centre)).named("heat");
           }));
}

void write_floats(const std::filesystem::path& path, const std::vector<float>& values) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(values.data()),
            static_cast<std::streamsize>(values.size() * sizeof(float)));
  if (!out)
    throw Error("cannot write " + path.string());
}

// The first variant tiled in diamonds, or null.
const VariantInfo* first_diamond(const explore::Problem& problem) {
  for (const VariantInfo& v : problem.variants)
    if (variant_family(v.history) == "diamond")
      return &v;
  return nullptr;
}

} // namespace

int main(int argc, char** argv) try {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " OUTDIR [--size N] [--steps K] [--budget SECONDS]\n";
    return 2;
  }
  std::filesystem::path dir = argv[1];
  int64_t n = 64;
  int steps = 3;
  double budget = 10;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--size"))
      n = std::stoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--steps"))
      steps = std::stoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--budget"))
      budget = std::stod(argv[i + 1]);
    else
      throw Error(std::string("unknown option ") + argv[i] +
                  " (expected --size, --steps or --budget)");
  }
  std::filesystem::create_directories(dir);

  // 1-2. The problem (the step iterated `steps` times at n x n), explored within the budget.
  runtime::Session device = open_device();
  explore::Problem problem = make_problem(device, "heat", heat_step(), {n, n}, /*depth=*/1, steps);
  std::cout << steps << " steps of heat on " << n << "x" << n << ": " << problem.enumeration
            << "\n";
  explore::ExploreOptions options;
  options.budget_s = budget;
  explore::Report report = explore_program(device, problem, options);
  const VariantInfo& best = best_variant(problem, report);
  std::cout << "best:  [" << variant_family(best.history) << "] ";
  for (const std::string& step : best.history) // the derivation, step by step
    std::cout << step << "; ";
  std::cout << "\n";

  // The user's buffer and the interpreter's `steps` steps of it.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> grid(static_cast<std::size_t>(n * n));
  for (auto& v : grid)
    v = dist(rng);
  Data input =
      Data::from_flat(ScalarKind::F32, {n, n}, std::vector<double>(grid.begin(), grid.end()));
  std::vector<double> expected = evaluate(problem.program, {input}).flatten();
  write_floats(dir / "heat.input.bin", grid);
  write_floats(dir / "heat.expected.bin", std::vector<float>(expected.begin(), expected.end()));

  // 3-4. The best variant, the plain lowering and a diamond tiling: kernels, files, a run.
  bool agree = true;
  std::size_t most_launches = 0;
  std::vector<std::pair<std::string, const VariantInfo*>> written = {
      {"heat_best", &best}, {"heat_plain", &problem.variants[0]}};
  if (const VariantInfo* diamond = first_diamond(problem))
    written.emplace_back("heat_diamond", diamond);
  for (const auto& [name, v] : written) {
    const bool is_best = name == "heat_best";
    codegen::KernelProgram kernels =
        emit_program(*v, {.kernel_name = "heat",
                          .local = is_best ? best_local_size(report) : std::vector<int64_t>{}});
    write_kernel_files(kernels, *v, (dir / (name + ".cl")).string(),
                       (dir / (name + ".launch.json")).string());
    RunResult run = run_kernel(device, kernels, {grid});
    double worst = max_relative_difference(run.output, expected);
    std::cout << (within_tolerance(worst) ? "ok       " : "MISMATCH ") << name << ": "
              << kernels.launches.size() << " launches of " << kernels.kernels.size()
              << " kernels, " << run.kernel_ms << " ms, max relative difference " << worst
              << " (wrote " << name << ".cl, " << name << ".launch.json)\n";
    agree &= within_tolerance(worst);
    most_launches = std::max(most_launches, kernels.launches.size());
  }
  if (most_launches < 2) {
    std::cout << "MISMATCH: no variant was a program of several kernels\n";
    return 1;
  }
  std::cout << (agree ? "OK" : "MISMATCH") << "\n";
  return agree ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "error: " << e.what() << "\n";
  return 2;
}
