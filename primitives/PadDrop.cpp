// Pad(l, r, b) : [T]_n -> [T]_{l+n+r}
//   element i -> x[boundary_index(b, i - l, n)] for clamp, mirror and wrap; for constant(c),
//   x[i - l] inside and c outside. Mirror and wrap reflect at most once: l, r <= n.
// Drop(l, r)   : [T]_n -> [T]_{n-l-r}     element i -> x[i + l]; requires l + r <= n
#include "core/Error.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

namespace {

// A value shaped like `like` with every scalar replaced by `c`.
Data fill_like(const Data& like, const ScalarValue& c) {
  if (like.is_scalar()) return Data::scalar(c);
  std::vector<Data> items;
  for (const auto& e : like.elements()) items.push_back(fill_like(e, c));
  return like.is_array() ? Data::array(std::move(items)) : Data::tuple(std::move(items));
}

int64_t floor_mod(int64_t a, int64_t b) { return ((a % b) + b) % b; }

} // namespace

Type pad_type(TypeChecker&, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 1);
  const Type& in = require_array(name.c_str(), args[0]);
  const ArithExpr &l = f.sizes[0], &r = f.sizes[1], &n = in.length();
  switch (f.boundary.kind) {
  case Boundary::Constant: {
    const Type& inner = in.element().innermost();
    if (!inner.is_scalar() || inner.scalar_kind() != f.boundary.value.kind)
      user_error(cat(name, ": the constant ", f.boundary.value.to_string(), " has type ",
                     to_string(f.boundary.value.kind), " but the elements of ", in, " are ",
                     inner));
    break;
  }
  case Boundary::Mirror:
  case Boundary::Wrap:
    if (prove_le(l, n) == Truth::No || prove_le(r, n) == Truth::No)
      user_error(cat(name, ": ", f.boundary.to_string(), " padding can add at most the length ",
                     n.to_string(), " on each side of ", in, ", got ", l.to_string(), " and ",
                     r.to_string()));
    [[fallthrough]];
  case Boundary::Clamp:
    if (prove_le(1, n) == Truth::No)
      user_error(cat(name, ": cannot pad an empty array ", in, " with ", f.boundary.to_string()));
    break;
  }
  return Type::array(in.element(), l + n + r);
}

Data pad_eval(Interpreter& interp, const Node& f, const Values& args) {
  const Data& x = args.at(0);
  int64_t l = interp.size_value(f.sizes[0]), r = interp.size_value(f.sizes[1]);
  auto n = static_cast<int64_t>(x.size());
  const Boundary& b = f.boundary;
  if (b.kind != Boundary::Constant && n == 0) user_error("Pad: cannot pad an empty array");
  if ((b.kind == Boundary::Mirror || b.kind == Boundary::Wrap) && (l > n || r > n))
    user_error(cat("Pad: ", b.to_string(), " padding larger than the length ", n));
  std::vector<Data> out;
  for (int64_t i = -l; i < n + r; ++i) {
    if (i >= 0 && i < n) {
      out.push_back(x[i]);
      continue;
    }
    switch (b.kind) {
    case Boundary::Clamp: out.push_back(x[i < 0 ? 0 : n - 1]); break;
    case Boundary::Mirror: out.push_back(x[i < 0 ? -1 - i : 2 * n - 1 - i]); break;
    case Boundary::Wrap: out.push_back(x[floor_mod(i, n)]); break;
    case Boundary::Constant:
      if (n == 0) user_error("Pad: cannot infer the element shape of an empty array");
      out.push_back(fill_like(x[0], b.value));
      break;
    }
  }
  return Data::array(std::move(out));
}

Type drop_type(TypeChecker&, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 1);
  const Type& in = require_array(name.c_str(), args[0]);
  const ArithExpr &l = f.sizes[0], &r = f.sizes[1], &n = in.length();
  if (prove_le(l + r, n) == Truth::No)
    user_error(cat(name, ": cannot drop ", (l + r).to_string(), " elements from ", in,
                   " of length ", n.to_string()));
  return Type::array(in.element(), n - l - r);
}

Data drop_eval(Interpreter& interp, const Node& f, const Values& args) {
  const Data& x = args.at(0);
  int64_t l = interp.size_value(f.sizes[0]), r = interp.size_value(f.sizes[1]);
  auto n = static_cast<int64_t>(x.size());
  if (l + r > n) user_error(cat("Drop(", l, ",", r, "): array of length ", n, " is too short"));
  return Data::array({x.elements().begin() + l, x.elements().end() - r});
}

} // namespace tessera::primitives
