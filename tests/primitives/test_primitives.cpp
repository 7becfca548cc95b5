// Each primitive on the thesis's examples (sections 1.2.4.1 and 2.2) and on random data
// against plain loops.
#include <doctest/doctest.h>

#include "dsl/Dsl.h"
#include "tests/Helpers.h"

using namespace tessera;
using tessera::testing::f32_array;
using tessera::testing::random_f32;
using tessera::testing::reference_boundary;
using tessera::testing::reference_sign;

namespace {

// Runs `f` on a 1-D f32 array given as numbers.
Data run1(const Fun& f, const std::vector<double>& values) {
  Val x = input("x", Type::array(f32(), static_cast<int64_t>(values.size())));
  return evaluate(program({x}, x | f), {f32_array(values)});
}

std::vector<double> numbers(const Data& d) {
  return d.flatten();
}

} // namespace

TEST_CASE("thesis examples of the 1-D primitives") {
  CHECK(numbers(run1(pad(2, 1, clamp), {1, 2, 3, 4})) == std::vector<double>{1, 1, 1, 2, 3, 4, 4});
  CHECK(run1(slide(3, 1), {1, 2, 3, 4, 5}).to_string() ==
        "[[1.0f, 2.0f, 3.0f], [2.0f, 3.0f, 4.0f], [3.0f, 4.0f, 5.0f]]");
  CHECK(numbers(run1(drop(2, 1), {1, 2, 3, 4, 5, 6})) == std::vector<double>{3, 4, 5});
  CHECK(run1(split(2), {1, 2, 3, 4}).to_string() == "[[1.0f, 2.0f], [3.0f, 4.0f]]");
  CHECK(numbers(run1(split(2) >> join(), {1, 2, 3, 4})) == std::vector<double>{1, 2, 3, 4});
  CHECK(numbers(run1(at(2), {1, 2, 3, 4, 5})) == std::vector<double>{3});
  auto square = user_fun("square", [](auto x) { return x * x; });
  CHECK(numbers(run1(map(square), {0, 1, 2, 3, 4})) == std::vector<double>{0, 1, 4, 9, 16});
  CHECK(numbers(run1(reduce(add_fun(), 0.0f), {0, 1, 2, 3, 4})) == std::vector<double>{10});
  auto times = user_fun("times", [](auto x, auto y) { return x * y; });
  CHECK(numbers(run1(reduce(times, 1.0f), {1, 2, 3, 4})) == std::vector<double>{24});
  auto times_two = user_fun("timesTwo", [](auto x) { return x * 2; });
  CHECK(numbers(run1(iterate(3, map(times_two)), {1, 2, 3})) == std::vector<double>{8, 16, 24});
}

TEST_CASE("zip and get build tuples") {
  Val a = input("a", Type::array(f32(), 3));
  Val b = input("b", Type::array(f32(), 3));
  Expr p = program({a, b}, zip({a, b}));
  Data out = evaluate(p, {f32_array({1, 2, 3}), f32_array({4, 5, 6})});
  CHECK(out.to_string() == "[{1.0f, 4.0f}, {2.0f, 5.0f}, {3.0f, 6.0f}]");
  Expr second = program({a, b}, zip({a, b}) | map(get(1)));
  CHECK(numbers(evaluate(second, {f32_array({1, 2, 3}), f32_array({4, 5, 6})})) ==
        std::vector<double>{4, 5, 6});
}

TEST_CASE("pad matches a plain loop for every boundary kind") {
  const std::vector<std::pair<std::string, Boundary>> kinds = {{"clamp", clamp},
                                                               {"mirror", mirror},
                                                               {"wrap", wrap},
                                                               {"constant", constant(0.5f)},
                                                               {"antisymmetric", antisymmetric}};
  for (const auto& [name, boundary] : kinds) {
    for (int64_t n : {1, 2, 5, 9}) {
      for (int64_t l : {0, 1, 2}) {
        for (int64_t r : {0, 1, 3}) {
          if (name != "clamp" && name != "constant" && (l > n || r > n))
            continue;
          CAPTURE(name);
          CAPTURE(n);
          Data x = random_f32({n}, static_cast<uint32_t>(n * 100 + l * 10 + r));
          Val in = input("x", Type::array(f32(), n));
          Data out = evaluate(program({in}, in | pad(l, r, boundary)), {x});
          REQUIRE(out.size() == static_cast<std::size_t>(l + n + r));
          for (int64_t i = 0; i < l + n + r; ++i) {
            int64_t src = reference_boundary(name, i - l, n);
            double expected = src < 0 ? 0.5 : reference_sign(name, i - l, n) * x[src].number();
            CHECK(out[i].number() == expected);
          }
        }
      }
    }
  }
}

TEST_CASE("antisymmetric pad negates the mirrored element outside, for f32, f64 and i32") {
  // Ghosts of a cell-centred homogeneous Dirichlet boundary: -1 -> -x0, -2 -> -x1, n -> -x(n-1).
  Val in = input("x", Type::array(f32(), 3));
  CHECK(numbers(evaluate(program({in}, in | pad(2, 2, antisymmetric)), {f32_array({1, 2, 3})})) ==
        std::vector<double>{-2, -1, 1, 2, 3, -3, -2});
  Val d = input("d", Type::array(f64(), 2));
  Data doubles = Data::from_flat(ScalarKind::F64, {2}, {0.1, -0.7});
  Data out = evaluate(program({d}, d | pad(1, 2, antisymmetric)), {doubles});
  CHECK(out[0].as_scalar().kind == ScalarKind::F64);
  CHECK(numbers(out) == std::vector<double>{-0.1, 0.1, -0.7, 0.7, -0.1});
  Val i = input("i", Type::array(i32(), 2));
  Data ints = Data::from_flat(ScalarKind::I32, {2}, {5, -9});
  CHECK(numbers(evaluate(program({i}, i | pad(1, 1, antisymmetric)), {ints})) ==
        std::vector<double>{-5, 5, -9, 9});
}

TEST_CASE("slide, split, drop and transpose match plain loops on random data") {
  Data x = random_f32({12}, 7);
  Val in = input("x", Type::array(f32(), 12));
  Data windows = evaluate(program({in}, in | slide(4, 2)), {x});
  REQUIRE(windows.size() == 5);
  for (int w = 0; w < 5; ++w)
    for (int e = 0; e < 4; ++e)
      CHECK(windows[w][e].number() == x[w * 2 + e].number());

  Data tiles = evaluate(program({in}, in | split(3)), {x});
  for (int t = 0; t < 4; ++t)
    for (int e = 0; e < 3; ++e)
      CHECK(tiles[t][e].number() == x[t * 3 + e].number());

  Data dropped = evaluate(program({in}, in | drop(3, 4)), {x});
  REQUIRE(dropped.size() == 5);
  for (int i = 0; i < 5; ++i)
    CHECK(dropped[i].number() == x[i + 3].number());

  Data m = random_f32({3, 5}, 8);
  Val min = input("m", array_of(f32(), {3, 5}));
  Data t = evaluate(program({min}, min | transpose()), {m});
  REQUIRE(t.size() == 5);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j)
      CHECK(t[i][j].number() == m[j][i].number());
}

TEST_CASE("generate computes elements from their index") {
  auto parity = user_fun("parity", [](auto i) { return i % 2; });
  Val g = generate(5, parity);
  Val dummy = input("x", Type::array(f32(), 1));
  Data out = evaluate(program({dummy}, g), {f32_array({0})});
  CHECK(numbers(out) == std::vector<double>{0, 1, 0, 1, 0});
}

TEST_CASE("2-D and 3-D forms match plain loops") {
  for (const auto& [name, boundary] :
       std::vector<std::pair<std::string, Boundary>>{{"clamp", clamp},
                                                     {"mirror", mirror},
                                                     {"wrap", wrap},
                                                     {"constant", constant(0.0f)},
                                                     {"antisymmetric", antisymmetric}}) {
    CAPTURE(name);
    const int64_t n0 = 4, n1 = 5;
    Data x = random_f32({n0, n1}, 11);
    Val in = input("x", array_of(f32(), {n0, n1}));
    // 3x3 neighbourhoods of the padded grid.
    Data nbh = evaluate(program({in}, in | pad_nd(2, 1, 1, boundary) | slide_nd(2, 3, 1)), {x});
    REQUIRE(nbh.size() == n0);
    REQUIRE(nbh[0].size() == n1);
    for (int64_t i = 0; i < n0; ++i)
      for (int64_t j = 0; j < n1; ++j)
        for (int64_t a = 0; a < 3; ++a)
          for (int64_t b = 0; b < 3; ++b) {
            int64_t si = reference_boundary(name, i + a - 1, n0);
            int64_t sj = reference_boundary(name, j + b - 1, n1);
            // Antisymmetric: a corner's ghost is negated once per dimension it lies outside.
            double sign = reference_sign(name, i + a - 1, n0) * reference_sign(name, j + b - 1, n1);
            double expected = (si < 0 || sj < 0) ? 0.0 : sign * x[si][sj].number();
            CHECK(nbh[i][j][a][b].number() == expected);
          }
  }

  const int64_t n = 4;
  Data x = random_f32({n, n, n}, 12);
  Val in = input("x", array_of(f32(), {n, n, n}));
  Data nbh = evaluate(program({in}, in | pad_nd(3, 1, 1, clamp) | slide_nd(3, 3, 1)), {x});
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < n; ++k)
        for (int64_t a = 0; a < 3; ++a)
          for (int64_t b = 0; b < 3; ++b)
            for (int64_t c = 0; c < 3; ++c) {
              double expected = x[reference_boundary("clamp", i + a - 1, n)][reference_boundary(
                  "clamp", j + b - 1, n)][reference_boundary("clamp", k + c - 1, n)]
                                    .number();
              CHECK(nbh[i][j][k][a][b][c].number() == expected);
            }

  // Drop3D and Zip3D and Split2D.
  Data dropped = evaluate(program({in}, in | drop_nd(3, 1, 1)), {x});
  CHECK(dropped.size() == 2);
  CHECK(dropped[1][0][1].number() == x[2][1][2].number());
  Val other = input("y", array_of(f32(), {n, n, n}));
  Data y = random_f32({n, n, n}, 13);
  Data zipped = evaluate(program({in, other}, zip_nd(3, {in, other})), {x, y});
  CHECK(zipped[1][2][3][0].number() == x[1][2][3].number());
  CHECK(zipped[1][2][3][1].number() == y[1][2][3].number());
  Val grid = input("g", array_of(f32(), {4, 6}));
  Data g = random_f32({4, 6}, 14);
  Data tiles = evaluate(program({grid}, grid | split_nd(2, 2)), {g});
  REQUIRE(tiles.size() == 2);
  REQUIRE(tiles[0].size() == 3);
  CHECK(tiles[1][2][1][0].number() == g[3][4].number());
}

TEST_CASE("low-level forms compute the same as their high-level forms") {
  Data x = random_f32({8}, 21);
  Val in = input("x", Type::array(f32(), 8));
  auto sum = [](Fun r) { return slide(3, 1) >> map(r); };
  Data high = evaluate(program({in}, in | sum(reduce(add_fun(), 0.0f))), {x});
  for (Fun low : {reduce_seq(add_fun(), 0.0f), reduce_seq_unroll(add_fun(), 0.0f)})
    CHECK(evaluate(program({in}, in | sum(low)), {x}) == high);
  Data mapped = evaluate(program({in}, in | map(id_fun())), {x});
  for (Fun low : {map_glb(0, id_fun()), map_seq(id_fun()), map_seq_unroll(id_fun()),
                  map_wrg(0, id_fun()), map_lcl(0, id_fun()), map(to_global(id_fun())),
                  map_seq(to_private(id_fun())), map(to_local(id_fun()))})
    CHECK(evaluate(program({in}, in | low), {x}) == mapped);
}
