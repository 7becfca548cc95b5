// Pad(l, r, b) : [T]_n -> [T]_{l+n+r}
//   element i -> x[boundary_index(b, i - l, n)] for clamp, mirror and wrap; for constant(c),
//   x[i - l] inside and c outside; for antisymmetric, mirror's element, negated outside.
//   Mirror, antisymmetric and wrap reflect at most once: l, r <= n.
// Drop(l, r)   : [T]_n -> [T]_{n-l-r}     element i -> x[i + l]; requires l + r <= n
#include <algorithm>

#include "core/Error.h"
#include "core/Fields.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

namespace {

// A value shaped like `like` with every scalar replaced by `c` (of the scalar's kind).
Data fill_like(const Data& like, const ScalarValue& c) {
  if (like.is_scalar())
    return Data::scalar(ScalarValue::make(like.as_scalar().kind, c.as_double()));
  std::vector<Data> items;
  items.reserve(like.size());
  for (const auto& e : like.elements())
    items.push_back(fill_like(e, c));
  return like.is_array() ? Data::array(std::move(items)) : Data::tuple(std::move(items));
}

// A value of type `t` (scalars and arrays) with every scalar `c`.
Data fill_type(const Type& t, const Interpreter& interp, const ScalarValue& c) {
  if (!t.is_array())
    return Data::scalar(t.is_scalar() ? ScalarValue::make(t.scalar_kind(), c.as_double()) : c);
  Data element = fill_type(t.element(), interp, c);
  return Data::array(
      std::vector<Data>(static_cast<std::size_t>(interp.size_value(t.length())), element));
}

bool padding_value_fits(const ScalarValue& c, ScalarKind element) {
  if (c.kind == element)
    return true;
  if (c.kind == ScalarKind::Bool || element == ScalarKind::Bool)
    return false;
  if (is_floating(c.kind) && is_floating(element))
    return true; // rounded, like a literal in a user function
  return ScalarValue::make(element, c.as_double()).as_double() == c.as_double();
}

int64_t floor_mod(int64_t a, int64_t b) {
  return ((a % b) + b) % b;
}

// Whether every scalar of a value of type t has a negation of its own kind (i32, f32, f64).
bool is_negatable(const Type& t) {
  if (t.is_array())
    return is_negatable(t.element());
  if (t.is_tuple()) {
    for (const auto& m : t.elements())
      if (!is_negatable(m))
        return false;
    return true;
  }
  ScalarKind k = t.scalar_kind();
  return k == ScalarKind::F32 || k == ScalarKind::F64 || k == ScalarKind::I32;
}

// -x for every scalar of x, with OpenCL C's semantics (i32 wraps).
Data negated(const Data& x) {
  if (x.is_scalar()) {
    static const ScalarExpr negation = ScalarExpr::unary(ScalarOp::Neg, ScalarExpr::param(0));
    return Data::scalar(negation.evaluate({x.as_scalar()}));
  }
  std::vector<Data> items;
  items.reserve(x.size());
  for (const auto& e : x.elements())
    items.push_back(negated(e));
  return x.is_array() ? Data::array(std::move(items)) : Data::tuple(std::move(items));
}

} // namespace

Type pad_type(TypeChecker& checker, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 1);
  const Type& in = require_array(name.c_str(), args[0]);
  const auto [l, r] = pad_fields(f);
  const ArithExpr& n = in.length();
  switch (f.boundary.kind) {
  case Boundary::Constant: {
    const Type& inner = in.element().innermost();
    // A literal adapts to the element type (pad(1, 1, constant(0)) of f32) when its value is
    // exactly representable there, as literals do inside user functions.
    if (!inner.is_scalar() || !padding_value_fits(f.boundary.value, inner.scalar_kind()))
      user_error(cat(
          name, ": the constant ", f.boundary.value.to_string(), " has type ",
          to_string(f.boundary.value.kind), " but the elements of ", in, " are ", inner,
          (inner.is_scalar()
               ? " and it is not exactly representable there (use a constant of the elements' type)"
               : "")));
    // Around an empty array the interpreter needs the element shape from the type.
    checker.record_argument(&f, in);
    break;
  }
  case Boundary::Antisymmetric:
    if (!is_negatable(in.element()))
      user_error(cat(name,
                     ": antisymmetric padding negates the elements it reflects, so they "
                     "must be signed numbers (i32, f32, f64), got the elements of ",
                     in));
    [[fallthrough]];
  case Boundary::Mirror:
  case Boundary::Wrap: {
    std::string why = cat(name, ": ", f.boundary.to_string(),
                          " padding can add at most the length ", n.to_string(),
                          " on each side of ", in, ", got ", l.to_string(), " and ", r.to_string());
    require_le(checker, l, n, why);
    require_le(checker, r, n, why);
    [[fallthrough]];
  }
  case Boundary::Clamp:
    require_le(checker, 1, n,
               cat(name, ": cannot pad an empty array ", in, " with ", f.boundary.to_string()));
    break;
  case Boundary::Fixed:
    internal_error("a Pad with the fixed boundary (make_pad refuses it)");
  }
  return Type::array(in.element(), l + n + r);
}

Data pad_eval(Interpreter& interp, const Node& f, const Values& args) {
  const Data& x = args.at(0);
  const MarginFields fields = pad_fields(f);
  int64_t l = interp.size_value(fields.left), r = interp.size_value(fields.right);
  auto n = static_cast<int64_t>(x.size());
  const Boundary& b = f.boundary;
  std::string name = cat("Pad(", l, ",", r, ",", b.to_string(), ")");
  if (b.kind != Boundary::Constant && n == 0)
    user_error(cat(name, ": cannot pad an empty array with ", b.to_string()));
  if ((b.kind == Boundary::Mirror || b.kind == Boundary::Antisymmetric ||
       b.kind == Boundary::Wrap) &&
      (l > n || r > n))
    user_error(cat(name, ": ", b.to_string(), " padding can add at most the length ", n,
                   " on each side, got ", l, " and ", r));
  // The constant's shape: like an element, or from the type around an empty array.
  Data filler;
  if (b.kind == Boundary::Constant && n == 0 && l + r > 0) {
    const Type* in = interp.argument_type(f);
    if (!in)
      user_error(cat(name, ": the element shape of an empty array is not known here (it comes "
                           "from the argument's type: run the program with evaluate(), and "
                           "apply this Pad to arguments of one type only)"));
    filler = fill_type(in->element(), interp, b.value);
  } else if (b.kind == Boundary::Constant && n > 0) {
    filler = fill_like(x[0], b.value);
  }
  std::vector<Data> out;
  out.reserve(static_cast<std::size_t>(std::max<int64_t>(l + n + r, 0)));
  for (int64_t i = -l; i < n + r; ++i) {
    if (i >= 0 && i < n) {
      out.push_back(x[i]);
      continue;
    }
    switch (b.kind) {
    case Boundary::Clamp:
      out.push_back(x[i < 0 ? 0 : n - 1]);
      break;
    case Boundary::Mirror:
      out.push_back(x[i < 0 ? -1 - i : 2 * n - 1 - i]);
      break;
    case Boundary::Antisymmetric:
      out.push_back(negated(x[i < 0 ? -1 - i : 2 * n - 1 - i]));
      break;
    case Boundary::Wrap:
      out.push_back(x[floor_mod(i, n)]);
      break;
    case Boundary::Constant:
      out.push_back(filler);
      break;
    case Boundary::Fixed:
      internal_error("a Pad with the fixed boundary (make_pad refuses it)");
    }
  }
  return Data::array(std::move(out));
}

Type drop_type(TypeChecker& checker, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 1);
  const Type& in = require_array(name.c_str(), args[0]);
  const auto [l, r] = drop_fields(f);
  const ArithExpr& n = in.length();
  require_le(checker, l + r, n,
             cat(name, ": cannot drop ", (l + r).to_string(), " elements from ", in, " of length ",
                 n.to_string()));
  return Type::array(in.element(), n - l - r);
}

Data drop_eval(Interpreter& interp, const Node& f, const Values& args) {
  const Data& x = args.at(0);
  const MarginFields fields = drop_fields(f);
  int64_t l = interp.size_value(fields.left), r = interp.size_value(fields.right);
  auto n = static_cast<int64_t>(x.size());
  if (l + r > n)
    user_error(cat("Drop(", l, ",", r, "): array of length ", n, " is too short"));
  return Data::array({x.elements().begin() + l, x.elements().end() - r});
}

} // namespace tessera::primitives
