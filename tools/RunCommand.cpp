// tessera run: one variant's kernel on a device, checked against the reference interpreter.
//
// The data stays flat (explore::Workload: one double per input value on the host, the packed
// values on the device), never as Data, whose one object per scalar cost about 1 KB a grid
// point. The interpreter (Data again) runs on the whole grid only up to kInterpreterPoints;
// beyond, the plain MapGlb lowering is checked against the interpreter on a small grid of the
// same stencil, and the chosen variant is compared with that trusted kernel on the whole grid,
// as the explorer does (a --program of constant extents has no smaller grid: the interpreter
// checks the whole one). Host memory is estimated before anything is allocated.
#include <chrono>
#include <iostream>

#include "codegen/Names.h"
#include "codegen/Program.h"
#include "compile/Workload.h"
#include "core/Error.h"
#include "core/Printer.h"
#include "explore/VariantNames.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "runtime/Session.h"
#include "stencils/Catalog.h"
#include "tools/Commands.h"
#include "tools/HostMemory.h"
#include "tools/InterpreterMemory.h"
#include "tools/Problem.h"

namespace tessera::tools {

namespace {

constexpr std::size_t kInterpreterPoints = std::size_t{1} << 18;

// Host bytes of a run of `program` on `points` grid points: per input value a double and its
// packed copy while uploading, the output read back, as doubles, and the reference, and the
// interpreter's Data trees where it checks the whole grid.
double host_bytes(const Expr& program, std::size_t points, bool interpreter) {
  const double per_point = 12.0 * static_cast<double>(input_types(program).size()) + 8 + 8 + 8 + 8;
  return per_point * static_cast<double>(points) +
         (interpreter ? interpreter_bytes(program, points) : 0);
}

void check_memory(const std::string& size, const Expr& program, std::size_t points,
                  bool interpreter) {
  require_host_memory(
      host_bytes(program, points, interpreter), "run " + size,
      cat(" (", points, " points", interpreter ? ", checked by the interpreter" : "", ")"),
      "give a smaller --size");
}

// One kernel, or several (one per launch of a program of kernels, intermediates in buffers; a
// split launch's interior and whole kernel).
codegen::KernelProgram kernel_of(const explore::VariantInfo& variant, const std::string& name) {
  codegen::CodegenOptions options;
  options.kernel_name = codegen::kernel_identifier(name);
  return explore::generate_variant(variant, options);
}

codegen::KernelProgram kernel_of(const Expr& lowered, const std::string& name) {
  return kernel_of(explore::variant_info({lowered, {}}), name);
}

// The plain MapGlb lowering against the interpreter on a small grid of the same stencil or
// program.
double check_baseline_small(runtime::Session& session, const stencils::StencilInfo& info,
                            const std::vector<int64_t>& extents) {
  auto small = explore::small_extents(extents);
  Expr program = info.build(std::vector<ArithExpr>(small.begin(), small.end()));
  explore::Workload workload(session, program, 1);
  auto kernel = kernel_of(rewrite::lower_default(program), info.name);
  auto built = explore::build_program(session, kernel);
  auto out = workload.run(kernel, built);
  auto expected = evaluate(program, workload.input_data()).flatten();
  return explore::max_relative_difference(out, expected);
}

} // namespace

int run_command(const CommonOptions& o) {
  auto source = source_of(o);
  const auto& info = source.info;
  std::string size = size_of(o, source);
  auto extents = parse_numeric_size(size, info.dims, info.name);
  std::size_t points = 1;
  for (auto e : extents)
    points *= static_cast<std::size_t>(e);
  Expr p = info.build(std::vector<ArithExpr>(extents.begin(), extents.end()));
  // A fixed-size --program has no smaller grid: the interpreter checks the whole one.
  bool interpreter = points <= kInterpreterPoints || source.fixed_size;
  if (source.fixed_size)
    check_fixed_size_interpreter(p, points, size);
  check_memory(size, p, points, interpreter);
  std::cout << "stencil  " << info.name << " (" << info.description << ")\n";
  std::cout << "program  " << print(p) << "\n";

  runtime::Session session = runtime::Session::from_env(o.device);
  SelectedVariant selected = select_variant(p, o.variant, o.depth, info.name, &session.device());
  Expr lowered = selected.variant.program;
  auto kernel = kernel_of(selected.variant, info.name);
  std::cout << "device   " << session.device().description() << "\n";
  std::cout << "variant  " << selected.index
            << (selected.device_only ? " of this device's variants" : "") << " ("
            << explore::variant_name(selected.variant.history) << "): " << print(lowered) << "\n";

  explore::Workload workload(session, p, 1);
  std::vector<double> reference;
  if (interpreter) {
    auto t0 = std::chrono::steady_clock::now();
    reference = evaluate(p, workload.input_data()).flatten();
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "interpreter: " << reference.size() << " values in " << ms << " ms, first "
              << reference.front() << ", last " << reference.back() << "\n";
  } else {
    double small_error = check_baseline_small(session, info, extents);
    std::cout << "check    " << points << " points are beyond the interpreter's "
              << kInterpreterPoints << ": the plain MapGlb lowering matches it on "
              << explore::size_text(explore::small_extents(extents)) << " (max relative difference "
              << small_error << ")";
    if (!explore::within_tolerance(small_error)) {
      std::cout << "\nMISMATCH: the plain MapGlb lowering disagrees with the interpreter\n";
      return 1;
    }
    if (selected.index != 0) {
      auto base = kernel_of(rewrite::lower_default(p), info.name);
      auto built = explore::build_program(session, base);
      reference = workload.run(base, built);
      std::cout << ", and its output on the whole grid is the reference";
    }
    std::cout << "\n";
  }
  auto built = explore::build_program(session, kernel);
  auto timing = workload.time(kernel, built, {1, 1});
  std::vector<double> output = workload.run(kernel, built);
  std::size_t characters = 0;
  for (const auto& k : kernel.kernels)
    characters += k.source.size();
  std::cout << "kernel   " << characters << " characters";
  if (kernel.launches.size() > 1)
    std::cout << " (" << kernel.kernels.size() << " kernels, " << kernel.launches.size()
              << " launches)";
  std::cout << ", ran in " << timing.median_ms << " ms";
  if (reference.empty()) {
    bool finite = std::all_of(output.begin(), output.end(), [](double v) { return v == v; });
    std::cout << "; every output value written: " << (finite ? "yes" : "NO") << "\n";
    if (!finite) {
      std::cout << "MISMATCH: the kernel left output values unwritten (NaN)\n";
      return 1;
    }
    std::cout << "OK: the kernel matches the interpreter on the small grid and wrote every value\n";
    return 0;
  }
  double error = explore::max_relative_difference(output, reference);
  std::cout << "; max relative difference to the " << (interpreter ? "interpreter" : "baseline")
            << " " << error << " (tolerance " << explore::kTolerance << ")\n";
  if (!explore::within_tolerance(error)) {
    std::cout << "MISMATCH: the generated kernel disagrees with the "
              << (interpreter ? "interpreter" : "plain MapGlb lowering") << "\n";
    return 1;
  }
  std::cout << "OK: the generated kernel matches the "
            << (interpreter ? "interpreter" : "plain MapGlb lowering") << "\n";
  return 0;
}

} // namespace tessera::tools
