// The emitter's entry points for kernels that are written around one work-item's computation
// (the time-tiled programs, codegen/TimeTileKernel.cpp), and the helper source every kernel
// starts with.
#include <set>

#include "codegen/CExpr.h"
#include "codegen/Emitter.h"

namespace tessera::codegen {

namespace {

// Does `text` call the function `name` (name followed by '(' and not part of a longer name)?
bool calls(const std::string& text, const std::string& name) {
  for (auto at = text.find(name + "("); at != std::string::npos;
       at = text.find(name + "(", at + 1)) {
    char before = at == 0 ? ' ' : text[at - 1];
    if (!std::isalnum(static_cast<unsigned char>(before)) && before != '_')
      return true;
  }
  return false;
}

} // namespace

std::string Emitter::helpers_source(std::string uses) {
  std::ostringstream src;
  if (uses_fp64_)
    src << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  src << floor_helpers(printer_.uses_floor_div(), printer_.uses_floor_mod());
  // The functions `uses` calls, directly or through the N-lane versions (a scalar function
  // whose N-lane version computes on vectors directly may be unused).
  std::set<std::string> used;
  for (bool more = true; more;) {
    more = false;
    for (const auto& [name, def] : user_funs_)
      if (!used.count(name) && calls(uses, name)) {
        used.insert(name);
        uses += def;
        more = true;
      }
  }
  for (const auto& [name, def] : user_funs_)
    if (used.count(name))
      src << def << "\n";
  return src.str();
}

std::string Emitter::point_statements(const Expr& f, const View& arg, const Type& arg_type,
                                      const std::string& result, ScalarKind kind, int indent) {
  types_.apply(f, {arg_type}); // binds f's parameters for the types of what it computes
  auto memory = std::make_shared<Memory>();
  memory->name = result;
  memory->space = AddressSpace::Private;
  memory->element = kind;
  memory->type = Type::scalar(kind);
  memory->is_scalar_var = true;
  if (kind == ScalarKind::F64)
    uses_fp64_ = true;
  taken_names_.insert(result);
  std::string before = body_.str();
  body_.str("");
  body_.clear();
  int saved_indent = indent_;
  indent_ = indent;
  ++seq_depth_; // inside one work-item: intermediates of f are private
  apply_write(f, {Operand{arg, arg_type}}, memory_view(memory));
  --seq_depth_;
  indent_ = saved_indent;
  std::string text = body_.str();
  body_.str("");
  body_.clear();
  body_ << before;
  return text;
}

} // namespace tessera::codegen
