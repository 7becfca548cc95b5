#include "codegen/Stages.h"

#include <algorithm>
#include <map>

#include "core/Error.h"
#include "core/Fields.h"
#include "core/NdExpr.h"
#include "core/Substitute.h"
#include "primitives/TypeCheck.h"

namespace tessera::codegen {

bool has_parallel_map(const Expr& e) {
  if ((e->kind == NodeKind::Map && (e->map_kind == MapKind::Glb || e->map_kind == MapKind::Wrg)) ||
      e->kind == NodeKind::StreamSteps) // launches its own work-groups
    return true;
  for (const auto& c : e->children)
    if (has_parallel_map(c))
      return true;
  return false;
}

namespace {

// Join, Split, Transpose and Drop (also mapped, or composed in a lambda) on the way to the
// output: the code generator writes through them (views of the output buffer; a Drop's
// through guarded stores).
bool is_output_view(const Expr& f) {
  switch (f->kind) {
  case NodeKind::Join:
  case NodeKind::Split:
  case NodeKind::Transpose:
  case NodeKind::Drop:
    return true;
  case NodeKind::Map:
    return f->map_kind == MapKind::Map && is_output_view(f->children[0]);
  case NodeKind::Lambda: {
    if (f->params().size() != 1)
      return false;
    Expr e = f->body();
    while (e->kind == NodeKind::Call && e->children.size() == 2 && is_output_view(e->callee()))
      e = e->children[1];
    return e.same_as(f->params()[0]);
  }
  default:
    return false;
  }
}

// Map^depth(Get(i)) $ value with the Get moved into the computation, so that the component is
// computed and written like any array of scalars: through Maps (of any kind) into the function's
// result, through Join and Split, and a Zip's component is its argument. Elsewhere the Get stays
// outside (a view the code generator may refuse, with its message).
Expr component_of(const Expr& value, int depth, int i) {
  if (value->kind == NodeKind::Call) {
    const Expr& f = value->callee();
    auto args = value->call_args();
    if (depth >= 1 && f->kind == NodeKind::Map && args.size() == 1) {
      Expr e = make_param();
      Expr body = component_of(make_call(f->children[0], {e}), depth - 1, i);
      return make_call(with_children(f, {make_lambda({e}, body)}), {args[0]});
    }
    if (depth == 1 && f->kind == NodeKind::Zip && i < static_cast<int>(args.size()))
      return args[static_cast<std::size_t>(i)];
    if (depth >= 1 && f->kind == NodeKind::Join && args.size() == 1)
      return make_call(f, {component_of(args[0], depth + 1, i)});
    if (depth >= 2 && f->kind == NodeKind::Split && args.size() == 1)
      return make_call(f, {component_of(args[0], depth - 1, i)});
    if (f->kind == NodeKind::Lambda && args.size() == f->params().size()) {
      std::map<const Node*, Expr> bound;
      auto params = f->params();
      for (std::size_t k = 0; k < params.size(); ++k)
        bound[params[k].get()] = args[k];
      return component_of(instantiate(f->body(), bound), depth, i);
    }
  }
  return make_call(map_nest(depth, make_get(i)), {value});
}

class StageSplitter {
public:
  explicit StageSplitter(const Expr& program) {
    auto params = program->params();
    for (std::size_t i = 0; i < params.size(); ++i)
      sources_[params[i].get()] = {BufferRef::ProgramInput, i};
  }

  std::vector<Stage> run(const Expr& program) {
    Expr last = detach(program->body(), true);
    if (stages_.empty())
      return {}; // no cut: the program itself is the one stage
    if (!has_parallel_map(last))
      last = copied(last); // e.g. Pad $ tmp: a computed interior in a ghost ring
    add_output_stage(last);
    return std::move(stages_);
  }

private:
  // e with every parallel computation that another computation reads moved into a stage of
  // its own (replaced by a parameter standing for its buffer).
  // `to_output`: e's value reaches the program's output through layout calls only. Join, Split,
  // Transpose and Drop there become views of the output; the others (Pad, Slide, Zip, ...)
  // read a computed array at other positions than they write it, so it gets a buffer.
  Expr detach(const Expr& e, bool to_output = false) {
    if (e->kind != NodeKind::Call)
      return e;
    const Expr& callee = e->callee();
    auto args = e->call_args();
    if (callee->kind == NodeKind::Iterate && has_parallel_map(callee->children[0]) &&
        iterate_fields(*callee).times.is_constant() && args.size() == 1)
      return unroll(callee, detach_argument(args[0]));
    bool computes = !is_layout_only(callee);
    bool writes_through = is_output_view(callee);
    std::vector<Expr> children{callee};
    bool changed = false;
    for (const auto& a : args) {
      Expr d =
          computes || (to_output && !writes_through) ? detach_argument(a) : detach(a, to_output);
      changed |= !d.same_as(a);
      children.push_back(std::move(d));
    }
    return changed ? with_children(e, std::move(children)) : e;
  }

  // An argument of a computation: layout calls stay views; a parallel computation under them
  // gets its own stage.
  Expr detach_argument(const Expr& a) {
    if (a->kind != NodeKind::Call)
      return a;
    if (is_layout_only(a->callee())) {
      std::vector<Expr> children{a->callee()};
      bool changed = false;
      for (const auto& x : a->call_args()) {
        Expr d = detach_argument(x);
        changed |= !d.same_as(x);
        children.push_back(std::move(d));
      }
      return changed ? with_children(a, std::move(children)) : a;
    }
    Expr d = detach(a);
    if (!has_parallel_map(d))
      return d;
    Expr param = materialize(a, d);
    return param ? param : d;
  }

  // Iterate(k, f) $ x: k - 1 stages; the last step is returned for the enclosing stage.
  Expr unroll(const Expr& iterate, Expr current) {
    int64_t k = iterate_fields(*iterate).times.value();
    const Expr& f = iterate->children[0];
    for (int64_t i = 0; i < k; ++i) {
      Expr step = make_call(f, {current});
      if (i + 1 == k)
        return step;
      Expr param = materialize(Expr{}, step);
      if (!param)
        return make_call(make_iterate(k - i, f), {current}); // the rest stays one computation
      current = param;
    }
    return current; // k == 0: the argument itself
  }

  // An expression standing for the buffer(s) that new stages compute `value` into, or null where
  // the value cannot be stored (it reads no input, or it is not an array: it stays where it is,
  // and the code generator says what it cannot do). `original` (the node before detaching,
  // when there is one) is remembered so that a value read twice is computed once.
  Expr materialize(const Expr& original, const Expr& value) {
    if (original)
      if (auto it = memo_.find(original.get()); it != memo_.end())
        return it->second;
    std::vector<Expr> params;
    std::vector<BufferRef> inputs;
    collect_sources(value, params, inputs);
    if (params.empty())
      return {};
    Expr program = make_lambda(params, value);
    Type type = infer_type(program);
    if (!type.is_array())
      return {};
    Expr stored =
        type.innermost().is_scalar() ? store(program, inputs, type) : store_components(value, type);
    if (stored && original)
      memo_[original.get()] = stored;
    return stored;
  }

  Expr store(const Expr& program, const std::vector<BufferRef>& inputs, const Type& type) {
    std::size_t index = next_value_++;
    stages_.push_back({program, inputs, {BufferRef::Intermediate, index}});
    Expr param = make_param("tmp", type); // one name: launches of equal steps share a kernel
    sources_[param.get()] = {BufferRef::Intermediate, index};
    return param;
  }

  // An array of tuples as a structure of arrays: one stage per component (component arrays of
  // tuples split further), zipped back at the tuple's depth. Each stage computes the value and
  // keeps one component; the OpenCL compiler drops the rest of the arithmetic where the
  // components do not share it.
  Expr store_components(const Expr& value, const Type& type) {
    int depth = type.rank();
    std::vector<Expr> components;
    for (std::size_t i = 0; i < type.innermost().elements().size(); ++i) {
      Expr component = component_of(value, depth, static_cast<int>(i));
      Expr stored = materialize(Expr{}, component);
      if (!stored)
        return {};
      components.push_back(stored);
    }
    return zip_nd_expr(depth, components);
  }

  // MapGlb(...(MapGlb(id))) $ value: a copy with a work-item per element (three dimensions
  // at most, deeper levels sequential).
  Expr copied(const Expr& value) {
    std::vector<Expr> params;
    std::vector<BufferRef> inputs;
    collect_sources(value, params, inputs);
    Type type = infer_type(make_lambda(params, value));
    if (!type.is_array() || !type.innermost().is_scalar())
      return value;
    int depth = static_cast<int>(type.shape().size());
    auto def = std::make_shared<UserFunDef>();
    def->name = "id";
    def->arity = 1;
    def->body = ScalarExpr::param(0);
    Expr f = make_user_fun(def);
    for (int level = depth - 1; level >= 0; --level)
      f = level < 3 ? make_map(MapKind::Glb, std::min(depth, 3) - 1 - level, f)
                    : make_map(MapKind::Seq, 0, f);
    return make_call(f, {value});
  }

  // The last stage: the program's output.
  void add_output_stage(const Expr& value) {
    std::vector<Expr> params;
    std::vector<BufferRef> inputs;
    collect_sources(value, params, inputs);
    stages_.push_back({make_lambda(params, value), inputs, {BufferRef::ProgramOutput, 0}});
  }

  void collect_sources(const Expr& e, std::vector<Expr>& params, std::vector<BufferRef>& inputs) {
    if (e->kind == NodeKind::Param) {
      auto it = sources_.find(e.get());
      if (it == sources_.end())
        return; // a lambda's own parameter
      for (const auto& p : params)
        if (p.same_as(e))
          return;
      params.push_back(e);
      inputs.push_back(it->second);
      return;
    }
    for (const auto& c : e->children)
      collect_sources(c, params, inputs);
  }

  std::map<const Node*, BufferRef> sources_;
  std::map<const Node*, Expr> memo_;
  std::vector<Stage> stages_;
  std::size_t next_value_ = 0;
};

} // namespace

std::vector<Stage> split_into_stages(const Expr& program) {
  if (program->kind != NodeKind::Lambda)
    user_error("code generation needs a program: a lambda over typed inputs");
  // Keep the inputs' order for a program of one stage, even where some input is unused.
  std::vector<Stage> stages = StageSplitter(program).run(program);
  if (stages.empty()) {
    auto params = program->params();
    std::vector<BufferRef> inputs;
    for (std::size_t i = 0; i < params.size(); ++i)
      inputs.push_back({BufferRef::ProgramInput, i});
    return {{program, inputs, {BufferRef::ProgramOutput, 0}}};
  }
  return stages;
}

} // namespace tessera::codegen
