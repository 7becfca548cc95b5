#include "stencils/Thesis.h"

#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "dsl/Dsl.h"

namespace tessera::stencils {

namespace {

// ---- Small pieces shared by several listings ----

// UserFun("divideByK", "x", "{ return x*(1/K); }"): the thesis's divideBy2/4/8.
Fun divide_by(int k) {
  const double factor = 1.0 / k;
  return user_fun("divideBy" + std::to_string(k), [factor](auto x) { return x * factor; });
}

// t => mult(t._0, t._1)
Fun mult_pair() {
  return Fun([](Val t) { return mult_fun()(t.get(0), t.get(1)); });
}

// MapGlb(dims-1)(...(MapGlb(0)(f))): the outermost level on the highest dimension, as in
// Listings 2.2, 2.3, 2.8 and 2.10.
Fun map_glb_nd(int dims, Fun f) {
  for (int d = 0; d < dims; ++d)
    f = map_glb(d, std::move(f));
  return f;
}

// The 3^dims neighbourhoods of every point of an n-D grid, clamped at its boundary:
// Slide3D(3,1) o Pad3D(1,1,clamp) for 3-D.
Fun neighbourhoods(int dims) {
  return pad_nd(dims, 1, 1, clamp) >> slide_nd(dims, 3, 1);
}

// A 3x3x3 neighbourhood [k][j][i] with Listing 2.8's names for its centre and six neighbours.
struct Nbh3 {
  Val v;
  Val centre() const { return v.at(1).at(1).at(1); }
  Val front() const { return v.at(0).at(1).at(1); } // k-1
  Val back() const { return v.at(2).at(1).at(1); }  // k+1
  Val north() const { return v.at(1).at(0).at(1); } // j-1
  Val south() const { return v.at(1).at(2).at(1); } // j+1
  Val west() const { return v.at(1).at(1).at(0); }  // i-1
  Val east() const { return v.at(1).at(1).at(2); }  // i+1
};

// A user function of N scalars whose body reads them from an array (indexed by an enum): for
// the residual and the smoother, whose C functions take 15 and 17 parameters.
template <std::size_t> using SymParam = Sym;
template <std::size_t N, class Body, std::size_t... I>
Fun user_fun_of_array(std::string name, Body body, std::index_sequence<I...>) {
  return user_fun(std::move(name),
                  [body](SymParam<I>... xs) { return body(std::array<Sym, N>{xs...}); });
}
template <std::size_t N, class Body> Fun user_fun_of_array(std::string name, Body body) {
  return user_fun_of_array<N>(std::move(name), std::move(body), std::make_index_sequence<N>{});
}

// ---- The variable-coefficient Helmholtz operator of Listings 2.6 and 2.9 ----

// The inputs every Helmholtz application reads, in the order of the tuples built below.
enum HelmholtzInput { Alpha, BetaI, BetaJ, BetaK, Phi, kHelmholtzInputs };

// Parameters of the user functions: the values one Helmholtz application reads at a point,
// followed by the operator's own (rhs for the residual; lambda, rhs, mask for the smoother).
enum HelmholtzArg {
  AlphaC,
  BetaIC,
  BetaIEast,
  BetaJC,
  BetaJSouth,
  BetaKC,
  BetaKBack,
  PhiC,
  PhiWest,
  PhiEast,
  PhiNorth,
  PhiSouth,
  PhiFront,
  PhiBack,
  kHelmholtzArgs
};

struct HelmholtzCoefficients {
  double a, b, h2inv;
};

// The values of HelmholtzArg from a tuple of neighbourhoods (alpha, beta_i, beta_j, beta_k,
// phi, ...), with get and at(1).at(1).at(1) as in Listing 2.8.
std::vector<Val> helmholtz_values(const Val& t) {
  Nbh3 alpha{t.get(Alpha)}, beta_i{t.get(BetaI)}, beta_j{t.get(BetaJ)}, beta_k{t.get(BetaK)};
  Nbh3 phi{t.get(Phi)};
  return {alpha.centre(),  beta_i.centre(), beta_i.east(), beta_j.centre(), beta_j.south(),
          beta_k.centre(), beta_k.back(),   phi.centre(),  phi.west(),      phi.east(),
          phi.north(),     phi.south(),     phi.front(),   phi.back()};
}

// a*alpha*phi - b*h2inv*(div beta grad phi) at one point (statements S0 and S1 of Listing 2.9).
template <std::size_t N> Sym helmholtz(const std::array<Sym, N>& v, HelmholtzCoefficients c) {
  const Sym& phi = v[PhiC];
  Sym laplacian = v[BetaIEast] * (v[PhiEast] - phi) - v[BetaIC] * (phi - v[PhiWest]) +
                  v[BetaJSouth] * (v[PhiSouth] - phi) - v[BetaJC] * (phi - v[PhiNorth]) +
                  v[BetaKBack] * (v[PhiBack] - phi) - v[BetaKC] * (phi - v[PhiFront]);
  return c.a * v[AlphaC] * phi - c.b * c.h2inv * laplacian;
}

// MapGlb(2)(MapGlb(1)(MapGlb(0)(t => toGlobal(f)(values(t))))) $ Zip3D(inputs): a point-wise
// operator over zipped 3-D inputs (Listings 2.8 and 2.10).
template <class Values> Val map_points_3d(const std::vector<Val>& inputs, Fun f, Values values) {
  Fun point([f, values](Val t) { return to_global(f).apply(values(t)); });
  return zip_nd(3, inputs) | map_glb_nd(3, point);
}

Val grid_input(const std::string& name, const ArithExpr& n) {
  return input(name, array_of(f32(), {n, n, n}));
}

// The smoother over given inputs; `mask` is an n^3 array of f32 (1: update, 0: keep phi).
Val gsrb_smooth(const std::vector<Val>& inputs, const Val& mask, HelmholtzCoefficients c) {
  enum { LambdaC = kHelmholtzArgs, RhsC, MaskC, kArgs };
  Fun f = user_fun_of_array<kArgs>("gsrbSmooth", [c](const std::array<Sym, kArgs>& v) {
    Sym updated = v[PhiC] - v[LambdaC] * (helmholtz(v, c) - v[RhsC]);
    return select(v[MaskC] != 0, updated, v[PhiC]);
  });
  // inputs: alpha, beta_i, beta_j, beta_k, phi, lambda, rhs. The mask is read at the point
  // itself only, so it is zipped without neighbourhoods.
  std::vector<Val> zipped;
  for (const Val& in : inputs)
    zipped.push_back(in | neighbourhoods(3));
  zipped.push_back(mask);
  const int lambda = kHelmholtzInputs, rhs = kHelmholtzInputs + 1, colour = kHelmholtzInputs + 2;
  return map_points_3d(zipped, f, [=](const Val& t) {
    std::vector<Val> v = helmholtz_values(t);
    v.push_back(Nbh3{t.get(lambda)}.centre());
    v.push_back(Nbh3{t.get(rhs)}.centre());
    v.push_back(t.get(colour));
    return v;
  });
}

std::vector<Val> smoother_inputs(const ArithExpr& n) {
  std::vector<Val> v;
  for (const char* name : {"alpha", "beta_i", "beta_j", "beta_k", "phi", "lambda", "rhs"})
    v.push_back(grid_input(name, n));
  return v;
}

// Generate(k => Generate(j => Generate(i => f(k, j, i)))) for a user function f of three i32
// indices returning f32: an n^3 grid computed from the indices.
//
// Built from the IR constructors rather than with nested generate(n, Fun(...)) calls: the inner
// C++ lambdas would capture the outer index parameters, and the committed front end (4b4dff9)
// type-checks each generate() on its own, where a captured parameter of an enclosing lambda has
// no type yet ("parameter '?' has no type"). The program's type check binds them in order.
Val generate_3d(const ArithExpr& n, const Fun& f) {
  Expr k = make_param(), j = make_param(), i = make_param();
  Expr point = make_call(f.build({i32(), i32(), i32()}), {k, j, i});
  Expr grid = point;
  for (const Expr& index : {i, j, k})
    grid = make_call(make_generate(n, make_lambda({index}, grid)), {});
  return Val(grid, array_of(f32(), {n, n, n}));
}

// Listings 2.1-2.3 for `dims` dimensions:
//   MapGlb(dims-1)(...MapGlb(0)(MapSeq(toGlobal(divideBy2^dims)) o ReduceSeqUnroll(add, 0.0f)
//   o Join()^(dims-1))) o SlideND(2, 2) $ input
Expr restrict_nd(int dims, const ArithExpr& n) {
  std::vector<ArithExpr> shape(dims, n);
  Val in = input("input", array_of(f32(), shape));
  Fun reduce_block = reduce_seq_unroll(add_fun(), 0.0f) >> map_seq(to_global(divide_by(1 << dims)));
  if (dims > 1)
    reduce_block = join_nd(dims) >> reduce_block;
  return program({in}, in | slide_nd(dims, 2, 2) | map_glb_nd(dims, reduce_block));
}

} // namespace

Expr restrict_1d(ArithExpr n) {
  return restrict_nd(1, n);
}
Expr restrict_2d(ArithExpr n) {
  return restrict_nd(2, n);
}
Expr restrict_3d(ArithExpr n) {
  return restrict_nd(3, n);
}

// The listing's ReduceSeqUnroll(toGlobal(add), 0.0f) is written ReduceSeqUnroll(add, 0.0f): the
// accumulator stays private; only the final MapSeq(id) writes to global memory.
Expr prolong_1d(ArithExpr n) {
  Val in = input("input", Type::array(f32(), n));
  Val weights = input("weights", Type::array(f32(), 2));
  // 1: the neighbourhoods [x[i-1], x[i]] of the clamped input, i = 0..n.
  Val nbhs = in | pad(1, 1, clamp) | slide(2, 1);
  // 2: each neighbourhood twice.
  Val copies = nbhs | split(1) | map(pad(1, 0, clamp));
  // 3: the two copies get the weights [w1, w0] and [w0, w1] (Pad(2,0,mirror) o Split(2)); then
  //    every element of a neighbourhood is paired with its weight.
  Fun zip_weights([weights](Val nbh) {
    return zip({nbh, weights | pad(2, 0, mirror) | split(2)});
  });
  Fun pair_elements([](Val t) { return zip({t.get(0), t.get(1)}); });
  Val weighted = copies | map(zip_weights) | map(map(pair_elements));
  // 4: flatten, and drop the first and the last (they would lie outside the fine grid).
  Val fine = weighted | join() | drop(1, 1);
  // 5: the weighted sums.
  Fun compute = to_global(map_seq(mult_pair())) >> reduce_seq_unroll(add_fun(), 0.0f) >>
                to_global(map_seq(id_fun()));
  return program({in, weights}, fine | map_glb(0, compute));
}

Expr prolong_3d(ArithExpr n) {
  Val matrix = grid_input("matrix", n);
  Val weights = input("weights", array_of(f32(), {2, 2, 2}));
  // 1: the 2x2x2 neighbourhoods of the clamped input: [n+1]^3 of [2]^3.
  Val nbhs = matrix | pad_nd(3, 1, 1, clamp) | slide_nd(3, 2, 1);
  // 2: each neighbourhood as a [1][1][1] array (Split(1) o Split(1) o Split(1) of every row),
  //    padded to 2x2x2 copies of it.
  Val copies =
      nbhs | map_nd(2, split(1) >> split(1) >> split(1)) | map_nd(3, pad_nd(3, 1, 0, clamp));
  // 3: the 2x2x2 copies get the 2x2x2 blocks of the mirrored weights (per dimension [w1, w0]
  //    and [w0, w1]); then every element of a neighbourhood is paired with its weight.
  Fun zip_weights([weights](Val nbh) {
    return zip_nd(3, {nbh, weights | pad_nd(3, 2, 0, mirror) | slide_nd(3, 2, 2)});
  });
  Fun pair_elements([](Val t) {
    return zip({t.get(0) | join() | join(), t.get(1) | join() | join()});
  });
  Val weighted = copies | map_nd(3, zip_weights) | map_nd(6, pair_elements);
  // 4: [I][J][K][a][b][c] -> [I][a][J][b][K][c] by three transposes (Lift's order reversed),
  //    -> [2I+a][2J+b][2K+c] by three joins, then drop the outermost layer.
  Val fine = weighted | map_nd(2, transpose()) | map(transpose()) | map_nd(3, transpose()) |
             join() | map(join()) | map_nd(2, join()) | drop_nd(3, 1, 1);
  // 5: the weighted sums.
  Fun compute =
      map_seq(mult_pair()) >> reduce_seq_unroll(add_fun(), 0.0f) >> to_global(map_seq(id_fun()));
  return program({matrix, weights}, fine | map_glb(0, map_glb(1, map_glb(2, compute))));
}

// The listing writes `toGlobal(x => f(a1, ..., b3)) $ A`; here toGlobal(f) is applied to the
// six values directly.
Expr multi_input_1d(ArithExpr n) {
  Val a = input("A", Type::array(f32(), n));
  Val b = input("B", Type::array(f32(), n));
  Fun f = user_fun("f", [](auto a1, auto a2, auto a3, auto b1, auto b2, auto b3) {
    return a1 + a2 + a3 + b1 + b2 + b3;
  });
  Fun point([f](Val t) {
    Val x = t.get(0), y = t.get(1);
    return to_global(f).apply({x.at(0), x.at(1), x.at(2), y.at(0), y.at(1), y.at(2)});
  });
  Val result = zip({a | neighbourhoods(1), b | neighbourhoods(1)}) | map_glb(0, point);
  return program({a, b}, result);
}

// Listing 2.8's user function garbles the operator (it reads "beta_iC * inputF - inputC ..."), so
// the function here is Listing 2.6's. Unlike the listing, every input is padded (Pad3D(1,1,clamp))
// before Slide3D(3,1), so that the result covers the whole grid.
Expr residual_3d(ArithExpr n, double a, double b, double h2inv) {
  const HelmholtzCoefficients c{a, b, h2inv};
  enum { RhsC = kHelmholtzArgs, kArgs };
  Fun f = user_fun_of_array<kArgs>(
      "residual", [c](const std::array<Sym, kArgs>& v) { return v[RhsC] - helmholtz(v, c); });
  std::vector<Val> inputs;
  for (const char* name : {"alpha", "beta_i", "beta_j", "beta_k", "phi", "rhs"})
    inputs.push_back(grid_input(name, n));
  std::vector<Val> zipped;
  for (const Val& in : inputs)
    zipped.push_back(in | neighbourhoods(3));
  Val result = map_points_3d(zipped, f, [](const Val& t) {
    std::vector<Val> v = helmholtz_values(t);
    v.push_back(Nbh3{t.get(kHelmholtzInputs)}.centre());
    return v;
  });
  return program(inputs, result);
}

Expr gsrb_smooth_3d(ArithExpr n, double a, double b, double h2inv) {
  std::vector<Val> inputs = smoother_inputs(n);
  Val mask = grid_input("mask", n);
  Val result = gsrb_smooth(inputs, mask, {a, b, h2inv});
  inputs.push_back(mask);
  return program(inputs, result);
}

Expr gsrb_smooth_3d_generated(ArithExpr n, double a, double b, double h2inv, int colour) {
  Fun is_updated = user_fun("isUpdated", [colour](auto k, auto j, auto i) {
    return cast(ScalarKind::F32, (i + j + k + colour) % 2 == 0);
  });
  std::vector<Val> inputs = smoother_inputs(n);
  return program(inputs, gsrb_smooth(inputs, generate_3d(n, is_updated), {a, b, h2inv}));
}

// Listings 3.1 and 3.2 leave the parenthesis of MapWrg open; the text (and Listing 3.4) places
// Map(Slide(...)) before MapWrg, applied to every tile: Join() o MapWrg(MapLcl(...)) o
// Map(Slide(...)) o Split/Slide(...). The listings' Reduce is ReduceSeq here (lowered).
Expr tiled_restrict_1d(ArithExpr n, ArithExpr tile) {
  Val in = input("input", Type::array(f32(), n));
  Fun tile_body = map_lcl(0, reduce_seq(add_fun(), 0.0f) >> map_seq(to_global(divide_by(2))));
  return program({in}, in | split(tile) | map(slide(2, 2)) | map_wrg(0, tile_body) | join());
}

Expr overlapped_tiling_1d(ArithExpr n, ArithExpr tile_out) {
  Val in = input("input", Type::array(f32(), n));
  Fun tile_body = map_lcl(0, reduce_seq(add_fun(), 0.0f) >> map_seq(to_global(id_fun())));
  return program({in}, in | pad(1, 1, clamp) | slide(tile_out + 2, tile_out) | map(slide(3, 1)) |
                           map_wrg(0, tile_body) | join());
}

Expr temporal_tiling_1d(ArithExpr n) {
  Val in = input("input", Type::array(f32(), n));
  Fun tile_body = map_lcl(0, reduce_seq(add_fun(), 0.0f)) >> join() >>
                  reduce_seq(add_fun(), 0.0f) >> map_seq(to_global(id_fun()));
  return program({in}, in | pad(2, 2, clamp) | slide(5, 1) | map(slide(3, 1)) |
                           map_wrg(0, tile_body) | join());
}

Expr temporal_tiling_1d_optimized(ArithExpr n) {
  Val in = input("input", Type::array(f32(), n));
  Fun tile_body = reduce_seq(add_fun(), 0.0f) >> map_seq(to_global(id_fun()));
  return program({in}, in | pad(2, 2, clamp) | slide(5, 1) | map(slide(3, 1)) | map(join()) |
                           map_wrg(0, tile_body) | join());
}

Expr spatial_tiling_2d(ArithExpr n, ArithExpr tile) {
  Val matrix = input("matrix", array_of(f32(), {n, n}));
  Val weights = input("weights", Type::array(f32(), 4));
  Fun mult_and_sum_up =
      user_fun("multAndSumUp", [](auto acc, auto l, auto r) { return acc + l * r; });
  Fun weighted_sum(
      [mult_and_sum_up](Val acc, Val t) { return mult_and_sum_up(acc, t.get(0), t.get(1)); });
  Fun compute([weights, weighted_sum](Val nbh) {
    return zip({nbh | join(), weights}) | reduce_seq(weighted_sum, 0.0f) | map_seq(divide_by(4)) |
           map_seq(to_global(id_fun()));
  });
  Fun per_tile([compute](Val tile) {
    return tile | to_local(map_lcl(1, map_lcl(0, id_fun()))) // load the tile into local memory
           | slide_nd(2, 2, 2)                               // build neighbourhoods
           | map_lcl(0, map_lcl(1, compute));
  });
  return program({matrix, weights}, matrix | split_nd(2, tile) | map_wrg(0, map_wrg(1, per_tile)));
}

} // namespace tessera::stencils
