#include "dsl/Primitives.h"

#include <optional>

#include "core/Error.h"
#include "core/NdExpr.h"

namespace tessera {

namespace {

// The element types of the arrays a function is applied to; an error names `what` otherwise.
Type element_of(const std::vector<Type>& inputs, const std::string& what) {
  if (inputs.size() != 1)
    user_error(cat(what, " takes 1 argument, got ", inputs.size()));
  if (!inputs[0].is_array())
    user_error(cat(what, " expects an array, got ", inputs[0]));
  return inputs[0].element();
}

// A Fun whose node does not depend on the argument types; `make` builds the node, and its
// errors (invalid sizes: split(0)) carry the user's location like those of applying a Fun.
template <class Make> Fun fixed(Make make, Loc loc) {
  try {
    return Fun::of(make(), loc);
  } catch (const Error& e) {
    detail::rethrow_located(e, loc);
  }
}

// Applies `f` to the `levels`-deep elements: map^levels(f).
Fun nest(int levels, Fun f, Loc loc) {
  for (int i = 0; i < levels; ++i)
    f = map(f, loc);
  return f;
}

void require_dims(int dims, const char* what, Loc loc) {
  if (dims < 1)
    detail::rethrow_located(
        Error(cat(what, ": the number of dimensions must be at least 1, got ", dims)), loc);
}

} // namespace

Boundary constant(float v) {
  return Boundary::constant(ScalarValue::make(ScalarKind::F32, v));
}
Boundary constant(double v) {
  return Boundary::constant(ScalarValue::make(ScalarKind::F64, v));
}
Boundary constant(int v) {
  return Boundary::constant(ScalarValue::make(ScalarKind::I32, v));
}

Fun map_kind(MapKind kind, int dim, Fun f, Loc loc) {
  std::string name = map_kind_name(kind);
  return Fun(
      [kind, dim, f, name](const std::vector<Type>& in) {
        return make_map(kind, dim, f.build({element_of(in, name)}, name));
      },
      name, loc);
}

Fun map(Fun f, Loc loc) {
  return map_kind(MapKind::Map, 0, std::move(f), loc);
}
Fun map_glb(int dim, Fun f, Loc loc) {
  return map_kind(MapKind::Glb, dim, std::move(f), loc);
}
Fun map_wrg(int dim, Fun f, Loc loc) {
  return map_kind(MapKind::Wrg, dim, std::move(f), loc);
}
Fun map_lcl(int dim, Fun f, Loc loc) {
  return map_kind(MapKind::Lcl, dim, std::move(f), loc);
}
Fun map_seq(Fun f, Loc loc) {
  return map_kind(MapKind::Seq, 0, std::move(f), loc);
}
Fun map_seq_unroll(Fun f, Loc loc) {
  return map_kind(MapKind::SeqUnroll, 0, std::move(f), loc);
}

namespace {
Fun reduce_kind(ReduceKind kind, Fun f, Val init, Loc loc) {
  std::string name = reduce_kind_name(kind);
  return Fun(
      [kind, f, init, name](const std::vector<Type>& in) {
        return make_reduce(kind, f.build({init.type(), element_of(in, name)}, name), init.expr());
      },
      name, loc);
}
} // namespace

Fun reduce(Fun f, Val init, Loc loc) {
  return reduce_kind(ReduceKind::Reduce, f, init, loc);
}
Fun reduce_seq(Fun f, Val init, Loc loc) {
  return reduce_kind(ReduceKind::Seq, f, init, loc);
}
Fun reduce_seq_unroll(Fun f, Val init, Loc loc) {
  return reduce_kind(ReduceKind::SeqUnroll, f, init, loc);
}

namespace {
Fun scan_direction(bool backward, Fun f, Val init, Loc loc) {
  std::string name = backward ? "ScanBackward" : "Scan";
  return Fun(
      [backward, f, init, name](const std::vector<Type>& in) {
        return make_scan(f.build({init.type(), element_of(in, name)}, name), init.expr(), backward);
      },
      name, loc);
}
} // namespace

Fun scan(Fun f, Val init, Loc loc) {
  return scan_direction(false, f, init, loc);
}
Fun scan_backward(Fun f, Val init, Loc loc) {
  return scan_direction(true, f, init, loc);
}

Val zip(const std::vector<Val>& arrays, Loc loc) {
  return fixed([] { return make_zip(); }, loc).apply(arrays);
}
Fun split(ArithExpr chunk, Loc loc) {
  return fixed([&] { return make_split(std::move(chunk)); }, loc);
}
Fun join(Loc loc) {
  return fixed([] { return make_join(); }, loc);
}
Fun slide(ArithExpr size, ArithExpr step, Loc loc) {
  return fixed([&] { return make_slide(std::move(size), std::move(step)); }, loc);
}
Fun pad(ArithExpr left, ArithExpr right, Boundary boundary, Loc loc) {
  return fixed([&] { return make_pad(std::move(left), std::move(right), boundary); }, loc);
}
Fun drop(ArithExpr left, ArithExpr right, Loc loc) {
  return fixed([&] { return make_drop(std::move(left), std::move(right)); }, loc);
}
Fun transpose(Loc loc) {
  return fixed([] { return make_transpose(); }, loc);
}
Fun at(ArithExpr index, Loc loc) {
  return fixed([&] { return make_at(std::move(index)); }, loc);
}
Fun get(int index, Loc loc) {
  return fixed([&] { return make_get(index); }, loc);
}

Fun iterate(int times, Fun f, Loc loc) {
  return Fun(
      [times, f](const std::vector<Type>& in) {
        return make_iterate(times, f.build(in, "Iterate"));
      },
      "Iterate", loc);
}

Val generate(ArithExpr length, Fun f, Loc loc) {
  return fixed([&] { return make_generate(length, f.build({i32()}, "Generate")); }, loc).apply({});
}

namespace {
Fun to_mem(AddressSpace space, Fun f, Loc loc) {
  std::string name = cat("to", address_space_name(space));
  return Fun([space, f,
              name](const std::vector<Type>& in) { return make_to_mem(space, f.build(in, name)); },
             name, loc);
}
} // namespace

Fun to_global(Fun f, Loc loc) {
  return to_mem(AddressSpace::Global, std::move(f), loc);
}
Fun to_local(Fun f, Loc loc) {
  return to_mem(AddressSpace::Local, std::move(f), loc);
}
Fun to_private(Fun f, Loc loc) {
  return to_mem(AddressSpace::Private, std::move(f), loc);
}

Fun map_nd(int dims, Fun f, Loc loc) {
  require_dims(dims, "map_nd", loc);
  return nest(dims, std::move(f), loc);
}

// PadND = Pad on the outer level, then PadN-1 inside: Map(Pad) o Pad for 2-D (thesis 1.1).
Fun pad_nd(int dims, ArithExpr left, ArithExpr right, Boundary boundary, Loc loc) {
  require_dims(dims, "pad_nd", loc);
  Fun f = pad(left, right, boundary, loc);
  for (int level = 1; level < dims; ++level)
    f = f >> nest(level, pad(left, right, boundary, loc), loc);
  return f;
}

Fun drop_nd(int dims, ArithExpr left, ArithExpr right, Loc loc) {
  require_dims(dims, "drop_nd", loc);
  Fun f = drop(left, right, loc);
  for (int level = 1; level < dims; ++level)
    f = f >> nest(level, drop(left, right, loc), loc);
  return f;
}

// Applies `level` (a Slide or a Split) to every level, then moves the window levels outwards
// with adjacent transposes, by the plan the rewrite rules follow too (core/NdExpr.h):
//   [n0][n1]..  -> [w0][s0][w1][s1]..  -> [w0][w1]..[s0][s1]..
Fun windows_nd(int dims, const Fun& level, Loc loc) {
  std::optional<Fun> f;
  for (const NdStep& step : windows_nd_plan(dims)) {
    Fun g = step.kind == NdStep::Window ? level : transpose(loc);
    f = f ? *f >> nest(step.level, g, loc) : step.level == 0 ? g : nest(step.level, g, loc);
  }
  return *f;
}

Fun slide_nd(int dims, ArithExpr size, ArithExpr step, Loc loc) {
  require_dims(dims, "slide_nd", loc);
  return windows_nd(dims, slide(size, step, loc), loc);
}

// Disjoint tiles of chunk^dims elements.
Fun split_nd(int dims, ArithExpr chunk, Loc loc) {
  require_dims(dims, "split_nd", loc);
  return windows_nd(dims, split(chunk, loc), loc);
}

Fun join_nd(int dims, Loc loc) {
  require_dims(dims, "join_nd", loc);
  if (dims == 1)
    return Fun(
        [](const std::vector<Type>& in) {
          // A 1-D neighbourhood is already flat: the identity lambda.
          Expr p = make_param();
          (void)in;
          return make_lambda({p}, p);
        },
        "Id", loc);
  Fun f = join(loc);
  for (int d = 2; d < dims; ++d)
    f = f >> join(loc);
  return f;
}

Val zip_nd(int dims, const std::vector<Val>& arrays, Loc loc) {
  require_dims(dims, "zip_nd", loc);
  Val zipped = zip(arrays, loc);
  if (dims == 1)
    return zipped;
  std::size_t k = arrays.size();
  Fun inner(
      [dims, k, loc](Val t) {
        std::vector<Val> parts;
        for (std::size_t i = 0; i < k; ++i)
          parts.push_back(t.get(static_cast<int>(i), loc));
        return zip_nd(dims - 1, parts, loc);
      },
      loc);
  return zipped | map(inner, loc);
}

} // namespace tessera
