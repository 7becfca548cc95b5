#include "multigrid/Compass.h"

#include "core/Error.h"
#include "multigrid/Formula.h"

namespace tessera::multigrid {

using namespace detail;

namespace {

void require_compass_level(const Level& level, const char* what) {
  if (level.dims != 2 || level.centring != Centring::Vertex)
    user_error(cat(what, ": compass-storage operators are 2-D and vertex-centred, got ",
                   level.describe()));
}

Val ring_input(const std::string& name, const Level& level) {
  return input(name, array_of(Type::scalar(level.kind), {level.n + 2, level.n + 2}));
}

// One of the eight couplings of a point: stored in coefficient array `array` (0 W, 1 S, 2 SW,
// 3 NW) at offset `at` from the point, reaching the neighbour at offset `to`.
struct Coupling {
  int array;
  std::vector<int> at, to;
};
const std::vector<Coupling>& couplings() {
  static const std::vector<Coupling> all{
      {0, {0, 0}, {0, -1}},  // W
      {0, {0, 1}, {0, 1}},   // E  = W[j][i+1]
      {1, {0, 0}, {-1, 0}},  // S
      {1, {1, 0}, {1, 0}},   // N  = S[j+1][i]
      {2, {0, 0}, {-1, -1}}, // SW
      {2, {1, 1}, {1, 1}},   // NE = SW[j+1][i+1]
      {3, {0, 0}, {1, -1}},  // NW
      {3, {-1, 1}, {-1, 1}}, // SE = NW[j-1][i+1]
  };
  return all;
}
enum CouplingIndex { kW, kE, kS, kN, kSW, kNE, kNW, kSE };

// The ring grids O, W, S, SW, NW as 3x3 windows around every interior point, zipped after
// `first`; a point's stencil is then read by stencil_of.
struct CompassInputs {
  std::vector<Val> arrays; // O, W, S, SW, NW
  explicit CompassInputs(const Level& level) {
    for (const char* name : {"O", "W", "S", "SW", "NW"})
      arrays.push_back(ring_input(name, level));
  }
  std::vector<Val> windows() const {
    std::vector<Val> w;
    for (const Val& a : arrays)
      w.push_back(a | slide_nd(2, 3, 1));
    return w;
  }
  // O and the eight couplings (CouplingIndex order) of the point, from the zipped windows
  // starting at component `from` of t.
  static std::vector<Val> stencil_of(Val t, int from) {
    std::vector<Val> s{at_offset(t.get(from), {0, 0}, 1)};
    for (const auto& c : couplings())
      s.push_back(at_offset(t.get(from + 1 + c.array), c.at, 1));
    return s;
  }
};

std::vector<ScalarKind> kinds_of(const Level& level, int count) {
  return std::vector<ScalarKind>(static_cast<std::size_t>(count), level.kind);
}

// The parity of a fine interior point's row and column, packed: 2 (j % 2) + i % 2.
Val parity_code(const Level& fine) {
  return index_grid(
      fine, formula("compassParity", {ScalarKind::I32, ScalarKind::I32},
                    [](const std::vector<Sym>& idx) { return (idx[0] % 2) * 2 + idx[1] % 2; }));
}

// Per fine interior point the 2x2 coarse ring window (rows J, J+1, columns I, I+1 of the ring,
// J = j/2, I = i/2): the coarse points around it (a view).
Val coarse_windows(Val e) {
  return e | slide_nd(2, 2, 1) | duplicate_nd(2) | drop_nd(2, 0, 1);
}

Level finer(const Level& coarse) {
  Level fine = coarse;
  fine.n = 2 * coarse.n + 1;
  return fine;
}

} // namespace

Expr compass_residual(const Level& level) {
  require_compass_level(level, "compass_residual");
  Val u = ring_input("u", level), f = ring_input("f", level);
  CompassInputs c(level);
  // Parameters: u's 3x3 window (row-major), f, O, the eight couplings.
  Fun point = formula("compassResidual", kinds_of(level, 19), [](const std::vector<Sym>& v) {
    auto u = [&](const std::vector<int>& o) { return v[3 * (o[0] + 1) + o[1] + 1]; };
    Sym au = v[10] * u({0, 0});
    for (std::size_t k = 0; k < couplings().size(); ++k)
      au = au - v[11 + k] * u(couplings()[k].to);
    return v[9] - au;
  });
  std::vector<Val> zipped{u | slide_nd(2, 3, 1), f | drop_nd(2, 1, 1)};
  for (const Val& w : c.windows())
    zipped.push_back(w);
  Fun apply([=](Val t) {
    std::vector<Val> args;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        args.push_back(t.get(0).at(a).at(b));
    args.push_back(t.get(1));
    for (const Val& s : CompassInputs::stencil_of(t, 2))
      args.push_back(s);
    return point.apply(args);
  });
  std::vector<Val> inputs{u, f};
  inputs.insert(inputs.end(), c.arrays.begin(), c.arrays.end());
  return program(inputs, zip_nd(2, zipped) | map_nd(2, apply));
}

Expr compass_restrict_full_weighting(const Level& fine) {
  require_compass_level(fine, "compass_restrict_full_weighting");
  fine.coarser(); // checks that the grid coarsens
  Val r = ring_input("r", fine);
  Fun weighted = formula("compassFullWeighting", kinds_of(fine, 9), [](const std::vector<Sym>& v) {
    Sym sum = 0.25 * v[4];
    for (int k : {1, 3, 5, 7})
      sum = sum + 0.125 * v[k];
    for (int k : {0, 2, 6, 8})
      sum = sum + 0.0625 * v[k];
    return sum;
  });
  Fun apply([=](Val w) {
    std::vector<Val> args;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        args.push_back(w.at(a).at(b));
    return weighted.apply(args);
  });
  // Coarse I reads fine interior 2I .. 2I+2, centred on 2I+1.
  return program({r}, r | drop_nd(2, 1, 1) | slide_nd(2, 3, 2) | map_nd(2, apply));
}

Expr compass_prolong_bilinear(const Level& coarse) {
  require_compass_level(coarse, "compass_prolong_bilinear");
  Level fine = finer(coarse);
  Val e = ring_input("e", coarse);
  // Window corners (row a, column b) in row-major order, then the parity code.
  std::vector<ScalarKind> kinds = kinds_of(coarse, 4);
  kinds.push_back(ScalarKind::I32);
  Fun interpolate = formula("compassBilinear", kinds, [](const std::vector<Sym>& v) {
    Sym odd_row = v[4] / 2, odd_column = v[4] % 2;
    // An odd index sits on a coarse line (corner 1 only), an even one between two (both halves).
    auto weight = [](const Sym& odd, int corner) {
      return select(odd == 1, Sym(corner == 1 ? 1.0 : 0.0), Sym(0.5));
    };
    Sym sum = Sym(0.0);
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b)
        sum = sum + weight(odd_row, a) * weight(odd_column, b) * v[2 * a + b];
    return sum;
  });
  Fun apply([=](Val t) {
    Val w = t.get(0);
    return interpolate(w.at(0).at(0), w.at(0).at(1), w.at(1).at(0), w.at(1).at(1), t.get(1));
  });
  return program({e}, zip_nd(2, {coarse_windows(e), parity_code(fine)}) | map_nd(2, apply));
}

Expr compass_prolong_operator(const Level& coarse) {
  require_compass_level(coarse, "compass_prolong_operator");
  Level fine = finer(coarse);
  Val e = ring_input("e", coarse);
  CompassInputs c(fine);
  // Stage 1: coarse points, and points on coarse rows and columns; cell centres 0 for now.
  // Parameters: O, the eight couplings, the 2x2 coarse window, the parity code.
  std::vector<ScalarKind> edge_kinds = kinds_of(fine, 13);
  edge_kinds.push_back(ScalarKind::I32);
  Fun edges = formula("compassEdges", edge_kinds, [](const std::vector<Sym>& v) {
    auto k = [&](int coupling) { return v[1 + coupling]; };
    auto corner = [&](int a, int b) { return v[9 + 2 * a + b]; };
    Sym code = v[13];
    Sym west = k(kW) + k(kSW) + k(kNW), east = k(kE) + k(kNE) + k(kSE);
    Sym south = k(kS) + k(kSW) + k(kSE), north = k(kN) + k(kNW) + k(kNE);
    Sym on_row = (west * corner(1, 0) + east * corner(1, 1)) / (v[0] - k(kS) - k(kN));
    Sym on_column = (south * corner(0, 1) + north * corner(1, 1)) / (v[0] - k(kW) - k(kE));
    return select(code == 3, corner(1, 1),
                  select(code == 2, on_row, select(code == 1, on_column, Sym(0.0))));
  });
  std::vector<Val> zipped = c.windows();
  zipped.push_back(coarse_windows(e));
  zipped.push_back(parity_code(fine));
  Fun edge_point([=](Val t) {
    std::vector<Val> args = CompassInputs::stencil_of(t, 0);
    Val w = t.get(5);
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b)
        args.push_back(w.at(a).at(b));
    args.push_back(t.get(6));
    return edges.apply(args);
  });
  Val first = zip_nd(2, zipped) | map_nd(2, edge_point);

  // Stage 2: a cell centre from its eight interpolated neighbours (the ring is the zero
  // boundary); the other points keep their value. Parameters: O, the eight couplings, the
  // neighbours in CouplingIndex order, the centre's stage-1 value, the parity code.
  std::vector<ScalarKind> centre_kinds = kinds_of(fine, 18);
  centre_kinds.push_back(ScalarKind::I32);
  Fun centres = formula("compassCentres", centre_kinds, [](const std::vector<Sym>& v) {
    Sym sum = v[1] * v[9];
    for (int k = 1; k < 8; ++k)
      sum = sum + v[1 + k] * v[9 + k];
    return select(v[18] == 0, sum / v[0], v[17]);
  });
  Boundary zero = fine.kind == ScalarKind::F32 ? constant(0.0f) : constant(0.0);
  Fun second([=](Val values) {
    std::vector<Val> zipped2 = c.windows();
    zipped2.push_back(values | pad_nd(2, 1, 1, zero) | slide_nd(2, 3, 1));
    zipped2.push_back(parity_code(fine));
    Fun centre_point([=](Val t) {
      std::vector<Val> args = CompassInputs::stencil_of(t, 0);
      for (const auto& cp : couplings())
        args.push_back(at_offset(t.get(5), cp.to, 1));
      args.push_back(at_offset(t.get(5), {0, 0}, 1));
      args.push_back(t.get(6));
      return centres.apply(args);
    });
    return zip_nd(2, zipped2) | map_nd(2, centre_point);
  });
  std::vector<Val> inputs{e};
  inputs.insert(inputs.end(), c.arrays.begin(), c.arrays.end());
  return program(inputs, first | second);
}

} // namespace tessera::multigrid
