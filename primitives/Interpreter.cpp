#include "primitives/Interpreter.h"

#include "core/Error.h"
#include "core/SizeBinding.h"
#include "primitives/TypeCheck.h"

namespace tessera {

void Interpreter::bind(const Expr& param, Data value) {
  env_.insert_or_assign(param.get(), std::move(value));
}

int64_t Interpreter::size_value(const ArithExpr& e) const {
  return e.evaluate(sizes_);
}

const Type* Interpreter::argument_type(const Node& f) const {
  return checker_ ? checker_->recorded_argument(&f) : nullptr;
}

Data Interpreter::eval(const Expr& e) {
  switch (e->kind) {
  case NodeKind::Param: {
    auto it = env_.find(e.get());
    if (it == env_.end())
      user_error(cat("parameter '", e->name, "' has no value: pass it as a program input"));
    return it->second;
  }
  case NodeKind::Literal:
    return Data::scalar(e->literal);
  case NodeKind::Call: {
    // The children directly (callee, then the arguments): call_args() copies them, and this
    // runs at every point of a grid.
    const auto& children = e->children;
    std::vector<Data> args;
    args.reserve(children.size() - 1);
    for (std::size_t i = 1; i < children.size(); ++i)
      args.push_back(eval(children[i]));
    return apply(children.front(), args);
  }
  default:
    user_error(cat("a ", kind_name(e->kind), " is a function, not a value"));
  }
}

Data Interpreter::apply(const Expr& f, const std::vector<Data>& args) {
  if (f->kind != NodeKind::Lambda)
    return primitive_eval(*this, *f, args);
  // The parameters are the children before the body (params() would copy them).
  const std::size_t param_count = f->children.size() - 1;
  if (param_count != args.size())
    user_error(
        cat("lambda with ", param_count, " parameter(s) applied to ", args.size(), " argument(s)"));
  for (std::size_t i = 0; i < param_count; ++i)
    bind(f->children[i], args[i]);
  return eval(f->body());
}

namespace {

// A short description of a value for error messages (a whole array would be too long).
std::string describe_value(const Data& d) {
  if (d.is_scalar())
    return cat("the ", to_string(d.as_scalar().kind), " scalar ", d.to_string());
  if (d.is_tuple())
    return cat("a tuple of ", d.size(), " component(s)");
  return cat("an array of length ", d.size());
}

// Checks `d` against `t`, binding size variables of t's lengths from d's actual lengths.
void match_input(const Data& d, const Type& t, std::map<std::string, int64_t>& sizes,
                 const std::string& where) {
  switch (t.kind()) {
  case TypeKind::Scalar:
    if (!d.is_scalar())
      user_error(cat(where, ": expected a ", t, ", got ", describe_value(d)));
    if (d.as_scalar().kind != t.scalar_kind())
      user_error(cat(where, ": expected a ", t, ", got a ", to_string(d.as_scalar().kind)));
    return;
  case TypeKind::Tuple:
    if (!d.is_tuple() || d.size() != t.elements().size())
      user_error(cat(where, ": expected a tuple ", t, ", got ", describe_value(d)));
    for (std::size_t i = 0; i < d.size(); ++i)
      match_input(d[i], t.elements()[i], sizes, where);
    return;
  case TypeKind::Array: {
    if (!d.is_array())
      user_error(cat(where, ": expected an array ", t, ", got ", describe_value(d)));
    const ArithExpr& n = t.length();
    auto actual = static_cast<int64_t>(d.size());
    if (n.kind() == ArithKind::Var && !sizes.count(n.name()))
      sizes[n.name()] = actual;
    int64_t expected = 0;
    try {
      expected = n.evaluate(sizes);
    } catch (const Error&) {
      user_error(cat(where, ": cannot determine the length ", n.to_string(), " of ", t));
    }
    if (expected != actual)
      user_error(cat(where, ": expected length ", n.to_string(), " = ", expected, " for ", t,
                     ", got an array of ", actual));
    for (std::size_t i = 0; i < d.size(); ++i)
      match_input(d[i], t.element(), sizes, where);
    return;
  }
  }
}

} // namespace

Data evaluate(const Expr& program, const std::vector<Data>& inputs) {
  auto types = input_types(program);
  auto params = program->params();
  if (inputs.size() != params.size())
    user_error(cat("the program takes ", params.size(), " input(s), got ", inputs.size()));
  Interpreter interp;
  // Sizes from all inputs together, so that the order of the inputs does not matter.
  std::vector<SizeEquation> equations;
  for (std::size_t i = 0; i < params.size(); ++i)
    collect_size_equations(inputs[i], types[i], equations);
  solve_sizes(equations, interp.sizes());
  for (std::size_t i = 0; i < params.size(); ++i)
    match_input(inputs[i], types[i], interp.sizes(),
                cat("input ", i, " ('", params[i]->name, "')"));
  TypeChecker checker;
  checker.apply(program, types);
  check_assumptions(checker.assumptions(), interp.sizes());
  interp.use_types(&checker);
  return interp.apply(program, inputs);
}

} // namespace tessera
