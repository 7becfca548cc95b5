#include "peers/MultigridOperators.h"

#include "core/Error.h"
#include "multigrid/Operators.h"

namespace tessera::peers {

namespace {

using multigrid::Centring;
using multigrid::Level;
using Ext = std::vector<int64_t>;

constexpr double kOmega = 0.8; // weighted Jacobi's damping

// A level of n points a side with the mesh width of a level of `like` points.
Level level(int dims, int64_t n, int64_t like, Centring c = Centring::Cell) {
  Level big{dims, like, ScalarKind::F32, c};
  Level l{dims, n, ScalarKind::F32, c};
  l.length = big.h() * static_cast<double>(c == Centring::Cell ? n : n + 1);
  return l;
}

Ext cube(int dims, int64_t n) {
  return Ext(static_cast<std::size_t>(dims), n);
}

// An operator whose inputs and output are all on the grid it is known by.
OperatorAt same_grid(const std::string& name, int dims, int inputs,
                     std::function<Expr(const Level&)> program) {
  return {cat("mg_", name, "_", dims, "d"),
          dims,
          Boundary::Antisymmetric,
          [=](const Ext& e, const Ext& like) { return program(level(dims, e[0], like[0])); },
          [=](const Ext& e) { return std::vector<Ext>(static_cast<std::size_t>(inputs), e); },
          [](const Ext& e) { return e; }};
}

std::vector<OperatorAt> of_dims(int dims) {
  const Boundary bc = Boundary::antisymmetric();
  std::vector<OperatorAt> ops{
      same_grid("jacobi", dims, 2,
                [=](const Level& l) { return multigrid::jacobi(l, bc, kOmega); }),
      same_grid("gsrb_red", dims, 2,
                [=](const Level& l) { return multigrid::gsrb_half_sweep(l, bc, 0); }),
      same_grid("residual", dims, 2, [=](const Level& l) { return multigrid::residual(l, bc); })};
  ops.push_back({cat("mg_restrict_", dims, "d"), dims, Boundary::Antisymmetric,
                 [=](const Ext& e, const Ext& like) {
                   return multigrid::restrict_average(level(dims, e[0], like[0]));
                 },
                 [](const Ext& e) { return std::vector<Ext>{e}; },
                 [=](const Ext& e) { return cube(dims, e[0] / 2); }});
  // Vertex-centred: n - 1 fine vertices (odd) coarsen to n / 2 - 1.
  ops.push_back({cat("mg_full_weighting_", dims, "d"), dims, Boundary::Antisymmetric,
                 [=](const Ext& e, const Ext& like) {
                   return multigrid::restrict_full_weighting(
                       level(dims, e[0] - 1, like[0] - 1, Centring::Vertex));
                 },
                 [=](const Ext& e) { return std::vector<Ext>{cube(dims, e[0] - 1)}; },
                 [=](const Ext& e) { return cube(dims, e[0] / 2 - 1); }});
  ops.push_back({cat("mg_prolong_", dims, "d"), dims, Boundary::Antisymmetric,
                 [=](const Ext& e, const Ext& like) {
                   return multigrid::prolong_add(level(dims, e[0] / 2, like[0] / 2),
                                                 multigrid::Interpolation::Linear, bc);
                 },
                 [=](const Ext& e) {
                   return std::vector<Ext>{e, cube(dims, e[0] / 2)};
                 },
                 [](const Ext& e) { return e; }});
  return ops;
}

} // namespace

std::vector<OperatorAt> multigrid_operators() {
  auto ops = of_dims(2);
  auto three = of_dims(3);
  ops.insert(ops.end(), three.begin(), three.end());
  return ops;
}

std::vector<std::string> multigrid_operator_names() {
  std::vector<std::string> names;
  for (const auto& op : multigrid_operators())
    names.push_back(op.name);
  return names;
}

OperatorAt find_multigrid_operator(const std::string& name) {
  std::string known;
  for (const auto& op : multigrid_operators()) {
    if (op.name == name)
      return op;
    known += (known.empty() ? "" : ", ") + op.name;
  }
  user_error(cat("unknown multigrid operator '", name, "' (known: ", known, ")"));
}

} // namespace tessera::peers
