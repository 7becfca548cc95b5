#include "rewrite/Strategy.h"

#include <algorithm>

#include "core/Error.h"
#include "core/WorkLimits.h"

namespace tessera::rewrite {

namespace {

// The context with types of `program` (rules read types of the nodes they match).
struct Typed {
  TypeChecker types;
  RuleContext context;
  Typed(const Expr& program, const RuleContext& base) : context(base) {
    types.apply(program, input_types(program));
    context.types = &types;
  }
};

void positions(const Expr& e, Position& pos, bool pre, std::vector<Position>& out) {
  if (pre)
    out.push_back(pos);
  for (std::size_t i = 0; i < e->children.size(); ++i) {
    pos.push_back(static_cast<int>(i));
    positions(e->children[i], pos, pre, out);
    pos.pop_back();
  }
  if (!pre)
    out.push_back(pos);
}

Strategy traverse(Strategy s, bool pre) {
  return [s, pre](const Expr& program, const Position& at,
                  const RuleContext& ctx) -> std::optional<Expr> {
    std::vector<Position> order;
    Position pos = at;
    positions(node_at(program, at), pos, pre, order);
    for (const auto& p : order)
      if (auto r = s(program, p, ctx))
        return r;
    return std::nullopt;
  };
}

// The alternatives of `r` at a node of `program`, with the program's types if the rule reads
// them.
RuleResult alternatives_at(const Rule& r, const Expr& program, const Position& at,
                           const RuleContext& ctx) {
  // A strategy tries rules at every node of a program, each perhaps with a type check of the
  // whole program: the inner loop of a lowering, where its caller's limits are polled.
  poll_limits();
  if (!r.reads_types)
    return r.apply(node_at(program, at), ctx);
  Typed typed(program, ctx);
  return r.apply(node_at(program, at), typed.context);
}

Expr rewrite_everywhere(const Strategy& s, Expr program, Position& at, const RuleContext& ctx) {
  // A rewrite replaces the node at a position, so the parent's other children keep theirs.
  for (std::size_t i = 0; i < node_at(program, at)->children.size(); ++i) {
    at.push_back(static_cast<int>(i));
    program = rewrite_everywhere(s, program, at, ctx);
    at.pop_back();
  }
  auto r = s(program, at, ctx);
  return r ? *r : program;
}

Expr rewrite_everywhere_topdown(const Strategy& s, Expr program, Position& at,
                                const RuleContext& ctx) {
  if (auto r = s(program, at, ctx))
    program = *r;
  for (std::size_t i = 0; i < node_at(program, at)->children.size(); ++i) {
    at.push_back(static_cast<int>(i));
    program = rewrite_everywhere_topdown(s, program, at, ctx);
    at.pop_back();
  }
  return program;
}

} // namespace

Strategy rule(Rule r) {
  return
      [r](const Expr& program, const Position& at, const RuleContext& ctx) -> std::optional<Expr> {
        RuleResult result = alternatives_at(r, program, at, ctx);
        if (result.alternatives.empty())
          return std::nullopt;
        return replace_at(program, at, result.alternatives.front().replacement);
      };
}

std::optional<Expr> rewrite_with(const Rule& r, const Expr& node, const Params& params,
                                 const RuleContext& context) {
  check_params(r, params, context);
  if (r.reads_types && !context.types)
    user_error(cat(r.name, " reads the program's types: apply it to a whole program"));
  for (auto& alt : r.apply(node, context).alternatives)
    if (alt.params == params)
      return std::move(alt.replacement);
  return std::nullopt;
}

Expr rewrite_node(const Rule& r, const Expr& node, const Params& params,
                  const RuleContext& context) {
  auto rewritten = rewrite_with(r, node, params, context);
  if (!rewritten)
    internal_error(cat(r.name, " does not apply where the strategy applies it"));
  return *rewritten;
}

namespace {
// The program with the rule's alternative with `params` at `at`, or nullopt.
std::optional<Expr> rewrite_at(const Rule& r, const Params& params, const Expr& program,
                               const Position& at, const RuleContext& ctx) {
  poll_limits(); // as in alternatives_at
  std::optional<Expr> rewritten;
  if (r.reads_types) {
    Typed typed(program, ctx);
    rewritten = rewrite_with(r, node_at(program, at), params, typed.context);
  } else {
    rewritten = rewrite_with(r, node_at(program, at), params, ctx);
  }
  if (!rewritten)
    return std::nullopt;
  return replace_at(program, at, *rewritten);
}
} // namespace

Strategy rule(Rule r, Params params) {
  return [r, params](const Expr& program, const Position& at, const RuleContext& ctx) {
    return rewrite_at(r, params, program, at, ctx);
  };
}

Strategy where(std::function<bool(const Expr& node)> holds, Strategy s) {
  return [holds, s](const Expr& program, const Position& at,
                    const RuleContext& ctx) -> std::optional<Expr> {
    if (!holds(node_at(program, at)))
      return std::nullopt;
    return s(program, at, ctx);
  };
}

Strategy everywhere(Strategy s) {
  return [s](const Expr& program, const Position& at, const RuleContext& ctx) {
    Position p = at;
    return std::optional<Expr>(rewrite_everywhere(s, program, p, ctx));
  };
}

Strategy everywhere_topdown(Strategy s) {
  return [s](const Expr& program, const Position& at, const RuleContext& ctx) {
    Position p = at;
    return std::optional<Expr>(rewrite_everywhere_topdown(s, program, p, ctx));
  };
}

std::vector<Expr> enclosing_nodes(const Expr& program, const Position& at) {
  std::vector<Expr> nodes;
  Expr cur = program;
  for (int i : at) {
    nodes.push_back(cur);
    if (i < 0 || i >= static_cast<int>(cur->children.size()))
      user_error("position does not exist in the program");
    cur = cur->children[static_cast<std::size_t>(i)];
  }
  return nodes;
}

Strategy where_enclosed(PlaceCondition holds, Strategy s) {
  return [holds, s](const Expr& program, const Position& at,
                    const RuleContext& ctx) -> std::optional<Expr> {
    if (!holds(node_at(program, at), enclosing_nodes(program, at), at))
      return std::nullopt;
    return s(program, at, ctx);
  };
}

Strategy at_each(std::vector<std::pair<Position, Strategy>> steps) {
  // Post-order: a descendant (a is longer, b its prefix) before its ancestor.
  auto deeper_first = [](const auto& a, const auto& b) {
    auto [ia, ib] = std::mismatch(a.first.begin(), a.first.end(), b.first.begin(), b.first.end());
    if (ia != a.first.end() && ib != b.first.end())
      return *ia < *ib;
    return ia != a.first.end();
  };
  std::stable_sort(steps.begin(), steps.end(), deeper_first);
  return [steps](const Expr& program, const Position& at,
                 const RuleContext& ctx) -> std::optional<Expr> {
    Expr cur = program;
    for (const auto& [position, s] : steps) {
      Position p = at;
      p.insert(p.end(), position.begin(), position.end());
      auto next = s(cur, p, ctx);
      if (!next)
        return std::nullopt;
      cur = *next;
    }
    return cur;
  };
}

Strategy rule_with(Rule r, ParamChooser choose) {
  return [r, choose](const Expr& program, const Position& at,
                     const RuleContext& ctx) -> std::optional<Expr> {
    auto params = choose(program, at);
    if (!params)
      return std::nullopt;
    return rewrite_at(r, *params, program, at, ctx);
  };
}

Strategy seq(Strategy first, Strategy second) {
  return [first, second](const Expr& program, const Position& at,
                         const RuleContext& ctx) -> std::optional<Expr> {
    auto a = first(program, at, ctx);
    if (!a)
      return std::nullopt;
    return second(*a, at, ctx);
  };
}

Strategy choice(Strategy first, Strategy second) {
  return [first, second](const Expr& program, const Position& at,
                         const RuleContext& ctx) -> std::optional<Expr> {
    if (auto a = first(program, at, ctx))
      return a;
    return second(program, at, ctx);
  };
}

Strategy try_(Strategy s) {
  return [s](const Expr& program, const Position& at, const RuleContext& ctx) {
    auto a = s(program, at, ctx);
    return a ? a : std::optional<Expr>(program);
  };
}

Strategy repeat(Strategy s, int limit) {
  return [s, limit](const Expr& program, const Position& at, const RuleContext& ctx) {
    Expr cur = program;
    for (int i = 0; i < limit; ++i) {
      auto next = s(cur, at, ctx);
      if (!next)
        return std::optional<Expr>(cur);
      cur = *next;
    }
    user_error(cat("repeat: the strategy still applied after ", limit, " steps"));
  };
}

Strategy topdown(Strategy s) {
  return traverse(std::move(s), true);
}
Strategy bottomup(Strategy s) {
  return traverse(std::move(s), false);
}

Strategy at(Position position, Strategy s) {
  return [position, s](const Expr& program, const Position& base, const RuleContext& ctx) {
    Position p = base;
    p.insert(p.end(), position.begin(), position.end());
    return s(program, p, ctx);
  };
}

std::optional<Expr> apply(const Strategy& s, const Expr& program, RuleContext context) {
  return s(program, {}, context);
}

} // namespace tessera::rewrite
