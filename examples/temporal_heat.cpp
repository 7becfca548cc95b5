// An iterated stencil with temporal tiling: three time steps of a 2-D heat equation (explicit
// Euler, clamped boundary) in one program. Its variants include temporal tiling (the steps fused
// in one kernel, every tile recomputing the intermediate steps on its halo with the boundary of
// every step). Every temporally tiled variant runs on the device (PoCL by default) and is
// checked against the interpreter's three steps; --one-per-form runs one variant of each form
// only (the rule, where it applies, its parameters and mapping, any tile size: 18 kernels to
// build instead of 36).
//
// Build and run: cmake --build build --target example_temporal_heat &&
//   ./build/examples/example_temporal_heat [--size 64] [--steps 3] [--one-per-form]
#include <cmath>
#include <cstring>
#include <iostream>
#include <random>
#include <regex>
#include <set>
#include <string>

#include "tessera/tessera.h"

using namespace tessera;

int main(int argc, char** argv) try {
  int64_t n = 64;
  int steps = 3;
  bool one_per_form = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--size") && i + 1 < argc)
      n = std::stoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc)
      steps = std::stoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--one-per-form"))
      one_per_form = true;
    else
      throw Error(std::string("unknown option ") + argv[i] +
                  " (expected --size N, --steps K or --one-per-form)");
  }
  // One step: u + 0.1 * (the 5-point Laplacian of u).
  ArithExpr N = size("N");
  Val u = input("u", Type::array(Type::array(f32(), N), N));
  Expr step = program(
      {u}, u | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1) | map_nd(2, [](Val w) {
             Val north = w.at(0).at(1), west = w.at(1).at(0), centre = w.at(1).at(1),
                 east = w.at(1).at(2), south = w.at(2).at(1);
             return (centre + 0.1 * (north + west + east + south - 4.0 * centre)).named("heat");
           }));
  Expr iterated = iterate_steps(at_size(step, {n, n}), steps);
  std::cout << steps << " steps of heat on " << n << "x" << n << ": " << type_check(iterated)
            << "\n";

  VariantList list = enumerate_variants(iterated, 1);
  std::cout << list.summary << "\n";
  std::vector<const VariantInfo*> temporal;
  std::set<std::string> forms_taken; // with --one-per-form: each history, its tile sizes left out
  const std::regex tile_size("tile=[0-9]+");
  for (const auto& v : list.variants) {
    if (variant_family(v.history) != "temporal")
      continue;
    std::string form;
    for (const auto& line : v.history.lines())
      form += std::regex_replace(line, tile_size, "tile") + "; ";
    if (one_per_form && !forms_taken.insert(form).second)
      continue;
    temporal.push_back(&v);
  }
  if (temporal.empty())
    throw Error("no temporally tiled variant was found");

  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> grid(static_cast<std::size_t>(n * n));
  for (auto& v : grid)
    v = dist(rng);
  Data input =
      Data::from_flat(ScalarKind::F32, {n, n}, std::vector<double>(grid.begin(), grid.end()));
  std::vector<double> expected = evaluate(iterated, {input}).flatten();

  runtime::Session device = open_device();
  bool all_agree = true;
  for (const VariantInfo* v : temporal) {
    std::vector<float> result = run_variant(device, *v, {grid});
    double worst = result.size() == expected.size() ? 0 : INFINITY;
    for (std::size_t i = 0; i < expected.size() && i < result.size(); ++i)
      worst = std::max(worst,
                       std::fabs(result[i] - expected[i]) / std::max(1.0, std::fabs(expected[i])));
    std::string history;
    for (const auto& s : v->history.lines())
      history += (history.empty() ? "" : "; ") + s;
    std::cout << (worst <= 1e-5 ? "ok       " : "MISMATCH ") << history << " (max relative "
              << "difference " << worst << ")\n";
    all_agree &= worst <= 1e-5;
  }
  std::cout << (all_agree ? "OK" : "MISMATCH") << ": " << temporal.size()
            << " temporally tiled variants against the interpreter\n";
  return all_agree ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "error: " << e.what() << "\n";
  return 2;
}
