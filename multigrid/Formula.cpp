#include "multigrid/Formula.h"

#include <cmath>

#include "core/Error.h"
#include "multigrid/BoxNesting.h"

namespace tessera::multigrid::detail {

Type grid_type(const Level& level) {
  return array_of(Type::scalar(level.kind), level.extents());
}

Val grid_input(const std::string& name, const Level& level) {
  return input(name, grid_type(level));
}

Fun formula(const std::string& name, const std::vector<ScalarKind>& params, const Body& body) {
  std::vector<Sym> symbols;
  for (std::size_t i = 0; i < params.size(); ++i)
    symbols.emplace_back(ScalarExpr::param(static_cast<int>(i)));
  return tessera::detail::make_user_fun_value(name, static_cast<int>(params.size()), params,
                                              body(symbols).expr());
}

Val at_offset(Val neighbourhood, const std::vector<int>& offset, int radius) {
  for (int o : offset)
    neighbourhood = neighbourhood.at(radius + o);
  return neighbourhood;
}

std::vector<std::vector<int>> star_offsets(int dims) {
  std::vector<std::vector<int>> offsets;
  for (int d = 0; d < dims; ++d)
    for (int sign : {-1, 1}) {
      std::vector<int> o(dims, 0);
      o[d] = sign;
      offsets.push_back(o);
    }
  return offsets;
}

std::vector<std::vector<int>> corners(int dims) {
  std::vector<std::vector<int>> all;
  for (int code = 0; code < (1 << dims); ++code) {
    std::vector<int> c(dims);
    for (int d = 0; d < dims; ++d)
      c[d] = (code >> (dims - 1 - d)) & 1;
    all.push_back(c);
  }
  return all;
}

// Built from the IR constructors: nested generate() calls would type-check each inner function on
// its own, where the captured index of an enclosing Generate has no type yet; the program's type
// check binds them in order.
Val index_grid(const Level& level, const Fun& g) {
  std::vector<Expr> indices;
  for (int d = 0; d < level.dims; ++d)
    indices.push_back(make_param());
  Expr grid = make_call(g.build(std::vector<Type>(level.dims, i32())), indices);
  auto extents = level.extents();
  for (int d = level.dims - 1; d >= 0; --d)
    grid = make_call(make_generate(extents[d], make_lambda({indices[d]}, grid)), {});
  return Val(grid, array_of(i32(), level.extents()));
}

Val colour_grid(const Level& level, int colour) {
  const int d = level.dims;
  Fun is_updated = formula("isColour" + std::to_string(colour),
                           std::vector<ScalarKind>(d, ScalarKind::I32), [=](const auto& idx) {
                             Sym sum = idx[0];
                             for (int k = 1; k < d; ++k)
                               sum = sum + idx[k];
                             return cast(ScalarKind::I32, (sum + colour) % 2 == 0);
                           });
  return index_grid(level, is_updated);
}

std::vector<Val> block_elements(const Val& block, int dims, int side) {
  std::vector<Val> all;
  int count = static_cast<int>(std::pow(side, dims));
  for (int code = 0; code < count; ++code) {
    Val v = block;
    for (int d = 0, rest = code, stride = count / side; d < dims; ++d, stride /= side) {
      v = v.at(rest / stride);
      rest %= stride;
    }
    all.push_back(v);
  }
  return all;
}

Fun average_formula(int count, ScalarKind kind) {
  return formula("average", std::vector<ScalarKind>(count, kind), [=](const auto& v) {
    Sym sum = v[0];
    for (int i = 1; i < count; ++i)
      sum = sum + v[i];
    return sum * (1.0 / count);
  });
}

namespace {

// The grid's elements in runs of `run` along `axis`, each run innermost: [n0][n1]..[n_{d-1}] ->
// [n0/run][n1]..[n_{d-1}][run] along the outermost axis (a work-item of the outer maps sums a
// column, its neighbours reading neighbouring elements: coalesced on a GPU), [n0]..[n_{d-1}/run]
// [run] along the innermost (a work-item sums a row in order).
Fun runs_innermost(int dims, SquareSumAxis axis, int64_t run) {
  if (axis == SquareSumAxis::Innermost)
    return map_nd(dims - 1, split(ArithExpr(run)));
  Fun f = split(ArithExpr(run));
  for (int level = 1; level < dims; ++level)
    f = f >> map_nd(level, transpose());
  return f;
}

Expr square_sums(const Level& level, const std::vector<Val>& inputs, const Val& zipped,
                 const Fun& point, SquareSumAxis axis) {
  const int d = level.dims;
  const int64_t run = square_sum_run(level, axis);
  if (run == 0)
    internal_error(cat("no square sums on ", level.describe(), ": square_sum_run is 0"));
  Fun square =
      formula("square", {level.kind}, [](const std::vector<Sym>& v) { return v[0] * v[0]; });
  Val zero = level.kind == ScalarKind::F64 ? Val(0.0) : Val(0.0f);
  return program(inputs, zipped | runs_innermost(d, axis, run) |
                             map_nd(d, map(point >> square) >> reduce(add_fun(), zero)));
}

} // namespace

Expr point_program(const Level& level, const std::vector<Val>& inputs, const Val& zipped,
                   const Fun& point, PointOutput output, const Level* coarse) {
  const int d = level.dims;
  if (output.kind == PointOutput::Grid)
    return program(inputs, zipped | map_nd(d, point));
  if (output.kind == PointOutput::SquareSums)
    return square_sums(level, inputs, zipped, point, output.axis);
  if (level.centring != Centring::Cell)
    user_error("the 2^d average restricts cell-centred grids; vertex-centred ones use full "
               "weighting");
  level.coarser(); // checks that the grid coarsens
  Fun mean = average_formula(1 << d, level.kind);
  Fun children([=](Val block) {
    std::vector<Val> values;
    for (const Val& child : block_elements(block, d, 2))
      values.push_back(point(child));
    return mean.apply(values);
  });
  const Val fine = coarse ? children_of_coarse_box(zipped, *coarse, level) : zipped;
  return program(inputs, fine | slide_nd(d, 2, 2) | map_nd(d, children));
}

Fun duplicate_nd(int dims) {
  // Split(1) then Pad(0, 1, clamp) turns each element into a pair of copies; Join flattens.
  Fun f = split(1) >> map(pad(0, 1, clamp)) >> join();
  for (int level = 1; level < dims; ++level)
    f = f >> map_nd(level, split(1) >> map(pad(0, 1, clamp)) >> join());
  return f;
}

Boundary zero_boundary(const Level& level) {
  switch (level.kind) {
  case ScalarKind::F32:
    return constant(0.0f);
  case ScalarKind::F64:
    return constant(0.0);
  default:
    user_error(cat("multigrid grids hold f32 or f64 values, got ", to_string(level.kind)));
  }
}

Boundary adapt(const Boundary& bc, const Level& level) {
  if (bc.kind != Boundary::Constant)
    return bc;
  return Boundary::constant(ScalarValue::make(level.kind, bc.value.as_double()));
}

// Bit (d-1-k) is i_k % 2 of the global index (a box with an odd halo below starts at an odd
// global index).
Val parity_grid(const Level& fine) {
  const int d = fine.dims;
  std::vector<int64_t> shift(d);
  for (int k = 0; k < d; ++k)
    shift[k] = halo_below(fine, k) % 2;
  Fun code = formula("parityCode", std::vector<ScalarKind>(d, ScalarKind::I32),
                     [d, shift](const std::vector<Sym>& idx) {
                       auto bit = [&](int k) {
                         return shift[k] ? (idx[k] + static_cast<int>(shift[k])) % 2 : idx[k] % 2;
                       };
                       Sym c = bit(0);
                       for (int k = 1; k < d; ++k)
                         c = c * 2 + bit(k);
                       return c;
                     });
  return index_grid(fine, code);
}

Sym parity_bit(const Sym& code, int k, int dims) {
  return (code / (1 << (dims - 1 - k))) % 2;
}

Expr pairs_along_x(const std::vector<Val>& inputs, const std::vector<Val>& grids,
                   const std::vector<Explode>& explode, const std::string& name,
                   const std::vector<ScalarKind>& kinds, const Body& point, int dims) {
  const std::size_t k = kinds.size();
  std::vector<ScalarKind> pair_kinds = kinds;
  pair_kinds.insert(pair_kinds.end(), kinds.begin(), kinds.end());
  pair_kinds.push_back(ScalarKind::I32); // the point's place in its pair
  // Once the compiler unrolls the pair, `place` is a constant and the selections fold.
  Fun both = formula(name + "Pair", pair_kinds, [=](const std::vector<Sym>& v) {
    std::vector<Sym> args;
    for (std::size_t i = 0; i < k; ++i)
      args.push_back(select(v[2 * k] == 0, v[i], v[k + i]));
    return point(args);
  });
  const Fun in_pairs = dims > 1 ? map_nd(dims - 1, split(2)) : split(2);
  std::vector<Val> pairs;
  for (const Val& g : grids)
    pairs.push_back(g | in_pairs);
  Fun apply([=](Val t) {
    return generate(2, Fun([=](Val place) {
                      std::vector<Val> args;
                      for (int half : {0, 1})
                        for (std::size_t i = 0; i < explode.size(); ++i)
                          for (const Val& x : explode[i](t.get(static_cast<int>(i)).at(half)))
                            args.push_back(x);
                      args.push_back(place);
                      return both.apply(args);
                    }));
  });
  Val rows = zip_nd(dims, pairs) | map_nd(dims, apply);
  return program(inputs, dims > 1 ? rows | map_nd(dims - 1, join()) : rows | join());
}

} // namespace tessera::multigrid::detail
