#include "codegen/Vector.h"

#include <algorithm>

#include "codegen/Names.h"
#include "codegen/ScalarC.h"
#include "codegen/UserFunctions.h"

#include "core/Error.h"

namespace tessera::codegen {

bool is_vector_lane_count(int64_t n) {
  return n == 2 || n == 4 || n == 8 || n == 16;
}

bool is_vector_kind(ScalarKind k) {
  return k != ScalarKind::Bool;
}

std::string vector_type(ScalarKind k, int lanes) {
  if (!is_vector_kind(k))
    internal_error("OpenCL C has no vectors of " + scalar_c_type(k) + ": lane mode checks kinds");
  return cat(scalar_c_type(k), lanes);
}

std::string lane_component(int lane) {
  return cat(".s", "0123456789abcdef"[lane]);
}

std::optional<ArithExpr> contiguous_base(const ArithExpr& index, const std::string& lane,
                                         int lanes) {
  ArithExpr base = index.substitute({{lane, ArithExpr(0)}});
  for (int k = 1; k < lanes; ++k) {
    auto step = (index.substitute({{lane, ArithExpr(k)}}) - base).as_constant();
    if (!step || *step != k)
      return std::nullopt;
  }
  return base;
}

bool vector_store_fits(const Memory& memory, const ArithExpr& base, int lanes) {
  if (prove_divisible(base, lanes) == Truth::Yes)
    return true;
  const Type* row = &memory.type;
  while (row->is_array() && row->element().is_array())
    row = &row->element();
  return row->is_array() && prove_divisible(row->length(), lanes) == Truth::No;
}

ArithExpr in_every_lane(const ArithExpr& condition, const std::string& lane, int lanes) {
  auto at = [&](const ArithExpr& e, int k) { return e.substitute({{lane, ArithExpr(k)}}); };
  const auto& ops = condition.operands();
  if (condition.kind() == ArithKind::And)
    return logical_and(in_every_lane(ops[0], lane, lanes), in_every_lane(ops[1], lane, lanes));
  if (condition.kind() == ArithKind::Lt || condition.kind() == ArithKind::Le) {
    // The slack q - p of p < q in lane k against lane 0; the tightest lane has the least.
    const ArithExpr slack = ops[1] - ops[0];
    int tightest = 0;
    int64_t least = 0;
    bool constant_steps = true;
    for (int k = 1; k < lanes && constant_steps; ++k) {
      auto step = (at(slack, k) - at(slack, 0)).as_constant();
      constant_steps = step.has_value();
      if (step && *step < least) {
        least = *step;
        tightest = k;
      }
    }
    if (constant_steps)
      return at(condition, tightest);
  }
  ArithExpr all = at(condition, 0);
  for (int k = 1; k < lanes; ++k)
    all = logical_and(all, at(condition, k));
  return all;
}

std::string address_of(CPrinter& printer, const Memory& memory, const ArithExpr& index) {
  if (auto c = index.as_constant(); c && *c == 0)
    return memory.name;
  std::string i = printer.arith(index);
  bool atomic = index.kind() == ArithKind::Var || (index.is_constant() && index.value() > 0);
  return memory.name + " + " + (atomic ? i : "(" + i + ")");
}

namespace {

// Only + - * / and negation over values of the floating kind `k`: the same on vectors.
bool lane_wise(const ScalarExpr& e, const std::vector<ScalarKind>& kinds, ScalarKind k) {
  switch (e.op()) {
  case ScalarOp::Param:
    return true;
  case ScalarOp::Const:
    return e.is_weak() || e.value().kind == k || !is_floating(e.value().kind);
  case ScalarOp::Add:
  case ScalarOp::Sub:
  case ScalarOp::Mul:
  case ScalarOp::Div:
  case ScalarOp::Neg:
    break;
  default:
    return false;
  }
  bool has_param = e.max_param_index() >= 0;
  if (has_param && e.infer(kinds, "user function") != k)
    return false;
  for (const auto& a : e.args())
    if (!lane_wise(a, kinds, k))
      return false;
  return true;
}

} // namespace

bool vector_user_fun_calls_scalar(const UserFunSignature& sig) {
  bool direct = is_floating(sig.result) && !sig.params.empty();
  for (auto k : sig.params)
    direct &= k == sig.result;
  return !(direct && lane_wise(sig.def.body, sig.params, sig.result));
}

std::string vector_user_fun_definition(const std::string& scalar_name,
                                       const std::string& vector_name, const UserFunSignature& sig,
                                       int lanes) {
  std::vector<std::string> names = user_fun_param_names(sig.def, sig.params.size());
  // The lanes call the scalar function by name: no parameter may shadow it (a function named
  // "b" has a parameter "b" by default).
  for (auto& name : names)
    while (name == scalar_name || name == vector_name ||
           std::count(names.begin(), names.end(), name) > 1)
      name += "_";
  std::string signature;
  for (std::size_t i = 0; i < sig.params.size(); ++i) {
    signature += cat(i ? ", " : "", vector_type(sig.params[i], lanes), " ", names[i]);
  }
  std::string result = vector_type(sig.result, lanes);
  std::string body;
  if (!vector_user_fun_calls_scalar(sig)) {
    body = scalar_c(sig.def.body, names, sig.params);
  } else {
    body = cat("(", result, ")(");
    for (int k = 0; k < lanes; ++k) {
      body += cat(k ? ", " : "", scalar_name, "(");
      for (std::size_t i = 0; i < names.size(); ++i)
        body += cat(i ? ", " : "", names[i], lane_component(k));
      body += ")";
    }
    body += ")";
  }
  return cat(result, " ", vector_name, "(", signature, ") { return ", body, "; }");
}

// ---------------------------------------------------------------------------------------------

bool LanePrinter::mentions_lane(const ArithExpr& e) const {
  for (const auto& v : e.variables())
    if (v == c_.mode->lane)
      return true;
  return false;
}

bool LanePrinter::is_vector_memory(const Access& a) const {
  return a.memory && c_.mode->vectors.count(a.memory->name) > 0;
}

bool LanePrinter::lane_invariant(const Access& a) const {
  switch (a.kind) {
  case Access::MemoryRead:
    return !is_vector_memory(a) && !mentions_lane(a.index);
  case Access::Text:
    return c_.mode->vectors.count(a.text) == 0;
  case Access::Integer:
    return !mentions_lane(a.index);
  case Access::Signed:
    if (mentions_lane(a.index))
      return false;
    [[fallthrough]];
  case Access::Call:
  case Access::ImageRead:
    for (const auto& x : a.args)
      if (!lane_invariant(x))
        return false;
    return true;
  case Access::Guarded:
    return !mentions_lane(a.condition) && lane_invariant(*a.inside) && lane_invariant(*a.outside);
  }
  return false;
}

Access LanePrinter::at_lane(const Access& access, int k) {
  Access a = substitute(access, {{c_.mode->lane, ArithExpr(k)}});
  switch (a.kind) {
  case Access::MemoryRead:
    if (is_vector_memory(a)) // lane k's value of a private vector element is its component k
      return Access::literal(c_.scalar->access(a) + lane_component(k));
    return a;
  case Access::Text:
    if (c_.mode->vectors.count(a.text))
      return Access::literal(a.text + lane_component(k));
    return a;
  case Access::Integer:
    return a;
  case Access::Call:
  case Access::Signed:
  case Access::ImageRead:
    for (auto& x : a.args)
      x = at_lane(x, k);
    return a;
  case Access::Guarded:
    a.inside = std::make_shared<const Access>(at_lane(*a.inside, k));
    a.outside = std::make_shared<const Access>(at_lane(*a.outside, k));
    return a;
  }
  return a;
}

std::string LanePrinter::converted(const std::string& text, ScalarKind from, ScalarKind to) {
  return from == to ? text : cat("convert_", vector_type(to, c_.mode->lanes), "(", text, ")");
}

std::string LanePrinter::gather(const Access& access, ScalarKind kind) {
  std::string s = cat("(", vector_type(kind, c_.mode->lanes), ")(");
  for (int k = 0; k < c_.mode->lanes; ++k)
    s += cat(k ? ", " : "", c_.scalar->access(at_lane(access, k)));
  return s + ")";
}

std::string LanePrinter::vector(const Access& a, ScalarKind kind) {
  std::string type = vector_type(kind, c_.mode->lanes);
  if (lane_invariant(a))
    return cat("(", type, ")(", c_.scalar->access(a), ")");
  switch (a.kind) {
  case Access::Text: // a vector variable
    return converted(a.text, c_.mode->vectors.at(a.text), kind);
  case Access::MemoryRead:
    if (is_vector_memory(a))
      return mentions_lane(a.index) ? gather(a, kind)
                                    : converted(c_.scalar->access(a), a.memory->element, kind);
    if (a.memory->element == kind)
      if (auto base = contiguous_base(a.index, c_.mode->lane, c_.mode->lanes))
        return cat("vload", c_.mode->lanes, "(0, ", address_of(*c_.scalar, *a.memory, *base), ")");
    return gather(a, kind);
  case Access::Integer:
  case Access::ImageRead: // no vector loads from images
    return gather(a, kind);
  case Access::Call: {
    const UserFunSignature* sig = c_.functions->signature(a.text);
    bool vectorizable = sig && sig->result == kind && sig->params.size() == a.args.size();
    for (std::size_t i = 0; vectorizable && i < sig->params.size(); ++i)
      vectorizable = is_vector_kind(sig->params[i]);
    if (!vectorizable)
      return gather(a, kind);
    std::string name = c_.functions->vector(a.text, c_.mode->lanes);
    c_.scalar->note_call(name);
    std::string s = name + "(";
    for (std::size_t i = 0; i < a.args.size(); ++i)
      s += (i ? ", " : "") + vector(a.args[i], sig->params[i]);
    return s + ")";
  }
  case Access::Signed: {
    if (mentions_lane(a.index))
      return gather(a, kind);
    std::string v = vector(a.args.at(0), kind);
    if (auto c = a.index.as_constant())
      return *c == 1 ? v : "(-" + v + ")";
    return cat("(", c_.scalar->arith(a.index), " < 0 ? -", v, " : ", v, ")");
  }
  case Access::Guarded: {
    if (auto c = a.condition.as_constant())
      return vector(*c ? *a.inside : *a.outside, kind);
    if (mentions_lane(a.condition))
      return gather(a, kind);
    c_.scalar->count_guard();
    return cat("(", c_.scalar->arith(a.condition), " ? ", vector(*a.inside, kind), " : ",
               vector(*a.outside, kind), ")");
  }
  }
  internal_error("unknown access kind");
}

} // namespace tessera::codegen
