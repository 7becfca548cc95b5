// Weights as data: a 3x3x3 box stencil (27 points) whose coefficients are an input array, next
// to the same stencil with the coefficients written into the program. Both are written inline
// with weighted_sum (docs/language.md); every variant of both runs on the device (PoCL by
// default) against the interpreter, and with --time the plain lowering and the fastest variant
// of each are timed (the numbers docs/language.md quotes). --one-per-family runs the first variant
// of each family only (a quick check: a few kernels to build instead of 81). --save DIR writes
// both as program files for `tessera run|explore --program DIR/box27-input.json`.
//
// Build and run: cmake --build build --target example_weighted_box &&
//   ./build/examples/example_weighted_box [--size 24] [--time] [--one-per-family] [--save DIR]
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <random>
#include <set>

#include "tessera/tessera.h"

using namespace tessera;

namespace {

// The coefficients, row-major over (k, j, i) offsets -1..1: the centre heaviest.
std::vector<double> coefficients() {
  std::vector<double> w;
  for (int k = -1; k <= 1; ++k)
    for (int j = -1; j <= 1; ++j)
      for (int i = -1; i <= 1; ++i)
        w.push_back(1.0 / (1 + std::abs(k) + std::abs(j) + std::abs(i)));
  return w;
}

// An N x N x N grid: the saved programs take any --size; at_size binds N here.
Val grid_input() {
  ArithExpr n = size("N");
  return input("x", array_of(f32(), {n, n, n}));
}

Val windows(const Val& x) {
  return x | pad_nd(3, 1, 1, clamp) | slide_nd(3, 3, 1);
}

Expr constant_weights() {
  Val x = grid_input();
  std::vector<double> w = coefficients();
  return program({x}, windows(x) | map_nd(3, [w](Val box) {
                        return (weighted_sum(box, w) / 8).named("box27");
                      }));
}

Expr input_weights() {
  Val x = grid_input();
  Val w = input("weights", array_of(f32(), {3, 3, 3}));
  return program({x, w}, windows(x) | map_nd(3, [w](Val box) {
                           return (weighted_sum(box, w) / 8).named("box27");
                         }));
}

double max_difference(const std::vector<float>& a, const std::vector<double>& b) {
  if (a.size() != b.size())
    return INFINITY;
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(b[i])));
  return worst;
}

struct Choice {
  bool time = false;           // time the plain lowering and the fastest variant
  bool one_per_family = false; // run each family's first variant only
};

// Runs every variant (or each family's first) against `expected`; with choice.time, prints the
// plain lowering's and the fastest variant's median kernel time. False on a mismatch.
bool check_variants(runtime::Session& device, const std::string& label, const Expr& program,
                    const std::vector<std::vector<float>>& inputs,
                    const std::vector<double>& expected, Choice choice) {
  VariantList list = enumerate_variants(program, 1);
  bool all_agree = true, time = choice.time;
  double plain_ms = 0, best_ms = INFINITY;
  std::string best;
  int skipped = 0, ran = 0;
  std::set<std::string> families_run;
  for (std::size_t i = 0; i < list.variants.size(); ++i) {
    const VariantInfo& v = list.variants[i];
    if (choice.one_per_family && !families_run.insert(variant_family(v.history)).second)
      continue;
    ++ran;
    RunResult r;
    try {
      r = run_kernel(device, emit_program(v), inputs, {}, time ? 5 : 1);
    } catch (const Error& e) {
      // A work-group larger than this device takes, say: the variant does not run here.
      if (i == 0)
        throw;
      ++skipped;
      continue;
    }
    double worst = max_difference(r.output, expected);
    if (worst > 1e-5) {
      std::cout << "MISMATCH " << label << ": " << v.text << " (" << worst << ")\n";
      all_agree = false;
    }
    if (i == 0)
      plain_ms = r.kernel_ms;
    if (r.kernel_ms < best_ms) {
      best_ms = r.kernel_ms;
      best = variant_family(v.history);
    }
  }
  std::cout << label << ": " << ran - skipped << " of " << list.variants.size()
            << " variants checked against the interpreter, "
            << (all_agree ? "all agree" : "NOT all agree") << " (" << skipped
            << " cannot run here)";
  if (time)
    std::cout << "; plain " << plain_ms << " ms, fastest " << best_ms << " ms (" << best << ")";
  std::cout << "\n";
  return all_agree;
}

} // namespace

int main(int argc, char** argv) try {
  int64_t n = 24;
  Choice choice;
  std::string save;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--size") && i + 1 < argc)
      n = std::stoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--save") && i + 1 < argc)
      save = argv[++i];
    else if (!std::strcmp(argv[i], "--time"))
      choice.time = true;
    else if (!std::strcmp(argv[i], "--one-per-family"))
      choice.one_per_family = true;
    else
      throw Error(std::string("unknown option ") + argv[i] +
                  " (expected --size N, --time, --one-per-family or --save DIR)");
  }
  if (!save.empty()) {
    std::filesystem::create_directories(save);
    save_expr_file(constant_weights(), save + "/box27-constant.json");
    save_expr_file(input_weights(), save + "/box27-input.json");
  }
  Expr constant = at_size(constant_weights(), {n, n, n});
  Expr weighted = at_size(input_weights(), {n, n, n});
  std::cout << "input weights: " << type_check(weighted) << "\n";

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> grid(static_cast<std::size_t>(n * n * n));
  for (auto& v : grid)
    v = dist(rng);
  std::vector<double> w = coefficients();
  std::vector<float> weights(w.begin(), w.end());
  Data grid_data = Data::from_flat(ScalarKind::F32, {n, n, n}, {grid.begin(), grid.end()});
  Data weight_data = Data::from_flat(ScalarKind::F32, {3, 3, 3}, w);
  std::vector<double> expected = evaluate(constant, {grid_data}).flatten();
  // The same weights as data give the same values (f32 weights: the constants rounded once).
  std::vector<double> from_input = evaluate(weighted, {grid_data, weight_data}).flatten();
  double apart = max_difference(std::vector<float>(from_input.begin(), from_input.end()), expected);
  std::cout << "interpreter: input weights vs constants, max relative difference " << apart << "\n";

  runtime::Session device = open_device();
  bool ok = apart <= 1e-6;
  ok &= check_variants(device, "constant weights", constant, {grid}, expected, choice);
  ok &= check_variants(device, "input weights", weighted, {grid, weights}, from_input, choice);
  std::cout << (ok ? "OK" : "MISMATCH") << "\n";
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "error: " << e.what() << "\n";
  return 2;
}
