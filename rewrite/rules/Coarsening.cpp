// Thread coarsening along any dimension: each work-item computes c results of one chosen
// dimension i of the program's Map nest, sequentially, in one of two layouts (ImageCL's):
//   blocked      work-item g = t + b*B handles g*c + k, k < c: c neighbouring results (i = the
//                innermost dimension gives contiguous results per work-item; an outer one, rows
//                or planes per work-item);
//   interleaved  work-item g handles g + k*G, G = N_i/c work-items along i: at every step k the
//                work-items of a group touch neighbouring elements (coalesced on GPUs).
//
//   coarsen-nd  Map^d(f) $ a ->
//     Join_i o (level d back to i+1) o MapGlb^d(MapSeq(f)) o (level i+1 to d) o Split_i(c) $ a
//   interleaved: Split_i(N_i/c) then Transpose_i ([c][N_i/c] -> [N_i/c][c]) instead of
//                Split_i(c), and Transpose_i before Join_i.
//   with a remainder, where no factor divides a constant N_i (61): level i padded (clamp) to the
//                next multiple of c and the padding's results dropped, Drop_i(0,p) o ... o
//                Pad_i(0,p,clamp) (the code generator guards the stores past the end).
//
// Split_i(c) splits level i into [N_i/c][c]; transposes move the [c] level innermost, so the d
// global dimensions stay in their order (dimension 0 walks the innermost data dimension) and the
// sequential loop runs over the c results of one work-item; the result is put back in place by
// the inverse rearrangement, which the code generator turns into the write addresses.
#include <utility>
#include <vector>

#include "core/Error.h"
#include "core/NdExpr.h"
#include "core/Substitute.h"
#include "core/WorkItemMemory.h"
#include "rewrite/Lower.h"
#include "rewrite/Pattern.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {

// The factors of a dimension of extent n with the padding each needs: those that divide n (none)
// or, where none does, each one below a constant n with n padded (clamp) to its next multiple,
// the padding's results dropped (a remainder, as tiles have: the results past the end are
// computed and not stored).
std::vector<std::pair<int64_t, int64_t>> factors(const std::vector<int64_t>& candidates,
                                                 const ArithExpr& n) {
  std::vector<std::pair<int64_t, int64_t>> exact, padded;
  auto constant = n.as_constant();
  for (int64_t c : candidates) {
    if (c < 2)
      continue;
    if (prove_divisible(n, c) == Truth::Yes && prove_lt(c, n) == Truth::Yes)
      exact.push_back({c, 0});
    else if (constant && *constant > c)
      padded.push_back({c, (c - *constant % c) % c});
  }
  return exact.empty() ? padded : exact;
}

RuleResult coarsen_nd(const Expr& e, const RuleContext& ctx) {
  if (e->kind != NodeKind::Lambda || e->params().empty() || !e->params().front()->declared_type)
    return RuleResult::none("");
  // The computing call under the rearrangements of the result.
  Expr compute = e->body();
  while (compute->kind == NodeKind::Call && compute->children.size() == 2 &&
         is_layout_only(compute->callee()))
    compute = arg0(compute);
  if (!is_computing_map_call(compute))
    return RuleResult::none("the program's result is not computed by a Map");
  Expr f;
  int d = std::min(map_depth(compute->callee(), &f), 3);
  Expr body = compute->callee();
  for (int l = 0; l < d; ++l)
    body = body->children[0];
  std::vector<ArithExpr> extents;
  const Type* t = &ctx.type_of(compute);
  for (int l = 0; l < d; ++l, t = &t->element())
    extents.push_back(t->length());
  // The earlier steps the call reads are computed whole by every work-item.
  if (!fits_one_work_item(
          arg0(compute), [&](const Expr& v) -> const Type& { return ctx.type_of(v); },
          ctx.target.max_private_elements))
    return RuleResult::none(cat("every work-item would compute the earlier steps whole: more "
                                "than ",
                                ctx.target.max_private_elements, " values of private memory"));
  Expr arg = lower_sequential(arg0(compute));
  Expr element = make_map(MapKind::Seq, 0, lower_sequential(body));
  RuleResult r;
  for (int i = 0; i < d; ++i)
    for (auto [c, padding] : factors(ctx.coarsening, extents[static_cast<std::size_t>(i)])) {
      const ArithExpr n = extents[static_cast<std::size_t>(i)] + padding;
      const Expr padded = padding ? at_level(i, make_pad(0, padding, Boundary::clamp()), arg) : arg;
      for (bool interleaved : {false, true}) {
        // Level i as [N_i/c][c]: element (g, k) is g*c + k (blocked) or g + k*N_i/c.
        Expr x = interleaved ? at_level(i, make_transpose(), at_level(i, make_split(n / c), padded))
                             : at_level(i, make_split(c), padded);
        for (int l = i + 1; l < d; ++l)
          x = at_level(l, make_transpose(), x);
        Expr g = element;
        for (int l = d - 1; l >= 0; --l)
          g = make_map(MapKind::Glb, d - 1 - l, g);
        Expr y = call1(g, x);
        for (int l = d - 1; l > i; --l)
          y = at_level(l, make_transpose(), y);
        if (interleaved)
          y = at_level(i, make_transpose(), y);
        y = at_level(i, make_join(), y);
        if (padding)
          y = at_level(i, make_drop(0, padding), y);
        std::function<Expr(const Expr&)> rebuild = [&](const Expr& v) -> Expr {
          return v.same_as(compute) ? y : call1(v->callee(), rebuild(arg0(v)));
        };
        // Blocked keeps the parameters it always had, so saved histories still replay.
        Params params{{"dim", i}, {"factor", c}};
        if (interleaved)
          params["interleaved"] = 1;
        r.alternatives.push_back({make_lambda(e->params(), rebuild(e->body())), params});
      }
    }
  if (r.alternatives.empty())
    r.why_not = "no coarsening factor divides a dimension of the result";
  return r;
}

} // namespace

std::vector<Rule> coarsening_rules() {
  MappingTraits traits;
  traits.completes = [](const Params& p) {
    Mapping m{MappingKind::Coarsened};
    m.factor = p.at("factor");
    m.dim = static_cast<int>(p.at("dim"));
    m.interleaved = p.count("interleaved") != 0;
    return m;
  };
  return {with_family(
      {"coarsen-nd",
       "Map^d(f) -> Join_i o MapGlb^d(MapSeq(f)) o Split_i(c): c results of dimension i per "
       "work-item, blocked (g*c + k) or interleaved (g + k*N_i/c)",
       coarsen_nd,
       traits,
       {{.name = "dim", .values = {0, 1, 2}},
        {.name = "factor", .source = ParamDomain::Source::Coarsening},
        {.name = "interleaved", .values = {1}, .optional = true}}},
      "coarsened")};
}

} // namespace tessera::rewrite
