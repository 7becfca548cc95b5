#include "core/Error.h"
#include "core/Fields.h"
#include "core/TimeTile.h"
#include "primitives/Primitives.h"

namespace tessera {

using namespace primitives;

Type primitive_type(TypeChecker& checker, const Node& f, const std::vector<Type>& args) {
  switch (f.kind) {
  case NodeKind::Map:
    return map_type(checker, f, args);
  case NodeKind::ToMem:
    return checker.apply(f.children[0], args); // placement only
  case NodeKind::Reduce:
    return reduce_type(checker, f, args);
  case NodeKind::Scan:
    return scan_type(checker, f, args);
  case NodeKind::Zip:
    return zip_type(checker, f, args);
  case NodeKind::Split:
    return split_type(checker, f, args);
  case NodeKind::Join:
    return join_type(checker, f, args);
  case NodeKind::Slide:
    return slide_type(checker, f, args);
  case NodeKind::Pad:
    return pad_type(checker, f, args);
  case NodeKind::Drop:
    return drop_type(checker, f, args);
  case NodeKind::Transpose:
    return transpose_type(checker, f, args);
  case NodeKind::Iterate:
    return iterate_type(checker, f, args);
  case NodeKind::At:
    return at_type(checker, f, args);
  case NodeKind::Get:
    return get_type(checker, f, args);
  case NodeKind::Generate:
    return generate_type(checker, f, args);
  case NodeKind::TileSlide:
    return tile_slide_type(checker, f, args);
  case NodeKind::TimeTile:
    return checker.apply(time_tile_steps(f), args); // the unfused steps' type
  case NodeKind::StreamSteps:
    return stream_steps_type(checker, f, args);
  case NodeKind::UserFun:
    return user_fun_type(checker, f, args);
  case NodeKind::Lambda:
  case NodeKind::Param:
  case NodeKind::Literal:
  case NodeKind::Call:
    break;
  }
  internal_error(cat("primitive_type called on a ", kind_name(f.kind)));
}

Data primitive_eval(Interpreter& interp, const Node& f, const std::vector<Data>& args) {
  switch (f.kind) {
  case NodeKind::Map:
    return map_eval(interp, f, args);
  case NodeKind::ToMem:
    return interp.apply(f.children[0], args);
  case NodeKind::Reduce:
    return reduce_eval(interp, f, args);
  case NodeKind::Scan:
    return scan_eval(interp, f, args);
  case NodeKind::Zip:
    return zip_eval(interp, f, args);
  case NodeKind::Split:
    return split_eval(interp, f, args);
  case NodeKind::Join:
    return join_eval(interp, f, args);
  case NodeKind::Slide:
    return slide_eval(interp, f, args);
  case NodeKind::Pad:
    return pad_eval(interp, f, args);
  case NodeKind::Drop:
    return drop_eval(interp, f, args);
  case NodeKind::Transpose:
    return transpose_eval(interp, f, args);
  case NodeKind::Iterate:
    return iterate_eval(interp, f, args);
  case NodeKind::At:
    return at_eval(interp, f, args);
  case NodeKind::Get:
    return get_eval(interp, f, args);
  case NodeKind::Generate:
    return generate_eval(interp, f, args);
  case NodeKind::TileSlide:
    return tile_slide_eval(interp, f, args);
  case NodeKind::TimeTile:
    return interp.apply(time_tile_steps(f), args); // tiling does not change the values
  case NodeKind::StreamSteps:
    return stream_steps_eval(interp, f, args);
  case NodeKind::UserFun:
    return user_fun_eval(interp, f, args);
  case NodeKind::Lambda:
  case NodeKind::Param:
  case NodeKind::Literal:
  case NodeKind::Call:
    break;
  }
  internal_error(cat("primitive_eval called on a ", kind_name(f.kind)));
}

namespace primitives {

void require_arity(const char* primitive, const Types& args, std::size_t expected) {
  if (args.size() != expected)
    user_error(cat(primitive, " takes ", expected, " argument(s), got ", args.size()));
}

const Type& require_array(const char* primitive, const Type& t, const char* needed) {
  if (!t.is_array())
    user_error(cat(primitive, " expects ", needed, ", got ", t));
  return t;
}

const Type& require_nested_array(const char* primitive, const Type& t) {
  const Type& in = require_array(primitive, t, "an array of arrays");
  if (!in.element().is_array())
    user_error(cat(primitive, " expects an array of arrays, got ", in, " (its elements are ",
                   in.element(), ")"));
  return in.element();
}

void require_le(TypeChecker& checker, const ArithExpr& a, const ArithExpr& b,
                const std::string& why) {
  switch (prove_le(a, b)) {
  case Truth::No:
    user_error(why);
  case Truth::Unknown:
    checker.assume(lt(b, a), why); // lt(b, a) is 1 (not zero) exactly when a > b
    break;
  case Truth::Yes:
    break;
  }
}

std::string describe(const Node& f) {
  switch (f.kind) {
  case NodeKind::Map:
    return map_kind_name(f.map_kind);
  case NodeKind::Reduce:
    return reduce_kind_name(f.reduce_kind);
  case NodeKind::Scan:
    return f.backward ? "ScanBackward" : "Scan";
  case NodeKind::Pad:
    return cat("Pad(", size_list(f), ",", f.boundary.to_string(), ")");
  case NodeKind::TileSlide: // made by rules, not written by users: its fields by name
  case NodeKind::TimeTile:
  case NodeKind::StreamSteps:
    return cat(kind_name(f.kind), "(", named_size_list(f), ", ", f.boundary.to_string(), ")");
  case NodeKind::UserFun:
    return cat("UserFun '", f.user_fun->name, "'");
  default:
    break;
  }
  if (f.sizes.empty())
    return kind_name(f.kind);
  return cat(kind_name(f.kind), "(", size_list(f), ")");
}

} // namespace primitives
} // namespace tessera
