#include "rewrite/Strategy.h"

#include "core/Error.h"

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

} // namespace

Strategy rule(Rule r) {
  return
      [r](const Expr& program, const Position& at, const RuleContext& ctx) -> std::optional<Expr> {
        Typed typed(program, ctx);
        RuleResult result = r.apply(node_at(program, at), typed.context);
        if (result.alternatives.empty())
          return std::nullopt;
        return replace_at(program, at, result.alternatives.front().replacement);
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
