// The emitter's entry points for kernels that are written around one work-item's computation
// (the time-tiled programs, codegen/TimeTileKernel.cpp), and the helper source every kernel
// starts with (its portability preamble first, codegen/Portability.h).
#include <set>

#include "codegen/CExpr.h"
#include "codegen/Emitter.h"
#include "codegen/Portability.h"

namespace tessera::codegen {

std::string Emitter::helpers_source() {
  std::ostringstream src;
  src << portability_preamble();
  if (uses_fp64_ || functions_.uses_fp64())
    src << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  src << floor_helpers(printer_.uses_floor_div(), printer_.uses_floor_mod());
  // The functions the statements call, directly or through the N-lane versions (a scalar
  // function whose N-lane version computes on vectors directly may be unused).
  src << functions_.definitions(called_functions(body_, functions_.calls()));
  return src.str();
}

Block Emitter::point_block(const Expr& f, const View& arg, const Type& arg_type,
                           const std::string& result, ScalarKind kind) {
  types_.apply(f, {arg_type}); // binds f's parameters for the types of what it computes
  auto memory = std::make_shared<Memory>();
  memory->name = result;
  memory->space = AddressSpace::Private;
  memory->element = kind;
  memory->type = Type::scalar(kind);
  memory->is_scalar_var = true;
  if (kind == ScalarKind::F64)
    uses_fp64_ = true;
  functions_.reserve(result);
  ++seq_depth_; // inside one work-item: intermediates of f are private
  Block statements = capture([&] {
    apply_write(f, {Operand{arg, arg_type}}, memory_view(memory));
  });
  --seq_depth_;
  print_expressions(statements, printer_, functions_);
  append(statements); // what helpers_source() finds called
  return statements;
}

} // namespace tessera::codegen
