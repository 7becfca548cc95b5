// A rank runs the explored best variant of its block step when the tuning database holds one
// for its extended block's size on its device (checked against the plain step), else the plain
// lowering;
// either way the sweep gives the plain lowering's result bit for bit. One rank (MPI_COMM_SELF),
// on rank 0 only: the database is a file of its own.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>

#include "distributed/BestVariant.h"
#include "distributed/LocalStep.h"
#include "explore/Features.h"
#include "explore/TuningDatabase.h"
#include "explore/Variants.h"
#include "runtime/Session.h"
#include "tests/TempDir.h"
#include "tests/distributed/MpiFixture.h"
#include "tests/distributed/SweepCases.h"

using namespace tessera;
using namespace tessera::distributed;

namespace {

explore::TunedPoint point(const std::string& device, const std::string& stencil,
                          std::vector<int64_t> size, const std::string& signature,
                          double speedup = 2) {
  explore::TunedPoint p;
  p.device = explore::device_key(device);
  p.program_hash = "0";
  p.stencil = stencil;
  p.size = std::move(size);
  p.signature = signature;
  p.median_ms = 1;
  p.baseline_ms = speedup; // against the plain lowering
  return p;
}

} // namespace

TEST_CASE("a rank runs the explored best variant of its block step, else the plain one") {
  auto world = testing::mpi_world();
  if (world.rank() != 0)
    return;
  static runtime::Session session = runtime::Session::from_env();
  const auto& info = stencils::find_stencil("j2d5pt");
  SweepConfig config;
  config.name = info.name;
  config.build = testing::with_boundary_builder(info, "mirror");
  config.global = {20, 16};
  config.local = {1, 1};
  config.session = &session;
  auto run = [&](const std::filesystem::path& db, std::string* lowering) {
    config.tuning_database = db;
    DistributedSweep s(Communicator::self(), config);
    s.start();
    s.run(2);
    *lowering = s.lowering();
    return s.gather();
  };
  std::string plain_note, tuned_note, missing_note;
  auto plain = run({}, &plain_note);
  CHECK(plain_note.find("plain lowering (no tuning database)") != std::string::npos);
  CHECK(testing::has_nonzero_values(plain));

  // A variant of the block step (one rank: the whole grid), recorded as the best one at its
  // size: a vectorized one, which the former rank-local step (symbolic sizes) could not run.
  Expr step = config.build({20, 16});
  auto variants = explore::enumerate_variants(step, 1).variants;
  auto vectorized = std::find_if(variants.begin(), variants.end(), [](const auto& v) {
    return explore::variant_signature(v.history).find("vector") != std::string::npos;
  });
  REQUIRE(vectorized != variants.end());
  const std::string signature = explore::variant_signature(vectorized->history);
  auto db = testing::make_temp_dir("tessera-best-variant") / "tuning.json";
  explore::record_tuned_points(db,
                               {point(session.device().identity(), "j2d5pt", {20, 16}, signature)});
  auto tuned = run(db, &tuned_note);
  CHECK_MESSAGE(tuned_note.find("explored best variant at 20x16 (" + signature) == 0, tuned_note);
  REQUIRE(tuned.size() == plain.size());
  CHECK(std::memcmp(tuned.data(), plain.data(), plain.size() * sizeof(double)) == 0);

  // Another size, or a signature the local step lacks: the plain lowering, and why.
  auto other = testing::make_temp_dir("tessera-best-variant") / "tuning.json";
  explore::record_tuned_points(other,
                               {point(session.device().identity(), "j2d5pt", {20, 16}, "none"),
                                point(session.device().identity(), "j2d5pt", {64, 64}, signature)});
  auto missing = run(other, &missing_note);
  CHECK_MESSAGE(missing_note.find("have no counterpart in the block step") != std::string::npos,
                missing_note);
  CHECK(std::memcmp(missing.data(), plain.data(), plain.size() * sizeof(double)) == 0);

  // A faster point the block step has no counterpart of is passed over for the fastest one it
  // has.
  auto both = testing::make_temp_dir("tessera-best-variant") / "tuning.json";
  explore::record_tuned_points(
      both, {point(session.device().identity(), "j2d5pt", {20, 16}, "none", 3),
             point(session.device().identity(), "j2d5pt", {20, 16}, signature, 1.5)});
  std::string next_note;
  auto next = run(both, &next_note);
  CHECK_MESSAGE(next_note.find("explored best variant at 20x16 (" + signature) == 0, next_note);
  CHECK(next_note.find("faster ones have no counterpart") != std::string::npos);
  CHECK(std::memcmp(next.data(), plain.data(), plain.size() * sizeof(double)) == 0);
}
