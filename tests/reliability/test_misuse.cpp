// The catalogue of misuse: bad input through the public API and through the `tessera` binary,
// device errors, and files that must never be left half-written. Every entry names the misuse
// and the specific part of the message it must get; on the command line the exit status is 2 and
// the message is one "error: ..." line on stderr (no "internal error", no crash, no sanitizer
// report). More cases of the same kinds live in tests/error (the DSL and the JSON loader),
// tests/explore (runtime, reports) and tests/tools (the CLI in-process); this file is the list
// that docs/reliability.md points to.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <utility>
#include <vector>

#include "codegen/Kernel.h"
#include "compile/Execute.h"
#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/Json.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "explore/Report.h"
#include "explore/TuningDatabase.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "rewrite/Rule.h"
#include "runtime/Buffer.h"
#include "runtime/BuildCache.h"
#include "runtime/Device.h"
#include "runtime/Hash.h"
#include "runtime/Session.h"
#include "stencils/Catalog.h"
#include "tests/TempDir.h"
#include "tests/reliability/CliRunner.h"

using namespace tessera;
namespace fs = std::filesystem;
using namespace tessera::misuse;
using tessera::testing::error_of;

namespace {

// The document with the first value under `key` (depth-first) replaced by `value`.
bool replace_first(nlohmann::json& j, const std::string& key, const nlohmann::json& value) {
  if (j.is_object() && j.contains(key)) {
    j[key] = value;
    return true;
  }
  if (j.is_object() || j.is_array())
    for (auto& child : j)
      if (replace_first(child, key, value))
        return true;
  return false;
}

std::string with_first(const std::string& text, const std::string& key,
                       const nlohmann::json& value) {
  auto j = nlohmann::json::parse(text);
  if (!replace_first(j, key, value))
    throw std::runtime_error("no \"" + key + "\" in the document");
  return j.dump();
}

std::string corpus_report() {
  std::ifstream in(std::string(TESSERA_SOURCE_DIR) + "/fuzz/corpus/report/j1d3pt-64.json");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

runtime::Session& session() {
  static runtime::Session s(runtime::select_device_from_env(""), temp_dir() / "session-cache");
  return s;
}

// The files in dir whose names contain ".tmp" (temporary files of atomic writes).
std::vector<std::string> temporaries(const fs::path& dir) {
  std::vector<std::string> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (has(it->path().filename().string(), ".tmp"))
      found.push_back(it->path().filename().string());
  return found;
}

// While alive, files of this process may not grow beyond `bytes`: writes fail with EFBIG, as on
// a full disk (RLIMIT_FSIZE, soft limit; SIGXFSZ ignored). In-process: a child forked from a
// process that runs OpenCL threads could deadlock.
struct FileSizeLimit {
  rlimit saved{};
  void (*old_handler)(int) = nullptr;
  explicit FileSizeLimit(std::size_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved);
    old_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = saved;
    limit.rlim_cur = static_cast<rlim_t>(bytes);
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, old_handler);
  }
};

// A build cache entry is whole: magic, key, size and checksum of the program binary agree.
bool cache_entry_is_whole(const fs::path& file) {
  std::string data = read_text(file);
  if (data.size() < 32 || data.compare(0, 8, "TSRBIN01") != 0)
    return false;
  auto get64 = [&](std::size_t at) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= static_cast<uint64_t>(static_cast<uint8_t>(data[at + i])) << (8 * i);
    return v;
  };
  if (get64(16) != data.size() - 32)
    return false;
  return runtime::fnv1a64(std::string_view(data).substr(32)) == get64(24);
}

} // namespace

// ---- the public API ----------------------------------------------------------------------------

TEST_CASE("misuse catalogue: the public API gives specific errors") {
  Val x8 = input("x", Type::array(f32(), 8));
  Val y9 = input("y", Type::array(f32(), 9));
  Fun add = add_fun();
  Expr copy = program({x8}, x8 | map(id_fun()));
  Expr lowered = rewrite::lower_default(copy);
  struct Entry {
    std::string misuse;
    std::function<void()> f;
    std::vector<std::string> message; // all of these parts
  };
  std::vector<Entry> entries = {
      // Building programs.
      {"Zip of arrays of unequal length",
       [&] {
         zip({x8, y9});
       },
       {"Zip expects arrays of equal length", "[f32]_8", "[f32]_9"}},
      {"Split that does not divide the length", [&] { x8 | split(3); }, {"Split(3)", "8"}},
      {"Split(0)", [&] { split(0); }, {"Split", "0"}},
      {"Slide whose windows do not fit",
       [&] { x8 | slide(3, 2); },
       {"Slide(3,2)", "do not fit", "[f32]_8"}},
      {"Drop more than the array holds",
       [&] { x8 | drop(5, 4); },
       {"Drop(5,4)", "cannot drop 9 elements", "length 8"}},
      {"At out of range", [&] { x8.at(8); }, {"At(8)", "[f32]_8"}},
      {"Get of an array", [&] { x8.get(0); }, {"Get(0)", "[f32]_8"}},
      {"Join of a 1-D array", [&] { x8 | join(); }, {"Join", "[f32]_8"}},
      {"Map of a scalar", [&] { x8.at(0) | map(id_fun()); }, {"Map", "f32"}},
      {"a user function given the wrong number of arguments",
       [&] { add(x8.at(0)); },
       {"add", "2", "1"}},
      {"Reduce whose function returns another type",
       [&] {
         Fun to_int =
             user_fun("to_int", [](auto a, auto b) { return cast(ScalarKind::I32, a + b); });
         x8 | reduce(to_int, 0.0f);
       },
       {"Reduce", "returns i32"}},
      // Evaluating and loading.
      {"evaluate with too few inputs", [&] { evaluate(copy, {}); }, {"1 input", "0"}},
      {"evaluate with an input of the wrong length",
       [&] { evaluate(copy, {random_value(Type::array(f32(), 9), 1)}); },
       {"length", "8", "9"}},
      {"load_expr of text that is not JSON", [&] { load_expr("{ not json"); }, {"not valid JSON"}},
      {"load_expr of a number beyond double (found by fuzz/load_expr)",
       [&] { load_expr("{\"format\": \"tessera-expr\", \"version\": 1e400}"); },
       {"not valid JSON", "number overflow"}},
      {"a report with a number beyond double (found by fuzz/load_report)",
       [&] {
         explore::parse_report("{\"format\": \"tessera-report\", \"budget_s\": 2e999}", "'r.json'");
       },
       {"cannot read report 'r.json': invalid JSON", "number overflow"}},
      // Integers out of range are bad input, not a cast (found by fuzz/load_report: a point id of
      // 1e116 was converted to int, undefined behaviour).
      {"a report whose point id is not an integer",
       [&] { explore::parse_report(with_first(corpus_report(), "id", 1.1e116), "'r.json'"); },
       {"\"id\" must be an integer in [-2147483648, 2147483647], got 1.1e+116"}},
      {"a report whose seed is negative",
       [&] { explore::parse_report(with_first(corpus_report(), "seed", -1), "'r.json'"); },
       {"\"seed\" must be an integer in [0, 4294967295], got -1"}},
      {"a report whose trace names a point beyond int",
       [&] {
         explore::parse_report(with_first(corpus_report(), "trace",
                                          nlohmann::json::parse("[[0.5, 4294967296, 1.0]]")),
                               "'r.json'");
       },
       {"\"trace\" entries are [t_s, point, median_ms, repeats]"}},
      {"an expression whose map dimension is not an integer",
       [&] { load_expr(with_first(save_expr(copy), "dim", 1e300)); },
       {"\"dim\" must be an integer of 32 bits, got 1e+300"}},
      {"an expression whose length is beyond 64 bits",
       [&] { load_expr(with_first(save_expr(copy), "cst", 18446744073709551615ull)); },
       {"'cst' must be an integer of 64 bits"}},
      {"load_expr of another JSON document",
       [&] { load_expr("{\"format\": \"other\"}"); },
       {"format"}},
      {"load_expr_file of a missing file",
       [&] { load_expr_file((temp_dir() / "missing.json").string()); },
       {"missing.json"}},
      {"save_expr_file into a missing directory",
       [&] { save_expr_file(copy, (temp_dir() / "no-dir" / "p.json").string()); },
       {"cannot write", "no-dir"}},
      // Rewriting and generating code.
      {"a position that is not in the program",
       [&] {
         rewrite::node_at(copy, {7, 7});
       },
       {"position does not exist"}},
      {"generate_kernel of a program with a tuple input",
       [&] {
         Val t = input("t", Type::tuple({f32(), i32()}));
         codegen::generate_kernel(program({t}, t.get(0)));
       },
       {"kernel input 't'", "inputs must be scalars or arrays of scalars"}},
      {"a stencil that is not in the catalog",
       [&] { stencils::find_stencil("nosuch"); },
       {"unknown stencil 'nosuch'", "j2d5pt"}},
      // Reports.
      {"read_report of a missing file",
       [&] { explore::read_report((temp_dir() / "none.json").string()); },
       {"cannot read report"}},
      {"read_report of an expression file",
       [&] {
         save_expr_file(copy, (temp_dir() / "expr.json").string());
         explore::read_report((temp_dir() / "expr.json").string());
       },
       {"not a tessera report"}},
      {"write_report into a missing directory",
       [&] {
         explore::write_report(explore::Report{}, (temp_dir() / "no-dir" / "r.json").string());
       },
       {"cannot write", "no-dir"}},
      // Devices and kernels.
      {"a device that does not exist",
       [&] { runtime::select_device("no-such-device"); },
       {"no OpenCL device matches \"no-such-device\"", "available devices"}},
      {"no OpenCL platform at all",
       [&] { runtime::select_device_among({}, ""); },
       {"no OpenCL device found", "pocl-opencl-icd"}},
      {"an empty device buffer", [&] { runtime::Buffer<float>(session(), 0); }, {"empty"}},
      {"a kernel name the program does not have",
       [&] {
         session().build_kernel("__kernel void k(__global float* x) { x[0] = 1.0f; }", "other");
       },
       {"no kernel named 'other'", "k"}},
      {"execute with inputs that do not match the kernel",
       [&] { explore::execute(session(), codegen::generate_kernel(lowered), {}); },
       {"input"}},
  };
  for (const auto& e : entries) {
    CAPTURE(e.misuse);
    std::string message = error_of(e.f);
    CAPTURE(message);
    for (const auto& part : e.message)
      CHECK(has(message, part));
  }
}

// ---- device errors -----------------------------------------------------------------------------

TEST_CASE("misuse catalogue: a kernel that does not build shows the build log and the line") {
  std::string source = "__kernel void broken(__global float* x) {\n"
                       "  x[get_global_id(0)] = not_declared;\n"
                       "}\n";
  std::string message = error_of([&] { session().build_kernel(source, "broken"); });
  INFO(message);
  CHECK(has(message, "OpenCL build of kernel 'broken' failed"));
  CHECK(has(message, session().device().name));
  CHECK(has(message, "build log"));
  CHECK(has(message, "not_declared"));
  CHECK(has(message, "> 2 |"));
}

TEST_CASE("misuse catalogue: out of device memory is reported with the size and the device") {
  const auto& device = session().device();
  std::size_t too_many = static_cast<std::size_t>(device.max_mem_alloc_size) + 1;
  std::string message = error_of([&] { runtime::Buffer<uint8_t>(session(), too_many); });
  CHECK(has(message, "out of device memory"));
  CHECK(has(message, std::to_string(too_many) + " bytes"));
  CHECK(has(message, device.name));

  // Through a generated kernel: a program without inputs whose result does not fit in one
  // device buffer (nothing is allocated on the host before the device refuses).
  int64_t rows = static_cast<int64_t>(device.max_mem_alloc_size / (4 * 4096)) + 1;
  Fun one = user_fun("one", [](auto i, auto j) { return cast(ScalarKind::F32, i - j); });
  Val unused = input("unused", f32());
  Expr big =
      program({unused}, generate(rows, Fun([=](Val i) {
                                   return generate(4096, Fun([=](Val j) { return one(i, j); }));
                                 })));
  std::string big_message = error_of([&] {
    auto kernel = codegen::generate_kernel(rewrite::lower_default(big));
    explore::execute(session(), kernel, {Data::scalar(ScalarValue::make(ScalarKind::F32, 1.0))});
  });
  CAPTURE(big_message);
  CHECK(has(big_message, "out of device memory"));
}

TEST_CASE("misuse catalogue: the command line without an OpenCL platform") {
  // An ICD loader that finds no vendor file sees no platform.
  fs::path empty = temp_dir() / "no-vendors";
  fs::create_directories(empty);
  std::vector<std::pair<std::string, std::string>> env = {{"OCL_ICD_VENDORS", empty.string()}};
  check_cli_error({"devices"}, "no OpenCL device found", env);
  check_cli_error({"run", "j1d3pt", "--size", "64"}, "no OpenCL device found", env);
  check_cli_error({"explore", "j1d3pt", "--size", "64"}, "apt-get install pocl-opencl-icd", env);
}

// ---- the command line --------------------------------------------------------------------------

TEST_CASE("misuse catalogue: the command line gives specific errors and exit status 2") {
  fs::path bad_json = temp_dir() / "bad.json";
  std::ofstream(bad_json) << "{ not json";
  fs::path expr = temp_dir() / "expr-for-cli.json";
  save_expr_file(program({input("x", Type::array(f32(), 4))}, input("x", Type::array(f32(), 4))),
                 expr.string());
  fs::path empty_path = temp_dir() / "empty-path";
  fs::create_directories(empty_path);
  struct Entry {
    std::vector<std::string> args;
    std::string message;
    std::vector<std::pair<std::string, std::string>> env;
  };
  std::vector<Entry> entries = {
      {{}, "A subcommand is required"},
      {{"frobnicate"}, "unknown command 'frobnicate' (the commands are list, devices"},
      {{"list", "--bogus"}, "--bogus"},
      {{"show"}, "give a stencil name (see `tessera list`) or --program FILE.json"},
      {{"show", "nosuch"}, "unknown stencil 'nosuch'"},
      {{"show", "j2d5pt", "--size", "64"}, "j2d5pt is 2-D: give 2 extents"},
      {{"show", "j2d5pt", "--size", "0x64"}, "'0' is not a positive integer"},
      {{"show", "j2d5pt", "--size", "64x"}, "bad size '64x'"},
      {{"run", "j2d5pt", "--size", "100000x100000"}, "2^31"},
      {{"variants", "j2d5pt", "--size", "64x64", "--depth", "99"}, "--depth"},
      {{"emit", "j2d5pt", "--size", "64x64", "--variant", "9999"}, "no variant 9999"},
      {{"emit", "j2d5pt", "--size", "64x64", "--local", "32xq"}, "bad work-group size '32xq'"},
      {{"emit", "j2d5pt", "--size", "64x64", "-o", (temp_dir() / "no-dir" / "k.cl").string()},
       "cannot write"},
      {{"run", "j1d3pt", "--size", "64", "--device", "no-such-device"},
       "no OpenCL device matches \"no-such-device\""},
      {{"run", "j1d3pt", "--size", "64"},
       "TESSERA_DEVICE=\"no-such-device\"",
       {{"TESSERA_DEVICE", "no-such-device"}}},
      {{"explore", "j2d5pt"}, "--size is required"},
      {{"explore", "j1d3pt", "--size", "64", "--budget", "0"}, "--budget"},
      {{"explore", "j1d3pt", "--size", "64", "--strategy", "magic"},
       "unknown search strategy 'magic'"},
      {{"explore", "j1d3pt", "--size", "64", "--repeats", "0"}, "--repeats"},
      {{"explore", "j1d3pt", "--size", "64", "--resume"}, "--resume needs --json"},
      {{"explore", "j1d3pt", "--size", "64", "--plot", (temp_dir() / "p.svg").string()},
       "--plot needs gnuplot",
       {{"PATH", empty_path.string()}, {"TESSERA_GNUPLOT", ""}}},
      {{"explore", "j1d3pt", "--size", "128", "--depth", "0", "--json", small_report().string(),
        "--resume"},
       "cannot resume: the report is for j1d3pt 64"},
      {{"report", (temp_dir() / "missing.json").string()}, "cannot read report"},
      {{"report", bad_json.string()}, "invalid JSON"},
      {{"report", expr.string()}, "not a tessera report"},
      {{"report", temp_dir().string()}, "cannot read report"},
      {{"plot", small_report().string()}, "--output is required"},
      {{"plot", small_report().string(), "-o", (temp_dir() / "no-dir" / "p.svg").string()},
       "cannot write"},
  };
  for (const auto& e : entries)
    check_cli_error(e.args, e.message, e.env);
}

// ---- no half-written files ---------------------------------------------------------------------

TEST_CASE("misuse catalogue: a failed write leaves the old file and no temporary file") {
  fs::path dir = temp_dir() / "full-disk";
  fs::create_directories(dir);
  fs::path report = dir / "r.json";
  fs::copy_file(small_report(), report);
  std::string before = read_text(report);
  explore::Report r = explore::read_report(report.string());
  // A write that fails part-way (as on a full disk): the old report stays whole.
  std::string message;
  {
    FileSizeLimit limit(before.size() / 2);
    message = error_of([&] { explore::write_report(r, report.string()); });
  }
  CHECK(has(message, "cannot write"));
  CHECK(has(message, "disk full?"));
  CHECK(has(message, "the file was left as it was"));
  CHECK(read_text(report) == before);
  CHECK(temporaries(dir).empty());

  // The same for expression files.
  fs::path expr = dir / "p.json";
  Expr big = stencils::find_stencil("j3d27pt").build({8, 8, 8});
  save_expr_file(stencils::find_stencil("j1d3pt").build({64}), expr.string());
  std::string old_expr = read_text(expr);
  {
    FileSizeLimit limit(old_expr.size() + 10);
    message = error_of([&] { save_expr_file(big, expr.string()); });
  }
  CHECK(has(message, "disk full?"));
  CHECK(read_text(expr) == old_expr);
  CHECK(temporaries(dir).empty());

  // The build cache: a store that fails (here the rename: a directory holds the entry's name; a
  // failed write takes the same way out) leaves no temporary file, and the build still works.
  // (A file size limit as above would also stop PoCL, which writes files while it compiles.)
  const std::string source = "__kernel void k(__global float* x) { x[get_global_id(0)] = 2.0f; }";
  fs::path cache_dir = temp_dir() / "failing-cache";
  runtime::BuildCache cache(session().device(), session().context(), cache_dir,
                            runtime::DiskBinaries::Always);
  fs::path entry = cache.entry_path(cache.key(source, ""));
  fs::create_directories(entry / "occupied");
  CHECK_NOTHROW(cache.build_kernel(source, "k"));
  CHECK(cache.stats().disk_writes == 0);
  CHECK(temporaries(cache_dir).empty());
  CHECK(fs::is_directory(entry / "occupied"));
}

TEST_CASE("misuse catalogue: temporary files of killed writers are removed by the next writer") {
  fs::path dir = temp_dir() / "stale";
  fs::create_directories(dir);
  // A process that has exited: its PID names the temporary files it "left".
  pid_t dead = ::fork();
  if (dead == 0)
    ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  std::ofstream(dir / cat(".r.json.tmp-", dead, "-0")) << "{ half a rep";
  std::ofstream(dir / cat("0123456789abcdef.clbin.tmp.", dead, ".0")) << "TSRBIN01 half";
  std::ofstream(dir / cat(".r.json.tmp-", ::getppid(), "-0")) << "a live writer's file";
  write_file_atomically((dir / "r.json").string(), "{}\n");
  CHECK_FALSE(fs::exists(dir / cat(".r.json.tmp-", dead, "-0")));
  CHECK(fs::exists(dir / cat(".r.json.tmp-", ::getppid(), "-0"))); // its writer still runs
  runtime::BuildCache cache(session().device(), session().context(), dir);
  CHECK_FALSE(fs::exists(dir / cat("0123456789abcdef.clbin.tmp.", dead, ".0")));
}

TEST_CASE("misuse catalogue: killed explorations leave whole reports and cache entries") {
  fs::path dir = temp_dir() / "killed";
  fs::path cache = dir / "cache";
  fs::create_directories(dir);
  fs::path json = dir / "k.json";
  // SIGKILL at different moments: while building, while measuring, while writing; the last
  // (-1) once the report exists, so that some run got that far however loaded the machine is.
  for (int delay_ms : {300, 1000, 2000, 3000, -1}) {
    CAPTURE(delay_ms);
    std::fflush(nullptr);
    pid_t pid = ::fork();
    if (pid == 0) {
      ::setenv("TESSERA_CACHE_DIR", cache.c_str(), 1);
      int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 1);
      ::dup2(null, 2);
      std::vector<std::string> args = {
          TESSERA_BINARY, "explore", "j1d7pt",     "--size",     "4096",   "--depth",     "1",
          "--budget",     "60",      "--strategy", "exhaustive", "--json", json.string(), "-q"};
      if (fs::exists(json))
        args.push_back("--resume"); // continue what the killed run measured
      std::vector<char*> argv;
      for (auto& a : args)
        argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    if (delay_ms >= 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    } else {
      wait_for(json, std::chrono::minutes(2));
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    if (fs::exists(json)) {
      CHECK_NOTHROW(explore::read_report(json.string()));
    }
    if (!fs::exists(cache))
      continue;
    for (const auto& e : fs::directory_iterator(cache)) {
      std::string name = e.path().filename().string();
      if (has(name, ".tmp"))
        continue; // the killed writer's; removed by the next one
      CAPTURE(name);
      if (name == "tuning.json") { // the tuning database the explorations record their points in
        CHECK_NOTHROW(explore::read_tuned_points(e.path(), ""));
        continue;
      }
      if (name == "roofline.json") { // the device's copy bandwidth, written atomically
        CHECK_NOTHROW(std::ignore = nlohmann::json::parse(read_text(e.path())));
        continue;
      }
      CHECK(cache_entry_is_whole(e.path()));
    }
  }
  // The runs got far enough to write a report and cache entries (on PoCL the roofline and the
  // tuning database: its kernels go to PoCL's own cache, runtime::DiskBinaries; the program
  // binaries' atomic writes are tested with DiskBinaries::Always in test_runtime_kernels).
  CHECK(fs::exists(json));
  std::size_t entries = 0;
  for (const auto& e : fs::directory_iterator(cache))
    entries += !has(e.path().filename().string(), ".tmp");
  CHECK(entries >= 1);
  explore::Report report = explore::read_report(json.string());
  CHECK(report.points.size() >= 1);
  runtime::BuildCache again(session().device(), session().context(), cache);
  CHECK(temporaries(cache).empty());
  CHECK(temporaries(dir).size() <= 1); // at most the report's, if the last kill hit a write
}
