// Every catalog stencil's executable variants (rewrite::lowered_variants, depth 1, tile sizes
// {2, 4}) at small sizes, each generated, run and compared with the interpreter on the device
// of TESSERA_DEVICE. CTest runs it under Oclgrind (TESSERA_DEVICE=oclgrind), which reports data
// races, out-of-bounds and uninitialised accesses and barrier divergence; any report fails the
// test (FAIL_REGULAR_EXPRESSION in CMakeLists.txt), and so does any mismatch (exit status 1).
//
//   oclgrind_variants [--stencil NAME] [--limit N] [--placements]
//
// N variants per stencil (default: all). --placements: only the input placements the device
// allows (place-constant, place-image: images read through samplers), for every catalog stencil.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "codegen/Kernel.h"
#include "compile/DeviceLimits.h"
#include "compile/Execute.h"
#include "core/Error.h"
#include "core/RandomData.h"
#include "explore/Variants.h"
#include "primitives/Interpreter.h"
#include "rewrite/Variants.h"
#include "runtime/Session.h"
#include "stencils/Catalog.h"

using namespace tessera;

namespace {

// Small grids that every entry accepts (cubic and even for the multigrid operators).
std::vector<ArithExpr> small_extents(const stencils::StencilInfo& s) {
  if (s.dims == 1)
    return {32};
  if (s.dims == 2)
    return {16, 16};
  return {8, 8, 8};
}

} // namespace

int main(int argc, char** argv) {
  std::string only;
  std::size_t limit = 0;
  bool placements = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--stencil") && i + 1 < argc)
      only = argv[++i];
    else if (!std::strcmp(argv[i], "--limit") && i + 1 < argc)
      limit = std::strtoul(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--placements"))
      placements = true;
    else {
      std::cerr << "usage: oclgrind_variants [--stencil NAME] [--limit N] [--placements]\n";
      return 2;
    }
  }
  auto t0 = std::chrono::steady_clock::now();
  // Never destroyed (Oclgrind may be torn down before static destructors run); held by a static
  // pointer, so LeakSanitizer sees it reachable.
  static auto* session = new runtime::Session(runtime::Session::from_env());
  std::cout << "device: " << session->device().description() << std::endl;
  int ran = 0, failed = 0;
  for (const auto& s : stencils::catalog()) {
    if (!only.empty() && s.name != only)
      continue;
    Expr program = s.build(small_extents(s));
    rewrite::EnumerateOptions options;
    options.depth = 1;
    options.tile_sizes = {2, 4};
    if (placements) {
      options.depth = 0;
      explore::apply_device_limits(options, session->device());
    }
    auto variants = explore::executable_variants(program, options);
    if (placements)
      std::erase_if(variants.variants, [](const rewrite::Variant& v) {
        return !v.mapping || (v.mapping->kind != rewrite::MappingKind::ImageInput &&
                              v.mapping->kind != rewrite::MappingKind::ConstantInput);
      });
    auto inputs = random_inputs(program, 3);
    Data expected = evaluate(program, inputs);
    std::size_t n = variants.variants.size();
    if (limit)
      n = std::min(n, limit);
    std::cout << s.name << ": " << variants.variants.size() << " variants, running " << n
              << std::endl;
    for (std::size_t i = 0; i < n; ++i) {
      const auto& v = variants.variants[i];
      std::string how;
      for (const auto& step : v.history)
        how += (how.empty() ? "" : ", ") + rewrite::describe(step);
      if (v.mapping)
        how += (how.empty() ? "mapping: " : ", mapping: ") + rewrite::describe(*v.mapping);
      for (const auto& step : v.after_mapping)
        how += ", " + rewrite::describe(step);
      try {
        auto kernel = codegen::generate_kernel(v.program);
        auto run = explore::execute(*session, kernel, inputs);
        double err = explore::max_relative_error(run.output, expected);
        bool ok = err <= 1e-5;
        std::cout << "  " << (ok ? "ok      " : "MISMATCH") << " [" << i << "] " << how
                  << (kernel.local_memory_bytes ? " (local memory)" : "") << std::endl;
        ++ran;
        if (!ok)
          ++failed;
      } catch (const std::exception& e) {
        std::cout << "  FAILED   [" << i << "] " << how << ": " << e.what() << std::endl;
        ++failed;
      }
      session->cache().clear_memory();
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << ran << " variants ran, " << failed << " failed, in " << seconds << " s" << std::endl;
  return failed ? 1 : 0;
}
