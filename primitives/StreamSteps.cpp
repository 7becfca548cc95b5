// StreamSteps(d, k, r, segment, tiles.., b)(f) : ([T]^d_N, consts..) -> [T]^d_N
//
// k steps of the stencil  S(a) = Map^d(f) $ ZipND(SlideND(2r+1, 1) $ PadND(r, r, b) $ a, c..),
// every step padded with b as the unfused program pads it. The sizes only say how the code
// generator blocks the steps (2.5-D blocking: tiles of the inner dimensions marching along
// dimension 0, codegen/StreamSteps.cpp); the meaning does not depend on them. The reference
// semantics below is a direct loop over the grid, independent of the other primitives, so that
// the tests compare two implementations.
#include "core/Error.h"
#include "core/Fields.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

namespace {

// [[T]_n]^d: the type of one neighbourhood.
Type window_type(const Type& element, int d, int64_t n) {
  Type t = element;
  for (int i = 0; i < d; ++i)
    t = Type::array(t, n);
  return t;
}

// The scalars of a d-dimensional grid in row-major order, and its extents.
void flatten_grid(const Data& grid, int d, std::vector<int64_t>* extents,
                  std::vector<Data>* scalars, std::size_t level = 0) {
  if (level == static_cast<std::size_t>(d)) {
    scalars->push_back(grid);
    return;
  }
  if (extents->size() == level)
    extents->push_back(static_cast<int64_t>(grid.size()));
  for (const auto& e : grid.elements())
    flatten_grid(e, d, extents, scalars, level + 1);
}

// Nested arrays of the given extents from row-major scalars.
Data nest(const std::vector<Data>& scalars, const std::vector<int64_t>& extents, std::size_t level,
          std::size_t* next) {
  if (level == extents.size())
    return scalars.at((*next)++);
  std::vector<Data> items;
  for (int64_t i = 0; i < extents[level]; ++i)
    items.push_back(nest(scalars, extents, level + 1, next));
  return Data::array(std::move(items));
}

// The padded grid's value at position q (each coordinate at most r outside the grid), with b
// applied per dimension as PadND applies it.
Data padded_value(const std::vector<Data>& grid, const std::vector<int64_t>& extents,
                  const std::vector<int64_t>& q, const Boundary& b) {
  int64_t flat = 0;
  bool outside = false, negate = false;
  for (std::size_t i = 0; i < q.size(); ++i) {
    int64_t n = extents[i], x = q[i];
    if (x < 0 || x >= n) {
      outside = true;
      negate = !negate;
      switch (b.kind) {
      case Boundary::Clamp:
      case Boundary::Constant:
        x = x < 0 ? 0 : n - 1;
        break;
      case Boundary::Mirror:
      case Boundary::Antisymmetric:
        x = x < 0 ? -1 - x : 2 * n - 1 - x;
        break;
      case Boundary::Wrap:
        x = x < 0 ? x + n : x - n;
        break;
      case Boundary::Fixed:
        internal_error("StreamSteps with the fixed boundary (make_stream_steps refuses it)");
      }
    }
    flat = flat * n + x;
  }
  const ScalarValue& v = grid.at(static_cast<std::size_t>(flat)).as_scalar();
  if (outside && b.kind == Boundary::Constant)
    return Data::scalar(ScalarValue::make(v.kind, b.value.as_double()));
  if (negate && b.kind == Boundary::Antisymmetric) {
    static const ScalarExpr negation = ScalarExpr::unary(ScalarOp::Neg, ScalarExpr::param(0));
    return Data::scalar(negation.evaluate({v}));
  }
  return Data::scalar(v);
}

} // namespace

Type stream_steps_type(TypeChecker& checker, const Node& f, const Types& args) {
  std::string name = describe(f);
  if (args.empty())
    user_error(cat(name, " takes the grid and its constant inputs, got no arguments"));
  const StreamStepsFields s = stream_steps_fields(f);
  std::vector<ArithExpr> extents;
  const Type* t = &args[0];
  for (int i = 0; i < s.dims; ++i) {
    if (!t->is_array())
      user_error(cat(name, " expects a ", s.dims, "-D grid, got ", args[0]));
    extents.push_back(t->length());
    t = &t->element();
  }
  if (!t->is_scalar())
    user_error(cat(name, " expects a grid of scalars, got ", args[0]));
  const Type element = *t;
  std::vector<Type> components{window_type(element, s.dims, 2 * s.radius + 1)};
  for (std::size_t c = 1; c < args.size(); ++c) {
    const Type* ct = &args[c];
    for (int i = 0; i < s.dims; ++i) {
      if (!ct->is_array() ||
          prove_eq(ct->length(), extents[static_cast<std::size_t>(i)]) == Truth::No)
        user_error(cat(name, ": constant input ", c, " must have the grid's extents (", args[0],
                       "), got ", args[c]));
      ct = &ct->element();
    }
    if (!ct->is_scalar())
      user_error(cat(name, ": constant input ", c, " must hold scalars, got ", args[c]));
    components.push_back(*ct);
  }
  const std::size_t consts = args.size() - 1;
  if (consts % static_cast<std::size_t>(s.phases) != 0)
    user_error(cat(name, ": ", consts, " constant inputs do not make ", s.phases,
                   " groups of equal size (one group per phase of the steps)"));
  const std::size_t per_phase = consts / static_cast<std::size_t>(s.phases);
  for (std::size_t c = per_phase; c < consts; ++c)
    if (!(components[1 + c] == components[1 + c % per_phase]))
      user_error(cat(name, ": constant input ", 1 + c, " has elements of type ", components[1 + c],
                     ", its counterpart in the first group ", components[1 + c % per_phase]));
  components.erase(components.begin() + static_cast<std::ptrdiff_t>(1 + per_phase),
                   components.end());
  Type window = components.size() == 1 ? components[0] : Type::tuple(components);
  Type result = checker.apply(f.children[0], {window});
  if (!(result == element))
    user_error(cat(name, ": the step function must return the grid's element type ", element,
                   " for each neighbourhood ", window, ", got ", result));
  if (f.boundary.kind != Boundary::Clamp && f.boundary.kind != Boundary::Constant)
    for (const auto& n : extents)
      require_le(checker, ArithExpr(s.steps * s.radius), n,
                 cat(name, ": ", s.steps, " steps of radius ", s.radius,
                     " reflect or wrap at most once: ", "every extent must be at least ",
                     s.steps * s.radius, ", got ", n.to_string()));
  return args[0];
}

Data stream_steps_eval(Interpreter& interp, const Node& f, const Values& args) {
  const StreamStepsFields s = stream_steps_fields(f);
  std::vector<int64_t> extents;
  std::vector<Data> grid;
  flatten_grid(args.at(0), s.dims, &extents, &grid);
  std::vector<std::vector<Data>> consts(args.size() - 1);
  for (std::size_t c = 1; c < args.size(); ++c) {
    std::vector<int64_t> unused;
    flatten_grid(args[c], s.dims, &unused, &consts[c - 1]);
  }
  const int64_t n = 2 * s.radius + 1;
  std::vector<int64_t> window_extents(static_cast<std::size_t>(s.dims), n);
  for (int64_t step = 0; step < s.steps; ++step) {
    std::vector<Data> next;
    next.reserve(grid.size());
    std::vector<int64_t> p(static_cast<std::size_t>(s.dims), 0);
    for (std::size_t flat = 0; flat < grid.size(); ++flat) {
      // p: the position of `flat`.
      for (int i = s.dims - 1, rest = static_cast<int>(flat); i >= 0; --i) {
        p[static_cast<std::size_t>(i)] = rest % extents[static_cast<std::size_t>(i)];
        rest /= static_cast<int>(extents[static_cast<std::size_t>(i)]);
      }
      std::vector<Data> window;
      int64_t window_size = s.dims == 2 ? n * n : n * n * n;
      for (int64_t w = 0; w < window_size; ++w) {
        std::vector<int64_t> q(p);
        for (int i = s.dims - 1, rest = static_cast<int>(w); i >= 0; --i) {
          q[static_cast<std::size_t>(i)] += rest % n - s.radius;
          rest /= static_cast<int>(n);
        }
        window.push_back(padded_value(grid, extents, q, f.boundary));
      }
      std::size_t at = 0;
      Data arg = nest(window, window_extents, 0, &at);
      if (!consts.empty()) {
        std::vector<Data> parts{arg};
        const std::size_t per_phase = consts.size() / static_cast<std::size_t>(s.phases);
        const std::size_t group = static_cast<std::size_t>(step % s.phases) * per_phase;
        for (std::size_t c = 0; c < per_phase; ++c)
          parts.push_back(consts[group + c][flat]);
        arg = Data::tuple(std::move(parts));
      }
      next.push_back(interp.apply(f.children[0], {arg}));
    }
    grid = std::move(next);
  }
  std::size_t at = 0;
  return nest(grid, extents, 0, &at);
}

} // namespace tessera::primitives
