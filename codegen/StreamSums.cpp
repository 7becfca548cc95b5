// Streaming by partial sums (rewrite/rules/PlaneSums.h, stream-nd sums=1): the march
//   MapSeq(fun(w => s(sum(f_0(w[0]..), .., f_{n-1}(w[n-1]..))))) $ Slide(n,1) $ planes
// keeps one plane and n partial sums per work-item instead of n planes: plane p is loaded once
// and adds f_a(plane p) to the output p - a for every a, in plane order (the order in which sum
// adds them, so the result is the same):
//   acc[0..n-1] = 0;  planes 0..n-2 added to the outputs 0..n-2 they belong to
//   for i: e = plane i+n-1; acc[n-1-a] += f_a(e) for each a; out[i] = s(acc[0]); shift acc
// Blocked by c rows (stream-nd rows=c) the plane is n + c - 1 rows high and every result j has
// its own n sums, its terms reading the plane j rows down: the c results share each load;
// blocked by c along x (stream-nd factor=c) the same along the plane's rows.
#include "codegen/StreamSums.h"

#include "codegen/Emitter.h"
#include "codegen/ScalarC.h"
#include "core/Error.h"
#include "core/Fields.h"
#include "core/NdExpr.h"

namespace tessera::codegen {

namespace {

const Node* user_fun_call(const Expr& e, std::size_t arity) {
  if (e->kind != NodeKind::Call || e->callee()->kind != NodeKind::UserFun ||
      e->children.size() != arity + 1)
    return nullptr;
  return e->callee().get();
}

// p0 + p1 + ... + p_{count-1}, added left to right.
bool is_ordered_sum(const ScalarExpr& body, int count) {
  const ScalarExpr* x = &body;
  for (int k = count - 1; k > 0; --k) {
    if (x->op() != ScalarOp::Add || x->args()[1].op() != ScalarOp::Param ||
        x->args()[1].param_index() != k)
      return false;
    x = &x->args()[0];
  }
  return x->op() == ScalarOp::Param && x->param_index() == 0;
}

// One result's step: fun(w => [s](sum(f_a(At(..) o At(a) $ w, ..), ..))).
std::optional<PlaneSumStep> single_plane_sum_step(const Expr& f) {
  if (f->kind != NodeKind::Lambda || f->params().size() != 1)
    return std::nullopt;
  const Expr window = f->params()[0]; // params() is a copy
  PlaneSumStep step;
  Expr sum = f->body();
  if (const Node* s = user_fun_call(sum, 1); s && s->user_fun->arity == 1) {
    step.scale = s;
    sum = sum->children[1];
  }
  if (sum->kind != NodeKind::Call || sum->callee()->kind != NodeKind::UserFun)
    return std::nullopt;
  const UserFunDef& def = *sum->callee()->user_fun;
  const int count = static_cast<int>(sum->children.size()) - 1;
  if (count < 2 || def.arity != count || !is_ordered_sum(def.body, count))
    return std::nullopt;
  for (int k = 0; k < count; ++k) {
    const Expr& call = sum->children[static_cast<std::size_t>(k) + 1];
    if (call->kind != NodeKind::Call || call->callee()->kind != NodeKind::UserFun)
      return std::nullopt;
    PlaneTerm term{call->callee().get(), -1, {}};
    for (std::size_t a = 1; a < call->children.size(); ++a) {
      auto point = window_point(call->children[a], window); // outermost first
      if (!point || point->empty() || (term.plane >= 0 && point->front() != term.plane))
        return std::nullopt;
      term.plane = point->front();
      term.points.emplace_back(point->begin() + 1, point->end());
    }
    if (term.plane < 0 || (!step.terms.empty() && step.terms.back().plane >= term.plane))
      return std::nullopt;
    step.terms.push_back(std::move(term));
  }
  return step;
}

bool is_call_of(const Expr& e, NodeKind kind) {
  return e->kind == NodeKind::Call && e->children.size() == 2 && e->callee()->kind == kind;
}

// The calls `e` is a chain of, outermost first, their callees of `kinds` in order, and what the
// chain is applied to last: Map(..) $ Transpose $ w gives [the Map call, the Transpose call, w].
bool call_chain(const Expr& e, const std::vector<NodeKind>& kinds, std::vector<Expr>& calls) {
  Expr at = e;
  for (NodeKind kind : kinds) {
    if (!is_call_of(at, kind))
      return false;
    calls.push_back(at);
    at = at->children[1];
  }
  calls.push_back(at); // what the chain is applied to
  return true;
}

// Whether the callee of `call` is Map^depth(`kind`).
bool maps_of(const Expr& call, int depth, NodeKind kind) {
  const Node* node = call->callee().get();
  for (int k = 0; k < depth; ++k) {
    if (node->kind != NodeKind::Map)
      return false;
    node = node->children[0].get();
  }
  return node->kind == kind;
}

// The results of a step: c along the blocked axis (the plane's extent there the window's
// n + c - 1), one when not blocked; nothing when the plane is shorter than the window.
std::optional<int64_t> blocked_results(const PlaneSumStep& step, const Type& plane) {
  if (step.blocked_axis < 0)
    return 1;
  const auto axis = static_cast<std::size_t>(step.blocked_axis);
  auto extent = axis < plane.shape().size() ? plane.shape()[axis].as_constant() : std::nullopt;
  if (!extent || *extent < step.blocked_window)
    return std::nullopt;
  return *extent - step.blocked_window + 1;
}

} // namespace

std::optional<PlaneSumStep> plane_sum_step(const Expr& f) {
  if (auto single = single_plane_sum_step(f))
    return single;
  if (f->kind != NodeKind::Lambda || f->params().size() != 1)
    return std::nullopt;
  using K = NodeKind;
  std::vector<Expr> c;
  std::optional<PlaneSumStep> step;
  const Node* slide = nullptr;
  // Blocked along the plane's axis 0:  w => Map(g) $ Transpose $ Map(Slide(n,1)) $ w
  if (call_chain(f->body(), {K::Map, K::Transpose, K::Map}, c) && maps_of(c[2], 1, K::Slide)) {
    step = single_plane_sum_step(c[0]->callee()->children[0]);
    slide = c[2]->callee()->children[0].get();
    if (step)
      step->blocked_axis = 0;
  }
  // along its axis 1:  w => Map(g) $ Transpose $ Map(Transpose) $ Map(Map(Slide(n,1))) $ w
  if (!step)
    c.clear();
  if (!step && call_chain(f->body(), {K::Map, K::Transpose, K::Map, K::Map}, c) &&
      maps_of(c[2], 1, K::Transpose) && maps_of(c[3], 2, K::Slide)) {
    step = single_plane_sum_step(c[0]->callee()->children[0]);
    slide = c[3]->callee()->children[0]->children[0].get();
    if (step)
      step->blocked_axis = 1;
  }
  if (!step || !c.back().same_as(f->params()[0]) || slide_fields(*slide).step != ArithExpr(1))
    return std::nullopt;
  auto n = slide_fields(*slide).size.as_constant();
  if (!n)
    return std::nullopt;
  step->blocked_window = *n;
  return step;
}

bool Emitter::stream_plane_sums(const PlaneSumStep& step, const View& source, const Type& window,
                                const Operand& in, const View& dest) {
  const Type& plane = window.element();
  const ScalarKind kind = plane.innermost().scalar_kind();
  const auto n = window.length().as_constant();
  const auto scalars = plane.scalar_count().as_constant();
  if (!n || !scalars || step.terms.back().plane >= *n ||
      static_cast<int64_t>(plane.shape().size()) + 1 != static_cast<int64_t>(window.shape().size()))
    return false;
  for (const auto& t : step.terms)
    for (const auto& p : t.points)
      if (p.size() != plane.shape().size())
        return false;
  auto blocked = blocked_results(step, plane);
  if (!blocked)
    return false;
  const int64_t results = *blocked;
  // Result j reads the plane shifted j along the blocked axis.
  auto shift = [&](int64_t j, std::size_t axis) {
    return static_cast<int64_t>(axis) == step.blocked_axis ? j : 0;
  };
  auto private_array = [&](const std::string& prefix, const Type& type) {
    auto m = std::make_shared<Memory>();
    m->name = fresh(prefix);
    m->space = AddressSpace::Private;
    m->element = kind;
    m->type = type;
    declare_private(kind, m->name, type.scalar_count().value());
    return m;
  };
  auto values = private_array("plane", plane);
  auto sums = private_array("acc", Type::array(Type::scalar(kind), *n * results));
  const View plane_view = memory_view(values), sums_view = memory_view(sums);
  // The partial sum of pending output k (0: the next one stored) of result j.
  auto sum_at = [&](int64_t k, int64_t j) {
    return index_view(sums_view, ArithExpr(k * results + j));
  };
  const View zero = scalar_view(ScalarValue::make(kind, 0.0).to_string());
  for (int64_t k = 0; k < *n * results; ++k)
    assign(index_view(sums_view, ArithExpr(k)), resolve(zero, {}));
  // Loads plane `index` of the windows' source into the plane's private array.
  auto load = [&](const ArithExpr& index) { load_element(source, plane, index, values->name, 0); };
  // sums[k][j] += f_a(the loaded plane, shifted j along the blocked axis for result j)
  auto add = [&](const PlaneTerm& t, int64_t k) {
    for (int64_t j = 0; j < results; ++j) {
      std::vector<View> args;
      for (const auto& point : t.points) {
        View v = plane_view;
        for (std::size_t axis = 0; axis < point.size(); ++axis)
          v = index_view(v, ArithExpr(point[axis] + shift(j, axis)));
        args.push_back(v);
      }
      std::string name =
          functions_.scalar(*t.function->user_fun, std::vector<ScalarKind>(args.size(), kind));
      Access target = resolve(sum_at(k, j), {});
      line({lvalue(target), Piece::literal(" = "), Piece::scalar(target), Piece::literal(" + "),
            Piece::scalar(resolve(call_view(name, args), {})), Piece::literal(";")});
    }
  };
  for (int64_t q = 0; q + 1 < *n; ++q) { // planes 0..n-2: outputs q - a >= 0
    load(ArithExpr(q));
    for (const auto& t : step.terms)
      if (q - t.plane >= 0)
        add(t, q - t.plane);
  }
  std::string i = fresh("i");
  ArithExpr var = ArithExpr::var(i, 0, in.type.length() - 1);
  open(cat("for (int ", i, " = 0; ", i, " < ", printer_.arith(in.type.length()), "; ++", i, ")"));
  ++seq_depth_;
  load(var + (*n - 1));
  for (const auto& t : step.terms)
    add(t, *n - 1 - t.plane);
  for (int64_t j = 0; j < results; ++j) {
    View result = sum_at(0, j);
    if (step.scale)
      result = call_view(functions_.scalar(*step.scale->user_fun, {kind}), {result});
    View to = index_view(dest, var);
    if (step.blocked_axis >= 0)
      to = index_view(to, ArithExpr(j));
    assign(to, resolve(result, {}));
  }
  for (int64_t j = 0; j < results; ++j) {
    for (int64_t k = 0; k + 1 < *n; ++k)
      assign(sum_at(k, j), resolve(sum_at(k + 1, j), {}));
    assign(sum_at(*n - 1, j), resolve(zero, {}));
  }
  --seq_depth_;
  close();
  return true;
}

} // namespace tessera::codegen
