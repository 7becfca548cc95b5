// The misuse catalogue, continued: files a command would have destroyed (issue 30). Every
// command gathers the files it writes and reads before any work (core/FilePlan.h); two outputs
// that are one file, an output that is the tuning database or the --program it reads, and a
// --tuning-db that is not a tuning database are refused with exit status 2, and the file that
// would have been lost is checked byte for byte afterwards.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/Error.h"
#include "tessera/tessera.h"
#include "tests/reliability/CliRunner.h"

using namespace tessera;
using namespace tessera::misuse;
namespace fs = std::filesystem;

namespace {

using Env = std::vector<std::pair<std::string, std::string>>;

fs::path fresh_dir(const std::string& name) {
  fs::path dir = temp_dir() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A tuning database with a point (what an exploration leaves), and a file that is not one.
fs::path tuning_database(const fs::path& dir) {
  fs::path db = dir / "db.json";
  std::ofstream(db) << R"({"format": "tessera-tuning", "version": 2, "entries": {}, "points": )"
                    << R"([{"device": "00", "program_hash": "11", "signature": "plain", )"
                    << R"("median_ms": 1.5, "baseline_ms": 1.5}]})"
                    << "\n";
  return db;
}

Env cache_env(const fs::path& dir) {
  return {{"TESSERA_CACHE_DIR", (dir / "cache").string()}};
}

} // namespace

TEST_CASE("misuse catalogue (8): no output replaces the tuning database a command reads") {
  fs::path dir = fresh_dir("tuning-db-output");
  const fs::path db = tuning_database(dir);
  const std::string before = read_text(db), path = db.string();
  const std::string json_names_db = "--json names the --tuning-db file itself ('" + path + "')";
  check_cli_error({"solve", "poisson2d", "--size", "16", "--tune", "explore", "--tuning-db", path,
                   "--json", path},
                  json_names_db + ": the report would replace the tuning database; give the "
                                  "report another name",
                  cache_env(dir));
  check_cli_error({"explore", "j1d3pt", "--size", "64", "--budget", "5", "--tuning-db", path,
                   "--json", (dir / "." / "db.json").string()},
                  "--json names the --tuning-db file itself", cache_env(dir));
  check_cli_error(
      {"explore", "j1d3pt", "--size", "64", "--budget", "5", "--tuning-db", path, "--plot", path},
      "--plot names the --tuning-db file itself ('" + path +
          "'): the picture would replace the tuning database",
      cache_env(dir));
#ifdef TESSERA_WITH_MPI
  check_cli_error({"sweep", "j2d5pt", "--size", "32x32", "--tuning-db", path, "--json", path},
                  json_names_db + ": the summary would replace the tuning database",
                  cache_env(dir));
#endif
  CHECK(read_text(db) == before);

  // The default database (tuning.json in the cache directory) is an input too.
  fs::create_directories(dir / "cache");
  const fs::path cached = dir / "cache" / "tuning.json";
  fs::copy_file(db, cached);
  check_cli_error({"explore", "j1d3pt", "--size", "64", "--budget", "5", "--json", cached.string()},
                  "--json names the tuning database in the cache directory itself", cache_env(dir));
  CHECK(read_text(cached) == before);
}

TEST_CASE("misuse catalogue (8): a --tuning-db that is not a tuning database is left alone") {
  fs::path dir = fresh_dir("tuning-db-notes");
  const fs::path notes = dir / "notes.md";
  std::ofstream(notes) << "# my notes\n\nkeep these\n";
  const std::string before = read_text(notes);
  const std::string refusal = "tuning database '" + notes.string() + "' is not JSON";
  // solve reads its database leniently (a broken entry is explored again), so it replaced a
  // file it could not read; the command line refuses it as explore and sweep do.
  check_cli_error(
      {"solve", "poisson2d", "--size", "16", "--tune", "explore", "--tuning-db", notes.string()},
      refusal, cache_env(dir));
  check_cli_error(
      {"explore", "j1d3pt", "--size", "64", "--budget", "5", "--tuning-db", notes.string()},
      refusal, cache_env(dir));
#ifdef TESSERA_WITH_MPI
  check_cli_error({"sweep", "j2d5pt", "--size", "32x32", "--tuning-db", notes.string()}, refusal,
                  cache_env(dir));
#endif
  CHECK(read_text(notes) == before);
}

#ifdef TESSERA_WITH_MPI
TEST_CASE("misuse catalogue (8): sweep's two outputs are not one file") {
  fs::path dir = fresh_dir("sweep-outputs");
  const fs::path values = dir / "v.json";
  std::ofstream(values) << "an earlier result\n";
  check_cli_error({"sweep", "j2d5pt", "--size", "32x32", "--json", values.string(), "--values",
                   (dir / "." / "v.json").string()},
                  "--json and --values name the same file '" + (dir / "." / "v.json").string() +
                      "': the values would replace the summary; give them two names",
                  cache_env(dir));
  check_cli_error({"sweep", "j2d5pt", "--size", "32x32", "--json", (dir / "new.json").string(),
                   "--values", (dir / "new.json").string()},
                  "--json and --values name the same file", cache_env(dir));
  CHECK(read_text(values) == "an earlier result\n");
  CHECK_FALSE(fs::exists(dir / "new.json"));
}
#endif

TEST_CASE("misuse catalogue (8): write_kernel_files refuses one file for both, writing nothing") {
  fs::path dir = fresh_dir("kernel-files");
  Val x = input("x", Type::array(f32(), size("N")));
  auto add3 = user_fun("add3", [](auto a, auto b, auto c) { return a + b + c; });
  Expr p = at_size(program({x}, x | pad(1, 1, Boundary::clamp()) | slide(3, 1) |
                                    map([&](Val w) { return add3(w.at(0), w.at(1), w.at(2)); })),
                   {64});
  auto variant = enumerate_variants(p, 0).variants.at(0);
  codegen::Kernel kernel = emit_kernel(variant, {.kernel_name = "sum3"});
  const fs::path kf = dir / "kf.cl";
  std::ofstream(kf) << "// an earlier kernel\n";
  std::string message;
  try {
    write_kernel_files(kernel, variant, kf.string(), (dir / "." / "kf.cl").string());
  } catch (const Error& e) {
    message = e.what();
  }
  CHECK(has(message, "name the same file"));
  CHECK(has(message, "the launch description would replace the kernel"));
  CHECK(read_text(kf) == "// an earlier kernel\n");
  // Two names: both written.
  write_kernel_files(kernel, variant, kf.string(), (dir / "kf.json").string());
  CHECK(has(read_text(kf), "__kernel"));
  CHECK(has(read_text(dir / "kf.json"), "\"global\""));
}
