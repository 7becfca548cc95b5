// A user's program against the installed package: a 2-D blur written with the DSL, its
// variants enumerated, one variant's kernel run on PoCL on the user's buffer and compared with
// the reference interpreter. Exit status 0 only when they agree.
#include <cmath>
#include <iostream>
#include <random>

#include <tessera/tessera.h>

using namespace tessera;

int main() try {
  auto blur = user_fun("blur", [](auto n, auto w, auto c, auto e, auto s) {
    return 0.5 * c + 0.125 * (n + w + e + s);
  });
  ArithExpr N = size("N"), M = size("M");
  Val x = input("x", Type::array(Type::array(f32(), M), N));
  Expr prog = program({x}, x | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1) | map_nd(2, [&](Val w) {
                             return blur(w.at(0).at(1), w.at(1).at(0), w.at(1).at(1), w.at(1).at(2),
                                         w.at(2).at(1));
                           }));
  std::cout << "type: " << type_check(prog) << "\n";
  Expr sized = at_size(prog, {24, 40});
  VariantList list = enumerate_variants(sized, 1);
  std::cout << list.summary << "\n";

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> grid(24 * 40);
  for (auto& v : grid)
    v = dist(rng);
  std::vector<double> values(grid.begin(), grid.end());
  auto expected = evaluate(sized, {Data::from_flat(ScalarKind::F32, {24, 40}, values)}).flatten();

  auto device = open_device();
  const VariantInfo& variant = list.variants.back();
  std::vector<float> out = run_variant(device, variant, {grid});
  double worst = 0;
  for (std::size_t i = 0; i < out.size(); ++i)
    worst =
        std::max(worst, std::fabs(out[i] - expected[i]) / std::max(1.0, std::fabs(expected[i])));
  std::cout << variant_family(variant.history) << " variant on " << device.device().name
            << ": max relative difference " << worst << "\n";
  if (out.size() != expected.size() || worst > 1e-5) {
    std::cout << "MISMATCH\n";
    return 1;
  }
  std::cout << "OK\n";
  return 0;
} catch (const tessera::Error& e) {
  std::cerr << "error: " << e.what() << "\n";
  return 2;
}
