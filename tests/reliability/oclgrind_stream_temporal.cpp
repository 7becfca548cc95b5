// The kernels of stream-temporal (2.5-D blocking: time levels in circular buffers of planes in
// local memory, or named registers per column with the centre plane in local memory, barriers
// between the levels), both windows, run under Oclgrind and compared with the unfused
// steps under the interpreter: every boundary, radius 1 and 2, constant inputs, partial tiles
// and segments. CTest runs it under Oclgrind (TESSERA_DEVICE=oclgrind); any report of a data
// race, an out-of-bounds or uninitialised access or barrier divergence fails the test
// (FAIL_REGULAR_EXPRESSION in CMakeLists.txt), and so does a mismatch (exit status 1).
#include <chrono>
#include <iostream>

#include "codegen/Program.h"
#include "compile/Execute.h"
#include "core/Error.h"
#include "core/RandomData.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "runtime/Session.h"
#include "tests/rewrite/StreamTemporalCases.h"

using namespace tessera;

namespace {

// One step as StreamSteps with the local window, tiles of each candidate size (the rule fuses
// two or more steps; a program loaded from a file may hold one).
std::vector<rewrite::Alternative> one_step_forms(const Expr& program, int d,
                                                 const std::vector<int64_t>& tiles) {
  auto step = rewrite::match_step(program->body());
  if (!step)
    internal_error("one_step_forms: the program is not a stencil step");
  std::vector<rewrite::Alternative> forms;
  for (int64_t t : tiles) {
    Expr node = make_stream_steps(d, 1, *step->r.as_constant(), step->boundary,
                                  std::vector<int64_t>(static_cast<std::size_t>(d - 1), t), 0, 1,
                                  step->f, StreamWindow::Local);
    forms.push_back({make_call(node, {step->input}), {}});
  }
  return forms;
}

} // namespace

int main() {
  auto t0 = std::chrono::steady_clock::now();
  // Never destroyed: Oclgrind may be torn down before static destructors run.
  static auto* session = new runtime::Session(runtime::Session::from_env());
  std::cout << "device: " << session->device().description() << std::endl;
  struct Case {
    int d, r;
    Boundary b;
    int k;
    bool rhs;
    int64_t local = 0; // a work-group size: below the region's columns, several per work-item
    std::vector<int64_t> tiles = {};     // the candidate tile sizes (default 3 and 4kr)
    std::vector<ArithExpr> extents = {}; // the grid (default a few tiles, partial ones)
  };
  const std::vector<Case> cases{
      {2, 1, Boundary::clamp(), 3, true},
      {2, 2, Boundary::mirror(), 2, false},
      {2, 1, Boundary::wrap(), 2, true},
      {3, 1, Boundary::antisymmetric(), 2, true},
      {3, 1, Boundary::constant(ScalarValue::make(ScalarKind::F32, 0.5)), 2, false},
      {3, 1, Boundary::wrap(), 2, false},
      {3, 1, Boundary::mirror(), 3, true, 32},
      // Tiles of 16x16 at k = 8: the register window's centre planes (32 KiB) do not fit twice
      // in 48 KiB, so one half with two barriers per plane.
      {3, 1, Boundary::clamp(), 8, false, 0, {16}, {9, 16, 16}},
      // One step in the local window: its next input plane overwrites the slot the step reads.
      {2, 1, Boundary::clamp(), 1, false},
  };
  int ran = 0, failed = 0;
  for (const auto& c : cases) {
    int kr = c.k * c.r;
    std::vector<ArithExpr> extents = c.d == 2 ? std::vector<ArithExpr>{5 * kr + 1, 2 * kr + 13}
                                              : std::vector<ArithExpr>{5 * kr + 1, kr + 3, kr + 5};
    if (!c.extents.empty())
      extents = c.extents;
    Expr program = testing::iterated_test_stencil(c.d, c.r, c.b, c.k, extents, c.rhs);
    auto inputs = random_inputs(program, 5);
    Data expected = evaluate(program, inputs);
    const auto tiles = c.tiles.empty() ? std::vector<int64_t>{3, 4 * kr} : c.tiles;
    auto forms = c.k == 1 ? one_step_forms(program, c.d, tiles)
                          : testing::stream_temporal_forms(program, c.k, tiles);
    for (const auto& form : forms) {
      std::string how = cat(c.d, "-D r=", c.r, " ", c.b.to_string(), " k=", c.k,
                            c.rhs ? " rhs" : "", form.params.count("segment") ? " segments" : "",
                            form.params.count("registers") ? " registers" : " local",
                            c.local ? cat(" work-group ", c.local) : "");
      try {
        Expr fused = make_lambda(program->params(), form.replacement);
        codegen::CodegenOptions options;
        options.local_size = {c.local, 0, 0};
        auto kernels = codegen::generate_program(rewrite::lower_default(fused), options);
        auto run = explore::execute(*session, kernels, inputs);
        bool ok = explore::max_relative_error(run.output, expected) <= 1e-5;
        std::cout << "  " << (ok ? "ok      " : "MISMATCH") << " " << how << std::endl;
        ++ran;
        failed += ok ? 0 : 1;
      } catch (const std::exception& e) {
        std::cout << "  FAILED   " << how << ": " << e.what() << std::endl;
        ++failed;
      }
      session->cache().clear_memory();
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << ran << " fused kernels ran, " << failed << " failed, in " << seconds << " s"
            << std::endl;
  return failed || ran == 0 ? 1 : 0;
}
