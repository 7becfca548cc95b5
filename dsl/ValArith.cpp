#include "dsl/ValArith.h"

#include "core/ScalarTyping.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "core/Error.h"
#include "core/Fields.h"
#include "primitives/TypeCheck.h"

namespace tessera {

// A neighbourhood point: `base.at(i).at(j)...` with constant indices into a window whose
// lengths are odd constants; its offsets from the window's centre. (Not in an anonymous
// namespace: detail::ScalarTerm, declared in the header, holds it.)
namespace detail {
struct NeighbourPoint {
  Expr base;
  std::vector<int> offset;
};
} // namespace detail
using detail::NeighbourPoint;

// The expression of an arithmetic value: `body` over the parameters 0..n-1, which stand for
// `leaves` (the values it reads, in parameter order).
struct detail::ScalarTerm {
  ScalarExpr body;
  std::vector<Val> leaves;
  std::vector<std::optional<NeighbourPoint>> points; // of the leaves
  ScalarKind kind = ScalarKind::F32;
  std::string name = "expr";
};

using detail::ScalarTerm;

namespace {

// One operand as a scalar expression: a term, a value read (one leaf) or a C++ number (weak).
struct Term {
  ScalarExpr body;
  std::vector<Val> leaves;
  std::vector<std::optional<NeighbourPoint>> points;
  ScalarKind kind = ScalarKind::F32;
  bool weak = false;
};

std::optional<NeighbourPoint> point_of(const Val& leaf);

Term term_of(const Operand& o) {
  if (o.is_number())
    return {o.number(), {}, {}, o.number().value().kind, true};
  const Val& v = o.val();
  if (v.term())
    return {v.term()->body, v.term()->leaves, v.term()->points, v.term()->kind, false};
  if (!v.type().is_scalar())
    detail::rethrow_located(Error(cat("arithmetic needs scalar values, got a value of type ",
                                      v.type(), " (take an element with at() or get() first)")),
                            o.location());
  ScalarKind kind = v.type().scalar_kind();
  if (v.expr()->kind == NodeKind::Literal)
    return {ScalarExpr::constant(v.expr()->literal, false), {}, {}, kind, false};
  return {ScalarExpr::param(0), {v}, {point_of(v)}, kind, false};
}

// Adds the leaves of `t` to `leaves` (a value read twice is one parameter) and returns its body
// over the joint parameters.
ScalarExpr join_leaves(Term& joint, const Term& t) {
  std::vector<Val>& leaves = joint.leaves;
  std::vector<int> map;
  for (std::size_t i = 0; i < t.leaves.size(); ++i) {
    const Val& leaf = t.leaves[i];
    auto same = [&](const Val& v) { return structurally_equal(v.expr(), leaf.expr()); };
    auto found = std::find_if(leaves.begin(), leaves.end(), same);
    map.push_back(static_cast<int>(found - leaves.begin()));
    if (found == leaves.end()) {
      leaves.push_back(leaf);
      joint.points.push_back(t.points[i]);
    }
  }
  return map.empty()
             ? t.body
             : rename_params(t.body, [&](int i) { return map.at(static_cast<std::size_t>(i)); });
}

std::optional<NeighbourPoint> point_of(const Val& leaf) {
  std::vector<int64_t> indices;
  Expr e = leaf.expr();
  while (e->kind == NodeKind::Call && e->callee()->kind == NodeKind::At &&
         e->children.size() == 2) {
    auto index = at_fields(*e->callee()).index.as_constant();
    if (!index)
      return std::nullopt;
    indices.insert(indices.begin(), *index);
    e = e->children[1];
  }
  if (indices.empty())
    return std::nullopt;
  Type t = Type::scalar(ScalarKind::F32);
  try {
    TypeChecker checker;
    t = checker.check(e);
  } catch (const Error&) {
    return std::nullopt;
  }
  NeighbourPoint p{e, {}};
  for (int64_t index : indices) {
    auto length = t.is_array() ? t.length().as_constant() : std::nullopt;
    if (!length || *length % 2 == 0)
      return std::nullopt;
    p.offset.push_back(static_cast<int>(index - (*length - 1) / 2));
    t = t.element();
  }
  return p;
}

// A point's parameter name: its offset's name, prefixed for every neighbourhood but the first
// with the name of the array it reads (`weights_c`) so that two neighbourhoods' names differ.
std::string point_name(const NeighbourPoint& p, std::size_t base, const std::vector<Expr>& bases) {
  std::string name = neighbour_name(p.offset);
  if (base == 0)
    return name;
  const Expr& b = bases[base];
  bool named = b->kind == NodeKind::Param && !b->name.empty();
  return cat(named ? b->name : cat("n", base), "_", name);
}

// The term's parameters in their canonical order (see ValArith.h) and their names.
ScalarTerm canonical(ScalarExpr body, const Term& joint, std::vector<std::string>& names) {
  const std::vector<Val>& leaves = joint.leaves;
  const std::vector<std::optional<NeighbourPoint>>& points = joint.points;
  std::vector<Expr> bases;
  for (const auto& p : points)
    if (p && std::none_of(bases.begin(), bases.end(),
                          [&](const Expr& b) { return structurally_equal(b, p->base); }))
      bases.push_back(p->base);
  auto base_index = [&](const NeighbourPoint& p) {
    for (std::size_t i = 0; i < bases.size(); ++i)
      if (structurally_equal(bases[i], p.base))
        return i;
    return bases.size();
  };
  std::vector<int> order(leaves.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const auto &pa = points[a], &pb = points[b];
    if (!pa || !pb)
      return pa.has_value() && !pb.has_value();
    std::size_t ba = base_index(*pa), bb = base_index(*pb);
    return ba != bb ? ba < bb : pa->offset < pb->offset;
  });
  std::vector<int> map(leaves.size());
  ScalarTerm term;
  bool any_point = false;
  for (std::size_t i = 0; i < order.size(); ++i) {
    map[order[i]] = static_cast<int>(i);
    term.leaves.push_back(leaves[order[i]]);
    term.points.push_back(points[order[i]]);
    const auto& p = points[order[i]];
    any_point |= p.has_value();
    names.push_back(p ? point_name(*p, base_index(*p), bases) : cat("v", i));
  }
  if (!any_point)
    names.clear();
  term.body = rename_params(body, [&](int i) { return map.at(static_cast<std::size_t>(i)); });
  return term;
}

// The value of `term`: its user function applied to the values it reads.
Val materialize(ScalarTerm term, std::vector<std::string> names, const std::source_location& loc) {
  try {
    std::vector<ScalarKind> kinds;
    std::vector<Expr> args;
    for (const auto& leaf : term.leaves) {
      kinds.push_back(leaf.type().scalar_kind());
      args.push_back(leaf.expr());
    }
    term.kind = term.body.infer(kinds, "expression");
    auto def = std::make_shared<UserFunDef>();
    def->name = term.name;
    def->arity = static_cast<int>(kinds.size());
    def->signature = kinds;
    def->body = term.body;
    def->param_names = std::move(names);
    Expr call = make_call(make_user_fun(def), args);
    Type type = Type::scalar(term.kind);
    return Val(call, type, std::make_shared<const ScalarTerm>(std::move(term)));
  } catch (const Error& e) {
    detail::rethrow_located(e, loc);
  }
}

Val build(ScalarExpr body, const Term& joint, const std::source_location& loc,
          std::string name = "expr") {
  std::vector<std::string> names;
  ScalarTerm term = canonical(std::move(body), joint, names);
  term.name = std::move(name);
  return materialize(std::move(term), std::move(names), loc);
}

[[noreturn]] void type_error(const std::string& message, const std::source_location& loc) {
  detail::rethrow_located(Error(message), loc);
}

// A C++ number next to a value of kind `other`: integers go with any number kind, fractional
// numbers with floating values only, bools with bools only.
void check_number(const Term& number, ScalarKind other, const std::string& what,
                  const std::source_location& loc) {
  ScalarKind n = number.kind;
  bool ok = n == ScalarKind::Bool
                ? other == ScalarKind::Bool
                : other != ScalarKind::Bool && (n != ScalarKind::F64 || is_floating(other));
  if (!ok)
    type_error(cat(what, ": a C++ ", n == ScalarKind::F64 ? "floating-point " : "",
                   n == ScalarKind::Bool ? "bool" : "number", " cannot be combined with a ",
                   to_string(other), " value"),
               loc);
}

// The one kind of two operands (a C++ number takes the other's kind).
ScalarKind common_kind(const Term& a, const Term& b, const std::string& what,
                       const std::source_location& loc) {
  if (a.weak && b.weak)
    return a.kind;
  if (a.weak || b.weak) {
    const Term& number = a.weak ? a : b;
    ScalarKind other = a.weak ? b.kind : a.kind;
    check_number(number, other, what, loc);
    return other;
  }
  if (a.kind != b.kind)
    type_error(cat(what, " mixes ", to_string(a.kind), " and ", to_string(b.kind),
                   " values: both operands must have one type (nothing is converted silently)"),
               loc);
  return a.kind;
}

// Checks the operand kinds of `op` (see ValArith.h).
void check_operator(ScalarOp op, ScalarKind kind, const std::string& what,
                    const std::source_location& loc) {
  bool logic = op == ScalarOp::And || op == ScalarOp::Or || op == ScalarOp::Not;
  bool equality = op == ScalarOp::Eq || op == ScalarOp::Ne;
  if (logic && kind != ScalarKind::Bool)
    type_error(cat(what, " needs bool values, got ", to_string(kind)), loc);
  if (!logic && !equality && kind == ScalarKind::Bool)
    type_error(cat(what, " needs numbers (f32, f64, i32 or u8), got bool values"), loc);
  if (op == ScalarOp::Mod && is_floating(kind))
    type_error(cat(what, " needs integer values, got ", to_string(kind)), loc);
}

Val binary(ScalarOp op, const Operand& a, const Operand& b) {
  Term ta = term_of(a), tb = term_of(b);
  std::string what = cat("'", scalar::op_symbol(op), "'");
  ScalarKind kind = common_kind(ta, tb, what, a.location());
  check_operator(op, kind, what, a.location());
  // The left operand's leaves are distinct already: they start the joint leaves as they are,
  // and only the right operand's are looked up among them. (Joining both, a sum of n points
  // written as s = s + w * x compared O(n^3) leaves: 53% of building a 729-point box.)
  Term joint;
  joint.leaves = ta.leaves;
  joint.points = ta.points;
  ScalarExpr eb = join_leaves(joint, tb);
  return build(ScalarExpr::binary(op, ta.body, eb), joint, a.location());
}

Val unary(ScalarOp op, const Operand& a) {
  Term ta = term_of(a);
  check_operator(op, ta.kind, cat("'", scalar::op_symbol(op), "'"), a.location());
  return build(ScalarExpr::unary(op, ta.body), ta, a.location());
}

} // namespace

ScalarExpr detail::cpp_number(ScalarKind kind, double value) {
  return ScalarExpr::constant(ScalarValue::make(kind, value), kind != ScalarKind::Bool);
}

Val operator+(const Operand& a, const Operand& b) {
  return binary(ScalarOp::Add, a, b);
}
Val operator-(const Operand& a, const Operand& b) {
  return binary(ScalarOp::Sub, a, b);
}
Val operator*(const Operand& a, const Operand& b) {
  return binary(ScalarOp::Mul, a, b);
}
Val operator/(const Operand& a, const Operand& b) {
  return binary(ScalarOp::Div, a, b);
}
Val operator%(const Operand& a, const Operand& b) {
  return binary(ScalarOp::Mod, a, b);
}
Val operator<(const Operand& a, const Operand& b) {
  return binary(ScalarOp::Lt, a, b);
}
Val operator<=(const Operand& a, const Operand& b) {
  return binary(ScalarOp::Le, a, b);
}
Val operator>(const Operand& a, const Operand& b) {
  return binary(ScalarOp::Gt, a, b);
}
Val operator>=(const Operand& a, const Operand& b) {
  return binary(ScalarOp::Ge, a, b);
}
Val operator==(const Operand& a, const Operand& b) {
  return binary(ScalarOp::Eq, a, b);
}
Val operator!=(const Operand& a, const Operand& b) {
  return binary(ScalarOp::Ne, a, b);
}
Val operator&&(const Operand& a, const Operand& b) {
  return binary(ScalarOp::And, a, b);
}
Val operator||(const Operand& a, const Operand& b) {
  return binary(ScalarOp::Or, a, b);
}
Val operator-(const Operand& a) {
  return unary(ScalarOp::Neg, a);
}
Val operator!(const Operand& a) {
  return unary(ScalarOp::Not, a);
}

Val select(const Operand& c, const Operand& a, const Operand& b) {
  Term tc = term_of(c), ta = term_of(a), tb = term_of(b);
  if (tc.kind != ScalarKind::Bool)
    type_error(cat("select needs a bool condition, got ", to_string(tc.kind)), c.location());
  common_kind(ta, tb, "select", a.location());
  Term joint;
  ScalarExpr ec = join_leaves(joint, tc);
  ScalarExpr ea = join_leaves(joint, ta);
  ScalarExpr eb = join_leaves(joint, tb);
  return build(ScalarExpr::select(ec, ea, eb), joint, c.location());
}

Val detail::math_call(const std::string& function, const std::vector<Operand>& args) {
  std::vector<Term> terms;
  for (const auto& a : args)
    terms.push_back(term_of(a));
  const std::source_location& loc = args.front().location();
  ScalarKind kind =
      terms.size() == 2 ? common_kind(terms[0], terms[1], function, loc) : terms[0].kind;
  if (!is_floating(kind))
    type_error(cat(function, " needs f32 or f64 values, got ", to_string(kind)), loc);
  Term joint;
  std::vector<ScalarExpr> bodies;
  for (const auto& t : terms)
    bodies.push_back(join_leaves(joint, t));
  return build(ScalarExpr::call(function, bodies), joint, loc);
}

Val Val::named(std::string name, std::source_location loc) const {
  if (!term_)
    detail::rethrow_located(
        Error(cat("named(\"", name, "\"): only a value built by arithmetic can be named")), loc);
  Term t{term_->body, term_->leaves, term_->points, term_->kind, false};
  return build(term_->body, t, loc, std::move(name));
}

namespace {
void points_of(const Val& v, std::vector<Val>& out, const std::source_location& loc) {
  if (!v.type().is_array()) {
    out.push_back(v);
    return;
  }
  auto length = v.length().as_constant();
  if (!length)
    type_error(cat("weighted_sum needs a window of constant size, got ", v.type()), loc);
  for (int64_t i = 0; i < *length; ++i)
    points_of(v.at(ArithExpr(i), loc), out, loc);
}
} // namespace

Val weighted_sum(const Val& window, const std::vector<double>& weights, std::source_location loc) {
  std::vector<Val> points;
  points_of(window, points, loc);
  if (points.size() != weights.size())
    type_error(cat("weighted_sum: ", weights.size(), " weights for a window of ", points.size(),
                   " points"),
               loc);
  std::optional<Val> sum;
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (weights[k] == 0)
      continue;
    // An integral weight is an integer number, so that integer windows take weights too (a
    // number takes the type of the value beside it: 7 * an f32 point is 7.0f * point).
    double w = weights[k];
    bool integral = std::trunc(w) == w && std::fabs(w) < 1 << 30;
    Operand weight = integral ? Operand(static_cast<int>(w), loc) : Operand(w, loc);
    Val term = w == 1 ? points[k] : weight * Operand(points[k], loc);
    sum = sum ? Operand(*sum, loc) + Operand(term, loc) : term;
  }
  if (!sum)
    type_error("weighted_sum: every weight is zero", loc);
  return *sum;
}

Val weighted_sum(const Val& window, const Val& weights, std::source_location loc) {
  std::vector<Val> points, coefficients;
  points_of(window, points, loc);
  if (!weights.type().is_array())
    type_error(cat("weighted_sum needs the weights as an array, got ", weights.type()), loc);
  points_of(weights, coefficients, loc);
  if (points.size() != coefficients.size())
    type_error(cat("weighted_sum: weights of type ", weights.type(), " hold ", coefficients.size(),
                   " values for a window of ", points.size(), " points (", window.type(),
                   "); one weight per point is needed"),
               loc);
  if (points.empty())
    type_error(cat("weighted_sum needs a window of at least one point, got ", window.type()), loc);
  const Type &point_type = points[0].type(), &weight_type = coefficients[0].type();
  bool scalars = point_type.is_scalar() && weight_type.is_scalar(); // else '*' says what is wrong
  ScalarKind point_kind = scalars ? point_type.scalar_kind() : ScalarKind::F32;
  ScalarKind weight_kind = scalars ? weight_type.scalar_kind() : ScalarKind::F32;
  if (point_kind != weight_kind)
    type_error(cat("weighted_sum: weights of ", to_string(weight_kind), " for a window of ",
                   to_string(point_kind),
                   " points: both must have one element type (nothing is converted silently)"),
               loc);
  std::optional<Val> sum;
  for (std::size_t k = 0; k < points.size(); ++k) {
    // The point first, so that the window's points are the function's first parameters.
    Val term = Operand(points[k], loc) * Operand(coefficients[k], loc);
    sum = sum ? Operand(*sum, loc) + Operand(term, loc) : term;
  }
  return *sum;
}

std::string neighbour_name(const std::vector<int>& offset) {
  static const char* letters = "kji";
  std::string name;
  for (std::size_t d = 0; d < offset.size(); ++d) {
    if (offset[d] == 0)
      continue;
    std::string dim =
        offset.size() <= 3 ? std::string(1, letters[3 - offset.size() + d]) : cat("d", d);
    name += cat(name.empty() ? "" : "_", dim, offset[d] < 0 ? "m" : "p", std::abs(offset[d]));
  }
  return name.empty() ? "c" : name;
}

} // namespace tessera
