// The distributed sweep on the ranks this test runs on (1, or 2 and 4 under mpirun: see
// CMakeLists.txt) against one rank alone on one device: every repeatable catalog stencil under
// three of the five boundary kinds (each kind under seven or eight stencils of 1, 2 and 3
// dimensions), each pair at one of k = 1..4 fused steps per exchange (every stencil and every
// boundary sees several k), two exchange periods; the results must be equal bit for bit, and
// the single-rank result equals the interpreter's 2k steps. Each rank's block kernel has its
// extended block's sizes as constants, so every case builds its own kernels on every rank
// (every pair at every k built 6.7 times as many: 5 minutes of CPU on 4 PoCL ranks). Work-groups of
// one work-item: the shell boxes of every shape run one prepared kernel on PoCL (with automatic
// work-groups PoCL prepares a kernel again for every new shape).
#include <doctest/doctest.h>

#include <cstring>
#include <set>

#include "compile/Agreement.h"
#include "distributed/GridValues.h"
#include "primitives/Interpreter.h"
#include "runtime/Session.h"
#include "stencils/Iterated.h"
#include "tests/distributed/MpiFixture.h"
#include "tests/distributed/RankSession.h"
#include "tests/distributed/SweepCases.h"

using namespace tessera;
using namespace tessera::distributed;

namespace {

using testing::rank_session;

std::vector<double> sweep(Communicator comm, SweepConfig config, int iterations) {
  config.session = &rank_session();
  DistributedSweep s(std::move(comm), config);
  s.start();
  s.run(iterations);
  return s.gather();
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// The interpreter's k steps on the sweep's initial grid.
std::vector<double> interpreted(const SweepConfig& config, int steps) {
  std::vector<ArithExpr> e(config.global.begin(), config.global.end());
  Expr step = config.build(e);
  Expr program = stencils::iterate_program(step, steps);
  ScalarKind kind = input_types(step).at(0).innermost().scalar_kind();
  std::vector<double> values;
  int64_t n = 1;
  for (auto x : config.global)
    n *= x;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(initial_value(static_cast<uint64_t>(i), config.seed, kind));
  return evaluate(program, {Data::from_flat(kind, config.global, values)}).flatten();
}

} // namespace

TEST_CASE("sweeps over every rank equal one rank bit for bit: catalog, boundaries, k=1..4") {
  auto world = testing::mpi_world();
  int cases = 0, mismatches = 0;
  std::set<int> ks;
  std::set<std::string> seen_kinds;
  const auto stencils = testing::sweepable_stencils();
  const auto& kinds = testing::boundary_kinds();
  for (std::size_t s = 0; s < stencils.size(); ++s)
    for (std::size_t b = 0; b < kinds.size(); ++b) {
      if ((s + b) % kinds.size() >= 3)
        continue;
      const auto& info = stencils[s];
      SweepConfig config;
      config.name = info.name;
      config.build = testing::with_boundary_builder(info, kinds[b]);
      config.global = testing::sweep_extents(info.dims);
      config.overlap = false;
      config.local = {1, 1, 1};
      config.steps = 1 + static_cast<int>((s + b) % 4);
      auto distributed = sweep(world, config, 2);
      if (world.rank() != 0)
        continue;
      auto single = sweep(Communicator::self(), config, 2);
      ++cases;
      ks.insert(config.steps);
      seen_kinds.insert(kinds[b]);
      CHECK(testing::has_nonzero_values(single));
      if (!bitwise_equal(distributed, single)) {
        ++mismatches;
        FAIL_CHECK(info.name << " " << kinds[b] << " k=" << config.steps << " on " << world.size()
                             << " ranks differs from one rank");
      }
      // The one tolerance (compile/Agreement.h): poisson3d's values grow twelvefold per step,
      // and 8 steps in another order of f32 sums differ by 3e-5 of them.
      double error =
          explore::max_relative_difference(single, interpreted(config, 2 * config.steps));
      CHECK_MESSAGE(explore::within_tolerance(error),
                    info.name << " " << kinds[b] << ": " << error);
    }
  if (world.rank() == 0) {
    CHECK(cases == 12 * 3);
    CHECK(ks.size() == 4);
    CHECK(seen_kinds.size() == kinds.size());
    CHECK(mismatches == 0);
  }
}

TEST_CASE("the interior overlapped with the exchange, faces in pieces, give the same result") {
  auto world = testing::mpi_world();
  for (const char* name : {"j1d7pt", "j2d9pt", "j3d27pt"})
    for (const std::string boundary : {"mirror", "wrap"}) {
      const auto& info = stencils::find_stencil(name);
      SweepConfig config;
      config.name = info.name;
      config.build = testing::with_boundary_builder(info, boundary);
      config.global = testing::sweep_extents(info.dims);
      config.steps = 2;
      config.local = {1, 1, 1};
      config.overlap = true;
      config.exchange_piece_bytes = 16; // every face in pieces (as many as its thickness allows)
      auto overlapped = sweep(world, config, 3);
      config.overlap = false;
      config.exchange_piece_bytes = 1 << 20; // whole faces
      auto plain = sweep(world, config, 3);
      if (world.rank() == 0)
        CHECK_MESSAGE(bitwise_equal(overlapped, plain), name << " " << boundary);
    }
}

TEST_CASE("checksums do not depend on the decomposition or on k") {
  auto world = testing::mpi_world();
  const auto& info = stencils::find_stencil("j2d5pt");
  SweepConfig config;
  config.name = info.name;
  config.build = testing::with_boundary_builder(info, "antisymmetric");
  config.global = {23, 20};
  config.local = {1, 1};
  std::vector<uint64_t> sums;
  for (int k : {1, 2, 3, 6}) {
    config.steps = k;
    DistributedSweep s(world, config);
    s.start();
    s.run(6 / k);
    sums.push_back(s.checksum());
  }
  for (auto s : sums)
    CHECK(s == sums.front());
}

TEST_CASE("the fixed boundary over the ranks equals the interpreter's steps") {
  auto world = testing::mpi_world();
  for (const char* name : {"j2d9pt", "j3d7pt"}) {
    const auto& info = stencils::find_stencil(name);
    SweepConfig config;
    config.name = info.name;
    config.build = testing::with_boundary_builder(info, "fixed");
    config.global = testing::sweep_extents(info.dims);
    config.steps = 2;
    config.local = {1, 1, 1};
    auto result = sweep(world, config, 2);
    if (world.rank() != 0)
      continue;
    CHECK(testing::has_nonzero_values(result));
    double error = explore::max_relative_difference(result, interpreted(config, 4));
    CHECK_MESSAGE(explore::within_tolerance(error), name << ": " << error);
  }
}
