// The multigrid solver on a grid distributed over the ranks this test runs on (1, or 2 and 4
// under mpirun: see CMakeLists.txt) against the single-device solver: the residual history
// must agree within 1e-6 relative per cycle and the solutions within rounding. Three problems:
// 2-D Dirichlet (antisymmetric) with V-cycles, 2-D periodic (wrap) with W-cycles without
// agglomeration and with it, 3-D Neumann (mirror) with full multigrid and Jacobi; all but the
// first periodic case agglomerate their coarse levels (solved on every rank).
#include <doctest/doctest.h>

#include <cmath>

#include "distributed/DeviceChoice.h"
#include "distributed/HostWindow.h"
#include "distributed/MultigridLayout.h"
#include "multigrid/Problems.h"
#include "runtime/Session.h"
#include "tests/distributed/MpiFixture.h"
#include "tests/distributed/RankSession.h"
#include "tests/error/ErrorCheck.h"

using namespace tessera;
using namespace tessera::distributed;
using namespace tessera::multigrid;

namespace {

runtime::Session& solver_session() {
  return testing::rank_session();
}

// -lap(u) = f with f a product of shifted cosines less its mean (a solution exists for the
// Neumann and periodic boundaries), sampled at the cell centres. The shift breaks the mirror
// symmetry that would make red-black and black-red sweeps give the same norms.
Problem cosine_problem(int dims, int64_t n, Boundary boundary, double waves) {
  Problem p;
  p.name = "cosine";
  p.dims = dims;
  p.n = n;
  p.boundary = boundary;
  int64_t points = 1;
  for (int d = 0; d < dims; ++d)
    points *= n;
  double mean = 0;
  for (int64_t i = 0; i < points; ++i) {
    double v = 1;
    for (int64_t rest = i, d = 0; d < dims; ++d, rest /= n)
      v *= std::cos(waves * M_PI * (static_cast<double>(rest % n) + 0.5) / static_cast<double>(n) +
                    0.3 + 0.2 * static_cast<double>(d));
    p.rhs.push_back(v);
    mean += v / static_cast<double>(points);
  }
  for (double& v : p.rhs)
    v -= mean;
  return p;
}

struct SolveCase {
  std::string name;
  Problem problem;
  SolverOptions options;
  int64_t agglomerate = 0;
  int64_t halo = 1;        // the finest level's halo width
  int64_t coarse_halo = 1; // the coarser levels'
};

std::vector<SolveCase> cases() {
  std::vector<SolveCase> all;
  SolverOptions o;
  o.max_cycles = 4;
  o.tolerance = 1e-30;      // every cycle runs
  o.profile_kernels = true; // the breakdown's labels and launches are checked
  all.push_back({"2-D Dirichlet V(2,2)", manufactured_poisson(2, 32, Centring::Cell), o, 64});
  // Every level split, down to 8^2: on 2 ranks each box starts 1 below its block (a torus: both
  // sides of each block are internal), at an odd global index, so the red-black colours of
  // every level are shifted (Layout::colour_shift).
  SolverOptions w = o;
  w.cycle = CycleKind::W;
  w.coarsest = 8;
  w.coarse_sweeps = 1; // the coarsest level's colours matter in the history
  all.push_back({"2-D periodic W(2,2)", cosine_problem(2, 32, Boundary::wrap(), 2), w, 0});
  // A W-cycle visits the agglomerated level twice: the second visit starts from the solution
  // the first left, which every rank gathers with the right-hand side. On a torus the boxes wrap
  // around the grid's edges, so the gathered solution's halos are not taken as exact (an
  // exchange follows).
  SolverOptions w_agglomerated = o;
  w_agglomerated.cycle = CycleKind::W;
  all.push_back({"2-D periodic W(2,2) agglomerated", cosine_problem(2, 32, Boundary::wrap(), 2),
                 w_agglomerated, 64});
  SolverOptions f = o;
  f.cycle = CycleKind::F;
  f.smoother = SmootherKind::Jacobi;
  f.pre = f.post = 3;
  all.push_back(
      {"3-D Neumann F(3,3) Jacobi", cosine_problem(3, 16, Boundary::mirror(), 1), f, 200});
  // Wider halos (--halo): an exchange serves two or three kernels; an odd width shifts the
  // colours and the interpolation's parities as 1 does, an even one does not.
  all.push_back(
      {"2-D periodic W(2,2), halo 2", cosine_problem(2, 32, Boundary::wrap(), 2), w, 0, 2});
  // Wider halos on the coarse levels alone (HaloWidths::coarse): restriction and interpolation
  // between levels of different widths, and one exchange serving several half-sweeps there.
  all.push_back({"2-D Dirichlet V(2,2), coarse halo 4", manufactured_poisson(2, 64, Centring::Cell),
                 o, 0, 1, 4});
  all.push_back({"2-D Dirichlet F(2,2), halo 3", manufactured_poisson(2, 32, Centring::Cell),
                 [&] {
                   SolverOptions full = o;
                   full.cycle = CycleKind::F;
                   return full;
                 }(),
                 0, 3});
  all.push_back({"2-D periodic W(2,2), coarse halo 3", cosine_problem(2, 32, Boundary::wrap(), 2),
                 w, 0, 1, 3});
  // The finest halo wider than twice the coarse one: interpolation pads the fine box's halo.
  all.push_back({"3-D Neumann F(3,3) Jacobi, halo 3, coarse halo 1",
                 cosine_problem(3, 16, Boundary::mirror(), 1), f, 0, 3, 1});
  return all;
}

} // namespace

namespace {

// The default tier checks the first six cases (every cycle, boundary, smoother, a wider finest
// halo, a wider coarse halo) where the grid is split, under mpirun (test_distributed_np2); on
// one rank (the entry test_distributed/test_distributed_solver) it checks the torus alone, whose
// box wraps onto itself on every side, the one thing a single rank adds (every level's faces go
// to itself). The extended tier checks the other widths, and every case on one rank: each case
// builds two hierarchies of kernels, 10 s of a cold PoCL each.
constexpr std::size_t kDefaultTierCases = 6;
constexpr std::size_t kTorusCase = 1;

std::vector<std::size_t> case_range(std::size_t first, std::size_t end) {
  std::vector<std::size_t> which;
  for (std::size_t i = first; i < end; ++i)
    which.push_back(i);
  return which;
}

void check_histories(const std::vector<std::size_t>& which) {
  auto world = testing::mpi_world();
  const auto all = cases();
  for (std::size_t i : which) {
    if (i >= all.size())
      continue;
    const SolveCase& c = all[i];
    MultigridLayout layout(world, solver_session(), c.problem, c.options, c.agglomerate, {},
                           {c.halo, c.coarse_halo});
    layout.share_host_memory(); // as `tessera solve` does
    Solver distributed(solver_session(), c.problem, c.options, layout);
    SolveResult d = distributed.solve();
    if (world.rank() != 0)
      continue;
    CHECK_MESSAGE(layout.plan().grids[0].halo() == c.halo, c.name);
    if (c.halo == 1)
      CHECK_MESSAGE(layout.plan().agglomerates() == (c.agglomerate > 0), c.name);
    SolveResult s = Solver(solver_session(), c.problem, c.options).solve();
    REQUIRE(s.cycles.size() == 4);
    CHECK(d.cycles.size() == s.cycles.size());
    for (std::size_t i = 0; i < std::min(d.cycles.size(), s.cycles.size()); ++i) {
      double rel = std::abs(d.cycles[i].residual - s.cycles[i].residual) / s.cycles[i].residual;
      CHECK_MESSAGE(rel <= 1e-6, c.name << " on " << world.size() << " ranks, cycle " << i + 1
                                        << ": " << d.cycles[i].residual << " against "
                                        << s.cycles[i].residual);
    }
    CHECK(s.cycles.back().relative < 1e-3); // it does converge
    // The residual fused with its restriction on the ranks' cell-centred levels, as on one
    // device (where the small levels' launches may fuse it further).
    CHECK_MESSAGE(d.breakdown.count("residual+restrict") ==
                      (c.problem.centring == Centring::Cell ? 1u : 0u),
                  c.name);
    REQUIRE(d.solution.size() == s.solution.size());
    CHECK(testing::has_nonzero_values(s.solution));
    double worst = 0, largest = 0;
    for (std::size_t i = 0; i < s.solution.size(); ++i) {
      worst = std::max(worst, std::abs(d.solution[i] - s.solution[i]));
      largest = std::max(largest, std::abs(s.solution[i]));
    }
    CHECK_MESSAGE(worst <= 1e-9 * largest, c.name << ": solutions differ by " << worst);
  }
}

} // namespace

TEST_CASE("the distributed solver's residual history equals one device's") {
  if (testing::mpi_world().size() == 1)
    check_histories({kTorusCase});
  else
    check_histories(case_range(0, kDefaultTierCases));
}

// The extended tier (CMakeLists.txt).
TEST_CASE("the distributed solver's residual history equals one device's: the other halo widths, "
          "and on one rank the other cases" *
          doctest::test_suite("extended")) {
  std::vector<std::size_t> which = case_range(kDefaultTierCases, cases().size());
  if (testing::mpi_world().size() == 1)
    for (std::size_t i = 0; i < kDefaultTierCases; ++i)
      if (i != kTorusCase)
        which.push_back(i);
  check_histories(which);
}

TEST_CASE("exchanges overlapped with the kernels give the same cycles, bit for bit") {
  auto world = testing::mpi_world();
  const SolveCase c = cases().front();
  auto solve = [&](bool overlap) {
    MultigridLayout layout(world, solver_session(), c.problem, c.options, c.agglomerate);
    layout.set_overlap(overlap);
    return Solver(solver_session(), c.problem, c.options, layout).solve();
  };
  SolveResult on = solve(true), off = solve(false);
  REQUIRE(on.cycles.size() == off.cycles.size());
  for (std::size_t i = 0; i < on.cycles.size(); ++i)
    CHECK(on.cycles[i].residual == off.cycles[i].residual);
  if (world.rank() == 0) // the solution is gathered there
    CHECK(testing::has_nonzero_values(off.solution));
  CHECK(on.solution == off.solution);
  // Split along one dimension (2 ranks), a smoothing step that needs an exchange runs as two or
  // three launches; with faces of two dimensions (2x2 ranks) nothing is overlapped.
  // So does the residual fused with its restriction, whose exchange is the finer level's.
  for (const char* label : {"smooth", "residual+restrict"}) {
    CAPTURE(label);
    const auto launches = [&](const SolveResult& r) { return r.breakdown.at(label).launches; };
    if (world.size() == 2)
      CHECK(launches(on) > launches(off));
    else
      CHECK(launches(on) == launches(off));
  }
}

// Faces through memory shared on the host (the default of `tessera solve`) or as MPI messages:
// the same bytes arrive, so the same cycles to the bit; a torus (case 1) has faces to the rank
// itself where a dimension has one rank.
TEST_CASE("faces through shared host memory give the same cycles as messages, bit for bit") {
  auto world = testing::mpi_world();
  for (std::size_t i : {0, 1}) {
    const SolveCase c = cases()[i];
    CAPTURE(c.name);
    std::size_t faces_shared = 0;
    auto solve = [&](bool shared) {
      MultigridLayout layout(world, solver_session(), c.problem, c.options, c.agglomerate);
      if (shared)
        layout.share_host_memory();
      faces_shared = layout.shared_faces();
      return Solver(solver_session(), c.problem, c.options, layout).solve();
    };
    SolveResult messages = solve(false);
    CHECK(faces_shared == 0);
    SolveResult shared = solve(true);
    if (!every_rank_a_host()) // (a host per rank: only case 1's faces to the rank itself)
      CHECK((faces_shared > 0) == (world.size() > 1)); // one rank exchanges nothing
    REQUIRE(shared.cycles.size() == messages.cycles.size());
    for (std::size_t k = 0; k < shared.cycles.size(); ++k)
      CHECK(shared.cycles[k].residual == messages.cycles[k].residual);
    if (world.rank() == 0)
      CHECK(testing::has_nonzero_values(shared.solution));
    CHECK(shared.solution == messages.solution);
  }
}

// Wider halos on the coarse levels let one exchange serve several half-sweeps there (each leaves
// its output one point less deep exact): the same cycles as with halos of 1, with fewer exchanges
// on every coarse level whose blocks are thicker than 1 and as many on the finest level.
TEST_CASE("wider halos on the coarse levels: the same cycles with fewer exchanges there") {
  auto world = testing::mpi_world();
  SolveCase c = cases().front();
  c.problem = manufactured_poisson(2, 64, Centring::Cell);
  c.agglomerate = 0; // levels of 32, 16, 8, ... points per side, split in two or 2x2
  auto solve = [&](int64_t coarse_halo, std::vector<uint64_t>& exchanges) {
    MultigridLayout layout(world, solver_session(), c.problem, c.options, c.agglomerate, {},
                           {1, coarse_halo});
    SolveResult r = Solver(solver_session(), c.problem, c.options, layout).solve();
    for (std::size_t l = 0; l < layout.plan().grids.size(); ++l)
      exchanges.push_back(layout.exchanges(l));
    return r;
  };
  std::vector<uint64_t> narrow_count, wide_count;
  SolveResult narrow = solve(1, narrow_count), wide = solve(4, wide_count);
  REQUIRE(narrow.cycles.size() == wide.cycles.size());
  for (std::size_t i = 0; i < narrow.cycles.size(); ++i) {
    const double rel =
        std::abs(wide.cycles[i].residual - narrow.cycles[i].residual) / narrow.cycles[i].residual;
    CHECK_MESSAGE(rel <= 1e-12, "cycle " << i + 1 << ": " << wide.cycles[i].residual << " against "
                                         << narrow.cycles[i].residual);
  }
  if (world.rank() == 0)
    CHECK(testing::has_nonzero_values(narrow.solution));
  REQUIRE(narrow.solution.size() == wide.solution.size());
  for (std::size_t i = 0; i < narrow.solution.size(); ++i)
    CHECK(std::abs(wide.solution[i] - narrow.solution[i]) <= 1e-12);
  if (world.size() == 1)
    return;
  REQUIRE(narrow_count.size() == wide_count.size());
  REQUIRE(narrow_count.size() >= 3);
  CHECK(wide_count[0] == narrow_count[0]);
  // Levels 1 and 2 have blocks of at least 4 points along their split dimensions here.
  for (std::size_t l = 1; l <= 2; ++l)
    CHECK_MESSAGE(wide_count[l] * 2 <= narrow_count[l], "level " << l << ": " << wide_count[l]
                                                                 << " exchanges against "
                                                                 << narrow_count[l]);
}

// After a red-black half-sweep only its colour's points have changed, so the exchange before the
// next half-sweep or the residual carries that colour alone: the cycles must be the same to the
// bit as with every point exchanged (with shifted colours on the periodic grid, faces of two
// dimensions on 2x2 ranks), with as many exchanges and, on the finest level, where all but the
// exchange after the correction carry one colour, little more than half the bytes.
TEST_CASE("exchanges of one colour after half-sweeps give the same cycles, bit for bit") {
  auto world = testing::mpi_world();
  for (const SolveCase& c : {cases()[0], cases()[1]}) {
    auto solve = [&](bool colours, uint64_t& bytes, uint64_t& exchanges) {
      MultigridLayout layout(world, solver_session(), c.problem, c.options, c.agglomerate);
      layout.set_colour_exchanges(colours);
      SolveResult r = Solver(solver_session(), c.problem, c.options, layout).solve();
      bytes = layout.halo_bytes(0);
      exchanges = layout.exchanges(0);
      return r;
    };
    uint64_t bytes_one = 0, bytes_all = 0, count_one = 0, count_all = 0;
    SolveResult one = solve(true, bytes_one, count_one), all = solve(false, bytes_all, count_all);
    REQUIRE(one.cycles.size() == all.cycles.size());
    for (std::size_t i = 0; i < one.cycles.size(); ++i)
      CHECK_MESSAGE(one.cycles[i].residual == all.cycles[i].residual, c.name << ", cycle " << i);
    CHECK(one.solution == all.solution);
    if (world.rank() == 0)
      CHECK(testing::has_nonzero_values(all.solution));
    CHECK(count_one == count_all);
    if (world.size() == 1)
      continue;
    CHECK(bytes_one > 0);
    CHECK_MESSAGE(bytes_one * 10 < bytes_all * 7,
                  c.name << ": " << bytes_one << " bytes against " << bytes_all);
  }
}

// The bytes one width-1 exchange of level l sends from this rank: per internal side a face one
// point deep, spanning the block extended by 1 on its internal sides along the dimensions
// exchanged before it (HaloExchange's order) and the block along the others. From the block
// alone, whatever halo the layout chose.
int64_t width_one_exchange_bytes(const Block& b, int64_t element_bytes) {
  const std::size_t dims = b.extent.size();
  int64_t bytes = 0;
  for (std::size_t d = 0; d < dims; ++d) {
    int64_t face = element_bytes;
    for (std::size_t k = 0; k < dims; ++k)
      face *= k < d ? b.extent[k] + b.internal[k][0] + b.internal[k][1] : k == d ? 1 : b.extent[k];
    bytes += face * (b.internal[d][0] + b.internal[d][1]);
  }
  return bytes;
}

// Halos of width 1 on every level: at most one exchange of u before each kernel that reads
// neighbours (4 half-sweeps before and 4 after the correction, the residual, and on the coarser
// level the interpolation's read; the finest level's last residual instead), each one point
// deep. The wide halos this replaced (2^(T-l) points, 32 on the finest level here) sent several
// times this bound.
TEST_CASE("a cycle sends no more halo bytes than exchanges one point deep") {
  auto world = testing::mpi_world();
  SolverOptions o;
  o.max_cycles = 3;
  o.tolerance = 1e-30;
  Problem problem = cosine_problem(2, 64, Boundary::mirror(), 2);
  MultigridLayout layout(world, solver_session(), problem, o, 0);
  SolveResult d = Solver(solver_session(), problem, o, layout).solve();
  const auto& plan = layout.plan();
  REQUIRE_FALSE(plan.agglomerates());
  for (std::size_t l = 0; l < plan.grids.size(); ++l) {
    const Block& b = layout.block(l);
    int64_t exchanges = 2 * (o.pre + o.post) + 2; // per cycle
    if (l + 1 == plan.grids.size())               // the coarsest: its sweeps, the interpolation
      exchanges = 2 * o.coarse_sweeps + 1;
    const int64_t bound = o.max_cycles * exchanges * width_one_exchange_bytes(b, 8);
    const auto sent = static_cast<int64_t>(layout.halo_bytes(l));
    CHECK_MESSAGE(sent <= bound, "level " << l << " sent " << sent << " bytes in " << o.max_cycles
                                          << " cycles; exchanges one point deep send at most "
                                          << bound);
    // One exchange of u before each kernel that reads its neighbours, none of f: 10 per cycle
    // on the finest level (4 + 4 half-sweeps and 2 residuals), 9 below (the first half-sweep
    // reads zeros; the interpolation reads the solution), on the coarsest level 16 (8 sweeps,
    // the first half-sweep free, the interpolation's read).
    const uint64_t per_cycle = l == 0 ? 10 : l + 1 == plan.grids.size() ? 16 : 9;
    if (world.size() > 1) {
      CHECK_MESSAGE(sent > 0, "level " << l);
      CHECK_MESSAGE(layout.exchanges(l) == o.max_cycles * per_cycle, "level " << l);
    } else {
      CHECK(sent == 0);
      CHECK(layout.exchanges(l) == 0);
    }
    for (std::size_t k = 0; k < b.extent.size(); ++k) // the box: the block and 1 per rank side
      CHECK(b.extended()[k] == b.extent[k] + b.internal[k][0] + b.internal[k][1]);
  }
  if (world.rank() != 0)
    return;
  SolveResult s = Solver(solver_session(), problem, o).solve();
  REQUIRE(d.cycles.size() == s.cycles.size());
  for (std::size_t i = 0; i < s.cycles.size(); ++i)
    CHECK(std::abs(d.cycles[i].residual - s.cycles[i].residual) <= 1e-6 * s.cycles[i].residual);
}

// Agglomeration in stages: on 4 ranks split 4x1, levels 0-2 of a 64^2 grid run on the 4 ranks,
// level 3 (8^2) moves to 2 ranks (2x1) and level 4 on to rank 0; every cycle's residual still
// equals one device's (V, W on a periodic grid, F). On 1 and 2 ranks the same runs go to rank 0
// at once. In the extended tier (CMakeLists.txt), whose 4-rank run is the one that stages.
TEST_CASE("coarse levels gathered in stages onto fewer ranks" * doctest::test_suite("extended")) {
  auto world = testing::mpi_world();
  const std::vector<int> ranks{world.size(), 1};
  for (CycleKind kind : {CycleKind::V, CycleKind::W, CycleKind::F}) {
    SolverOptions o;
    o.max_cycles = 3;
    o.tolerance = 1e-30;
    o.cycle = kind;
    Problem problem = kind == CycleKind::W ? cosine_problem(2, 64, Boundary::wrap(), 2)
                                           : manufactured_poisson(2, 64, Centring::Cell);
    MultigridLayout layout(world, solver_session(), problem, o, 64, ranks);
    SolveResult d = Solver(solver_session(), problem, o, layout).solve();
    const auto& plan = layout.plan();
    CHECK(plan.agglomerated == (world.size() == 1 ? 4u : 3u)); // blocks below 64 points
    CHECK(plan.stage_ranks == (world.size() == 4 ? std::vector<int>{2, 1} : std::vector<int>{}));
    if (world.rank() != 0)
      continue;
    SolveResult s = Solver(solver_session(), problem, o).solve();
    CHECK(d.cycles.size() == s.cycles.size());
    for (std::size_t i = 0; i < std::min(d.cycles.size(), s.cycles.size()); ++i)
      CHECK_MESSAGE(std::abs(d.cycles[i].residual - s.cycles[i].residual) <=
                        1e-6 * s.cycles[i].residual,
                    to_string(kind) << "-cycle " << i + 1 << " on " << world.size() << " ranks: "
                                    << d.cycles[i].residual << " against " << s.cycles[i].residual);
    CHECK(s.cycles.back().relative < 1e-2);
  }
}

TEST_CASE("the decomposition of the levels: halos, agglomeration, refusals") {
  SolverOptions o;
  Problem p = manufactured_poisson(2, 32, Centring::Cell);
  // 2x2 ranks: blocks of 16^2, 8^2, 4^2 points; below 64 points level 2 goes to rank 0. Every
  // level's halo is the operators' read radius, 1.
  auto plan = plan_decomposition(4, {2, 2}, p, o, 64);
  CHECK(plan.levels == 5);
  CHECK(plan.agglomerated == 2);
  REQUIRE(plan.grids.size() == 3);
  for (const auto& g : plan.grids)
    CHECK(g.halo() == 1);
  // No threshold: every level is split (the coarsest has one point per rank and side).
  auto all = plan_decomposition(4, {2, 2}, p, o, 0);
  CHECK_FALSE(all.agglomerates());
  CHECK(all.grids.size() == 5);
  CHECK(all.grids[0].halo() == 1);
  CHECK(all.grids[4].halo() == 1);
  // 12 points over 3 ranks: 4, 2 and 1 per rank; 3 points do not coarsen further.
  auto three = plan_decomposition(3, {3}, manufactured_poisson(1, 12, Centring::Cell), o, 0);
  CHECK(three.levels == 3);
  CHECK_FALSE(three.agglomerates());
  // Blocks that stop halving: 8 points over 4 ranks, then 4 over 4 (1 each) and 2 over 4 (a
  // block of 0 points): agglomerated at the level of 1 point per rank.
  auto stop = plan_decomposition(4, {4}, manufactured_poisson(1, 8, Centring::Cell), o, 0);
  CHECK(stop.agglomerated == 1);
  // Stages: 4x1 ranks halve to 2x1, which plan the agglomerated level again (to rank 0 from
  // there); 2x2 would halve to one rank, and 3 ranks do not halve: rank 0 alone.
  auto staged = plan_decomposition(4, {4, 1}, manufactured_poisson(2, 64, Centring::Cell), o, 64);
  CHECK(staged.agglomerated == 3);
  CHECK(staged.stage_ranks == std::vector<int>{2, 1});
  CHECK(plan.stage_ranks.empty());
  CHECK(plan_decomposition(3, {3}, manufactured_poisson(1, 48, Centring::Cell), o, 8)
            .stage_ranks.empty());
  // A wider halo on the finest level and on the coarser ones: a coarse level's halo is no wider
  // than its blocks (blocks of 16, 8, 4, 2, 1 point per side), so every level stays split.
  auto wide = plan_decomposition(4, {2, 2}, p, o, 0, {2, 2});
  CHECK_FALSE(wide.agglomerates());
  REQUIRE(wide.grids.size() == 5);
  for (std::size_t l = 0; l < 4; ++l)
    CHECK(wide.grids[l].halo() == 2);
  CHECK(wide.grids[4].halo() == 1);
  // Halos of 1 on the finest level and 3 below: 3, 3, 2, 1 on the coarser levels.
  auto coarse = plan_decomposition(4, {2, 2}, p, o, 0, {1, 3});
  REQUIRE(coarse.grids.size() == 5);
  const int64_t expected[] = {1, 3, 3, 2, 1};
  for (std::size_t l = 0; l < 5; ++l)
    CHECK(coarse.grids[l].halo() == expected[l]);
  CHECK_ERROR(plan_decomposition(4, {2, 2}, p, o, 0, {1, 0}), "--coarse-halo must be at least 1");
  CHECK_ERROR(plan_decomposition(4, {2, 2}, p, o, 0, {0, 1}), "--halo must be at least 1");
  CHECK_ERROR(plan_decomposition(4, {2, 2}, p, o, 0, {17, 1}),
              "blocks of 16 points along dimension 0, thinner than the halo of 17");
  CHECK_ERROR(plan_decomposition(3, {3, 1}, p, o, 0), "has blocks of odd extent or offset");
  Problem mixed = p;
  SolverOptions m = o;
  m.precision = Precision::Mixed;
  CHECK_ERROR(plan_decomposition(4, {2, 2}, mixed, m, 0), "mixed precision");
  SolverOptions fused = o;
  fused.fused_gauss_seidel = true; // reads two neighbours deep per kernel: two half-sweeps
  CHECK_ERROR(plan_decomposition(4, {2, 2}, p, fused, 0), "fused red-black step");
  CHECK_ERROR(plan_decomposition(4, {2, 2}, manufactured_poisson(2, 31, Centring::Vertex), o, 0),
              "cell-centred");
}

// Kernels are built when first launched, except on a distributed grid: there every rank builds
// them in the set-up it agrees on, so that a build failing on one rank cannot leave the others
// waiting in an exchange (multigrid::Layout::builds_in_set_up).
TEST_CASE("a distributed solver builds its kernels in set-up; one device at first launch") {
  auto world = testing::mpi_world();
  runtime::Session& session = solver_session();
  const Problem problem = manufactured_poisson(2, 32, Centring::Cell);
  SolverOptions o;
  o.max_cycles = 2;
  auto requests = [&session] { // programs asked of the build cache, found or built
    const runtime::CacheStats s = session.cache().stats();
    return s.memory_hits + s.disk_hits + s.compiled;
  };
  const auto before = requests();
  Solver one(session, problem, o);
  CHECK(requests() == before);
  one.solve();
  const auto after_solve = requests();
  CHECK(after_solve > before);
  MultigridLayout layout(world, session, problem, o, 0);
  Solver distributed(session, problem, o, layout);
  CHECK(requests() > after_solve);
}

// What the ranks agree on of their devices (DeviceChoice.h), and the agglomeration's default
// drawn from it: the gathered level stays below 2^22 points on GPUs whatever the ranks.
TEST_CASE("the ranks agree on their devices; the agglomeration's default follows them") {
  auto world = testing::mpi_world();
  const RankDevices devices = agree_on_devices(world, solver_session().device());
  CHECK(devices.same); // the tests' ranks share one PoCL device model
  CHECK(devices.all_gpus == (solver_session().device().type == "GPU"));
  CHECK(default_agglomerate_below(true, 2) == int64_t{1} << 21);
  CHECK(default_agglomerate_below(true, 8) == int64_t{1} << 19);
  CHECK(default_agglomerate_below(false, 2) == 4096);
  CHECK(default_agglomerate_below(true, 4096) == 4096); // never below the CPU's
}
