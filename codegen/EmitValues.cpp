// The emitter's values: views of data, and computations materialised in private, local or
// global memory where a consumer needs them (Emitter.h).
#include "codegen/Emitter.h"

#include "core/Error.h"
#include "core/Fields.h"
#include "core/Substitute.h"

namespace tessera::codegen {

Operand Emitter::value(const Expr& e) {
  switch (e->kind) {
  case NodeKind::Param: {
    auto it = env_.find(e.get());
    if (it == env_.end())
      internal_error("unbound parameter '" + e->name + "' during emission");
    return it->second;
  }
  case NodeKind::Literal:
    if (e->literal.kind == ScalarKind::F64)
      uses_fp64_ = true;
    return {scalar_view(e->literal.to_string()), Type::scalar(e->literal.kind)};
  case NodeKind::Call: {
    std::vector<Operand> args;
    for (const auto& a : e->call_args())
      args.push_back(value(a));
    return apply_value(e->callee(), args);
  }
  default:
    internal_error(cat("value() of a function node ", kind_name(e->kind)));
  }
}

Operand Emitter::apply_value(const Expr& f, const std::vector<Operand>& args) {
  const Node& n = *f;
  auto arg = [&](std::size_t i) -> const Operand& { return args.at(i); };
  switch (n.kind) {
  case NodeKind::Lambda: {
    auto params = n.params();
    for (std::size_t i = 0; i < params.size(); ++i)
      env_.insert_or_assign(params[i].get(), args.at(i));
    return value(n.body());
  }
  case NodeKind::Split:
    return {split_view(arg(0).view, split_fields(n).chunk), result_type(f, args)};
  case NodeKind::Join:
    return {join_view(arg(0).view, arg(0).type.element().length()), result_type(f, args)};
  case NodeKind::Slide:
    return {slide_view(arg(0).view, slide_fields(n).step), result_type(f, args)};
  case NodeKind::Pad: {
    // The constant as a value of the elements' type (a literal 0 pads an f32 grid with 0.0f).
    Boundary boundary = n.boundary;
    if (boundary.kind == Boundary::Constant)
      boundary.value =
          ScalarValue::make(arg(0).type.innermost().scalar_kind(), boundary.value.as_double());
    return {pad_view(arg(0).view, pad_fields(n).left, arg(0).type.length(), boundary),
            result_type(f, args)};
  }
  case NodeKind::Drop:
    return {drop_view(arg(0).view, drop_fields(n).left), result_type(f, args)};
  case NodeKind::Transpose:
    return {transpose_view(arg(0).view), result_type(f, args)};
  case NodeKind::TileSlide:
    return {tile_slide_view(arg(0).view, arg(1).view, std::make_shared<const Node>(n)),
            result_type(f, args)};
  case NodeKind::Zip: {
    std::vector<View> views;
    for (const auto& a : args)
      views.push_back(a.view);
    return {zip_view(std::move(views)), result_type(f, args)};
  }
  case NodeKind::Get:
    return {component_view(arg(0).view, get_component(n)), result_type(f, args)};
  case NodeKind::At:
    return {index_view(arg(0).view, at_fields(n).index), result_type(f, args)};
  case NodeKind::UserFun: {
    std::vector<View> views;
    std::vector<ScalarKind> kinds;
    for (const auto& a : args) {
      views.push_back(a.view);
      kinds.push_back(a.type.scalar_kind());
    }
    Type t = result_type(f, args);
    return {call_view(functions_.scalar(*n.user_fun, kinds), std::move(views)), t};
  }
  case NodeKind::Generate: {
    // Element i is g(i): g is applied to the index as data when the element is accessed
    // (Emitter::element, the views' Generator).
    return {generate_view(n.children[0]), result_type(f, args)};
  }
  case NodeKind::Map:
    if (n.map_kind == MapKind::Map && is_layout_only(n.children[0])) {
      // Map of a layout-only function is itself a view: element v is f(x[v]).
      std::string var = fresh("v");
      const Operand& in = arg(0);
      ArithExpr v = ArithExpr::var(var, 0, in.type.length() - 1);
      Operand element =
          apply_value(n.children[0], {Operand{index_view(in.view, v), in.type.element()}});
      return {map_view(element.view, var), Type::array(element.type, in.type.length())};
    }
    return materialize(f, args, result_type(f, args), std::nullopt);
  case NodeKind::Iterate:
    if (is_layout_only(n.children[0])) {
      Operand cur = arg(0);
      for (int64_t s = 0; s < iterate_fields(n).times.value(); ++s)
        cur = apply_value(n.children[0], {cur});
      return cur;
    }
    return materialize(f, args, result_type(f, args), std::nullopt);
  case NodeKind::ToMem:
    return materialize(n.children[0], args, result_type(f, args), n.space);
  case NodeKind::Reduce:
  case NodeKind::Scan:
    return materialize(f, args, result_type(f, args), std::nullopt);
  case NodeKind::TimeTile:
    user_error("TimeTile is a whole program of kernels (codegen/TimeTiled.h): it must be the "
               "program's only computation, applied to its input grid");
  case NodeKind::StreamSteps:
    user_error("StreamSteps computes a kernel's result: it cannot be read by another "
               "computation of the same kernel (generate_program gives it a launch of its own)");
  case NodeKind::Param:
  case NodeKind::Literal:
  case NodeKind::Call:
    break;
  }
  internal_error(cat("apply_value of ", kind_name(n.kind)));
}

View Emitter::element(const Expr& f, const ArithExpr& index) {
  return apply_value(f, {Operand{integer_view(index), i32()}}).view;
}

// Where an intermediate result lives:
//  - toLocal / toPrivate as requested (toLocal only inside MapWrg, toPrivate never of a
//    MapLcl's result: each work-item holds only its own elements of it);
//  - toGlobal on an intermediate read only by the work-item that computed it is placed in
//    private memory: global memory would only be slower, and the value is the same;
//  - without a request: local when a work-group computes it cooperatively (MapLcl inside
//    MapWrg), private when one work-item computes it;
//  - an intermediate computed by a MapLcl inside another MapLcl has no place: an error;
//  - an intermediate computed by all work-items of the kernel and read by others would need
//    a global barrier, which one kernel cannot have: that is an error.
Operand Emitter::materialize(const Expr& f, const std::vector<Operand>& args, const Type& result,
                             std::optional<AddressSpace> requested) {
  bool cooperative = contains_map(f, MapKind::Lcl);
  if (in_work_item() && (contains_map(f, MapKind::Glb) || contains_map(f, MapKind::Wrg)))
    user_error(cat("an intermediate of type ", result, " computed with MapGlb or MapWrg inside ",
                   "a work-item's function: global and work-group mappings belong to the ",
                   "outermost maps of the kernel"));
  // A work-group computes only its own element of a MapWrg's result: an intermediate that the
  // work-group then reads would hold the other work-groups' elements unwritten.
  if (wrg_depth_ > 0 && contains_map(f, MapKind::Wrg))
    user_error(cat("an intermediate of type ", result, " computed with MapWrg inside a MapWrg: ",
                   "each work-group would compute only its own part of it; nest MapWrg only "
                   "around the kernel's output"));
  AddressSpace space;
  if (requested == AddressSpace::Local) {
    if (wrg_depth_ == 0)
      user_error("toLocal can only be used inside MapWrg: local memory belongs to a work-group");
    // Inside a MapLcl every work-item would fill the one buffer of its work-group with its own
    // values at the same time.
    if (lcl_depth_ > 0)
      user_error(cat("toLocal of an intermediate of type ", result,
                     " inside MapLcl: the work-items would share one buffer for their own "
                     "values; compute it with MapLcl at work-group level, or use toPrivate"));
    space = AddressSpace::Local;
  } else if (requested == AddressSpace::Private) {
    // Each work-item computes only its own elements of a MapLcl's result, wherever the MapLcl
    // stands (also in a MapSeq or a Reduce at work-group level): its private array would hold
    // the others' elements unwritten.
    if (cooperative && wrg_depth_ > 0)
      user_error(cat("toPrivate of a MapLcl (an intermediate of type ", result,
                     "): each work-item computes only its own elements, and its private array "
                     "would hold the others' unwritten; use toLocal at work-group level, or "
                     "MapSeq inside toPrivate"));
    space = AddressSpace::Private;
  } else if (wrg_depth_ > 0 && lcl_depth_ == 0 && cooperative) {
    space = AddressSpace::Local;
  } else if (cooperative &&
             lcl_depth_ >
                 0) { // inside a MapLcl: neither private nor one work-group buffer holds it
    user_error(cat("an intermediate of type ", result, " computed with MapLcl inside a MapLcl: ",
                   "each work-item would compute only its own elements of it; compute it with "
                   "MapSeq, or with MapLcl at work-group level"));
  } else if (in_work_item() || at_work_group_level()) {
    space = AddressSpace::Private;
  } else if (contains_map(f, MapKind::Glb) || contains_map(f, MapKind::Wrg)) {
    user_error(cat("cannot generate one kernel: an intermediate result of type ", result,
                   " is computed by all work-items and read by others, which needs a global "
                   "barrier: generate a program of kernels with codegen::generate_program (one "
                   "launch per step, the intermediate in a buffer)"));
  } else {
    space = AddressSpace::Private; // a sequential program run by one work-item
  }
  if (lane_mode_ && space != AddressSpace::Private) {
    cannot_vectorise("lane mode keeps intermediates in private memory");
    space = AddressSpace::Private; // not printed: lane mode's statements are dropped
  }

  View dest = storage({}, result, space, result);
  apply_write(f, args, dest);
  // Local memory written by some work-items is read by others: wait for all writes.
  if (space == AddressSpace::Local)
    line("barrier(CLK_LOCAL_MEM_FENCE);");
  return {dest, result};
}

} // namespace tessera::codegen
