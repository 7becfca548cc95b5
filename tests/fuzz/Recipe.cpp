// Recipes: drawing one at random, describing it, and the simpler recipes that shrinking tries.
#include <algorithm>

#include "core/Error.h"
#include "tests/fuzz/FuzzProgram.h"
#include "tests/fuzz/RecipeKinds.h"

namespace tessera::fuzz {

namespace {

const char* prep_name(int p) {
  static const char* names[] = {"none",           "split-join", "transpose-twice",
                                "transpose",      "drop-pad",   "pad-drop",
                                "iterate-layout", "map",        "iterate-shift"};
  return p >= 0 && p < PrepCount ? names[p] : "?";
}
const char* post_name(int p) {
  static const char* names[] = {"none", "map",     "transpose", "split-join",     "iterate",
                                "drop", "reshape", "steps",     "iterate-stencil"};
  return p >= 0 && p < PostCount ? names[p] : "?";
}
const char* window_name(int w) {
  static const char* names[] = {"sum",
                                "points",
                                "max",
                                "map-reduce",
                                "iterate-reduce",
                                "drop-fold",
                                "split-reduce",
                                "transpose-fold",
                                "centre",
                                "slide-inner",
                                "zip-inner",
                                "inline-arith",
                                "weighted-const",
                                "weighted-input"};
  return w >= 0 && w < kWindowFunctions ? names[w] : "?";
}
const char* boundary_name(int b) {
  static const char* names[] = {"clamp", "mirror", "wrap", "constant", "antisymmetric"};
  return b >= 0 && b < 5 ? names[b] : "?";
}

} // namespace

std::string Recipe::describe() const {
  std::string s = cat(dims, "-D ");
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += cat(i ? "x" : "", shape[i]);
  s += size_mode == 0 ? "" : size_mode == 1 ? " (symbolic)" : " (symbolic, baked)";
  s += " ";
  for (std::size_t i = 0; i < kinds.size(); ++i)
    s += cat(i ? "," : "", to_string(kinds[i]));
  if (left + right > 0)
    s += cat(" halo ", left, "/", right, " ", boundary_name(boundary),
             windows_for_all ? "" : " (first only)");
  else
    s += " pointwise";
  if (generate)
    s += " +generate";
  s += cat(" prep=", prep_name(prep), " window=", window_name(window_fn), " post=", post_name(post),
           " fn-depth=", fn_depth);
  if (names == 1)
    s += " same-names";
  if (names == 2)
    s += " tricky-names";
  if (!normalize)
    s += " unnormalised";
  return s;
}

nlohmann::json Recipe::to_json() const {
  nlohmann::json kinds_json = nlohmann::json::array();
  for (auto k : kinds)
    kinds_json.push_back(to_string(k));
  return {{"dims", dims},           {"shape", shape},
          {"size_mode", size_mode}, {"kinds", kinds_json},
          {"left", left},           {"right", right},
          {"boundary", boundary},   {"windows_for_all", windows_for_all},
          {"generate", generate},   {"prep", prep},
          {"window_fn", window_fn}, {"post", post},
          {"fn_depth", fn_depth},   {"fn_seed", fn_seed},
          {"names", names},         {"normalize", normalize},
          {"text", describe()}};
}

Recipe random_recipe(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto coin = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  Recipe r;
  int roll = pick(1, 100);
  r.dims = roll <= 45 ? 1 : roll <= 80 ? 2 : 3;
  r.shape.clear();
  for (int i = 0; i < r.dims; ++i)
    r.shape.push_back(r.dims == 1 ? pick(3, 24) : r.dims == 2 ? pick(3, 10) : pick(3, 6));
  roll = pick(1, 100);
  r.size_mode = roll <= 70 ? 0 : roll <= 85 ? 1 : 2;
  roll = pick(1, 100);
  int inputs = roll <= 60 ? 1 : roll <= 88 ? 2 : 3;
  auto random_kind = [&] {
    int k = pick(1, 100);
    return k <= 75 ? ScalarKind::F32 : k <= 93 ? ScalarKind::I32 : ScalarKind::F64;
  };
  r.kinds = {random_kind()};
  for (int i = 1; i < inputs; ++i)
    r.kinds.push_back(coin(0.7) ? r.kinds[0] : random_kind());
  if (coin(0.08)) {
    r.left = r.right = 0;
  } else {
    int max_halo = r.dims == 3 ? 1 : 2;
    r.left = pick(0, max_halo);
    r.right = coin(0.6) ? r.left : pick(0, max_halo);
    if (r.left + r.right == 0)
      r.left = r.right = 1;
  }
  r.boundary = pick(0, 4);
  r.windows_for_all = coin(0.7);
  r.generate = coin(0.2);
  r.prep = coin(0.45) ? 0 : pick(1, PrepCount - 1);
  if (r.prep == PrepIterateLayout && r.dims == 2)
    r.shape[1] = r.shape[0]; // Iterate(Transpose)
  r.window_fn = pick(0, kWindowFunctions - 1);
  // Stencil steps (what temporal tiling fuses) more often than the other endings.
  r.post = coin(0.45) ? 0 : coin(0.25) ? PostSteps : pick(1, PostCount - 1);
  r.fn_depth = pick(0, 3);
  r.fn_seed = static_cast<uint32_t>(rng());
  roll = pick(1, 100);
  r.names = roll <= 80 ? 0 : roll <= 88 ? 1 : 2;
  r.normalize = coin(0.85);
  return r;
}

std::vector<Recipe> simpler_recipes(const Recipe& r) {
  std::vector<Recipe> out;
  auto add = [&](auto change) {
    Recipe s = r;
    change(s);
    if (s.to_json() != r.to_json())
      out.push_back(s);
  };
  add([](Recipe& s) {
    s.kinds.resize(1);
    s.generate = false;
  });
  add([](Recipe& s) { s.generate = false; });
  add([](Recipe& s) {
    if (s.kinds.size() > 1)
      s.kinds.pop_back();
  });
  add([](Recipe& s) { s.post = 0; });
  add([](Recipe& s) { s.prep = 0; });
  add([](Recipe& s) { s.fn_depth = 0; });
  add([](Recipe& s) { s.size_mode = 0; });
  add([](Recipe& s) { s.names = 0; });
  add([](Recipe& s) { s.normalize = true; });
  add([](Recipe& s) { s.window_fn = 0; });
  add([](Recipe& s) { s.boundary = 0; });
  add([](Recipe& s) { s.windows_for_all = true; });
  add([](Recipe& s) { s.left = s.right = 1; });
  add([](Recipe& s) {
    if (s.left > 0)
      --s.left;
  });
  add([](Recipe& s) {
    if (s.right > 0)
      --s.right;
  });
  add([](Recipe& s) {
    for (auto& k : s.kinds)
      k = ScalarKind::F32;
  });
  add([](Recipe& s) {
    if (s.dims > 1) {
      --s.dims;
      s.shape.pop_back();
    }
  });
  for (std::size_t i = 0; i < r.shape.size(); ++i) {
    add([i](Recipe& s) { s.shape[i] = std::max<int64_t>(3, s.shape[i] / 2); });
    add([i](Recipe& s) { s.shape[i] = std::max<int64_t>(3, s.shape[i] - 1); });
  }
  return out;
}

std::map<std::string, int64_t> size_values(const Recipe& r) {
  std::map<std::string, int64_t> sizes;
  if (r.size_mode != 0)
    for (std::size_t i = 0; i < r.shape.size(); ++i)
      sizes[cat("N", i)] = r.shape[i];
  return sizes;
}

} // namespace tessera::fuzz
