// `tessera explore --tuning-db`: a file that is not a tuning database is refused before any
// work; a second exploration of the same program starts from the points the first recorded.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "core/Error.h"
#include "explore/Report.h"
#include "tests/TempDir.h"
#include "tests/tools/CliRunner.h"

using namespace tessera;
namespace fs = std::filesystem;
using testing::cli;
using testing::has;
using testing::Result;

TEST_CASE("explore --tuning-db: refuses what is not a database, warm-starts from what is") {
  fs::path dir = testing::make_cli_dir("tessera-tuning-cli");
  fs::path bad = dir / "notes.txt";
  std::ofstream(bad) << "my notes";
  Result refused = cli(
      {"explore", "j1d3pt", "--size", "4096", "--budget", "3", "--tuning-db", bad.string(), "-q"});
  CHECK(refused.code == 2);
  CHECK(has(refused.err, "tuning database '" + bad.string() + "' is not JSON"));
  CHECK(has(refused.err, "--tuning-db"));
  std::ifstream kept(bad);
  std::string text((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>());
  CHECK(text == "my notes"); // left alone

  fs::path db = dir / "tuning.json";
  fs::path first = dir / "first.json", second = dir / "second.json";
  Result a = cli({"explore", "j1d3pt", "--size", "4096", "--budget", "3", "--tuning-db",
                  db.string(), "--json", first.string(), "-q"});
  INFO(a.err);
  REQUIRE(a.code == 0);
  explore::Report r1 = explore::read_report(first.string());
  CHECK(has(r1.prior, "no earlier points"));
  // Every measured point is in the database (one device here).
  std::size_t recorded = 0;
  {
    std::ifstream in(db);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::size_t at = all.find("\"program_hash\""); at != std::string::npos;
         at = all.find("\"program_hash\"", at + 1))
      ++recorded;
  }
  CHECK(recorded == r1.points.size());

  Result b = cli({"explore", "j1d3pt", "--size", "4096", "--budget", "3", "--tuning-db",
                  db.string(), "--json", second.string(), "-q"});
  INFO(b.err);
  REQUIRE(b.code == 0);
  explore::Report r2 = explore::read_report(second.string());
  CHECK(has(r2.prior, "from earlier runs of this program"));
  CHECK(has(r2.prior, cat("cost model from ", recorded, " points")));
}
