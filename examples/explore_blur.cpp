// A user's own 2-D stencil, explored on the OpenCL device (PoCL by default) from C++:
//   1. the stencil is written with the DSL and saved as JSON (for `tessera ... --program`);
//   2. its rewrite variants are explored within a time budget;
//   3. the best variant runs on the user's own buffer and is checked against the interpreter;
//   4. the best variant's kernel and launch description are written to files, with the input
//      and the interpreter's result, for the plain OpenCL host program examples/host_runner.cpp.
//
// Build and run: cmake --build build --target example_explore_blur &&
//   ./build/examples/example_explore_blur OUTDIR [--size 256] [--budget 20]
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "tessera/tessera.h"

using namespace tessera;

namespace {

// The stencil: a weighted 5-point blur with mirrored boundaries, on an N x M grid.
Expr blur_program() {
  ArithExpr N = size("N"), M = size("M");
  Val grid = input("grid", Type::array(Type::array(f32(), M), N));
  // Arithmetic written inline on the window's points (docs/language.md): one user function
  // "blur" of the five points, named by their offsets (jm1 is the row above, c the centre).
  return program({grid},
                 grid | pad_nd(2, 1, 1, mirror) | slide_nd(2, 3, 1) | map_nd(2, [](Val w) {
                   Val north = w.at(0).at(1), west = w.at(1).at(0), centre = w.at(1).at(1),
                       east = w.at(1).at(2), south = w.at(2).at(1);
                   return (0.4 * centre + 0.15 * (north + west + east + south)).named("blur");
                 }));
}

void write_floats(const std::filesystem::path& path, const std::vector<float>& values) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(values.data()),
            static_cast<std::streamsize>(values.size() * sizeof(float)));
  if (!out)
    throw Error("cannot write " + path.string());
}

} // namespace

int main(int argc, char** argv) try {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " OUTDIR [--size N] [--budget SECONDS]\n";
    return 2;
  }
  std::filesystem::path dir = argv[1];
  int64_t n = 256;
  double budget = 20;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--size"))
      n = std::stoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--budget"))
      budget = std::stod(argv[i + 1]);
    else
      throw Error(std::string("unknown option ") + argv[i] + " (expected --size or --budget)");
  }
  std::filesystem::create_directories(dir);

  // 1. The program, type-checked and saved.
  Expr prog = blur_program();
  std::cout << "program: " << print(prog) << "\ntype:    " << type_check(prog) << "\n";
  save_expr_file(prog, (dir / "blur.json").string());

  // 2. Its variants explored on the device within the budget.
  runtime::Session device = open_device();
  explore::Problem problem = make_problem(device, "blur", prog, {n, n}, /*depth=*/1);
  std::cout << "device:  " << device.device().description() << "\nspace:   " << problem.enumeration
            << "\n";
  explore::ExploreOptions options;
  options.budget_s = budget;
  explore::Report report = explore_program(device, problem, options);
  explore::write_report(report, (dir / "blur.report.json").string());
  const VariantInfo& best = best_variant(problem, report);
  std::cout << "best:    [" << variant_family(best.history) << "] work-group "
            << report.find(*report.best)->local << ", ";
  for (const auto& step : best.history.lines())
    std::cout << step << "; ";
  std::cout << "\n         " << report.speedup << "x the plain MapGlb lowering\n";

  // 3. The best variant on the user's own buffer, against the interpreter.
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> grid(static_cast<std::size_t>(n * n));
  for (auto& v : grid)
    v = dist(rng);
  codegen::Kernel kernel =
      emit_kernel(best, {.kernel_name = "blur", .local = best_local_size(report)});
  std::vector<float> result = run_kernel(device, kernel, {grid}).output;
  Data input =
      Data::from_flat(ScalarKind::F32, {n, n}, std::vector<double>(grid.begin(), grid.end()));
  std::vector<double> expected = evaluate(problem.program, {input}).flatten();
  double worst = 0;
  for (std::size_t i = 0; i < expected.size(); ++i)
    worst =
        std::max(worst, std::fabs(result[i] - expected[i]) / std::max(1.0, std::fabs(expected[i])));
  std::cout << "check:   max relative difference to the interpreter " << worst << "\n";

  // 4. Files for a plain OpenCL host program.
  write_kernel_files(kernel, best, (dir / "blur.cl").string(), (dir / "blur.launch.json").string());
  write_floats(dir / "blur.input.bin", grid);
  write_floats(dir / "blur.expected.bin", std::vector<float>(expected.begin(), expected.end()));
  std::cout << "wrote:   " << (dir / "blur.cl").string() << ", blur.launch.json, blur.json\n";

  if (result.size() != expected.size() || worst > 1e-5) {
    std::cout << "MISMATCH\n";
    return 1;
  }
  std::cout << "OK\n";
  return 0;
} catch (const std::exception& e) {
  std::cerr << "error: " << e.what() << "\n";
  return 2;
}
