// Smoothing steps as one program, so that the rewrite system can fuse them into one kernel
// (stream-temporal: 2.5-D blocking, every step with its own boundary). Each step reads the
// grid the previous one wrote and the same right-hand side.
#include <algorithm>
#include <tuple>

#include "core/Error.h"
#include "core/Substitute.h"
#include "multigrid/Operators.h"
#include "primitives/TypeCheck.h"
#include "rewrite/rules/StencilStep.h"

namespace tessera::multigrid {

namespace {

// steps[t % m] applied `count` times in a row: the first input is updated, the others are the
// first program's inputs, shared by every step.
Expr chain_of(const std::vector<Expr>& steps, int count) {
  const auto inputs = steps.front()->params();
  Expr body = inputs.front();
  for (int t = 0; t < count; ++t) {
    const Expr& step = steps[static_cast<std::size_t>(t) % steps.size()];
    auto params = step->params();
    std::map<const Node*, Expr> renamed{{params.front().get(), body}};
    for (std::size_t i = 1; i < params.size(); ++i)
      renamed[params[i].get()] = inputs[i];
    body = instantiate(step->body(), renamed);
  }
  return make_lambda(inputs, body);
}

void require_steps(int k, const char* smoother) {
  if (k < 1)
    user_error(cat(smoother, " steps: the number of steps must be at least 1, got ", k));
}

} // namespace

Expr jacobi_steps(const Level& level, Boundary bc, double omega, int k) {
  require_steps(k, "weighted Jacobi");
  return chain_of({jacobi(level, bc, omega)}, k);
}

Expr gsrb_steps(const Level& level, Boundary bc, int k) {
  require_steps(k, "red-black Gauss-Seidel");
  return chain_of({gsrb_half_sweep(level, bc, 0), gsrb_half_sweep(level, bc, 1)}, 2 * k);
}

std::vector<Expr> fused_smoothing_forms(const Expr& steps, int64_t half_steps) {
  TypeChecker types;
  types.apply(steps, input_types(steps));
  rewrite::RuleContext ctx;
  ctx.types = &types;
  ctx.tile_sizes = {4, 8, 16};
  ctx.temporal_steps = {half_steps};
  auto forms = rewrite::stream_temporal_rule().apply(steps->body(), ctx).alternatives;
  // The register window (more tile in the same local memory), segments (more work-groups),
  // then the largest tile.
  auto score = [](const rewrite::Alternative& a) {
    const auto& p = a.params;
    int64_t tile = p.at("tile") * (p.count("tile_inner") ? p.at("tile_inner") : 1);
    return std::make_tuple(p.count("registers"), p.count("segment"), tile);
  };
  std::stable_sort(forms.begin(), forms.end(),
                   [&](const auto& a, const auto& b) { return score(a) > score(b); });
  std::vector<Expr> programs;
  for (const auto& form : forms)
    programs.push_back(make_lambda(steps->params(), form.replacement));
  return programs;
}

} // namespace tessera::multigrid
