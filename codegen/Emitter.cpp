#include "codegen/Emitter.h"

#include <algorithm>
#include <functional>
#include <set>

#include "codegen/Image.h"
#include "codegen/Names.h"
#include "codegen/ScalarC.h"
#include "core/Error.h"
#include "core/Printer.h"
#include "core/Substitute.h"

namespace tessera::codegen {

namespace {

// Does `e` (a function or value) contain a Map of the given kind anywhere?
bool contains_map(const Expr& e, MapKind kind) {
  if (e->kind == NodeKind::Map && e->map_kind == kind)
    return true;
  for (const auto& c : e->children)
    if (contains_map(c, kind))
      return true;
  return false;
}

bool mentions_variable(const ArithExpr& e, const std::string& name) {
  auto vars = e.variables();
  return std::find(vars.begin(), vars.end(), name) != vars.end();
}

} // namespace

Emitter::Emitter(Expr program, CodegenOptions options, bool discovery)
    : program_(std::move(program)), options_(std::move(options)), discovery_(discovery) {}

// ---------------------------------------------------------------------------------------------
// Output helpers

void Emitter::line(const std::string& text) {
  body_ << std::string(2 * indent_, ' ') << text << "\n";
}

void Emitter::open(const std::string& text) {
  line(text + " {");
  ++indent_;
}

void Emitter::close() {
  --indent_;
  line("}");
}

std::string Emitter::print(const Access& a) {
  return printer_.access(substitution_.empty() ? a : substitute(a, substitution_));
}

std::string Emitter::lvalue(const View& dest) {
  Access a = resolve(dest, {});
  if (a.kind != Access::MemoryRead)
    internal_error("a result is written through a view that is not memory");
  if (a.memory->is_scalar_var && pending_declarations_.erase(a.memory->name))
    return scalar_c_type(a.memory->element) + " " + a.memory->name;
  return print(a);
}

std::string Emitter::fresh(const std::string& prefix) {
  return prefix + std::to_string(counters_[prefix]++);
}

std::string Emitter::user_fun_name(const UserFunDef& def, const std::vector<ScalarKind>& kinds) {
  std::string key = def.name;
  for (auto k : kinds)
    key += "_" + to_string(k);
  // Two different functions may share a name: the body is part of the key.
  std::vector<std::string> placeholder_names;
  for (std::size_t i = 0; i < kinds.size(); ++i)
    placeholder_names.push_back(cat("p", i));
  key += "|" + scalar_c(def.body, placeholder_names, kinds);
  auto it = user_fun_keys_.find(key);
  if (it != user_fun_keys_.end())
    return it->second;
  std::string name = sanitize(def.name);
  if (is_reserved(name))
    name = "fn_" + name;
  if (taken_names_.count(name))
    name += "_fn"; // keep clear of the kernel
                   // and its arguments
  for (int suffix = 2; user_funs_.count(name); ++suffix)
    name = cat(sanitize(def.name), "_", suffix);
  std::vector<std::string> params = user_fun_param_names(def, kinds.size());
  std::string signature;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    signature += cat(i ? ", " : "", scalar_c_type(kinds[i]), " ", params[i]);
    if (kinds[i] == ScalarKind::F64)
      uses_fp64_ = true;
  }
  ScalarKind result = def.body.infer(kinds, "UserFun '" + def.name + "'");
  if (result == ScalarKind::F64)
    uses_fp64_ = true;
  user_funs_[name] = cat(scalar_c_type(result), " ", name, "(", signature, ") { return ",
                         scalar_c(def.body, params, kinds), "; }");
  user_fun_keys_[key] = name;
  user_fun_signatures_[name] = {def, kinds, result};
  return name;
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
// Values: views of data, computations materialised where needed

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
    return {split_view(arg(0).view, n.sizes[0]), result_type(f, args)};
  case NodeKind::Join:
    return {join_view(arg(0).view, arg(0).type.element().length()), result_type(f, args)};
  case NodeKind::Slide:
    return {slide_view(arg(0).view, n.sizes[1]), result_type(f, args)};
  case NodeKind::Pad: {
    // The constant as a value of the elements' type (a literal 0 pads an f32 grid with 0.0f).
    Boundary boundary = n.boundary;
    if (boundary.kind == Boundary::Constant)
      boundary.value =
          ScalarValue::make(arg(0).type.innermost().scalar_kind(), boundary.value.as_double());
    return {pad_view(arg(0).view, n.sizes[0], arg(0).type.length(), boundary),
            result_type(f, args)};
  }
  case NodeKind::Drop:
    return {drop_view(arg(0).view, n.sizes[0]), result_type(f, args)};
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
    return {component_view(arg(0).view, static_cast<int>(n.sizes[0].value())),
            result_type(f, args)};
  case NodeKind::At:
    return {index_view(arg(0).view, n.sizes[0]), result_type(f, args)};
  case NodeKind::UserFun: {
    std::vector<View> views;
    std::vector<ScalarKind> kinds;
    for (const auto& a : args) {
      views.push_back(a.view);
      kinds.push_back(a.type.scalar_kind());
    }
    Type t = result_type(f, args);
    return {call_view(user_fun_name(*n.user_fun, kinds), std::move(views)), t};
  }
  case NodeKind::Generate: {
    Expr g = n.children[0];
    Type t = result_type(f, args);
    // Element i is g(i): apply g to the index as data when the element is accessed.
    GenerateFn fn = [this, g](const ArithExpr& i, const Path& rest) {
      Operand element = apply_value(g, {Operand{integer_view(i), i32()}});
      return resolve(element.view, rest);
    };
    return {generate_view(fn), t};
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
      for (int64_t s = 0; s < n.sizes[0].value(); ++s)
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

// Where an intermediate result lives:
//  - toLocal / toPrivate as requested (toLocal only inside MapWrg);
//  - toGlobal on an intermediate read only by the work-item that computed it is placed in
//    private memory: global memory would only be slower, and the value is the same;
//  - without a request: local when a work-group computes it cooperatively (MapLcl inside
//    MapWrg), private when one work-item computes it;
//  - an intermediate computed by all work-items of the kernel and read by others would need
//    a global barrier, which one kernel cannot have: that is an error.
Operand Emitter::materialize(const Expr& f, const std::vector<Operand>& args, const Type& result,
                             std::optional<AddressSpace> requested) {
  bool cooperative = contains_map(f, MapKind::Lcl);
  if (in_work_item() && (contains_map(f, MapKind::Glb) || contains_map(f, MapKind::Wrg)))
    user_error(cat("an intermediate of type ", result, " computed with MapGlb or MapWrg inside ",
                   "a work-item's function: global and work-group mappings belong to the ",
                   "outermost maps of the kernel"));
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
    if (cooperative && at_work_group_level())
      user_error("toPrivate of a MapLcl: a result shared by the work-group cannot be private; "
                 "use toLocal");
    space = AddressSpace::Private;
  } else if (wrg_depth_ > 0 && lcl_depth_ == 0 && cooperative) {
    space = AddressSpace::Local;
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
  if (lanes_ && space != AddressSpace::Private)
    throw VectorFallback("lane mode keeps intermediates in private memory");

  View dest = storage({}, result, space, result);
  apply_write(f, args, dest);
  // Local memory written by some work-items is read by others: wait for all writes.
  if (space == AddressSpace::Local)
    line("barrier(CLK_LOCAL_MEM_FENCE);");
  return {dest, result};
}

// ---------------------------------------------------------------------------------------------
// Writes: computations printed straight into their destination

void Emitter::write(const Expr& e, const View& dest) {
  if (e->kind != NodeKind::Call) {
    copy(value(e), dest);
    return;
  }
  const Expr& f = e->callee();
  auto args = e->call_args();
  if (args.size() == 1 && is_layout_only(f)) {
    // A rearrangement of the result: write the argument through the inverse view.
    if (View through = output_view(f, dest, types_.check(args[0]))) {
      write(args[0], through);
      return;
    }
  }
  switch (f->kind) {
  case NodeKind::Lambda: {
    auto params = f->params();
    for (std::size_t i = 0; i < params.size(); ++i)
      env_.insert_or_assign(params[i].get(), value(args[i]));
    write(f->body(), dest);
    return;
  }
  default:
    break;
  }
  std::vector<Operand> operands;
  for (const auto& a : args)
    operands.push_back(value(a));
  apply_write(f, operands, dest);
}

// Where the argument of a rearrangement f is written so that f's result lands in dest:
//   Join      arg element (i, j) -> dest[i*m + j]       Split(k)  arg element k -> dest[k/m][k%m]
//   Transpose arg element (i, j) -> dest[j][i]          Map(g)    arg element i -> through g at
//   dest[i]
// Null when f has no such inverse (Slide, Pad, ...).
View Emitter::output_view(const Expr& f, const View& dest, const Type& arg_type) {
  switch (f->kind) {
  case NodeKind::Join:
    return split_view(dest, arg_type.element().length());
  case NodeKind::Split:
    return join_view(dest, f->sizes[0]);
  case NodeKind::Transpose:
    return transpose_view(dest);
  case NodeKind::Map: {
    std::string var = fresh("v");
    ArithExpr v = ArithExpr::var(var, 0, arg_type.length() - 1);
    View inner = output_view(f->children[0], index_view(dest, v), arg_type.element());
    return inner ? map_view(inner, var) : View();
  }
  default:
    return {};
  }
}

void Emitter::apply_write(const Expr& f, const std::vector<Operand>& args, const View& dest) {
  const Node& n = *f;
  switch (n.kind) {
  case NodeKind::Lambda: {
    auto params = n.params();
    for (std::size_t i = 0; i < params.size(); ++i)
      env_.insert_or_assign(params[i].get(), args.at(i));
    write(n.body(), dest);
    return;
  }
  case NodeKind::Map:
    if (!(n.map_kind == MapKind::Map && is_layout_only(n.children[0]))) {
      write_map(n, args.at(0), dest, result_type(f, args));
      return;
    }
    break;
  case NodeKind::Reduce:
    write_reduce(n, args.at(0), dest);
    return;
  case NodeKind::Scan: // codegen/Scan.cpp
    write_scan(n, args.at(0), dest);
    return;
  case NodeKind::UserFun:
    write_user_fun(n, args, dest);
    return;
  case NodeKind::ToMem:
    apply_write(n.children[0], args, dest);
    return;
  case NodeKind::StreamSteps:
    write_stream_steps(n, args, dest);
    return;
  case NodeKind::Iterate:
    if (!is_layout_only(n.children[0])) {
      write_iterate(n, args.at(0), dest);
      return;
    }
    break;
  default:
    break;
  }
  copy(apply_value(f, args), dest); // a rearrangement of data: copy it element by element
}

// Statements that write shared memory at work-group level (inside MapWrg, outside MapLcl) are
// executed by one work-item: all of them compute the same value.
static std::string single_writer_guard() {
  return "if (get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0)";
}

void Emitter::write_user_fun(const Node& f, const std::vector<Operand>& args, const View& dest) {
  std::vector<View> views;
  std::vector<ScalarKind> kinds;
  for (const auto& a : args) {
    views.push_back(a.view);
    kinds.push_back(a.type.scalar_kind());
  }
  std::string name = user_fun_name(*f.user_fun, kinds);
  assign(dest, resolve(call_view(name, views), {}));
}

void Emitter::copy(const Operand& src, const View& dest) {
  if (src.type.is_tuple()) { // each component into its own array (codegen/Storage.cpp)
    for (std::size_t k = 0; k < src.type.elements().size(); ++k)
      copy(Operand{component_view(src.view, static_cast<int>(k)), src.type.elements()[k]},
           component_view(dest, static_cast<int>(k)));
    return;
  }
  if (src.type.is_scalar()) {
    assign(dest, resolve(src.view, {}));
    return;
  }
  Type element = src.type.element();
  sequential_loop(src.type.length(), false, "c", [&](ArithExpr i) {
    copy(Operand{index_view(src.view, i), element}, index_view(dest, i));
  });
}

void Emitter::assign(const View& dest, const Access& value) {
  Access target = resolve(dest, {});
  if (target.kind != Access::MemoryRead)
    internal_error("a result is written through a view that is not memory");
  if (!lanes_) {
    std::string statement = lvalue(dest) + " = " + print(value) + ";";
    if (at_work_group_level() && target.memory->space != AddressSpace::Private)
      line(single_writer_guard() + " " + statement);
    else
      line(statement);
    return;
  }
  if (!substitution_.empty())
    target = substitute(target, substitution_);
  const Memory& m = *target.memory;
  std::string v = value_text(value, m.element);
  if (vector_names_.count(m.name)) { // a private vector: one element per lane
    if (mentions_variable(target.index, lane_var_))
      throw VectorFallback("a lane writes another lane's private value");
    bool declare = m.is_scalar_var && pending_declarations_.erase(m.name);
    line(
        cat(declare ? declared_type(m.element) + " " : "", printer_.access(target), " = ", v, ";"));
    return;
  }
  auto base = contiguous_base(target.index, lane_var_, lanes_);
  if (m.is_scalar_var || m.space == AddressSpace::Private || !base ||
      prove_divisible(*base, lanes_) != Truth::Yes)
    throw VectorFallback("the lanes' results are not contiguous and aligned");
  line(cat("vstore", lanes_, "(", v, ", 0, ", address_of(printer_, m, *base), ");"));
}

void Emitter::write_map(const Node& f, const Operand& in, const View& dest, const Type& result) {
  Type element = in.type.element();
  auto body = [&](ArithExpr i) {
    apply_write(f.children[0], {Operand{index_view(in.view, i), element}}, index_view(dest, i));
  };
  switch (f.map_kind) {
  case MapKind::Glb:
  case MapKind::Wrg:
  case MapKind::Lcl:
    parallel_loop(f, in.type.length(), body);
    return;
  case MapKind::Seq:
    if (stream_windows(f, in, dest))
      return;
    sequential_loop(in.type.length(), false, "i", body);
    return;
  case MapKind::Map:
    sequential_loop(in.type.length(), false, "i", body);
    return;
  case MapKind::SeqUnroll:
    if (write_vector_lanes(f, in, dest, result))
      return;
    sequential_loop(in.type.length(), true, "i", body);
    return;
  }
}

void Emitter::write_reduce(const Node& f, const Operand& in, const View& dest) {
  Operand init = value(f.children[1]);
  if (!init.type.is_scalar())
    user_error(cat(reduce_kind_name(f.reduce_kind),
                   ": the code generator supports scalar accumulators, got ", init.type));
  Access target = resolve(index_view(dest, 0), {});
  bool direct = target.memory->is_scalar_var; // accumulate straight into a private scalar
  std::string acc = direct ? target.memory->name : fresh("acc");
  ScalarKind kind = init.type.scalar_kind();
  if (direct) {
    assign(index_view(dest, 0), resolve(init.view, {}));
  } else {
    line(cat(declared_type(kind), " ", acc, " = ", value_text(resolve(init.view, {}), kind), ";"));
    if (lanes_)
      vector_names_[acc] = kind;
  }
  Type element = in.type.element();
  sequential_loop(in.type.length(), f.reduce_kind == ReduceKind::SeqUnroll, "j", [&](ArithExpr j) {
    Operand next = apply_value(f.children[0], {Operand{scalar_view(acc), init.type},
                                               Operand{index_view(in.view, j), element}});
    line(acc + " = " + value_text(resolve(next.view, {}), kind) + ";");
  });
  if (!direct)
    copy(Operand{scalar_view(acc), init.type}, index_view(dest, 0));
}

void Emitter::write_iterate(const Node& f, const Operand& in, const View& dest) {
  int64_t k = f.sizes[0].value();
  if (k == 0) {
    copy(in, dest);
    return;
  }
  Operand cur = in;
  for (int64_t step = 0; step + 1 < k; ++step)
    cur = materialize(f.children[0], {cur}, result_type(f.children[0], {cur}), std::nullopt);
  apply_write(f.children[0], {cur}, dest);
}

// ---------------------------------------------------------------------------------------------
// Lane mode (codegen/Vector.h): a MapSeqUnroll of N in {2, 4, 8, 16} whose lanes each produce
// one scalar, landing at memory[base + k] in global or local memory with base a multiple of N,
// is printed once for all lanes on N-vectors, its results stored with one vstoreN. When the
// function needs something lane mode does not cover, the unrolled scalar code is printed instead.

bool Emitter::write_vector_lanes(const Node& f, const Operand& in, const View& dest,
                                 const Type& result) {
  if (lanes_ || at_work_group_level())
    return false;
  auto n = in.type.length().as_constant();
  const Type& element = result.element();
  auto count = element.scalar_count().as_constant();
  if (!n || !is_vector_lane_count(*n) || !count || *count != 1 ||
      !is_vector_kind(element.innermost().scalar_kind()))
    return false;
  const std::string lane = "lane$"; // never printed: every access is resolved per lane
  ArithExpr var = ArithExpr::var(lane, 0, *n - 1);
  View lane_dest = index_view(dest, var);
  Access target = resolve(lane_dest, Path(static_cast<std::size_t>(element.rank()), Step::at(0)));
  if (target.kind != Access::MemoryRead || target.memory->is_scalar_var ||
      target.memory->space == AddressSpace::Private)
    return false;
  if (!substitution_.empty())
    target = substitute(target, substitution_);
  auto base = contiguous_base(target.index, lane, static_cast<int>(*n));
  if (!base || prove_divisible(*base, *n) != Truth::Yes)
    return false;

  // Everything lane mode may change, restored when it falls back to scalar code.
  std::string saved_body = body_.str();
  auto saved_indent = indent_;
  auto saved_counters = counters_;
  auto saved_pending = pending_declarations_;
  auto saved_user_funs = user_funs_;
  auto saved_user_fun_keys = user_fun_keys_;
  auto saved_signatures = user_fun_signatures_;
  auto saved_vector_funs = vector_funs_;
  auto saved_printer = printer_;
  auto saved_env = env_;
  auto saved_fp64 = uses_fp64_;
  auto saved_depths = std::array<int, 4>{glb_depth_, wrg_depth_, lcl_depth_, seq_depth_};
  lanes_ = static_cast<int>(*n);
  lane_var_ = lane;
  try {
    apply_write(f.children[0], {Operand{index_view(in.view, var), in.type.element()}}, lane_dest);
    lanes_ = 0;
    vector_names_.clear();
    return true;
  } catch (const VectorFallback&) {
    lanes_ = 0;
    vector_names_.clear();
    body_.str("");
    body_.clear();
    body_ << saved_body;
    indent_ = saved_indent;
    counters_ = saved_counters;
    pending_declarations_ = saved_pending;
    user_funs_ = saved_user_funs;
    user_fun_keys_ = saved_user_fun_keys;
    user_fun_signatures_ = saved_signatures;
    vector_funs_ = saved_vector_funs;
    printer_ = saved_printer;
    env_ = saved_env;
    uses_fp64_ = saved_fp64;
    glb_depth_ = saved_depths[0];
    wrg_depth_ = saved_depths[1];
    lcl_depth_ = saved_depths[2];
    seq_depth_ = saved_depths[3];
    return false;
  }
}

LanePrinter Emitter::lane_printer() {
  LanePrinter::Context c;
  c.scalar = &printer_;
  c.lane = lane_var_;
  c.lanes = lanes_;
  c.vector_names = &vector_names_;
  c.signature = [this](const std::string& name) -> const UserFunSignature* {
    auto it = user_fun_signatures_.find(name);
    return it == user_fun_signatures_.end() ? nullptr : &it->second;
  };
  c.vector_function = [this](const std::string& name) { return vector_function(name); };
  return LanePrinter(std::move(c));
}

std::string Emitter::value_text(const Access& value, ScalarKind kind) {
  if (!lanes_)
    return print(value);
  return lane_printer().vector(substitution_.empty() ? value : substitute(value, substitution_),
                               kind);
}

std::string Emitter::declared_type(ScalarKind kind) {
  return lanes_ ? vector_type(kind, lanes_) : scalar_c_type(kind);
}

// The N-lane version of an emitted scalar user function, defined on first use: f_v4.
std::string Emitter::vector_function(const std::string& scalar_name) {
  std::string key = cat(scalar_name, "/", lanes_);
  if (auto it = vector_funs_.find(key); it != vector_funs_.end())
    return it->second;
  std::string name = cat(scalar_name, "_v", lanes_);
  while (user_funs_.count(name) || taken_names_.count(name))
    name += "_";
  user_funs_[name] =
      vector_user_fun_definition(scalar_name, name, user_fun_signatures_.at(scalar_name), lanes_);
  vector_funs_[key] = name;
  return name;
}

// ---------------------------------------------------------------------------------------------
// Loops

void Emitter::sequential_loop(const ArithExpr& n, bool unroll, const std::string& prefix,
                              const std::function<void(ArithExpr)>& body) {
  // Every form runs inside one work-item: global and work-group maps may not appear in it.
  if (unroll) {
    auto count = n.as_constant();
    if (!count)
      user_error("an unrolled loop needs a constant trip count, got " + n.to_string());
    ++seq_depth_;
    for (int64_t i = 0; i < *count; ++i)
      body(ArithExpr(i));
    --seq_depth_;
    return;
  }
  if (auto count = n.as_constant(); count && *count == 1) {
    ++seq_depth_;
    body(ArithExpr(0)); // a single iteration needs no loop
    --seq_depth_;
    return;
  }
  std::string name = fresh(prefix);
  ArithExpr var = ArithExpr::var(name, 0, n - 1);
  open(cat("for (int ", name, " = 0; ", name, " < ", printer_.arith(n), "; ++", name, ")"));
  ++seq_depth_;
  body(var);
  --seq_depth_;
  close();
}

void Emitter::parallel_loop(const Node& map, const ArithExpr& n,
                            const std::function<void(ArithExpr)>& body) {
  if (lanes_)
    throw VectorFallback("a parallel map inside a vectorised work-item");
  int d = map.dim;
  launch_.dims = std::max(launch_.dims, d + 1);
  switch (map.map_kind) {
  case MapKind::Glb: {
    if (glb_used_[d])
      user_error(cat("MapGlb(", d, ") is nested inside another MapGlb(", d,
                     "): each dimension can be used once"));
    if (wrg_depth_ > 0 || lcl_depth_ > 0 || seq_depth_ > 0)
      user_error(cat("MapGlb(", d, ") cannot be nested inside MapWrg, MapLcl or MapSeq"));
    glb_used_[d] = true;
    std::string name = cat("gid", d);
    ArithExpr var = ArithExpr::var(name, 0, n - 1);
    int64_t local = options_.local_size[d];
    launch_.local[d] = local;
    launch_.global[d] = local > 0 ? (n + (local - 1)) / local * local : n;
    preamble_.insert(cat("const int ", name, " = get_global_id(", d, ");"));
    bool guarded = local > 0 && prove_divisible(n, local) != Truth::Yes;
    if (guarded)
      open(cat("if (", name, " < ", printer_.arith(n), ")"));
    ++glb_depth_;
    glb_loops_.push_back({name, var, n});
    if (contains_map(map.children[0], MapKind::Glb))
      body(var);
    else
      glb_body_with_interior([&] { body(var); });
    glb_loops_.pop_back();
    --glb_depth_;
    if (guarded)
      close();
    glb_used_[d] = false;
    return;
  }
  case MapKind::Wrg: {
    if (glb_depth_ > 0 || lcl_depth_ > 0 || seq_depth_ > 0)
      user_error(cat("MapWrg(", d, ") cannot be nested inside MapGlb, MapLcl or MapSeq: ",
                     "work-groups are the outermost level of the mapping"));
    if (wrg_depth_ > 0 && wrg_dims_[d])
      user_error(cat("MapWrg(", d, ") is nested inside another MapWrg(", d, ")"));
    // Without an explicit size and without a MapLcl(d) inside, the work-group is one
    // work-item wide in this dimension.
    int64_t local = options_.local_size[d] > 0 ? options_.local_size[d] : 1;
    launch_.local[d] = local;
    launch_.global[d] = n * local;
    std::string name = cat("wg", d);
    preamble_.insert(cat("const int ", name, " = get_group_id(", d, ");"));
    wrg_dims_[d] = true;
    ++wrg_depth_;
    body(ArithExpr::var(name, 0, n - 1));
    --wrg_depth_;
    wrg_dims_[d] = false;
    return;
  }
  case MapKind::Lcl: {
    if (wrg_depth_ == 0)
      user_error(cat("MapLcl(", d, ") must be nested inside MapWrg"));
    if (lcl_dims_[d])
      user_error(cat("MapLcl(", d, ") is nested inside another MapLcl(", d, ")"));
    auto extent = n.as_constant();
    if (!extent && options_.local_size[d] == 0)
      user_error(cat("MapLcl(", d, ") over ", n.to_string(),
                     " elements: a work-group size is needed; set CodegenOptions::local_size"));
    if (extent)
      lcl_extent_[d] = std::max(lcl_extent_[d], *extent);
    int64_t local = launch_.local[d] > 0 ? launch_.local[d] : 1;
    std::string lid = cat("lid", d);
    preamble_.insert(cat("const int ", lid, " = get_local_id(", d, ");"));
    lcl_dims_[d] = true;
    ++lcl_depth_;
    if (extent && *extent == local) {
      body(ArithExpr::var(lid, 0, n - 1));
    } else if (extent && *extent < local) {
      open(cat("if (", lid, " < ", *extent, ")"));
      body(ArithExpr::var(lid, 0, n - 1));
      close();
    } else {
      std::string name = fresh("l");
      open(cat("for (int ", name, " = ", lid, "; ", name, " < ", printer_.arith(n), "; ", name,
               " += ", local, ")"));
      body(ArithExpr::var(name, 0, n - 1));
      close();
    }
    --lcl_depth_;
    lcl_dims_[d] = false;
    return;
  }
  default:
    internal_error("parallel_loop of a sequential map");
  }
}

// Emits the innermost MapGlb body; when its indices need boundary handling (clamps, mirrors,
// guards), also tries an interior version in which every global index stays r away from the
// edges, for r = 1..4, and uses it when all boundary handling disappears there:
//   if (interior) { no conditionals } else { full boundary handling }
void Emitter::glb_body_with_interior(const std::function<void()>& body) {
  auto emit = [&](const std::map<std::string, ArithExpr>& subst, int& guards) {
    std::ostringstream saved;
    saved << body_.str();
    body_.str("");
    body_.clear();
    auto saved_counters = counters_;
    auto saved_subst = substitution_;
    for (const auto& [k, v] : subst)
      substitution_[k] = v;
    printer_.reset_guards();
    ++indent_;
    body();
    --indent_;
    guards = printer_.guards();
    std::string text = body_.str();
    substitution_ = saved_subst;
    auto used = counters_;
    counters_ = saved_counters;
    for (const auto& [k, v] : used)
      counters_[k] = std::max(counters_[k], v);
    body_.str("");
    body_.clear();
    body_ << saved.str();
    return text;
  };
  int full_guards = 0;
  std::string full = emit({}, full_guards);
  if (full_guards > 0 && options_.split_interior) {
    // The smallest margin r that removes the most conditionals; conditionals that do not
    // depend on the position (say, mirrored weights) stay in both versions.
    int best_guards = full_guards, best_r = 0;
    std::string best_text, best_condition;
    for (int r = 1; r <= 4 && best_guards > 0; ++r) {
      std::map<std::string, ArithExpr> interior;
      std::string condition;
      bool empty = false;
      for (const auto& loop : glb_loops_) {
        auto extent = loop.extent.as_constant();
        if (extent && *extent - 1 - r < r)
          empty = true; // no interior this narrow
        if (empty)
          break;
        interior[loop.var_name] = ArithExpr::var(loop.var_name, r, loop.extent - 1 - r);
        condition += cat(condition.empty() ? "" : " && ", loop.var_name, " >= ", r, " && ",
                         loop.var_name, " < ", printer_.arith(loop.extent - r));
      }
      if (empty)
        break;
      int guards = 0;
      std::string inner = emit(interior, guards);
      if (r > 1 && guards >= best_guards)
        break; // a wider margin removes nothing more
      if (guards < best_guards) {
        best_guards = guards;
        best_r = r;
        best_text = inner;
        best_condition = condition;
      }
    }
    if (best_r > 0) {
      line(cat("if (", best_condition, ") {"));
      body_ << best_text;
      line("} else {");
      body_ << full;
      line("}");
      return;
    }
  }
  // No interior version: the body at the current indentation.
  --indent_;
  int unused = 0;
  std::string flat = emit({}, unused);
  ++indent_;
  body_ << flat;
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
  taken_names_.insert(kernel.name);
  kernel.output_type = out_type;
  kernel.program_text = tessera::print(program_);

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
    taken_names_.insert(name);
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

  write(program_->body(), memory_view(out));

  // Assemble the source.
  std::ostringstream src;
  src << "// Generated by tessera.\n" << helpers_source(body_.str());
  for (const auto& p : kernel.params)
    if (is_image(p.space))
      src << image_sampler(p.name, p.space);
  src << "\n__kernel void " << kernel.name << "(";
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
                        ctype, "* restrict ", p.name));
      break;
    case KernelParam::Output:
      src << "__global " << ctype << "* restrict " << p.name;
      break;
    case KernelParam::Size:
      src << "const int " << p.name;
      break;
    }
  }
  src << ") {\n";
  for (const auto& d : local_decls_)
    src << "  " << d << "\n";
  for (const auto& p : preamble_)
    src << "  " << p << "\n";
  src << body_.str() << "}\n";
  kernel.source = src.str();
  kernel.launch = launch_;
  kernel.local_memory_bytes = local_bytes_;
  return kernel;
}

} // namespace tessera::codegen
