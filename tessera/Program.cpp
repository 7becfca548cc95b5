#include "tessera/Program.h"

#include <map>
#include <set>

#include "core/Substitute.h"
#include "stencils/Iterated.h"

namespace tessera {

Type type_check(const Expr& program) {
  return infer_type(program);
}

std::vector<ArithExpr> grid_extents(const Expr& program) {
  if (!program || program->kind != NodeKind::Lambda || program->params().empty())
    user_error("expected a program with at least one input (build it with program({x}, ...))");
  const auto& declared = program->params().front()->declared_type;
  if (!declared)
    user_error("the program's first input has no declared type");
  Type t = *declared;
  std::vector<ArithExpr> extents;
  while (t.is_array()) {
    extents.push_back(t.length());
    t = t.element();
  }
  return extents;
}

Expr at_size(const Expr& program, const std::vector<int64_t>& extents) {
  for (std::size_t d = 0; d < extents.size(); ++d)
    if (extents[d] <= 0)
      user_error(cat("extent ", d, " is ", extents[d], ": extents must be positive"));
  return with_extents(program, std::vector<ArithExpr>(extents.begin(), extents.end()));
}

Expr with_extents(const Expr& program, const std::vector<ArithExpr>& extents) {
  auto grid = grid_extents(program);
  if (grid.size() != extents.size())
    user_error(cat("the program's input '", program->params().front()->name, "' has ", grid.size(),
                   " dimensions, got ", extents.size(), " extents"));
  std::map<std::string, ArithExpr> sizes;
  for (std::size_t d = 0; d < grid.size(); ++d) {
    if (auto c = grid[d].as_constant()) {
      if (grid[d] != extents[d])
        user_error(cat("extent ", d, " of the program's input is the constant ", *c, ", got ",
                       extents[d].to_string(), " (save the program with a size variable there ",
                       "to use it at other sizes)"));
      continue;
    }
    auto names = grid[d].variables();
    if (names.size() != 1 || grid[d] != ArithExpr::size_var(names.front()))
      user_error(cat("extent ", d, " of the program's input is ", grid[d].to_string(),
                     ": only a constant or a single size variable can be bound to a grid size"));
    auto [it, fresh] = sizes.emplace(names.front(), extents[d]);
    if (!fresh && it->second != extents[d])
      user_error(cat("size variable ", names.front(), " is given two values, ",
                     it->second.to_string(), " and ", extents[d].to_string()));
  }
  Expr bound = substitute_sizes(program, sizes);
  std::set<std::string> known;
  for (const auto& e : extents)
    for (const auto& v : e.variables())
      known.insert(v);
  for (const auto& p : bound->params())
    if (p->declared_type)
      for (const auto& v : p->declared_type->scalar_count().variables())
        if (!known.count(v))
          user_error(cat("input '", p->name, "' has type ", *p->declared_type,
                         ": its size variable ", v,
                         " is not an extent of the first input, so a grid size cannot bind it"));
  type_check(bound);
  return bound;
}

Expr iterate_steps(const Expr& program, int steps) {
  return stencils::iterate_program(program, steps);
}

} // namespace tessera
