#include "codegen/Emitter.h"

#include <set>

#include "codegen/Image.h"
#include "codegen/Names.h"
#include "codegen/ScalarC.h"
#include "core/Error.h"
#include "core/Printer.h"
#include "core/Substitute.h"

namespace tessera::codegen {

// Does `e` (a function or value) contain a Map of the given kind anywhere?
bool contains_map(const Expr& e, MapKind kind) {
  if (e->kind == NodeKind::Map && e->map_kind == kind)
    return true;
  for (const auto& c : e->children)
    if (contains_map(c, kind))
      return true;
  return false;
}

Emitter::Emitter(Expr program, CodegenOptions options)
    : program_(std::move(program)), options_(std::move(options)) {}

// ---------------------------------------------------------------------------------------------
// Output helpers

void Emitter::line(const std::string& text) {
  open_.back()->push_back(Stmt::line(text, printer_.take_calls()));
}

void Emitter::line(Pieces pieces) {
  Stmt s = Stmt::line(std::move(pieces));
  s.calls = printer_.take_calls();
  open_.back()->push_back(std::move(s));
}

void Emitter::open(const std::string& text) {
  Block* block = open_.back();
  block->push_back(Stmt::nest(text, {}, printer_.take_calls()));
  open_.push_back(&block->back().body);
}

void Emitter::close() {
  open_.pop_back();
}

Block Emitter::capture(const std::function<void()>& emit) {
  Block block;
  auto saved = open_;
  open_ = {&block};
  try {
    emit();
  } catch (...) {
    open_ = saved;
    throw;
  }
  open_ = saved;
  return block;
}

void Emitter::append(Block block) {
  Block& to = *open_.back();
  to.insert(to.end(), std::make_move_iterator(block.begin()), std::make_move_iterator(block.end()));
}

std::string Emitter::print(const Access& a) {
  return printer_.access(a);
}

Piece Emitter::lvalue(const Access& a) {
  if (a.kind != Access::MemoryRead)
    internal_error("a result is written through a view that is not memory");
  if (a.memory->is_scalar_var && pending_declarations_.erase(a.memory->name))
    return Piece::literal(scalar_c_type(a.memory->element) + " " + a.memory->name);
  return Piece::scalar(a);
}

std::string Emitter::fresh(const std::string& prefix) {
  return prefix + std::to_string(counters_[prefix]++);
}

// The program's checker knows every parameter in scope (nested functions may use outer ones);
// applying a function again rebinds its own parameters to the same types.
Type Emitter::result_type(const Expr& f, const std::vector<Operand>& args) {
  std::vector<Type> types;
  for (const auto& a : args)
    types.push_back(a.type);
  return types_.apply(f, types);
}

// ---------------------------------------------------------------------------------------------
// The kernel

Kernel Emitter::run() {
  if (program_->kind != NodeKind::Lambda)
    user_error("code generation needs a program: a lambda over typed inputs");
  if (!options_.baked_sizes.empty()) {
    std::map<std::string, ArithExpr> baked;
    for (const auto& [name, value] : options_.baked_sizes)
      baked[name] = value;
    program_ = substitute_sizes(program_, baked);
  }
  auto inputs = input_types(program_);
  Type out_type = types_.apply(program_, inputs);
  Kernel kernel;
  for (const auto& a : types_.assumptions()) {
    auto c = a.must_be_zero.as_constant();
    if (c && *c != 0)
      user_error(a.message);
    if (!c)
      kernel.size_conditions.push_back(a);
  }
  kernel.name = sanitize(options_.kernel_name);
  functions_.reserve(kernel.name);
  kernel.output_type = out_type;
  kernel.program_text = tessera::print(program_);

  View out = declare_parameters(kernel, inputs, out_type);
  write(program_->body(), out);
  for (int d = launch_.dims; d < 3; ++d)
    if (options_.index_gaps[static_cast<std::size_t>(d)][1] > 0)
      user_error(cat("an index gap along dimension ", d, " of a kernel of ", launch_.dims));
  choose_work_groups();
  print_expressions(body_, printer_, functions_);
  kernel.source = source(kernel);
  kernel.launch = launch_;
  kernel.local_memory_bytes = local_bytes_;
  kernel.private_bytes = private_bytes_;
  kernel.index_gaps = options_.index_gaps;
  if (options_.interior_only) {
    kernel.interior_margin = interior_margin();
    kernel.colour_strided = colour_strided_ && kernel.interior_margin > 0;
    kernel.interior_rows = interior_guarded_ && kernel.interior_margin > 0;
  }
  return kernel;
}

// The kernel's parameters: its inputs (named after the program's, out of the reserved names),
// its output `out` and the size variables left open; binds the inputs' views.
View Emitter::declare_parameters(Kernel& kernel, const std::vector<Type>& inputs,
                                 const Type& out_type) {
  std::set<std::string> names;
  std::set<std::string> size_vars;
  auto params = program_->params();
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Type& t = inputs[i];
    if (!t.innermost().is_scalar())
      user_error(cat("kernel input '", params[i]->name, "' has type ", t,
                     ": inputs must be scalars or arrays of scalars"));
    std::string name = params[i]->name.empty() ? cat("in", i) : sanitize(params[i]->name);
    if (is_reserved(name))
      name = "in_" + name;
    while (names.count(name) || name == kernel.name)
      name += "_";
    names.insert(name);
    functions_.reserve(name);
    auto memory = std::make_shared<Memory>();
    memory->name = name;
    memory->element = t.innermost().scalar_kind();
    memory->type = t;
    memory->is_scalar_var = t.is_scalar();
    if (is_image(params[i]->space))
      memory->space = params[i]->space;
    if (memory->element == ScalarKind::F64)
      uses_fp64_ = true;
    env_.insert_or_assign(params[i].get(), Operand{memory_view(memory), t});
    kernel.params.push_back(
        {KernelParam::Input, name, t, memory->element, t.scalar_count(), params[i]->space});
    for (const auto& v : t.scalar_count().variables())
      size_vars.insert(v);
  }
  if (!out_type.innermost().is_scalar())
    user_error(cat("the program's result has type ", out_type,
                   ": a kernel's output must be a scalar or an array of scalars"));
  auto out = std::make_shared<Memory>();
  out->name = "out";
  out->element = out_type.innermost().scalar_kind();
  out->type = out_type;
  if (out->element == ScalarKind::F64)
    uses_fp64_ = true;
  kernel.params.push_back(
      {KernelParam::Output, "out", out_type, out->element, out_type.scalar_count()});
  for (const auto& v : out_type.scalar_count().variables())
    size_vars.insert(v);
  for (const auto& v : size_vars)
    kernel.params.push_back({KernelParam::Size, v, i32(), ScalarKind::I32, 1});
  return memory_view(out);
}

// The kernel's source: helpers, samplers, the signature, the declarations and the statements.
std::string Emitter::source(Kernel& kernel) {
  std::ostringstream src;
  src << "// Generated by tessera.\n" << helpers_source();
  for (const auto& p : kernel.params)
    if (is_image(p.space))
      src << image_sampler(p.name, p.space);
  src << "\n__kernel "
      << (required_work_group_ > 0
              ? cat("__attribute__((reqd_work_group_size(", required_work_group_, ", 1, 1))) ")
              : "")
      << "void " << kernel.name << "(";
  // In place, the output aliases an input: restrict would promise the compiler it does not.
  kernel.in_place = options_.in_place;
  if (kernel.in_place)
    kernel.in_place_input = options_.in_place_input;
  auto pointer = [&](const KernelParam& p) {
    const bool aliased =
        kernel.in_place && (p.role == KernelParam::Output || p.name == kernel.in_place_input);
    return aliased ? std::string("* ") : std::string("* restrict ");
  };
  for (std::size_t i = 0; i < kernel.params.size(); ++i) {
    const auto& p = kernel.params[i];
    src << (i ? ",\n    " : "");
    std::string ctype = scalar_c_type(p.element);
    switch (p.role) {
    case KernelParam::Input:
      src << (p.type.is_scalar() ? cat("const ", ctype, " ", p.name)
              : is_image(p.space)
                  ? image_parameter(p.name, p.type)
                  : cat(p.space == AddressSpace::Constant ? "__constant " : "const __global ",
                        ctype, pointer(p), p.name));
      break;
    case KernelParam::Output:
      src << "__global " << ctype << pointer(p) << p.name;
      break;
    case KernelParam::Size:
      src << "const int " << p.name;
      break;
    }
  }
  src << ") {\n";
  Block declarations;
  for (const auto& d : local_decls_)
    declarations.push_back(Stmt::line(d));
  for (const auto& p : preamble_)
    declarations.push_back(Stmt::line(p));
  print_opencl(src, declarations, 1);
  print_opencl(src, body_, 1);
  src << "}\n";
  return src.str();
}

} // namespace tessera::codegen
