#include "tools/Commands.h"

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>

#include "codegen/Program.h"
#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/Interpreter.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "core/TypeCheck.h"
#include "explore/Execute.h"
#include "explore/Report.h"
#include "explore/runtime/Device.h"
#include "explore/runtime/Session.h"
#include "rewrite/Lower.h"
#include "stencils/Catalog.h"
#include "tools/Problem.h"

namespace tessera::tools {

namespace {

// "64x64" -> {64, 64}; non-numeric parts are size variables ("NxM").
std::vector<ArithExpr> parse_size(const std::string& text, int dims, const std::string& stencil) {
  std::vector<ArithExpr> extents;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('x', start);
    if (end == std::string::npos)
      end = text.size();
    std::string part = text.substr(start, end - start);
    if (part.empty())
      user_error(cat("bad size '", text, "': expected extents like 64x64"));
    if (std::isdigit(static_cast<unsigned char>(part[0]))) {
      std::size_t used = 0;
      long long v = 0;
      try {
        v = std::stoll(part, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != part.size() || v <= 0)
        user_error(cat("bad size '", text, "': '", part, "' is not a positive integer"));
      extents.push_back(ArithExpr(static_cast<int64_t>(v)));
    } else {
      for (char c : part)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
          user_error(cat("bad size '", text, "': '", part, "' is neither a number nor a name"));
      extents.push_back(ArithExpr::size_var(part));
    }
    start = end + 1;
  }
  if (static_cast<int>(extents.size()) != dims)
    user_error(cat(stencil, " is ", dims, "-D: give ", dims, " extents like ",
                   dims == 1   ? "1024"
                   : dims == 2 ? "256x256"
                               : "64x64x64",
                   ", got '", text, "'"));
  return extents;
}

std::string default_size(int dims) {
  return dims == 1 ? "64" : dims == 2 ? "32x32" : "16x16x16";
}

Expr build(const CommonOptions& o, const stencils::StencilInfo& info) {
  return info.build(
      parse_size(o.size.empty() ? default_size(info.dims) : o.size, info.dims, info.name));
}

void write_text(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::cout << text;
    return;
  }
  write_file_atomically(path, text);
}

std::vector<int64_t> parse_local(const std::string& text) {
  std::vector<int64_t> local;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('x', start);
    if (end == std::string::npos)
      end = text.size();
    std::string part = text.substr(start, end - start);
    std::size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (part.empty() || used != part.size() || v <= 0)
      user_error(cat("bad work-group size '", text, "': expected sizes like 32x8"));
    local.push_back(v);
    start = end + 1;
  }
  if (local.size() > 3)
    user_error(cat("bad work-group size '", text, "': at most 3 dimensions"));
  return local;
}

} // namespace

std::vector<int64_t> parse_numeric_size(const std::string& text, int dims,
                                        const std::string& stencil) {
  std::vector<int64_t> extents;
  for (const auto& e : parse_size(text, dims, stencil)) {
    auto c = e.as_constant();
    if (!c)
      user_error(cat("bad size '", text, "': '", e.to_string(),
                     "' is a name; this command needs numeric extents like 256x256"));
    extents.push_back(*c);
  }
  long double total = 1;
  for (auto e : extents)
    total *= static_cast<long double>(e);
  if (total > static_cast<long double>(int64_t{1} << 31))
    user_error(cat("bad size '", text, "': ", static_cast<double>(total),
                   " points is more than the 2^31 that 32-bit kernel indices can address"));
  return extents;
}

int list_command() {
  for (const auto& s : stencils::catalog())
    std::cout << s.name << std::string(12 - std::min<std::size_t>(11, s.name.size()), ' ') << s.dims
              << "-D  " << s.description << "\n";
  return 0;
}

int devices_command() {
  auto devices = runtime::list_devices();
  if (devices.empty())
    user_error(runtime::missing_device_message(devices, ""));
  for (std::size_t i = 0; i < devices.size(); ++i)
    std::cout << i << ": " << devices[i].description() << "\n";
  return 0;
}

int show_command(const CommonOptions& o) {
  const auto& info = stencils::find_stencil(o.stencil);
  Expr p = build(o, info);
  std::cout << info.name << ": " << info.description << "\n";
  std::cout << "  program: " << print(p) << "\n";
  std::cout << "  type:    " << infer_type(p) << "\n";
  std::cout << "  lowered: " << print(rewrite::lower_default(p)) << "\n";
  return 0;
}

int variants_command(const CommonOptions& o) {
  const auto& info = stencils::find_stencil(o.stencil);
  Expr p = build(o, info);
  auto v = enumerate_variants(p, o.depth);
  std::cout << info.name << " " << (o.size.empty() ? default_size(info.dims) : o.size) << ", depth "
            << o.depth << ": " << v.summary << "\n";
  std::cout << "program  " << print(p) << "\n";
  for (std::size_t i = 0; i < v.variants.size(); ++i) {
    const auto& var = v.variants[i];
    std::string steps;
    for (const auto& h : var.history)
      steps += (steps.empty() ? "" : "; ") + h;
    if (i == 0)
      steps += " (the plain MapGlb lowering: the baseline)";
    std::cout << std::setw(4) << i << "  " << steps << "\n      " << var.text << "\n";
  }
  return 0;
}

int emit_command(const CommonOptions& o) {
  const auto& info = stencils::find_stencil(o.stencil);
  codegen::CodegenOptions options;
  options.kernel_name = info.name;
  Expr lowered;
  if (o.variant == 0 && o.depth <= 1) {
    lowered = rewrite::lower_default(build(o, info));
  } else {
    auto v = enumerate_variants(build(o, info), o.depth);
    if (o.variant < 0 || o.variant >= static_cast<int>(v.variants.size()))
      user_error(cat("no variant ", o.variant, ": ", info.name, " has ", v.variants.size(),
                     " variants at depth ", o.depth, " (0 to ", v.variants.size() - 1,
                     "; see `tessera variants ", info.name, "`)"));
    lowered = v.variants[static_cast<std::size_t>(o.variant)].program;
  }
  if (!o.local.empty()) {
    auto local = parse_local(o.local);
    for (std::size_t d = 0; d < local.size(); ++d)
      options.local_size[d] = local[d];
  }
  // One kernel, or one per launch of a program of kernels (all in one OpenCL source).
  auto kernels = codegen::generate_program(lowered, options);
  std::string source;
  for (const auto& k : kernels.kernels)
    source += k.source;
  write_text(o.output, source);
  if (!o.output.empty() && o.output != "-")
    std::cerr << (kernels.launches.size() == 1 ? kernels.kernels[0].describe()
                                               : kernels.describe());
  return 0;
}

int run_command(const CommonOptions& o) {
  const auto& info = stencils::find_stencil(o.stencil);
  // The interpreter and the kernel run on concrete grids: numeric extents, addressable with
  // 32-bit indices.
  if (!o.size.empty())
    parse_numeric_size(o.size, info.dims, info.name);
  Expr p = build(o, info);
  std::cout << "stencil  " << info.name << " (" << info.description << ")\n";
  std::cout << "program  " << print(p) << "\n";
  auto inputs = random_inputs(p, 1);
  auto t0 = std::chrono::steady_clock::now();
  Data reference = evaluate(p, inputs);
  double interp_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  auto values = reference.flatten();
  std::cout << "interpreter: " << values.size() << " values in " << interp_ms << " ms, first "
            << values.front() << ", last " << values.back() << "\n";

  Expr lowered = rewrite::lower_default(p);
  codegen::CodegenOptions options;
  options.kernel_name = info.name;
  auto kernel = codegen::generate_program(lowered, options);
  runtime::Session session = runtime::Session::from_env(o.device);
  std::cout << "device   " << session.device().description() << "\n";
  std::cout << "lowered  " << print(lowered) << "\n";
  auto run = explore::execute(session, kernel, inputs);
  double error = explore::max_relative_error(run.output, reference);
  std::size_t characters = 0;
  for (const auto& k : kernel.kernels)
    characters += k.source.size();
  std::cout << "kernel   " << characters << " characters, ran in " << run.kernel_ms
            << " ms; max relative difference to the interpreter " << error << "\n";
  if (error > 1e-5) {
    std::cout << "MISMATCH: the generated kernel disagrees with the interpreter\n";
    return 1;
  }
  std::cout << "OK: the generated kernel matches the interpreter\n";
  return 0;
}

} // namespace tessera::tools
