#include "primitives/TypeCheck.h"

#include "core/Error.h"

namespace tessera {

void TypeChecker::bind(const Node* param, const Type& type) {
  types_.insert_or_assign(param, type);
}

const Type& TypeChecker::type_of(const Expr& e) const {
  auto it = types_.find(e.get());
  if (it == types_.end())
    internal_error(cat("no type recorded for a ", kind_name(e->kind)));
  return it->second;
}

void TypeChecker::assume(ArithExpr must_be_zero, std::string message) {
  for (const auto& a : assumptions_)
    if (a.must_be_zero == must_be_zero)
      return;
  assumptions_.push_back({std::move(must_be_zero), std::move(message)});
}

void TypeChecker::record_argument(const Node* f, const Type& arg) {
  auto [it, inserted] = recorded_.try_emplace(f, arg);
  if (!inserted && it->second && *it->second != arg)
    it->second.reset();
}

const Type* TypeChecker::recorded_argument(const Node* f) const {
  auto it = recorded_.find(f);
  return it != recorded_.end() && it->second ? &*it->second : nullptr;
}

Type TypeChecker::check(const Expr& e) {
  switch (e->kind) {
  case NodeKind::Param: {
    auto it = types_.find(e.get());
    if (it != types_.end())
      return it->second;
    if (!e->declared_type)
      user_error(cat("parameter '", e->name.empty() ? "?" : e->name,
                     "' has no type: program inputs need a declared type"));
    types_.insert_or_assign(e.get(), *e->declared_type);
    return *e->declared_type;
  }
  case NodeKind::Literal: {
    Type t = Type::scalar(e->literal.kind);
    types_.insert_or_assign(e.get(), t);
    return t;
  }
  case NodeKind::Call: {
    std::vector<Type> args;
    for (const auto& a : e->call_args())
      args.push_back(check(a));
    Type t = apply(e->callee(), args);
    types_.insert_or_assign(e.get(), t);
    return t;
  }
  default:
    user_error(cat("a ", kind_name(e->kind),
                   " is a function, not a value: apply it to an argument first"));
  }
}

Type TypeChecker::apply(const Expr& f, const std::vector<Type>& args) {
  if (f->kind != NodeKind::Lambda)
    return primitive_type(*this, *f, args);
  auto params = f->params();
  if (params.size() != args.size())
    user_error(cat("a lambda with ", params.size(), " parameter(s) was applied to ", args.size(),
                   " argument(s)"));
  for (std::size_t i = 0; i < params.size(); ++i)
    bind(params[i], args[i]);
  return check(f->body());
}

Type infer_type(const Expr& program) {
  TypeChecker checker;
  if (program->kind == NodeKind::Lambda)
    return checker.apply(program, input_types(program));
  return checker.check(program);
}

} // namespace tessera
