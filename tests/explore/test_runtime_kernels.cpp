// Building, caching, launching and timing kernels on the default device (PoCL).
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "RuntimeFixture.h"
#include "core/Error.h"
#include "runtime/Hash.h"
#include "tests/Helpers.h"

using namespace tessera;
using tessera::testing::error_of;
using tessera::testing::has;
using namespace tessera::runtime;
using tessera::testing::random_floats;
using tessera::testing::test_kernels_source;
using tessera::testing::test_session;

TEST_CASE("runtime: buffers round-trip host data of several types") {
  Session& s = test_session();
  std::vector<float> f = random_floats(100, 1);
  Buffer<float> bf(s, f);
  CHECK(bf.size() == 100);
  CHECK(bf.bytes() == 400);
  CHECK(bf.read() == f);

  std::vector<double> d = {1.5, -2.25, 3e100};
  CHECK(Buffer<double>(s, d).read() == d);
  std::vector<int32_t> i = {1, -2, 2147483647};
  CHECK(Buffer<int32_t>(s, i).read() == i);
  std::vector<uint8_t> u = {0, 7, 255};
  Buffer<uint8_t> bu(s, u);
  CHECK(bu.bytes() == 3);
  CHECK(bu.read() == u);

  Buffer<int32_t> filled(s, 10);
  filled.fill(42);
  CHECK(filled.read() == std::vector<int32_t>(10, 42));
  filled.write(std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(filled.read()[9] == 9);
  CHECK_THROWS_AS(filled.write(std::vector<int32_t>{1, 2}), Error);
}

TEST_CASE("runtime: allocating more than the device has is a clear error") {
  Session& s = test_session();
  std::size_t too_many = static_cast<std::size_t>(s.device().max_mem_alloc_size) + 1;
  std::string message = error_of([&] { Buffer<uint8_t>(s, too_many); });
  CHECK(has(message, "out of device memory"));
  CHECK(has(message, std::to_string(too_many) + " bytes"));
  CHECK(has(message, s.device().name));
  CHECK(has(error_of([&] { Buffer<float>(s, 0); }), "empty"));
}

TEST_CASE("runtime: vector addition matches a CPU loop") {
  Session& s = test_session();
  const int n = 1000;
  auto a = random_floats(n, 2), b = random_floats(n, 3);
  Buffer<float> da(s, a), db(s, b), dc(s, n);
  Kernel k = s.build_kernel(test_kernels_source(), "vadd");
  CHECK(k.name == "vadd");
  run(s, k, {da, db, dc, n}, Range{1024}, Range{64});
  auto c = dc.read();
  bool nonzero = false;
  for (int i = 0; i < n; ++i) {
    REQUIRE(c[i] == a[i] + b[i]);
    nonzero = nonzero || c[i] != 0.0f;
  }
  CHECK(nonzero);
}

TEST_CASE("runtime: scalar and local-memory arguments") {
  Session& s = test_session();
  const int n = 250, group = 64;
  auto x = random_floats(n, 4);
  Buffer<float> dx(s, x), dy(s, n);
  Kernel k = s.build_kernel(test_kernels_source(), "reverse_scale");
  run(s, k, {dx, dy, 2.5f, n, LocalMemory{group * sizeof(float)}}, Range{256}, Range{group});
  auto y = dy.read();
  for (int g = 0; g < n; ++g) {
    int base = g / group * group, partner = base + group - 1 - g % group;
    float expected = 2.5f * (partner < n ? x[partner] : 0.0f);
    REQUIRE(y[g] == expected);
  }
  // An argument of the wrong width is reported with its index and kind.
  std::string message = error_of([&] {
    run(s, k, {dx, dy, 2.5, n, LocalMemory{group * sizeof(float)}}, Range{256}, Range{group});
  });
  CHECK(has(message, "argument 2"));
  CHECK(has(message, "double"));
  CHECK(has(error_of([&] { run(s, k, {dx, dy}, Range{256}); }), "takes 5 arguments, got 2"));
}

TEST_CASE("runtime: the build cache hits in memory, then on disk for a fresh cache") {
  Session& s = test_session();
  auto dir = tessera::testing::make_temp_dir("cache-test");
  const std::string& source = test_kernels_source();
  {
    BuildCache cache(s.device(), s.context(), dir, DiskBinaries::Always);
    Kernel first = cache.build_kernel(source, "vadd");
    CHECK(first.origin == BuildOrigin::Compiled);
    Kernel second = cache.build_kernel(source, "reverse_scale");
    CHECK(second.origin == BuildOrigin::MemoryCache);
    CHECK(cache.stats().compiled == 1);
    CHECK(cache.stats().memory_hits == 1);
    CHECK(cache.stats().disk_writes == 1);
    CHECK(std::filesystem::exists(cache.entry_path(cache.key(source, ""))));
    // Different options are a different program.
    CHECK(cache.key(source, "-cl-fast-relaxed-math") != cache.key(source, ""));
    CHECK(cache.key(source + " ", "") != cache.key(source, ""));
  }
  // No temporary files are left behind.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ++files;
    CHECK(entry.path().extension() == ".clbin");
  }
  CHECK(files == 1);

  BuildCache fresh(s.device(), s.context(), dir, DiskBinaries::Always);
  Kernel k = fresh.build_kernel(source, "vadd");
  CHECK(k.origin == BuildOrigin::DiskCache);
  CHECK(fresh.stats().disk_hits == 1);
  CHECK(fresh.stats().compiled == 0);
  // The program loaded from the binary works.
  std::vector<float> a = {1, 2, 3}, b = {10, 20, 30};
  Buffer<float> da(s, a), db(s, b), dc(s, 3);
  run(s, k, {da, db, dc, 3}, Range{3});
  CHECK(dc.read() == std::vector<float>{11, 22, 33});
}

TEST_CASE("runtime: a corrupt disk entry is ignored and rebuilt") {
  Session& s = test_session();
  auto dir = tessera::testing::make_temp_dir("cache-corrupt");
  const std::string& source = test_kernels_source();
  const auto always = DiskBinaries::Always;
  auto path = BuildCache(s.device(), s.context(), dir, always)
                  .entry_path(BuildCache(s.device(), s.context(), dir, always).key(source, ""));
  {
    std::ofstream out(path, std::ios::binary);
    out << "TSRBIN01 this is not a program binary";
  }
  BuildCache cache(s.device(), s.context(), dir, always);
  Kernel k = cache.build_kernel(source, "vadd");
  CHECK(k.origin == BuildOrigin::Compiled);
  CHECK(cache.stats().disk_rejected == 1);
  CHECK(cache.stats().disk_writes == 1);
  // The rewritten entry is good.
  BuildCache again(s.device(), s.context(), dir, always);
  CHECK(again.build_kernel(source, "vadd").origin == BuildOrigin::DiskCache);

  // A truncated entry (as a crash during a non-atomic write would leave) is rejected too.
  auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size / 2);
  BuildCache truncated(s.device(), s.context(), dir, always);
  CHECK(truncated.build_kernel(source, "vadd").origin == BuildOrigin::Compiled);
  CHECK(truncated.stats().disk_rejected == 1);
  CHECK(std::filesystem::file_size(path) == size);
}

TEST_CASE("runtime: a PoCL binary without its bitcode is never handed back to PoCL") {
  // Such a binary (kept from a concurrent build, tests/explore/data/) aborts PoCL inside
  // clCreateProgramWithBinary; the cache rejects it before and builds from source.
  Session& s = test_session();
  auto dir = tessera::testing::make_temp_dir("cache-pocl-bitcode");
  const std::string& source = test_kernels_source();
  std::ifstream in(std::string(TESSERA_SOURCE_DIR) +
                       "/tests/explore/data/pocl-binary-without-bitcode.bin",
                   std::ios::binary);
  REQUIRE(in);
  std::string payload((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(payload.size() > 1000);
  BuildCache writer(s.device(), s.context(), dir, DiskBinaries::Always);
  uint64_t key = writer.key(source, "");
  std::string entry = "TSRBIN01";
  for (uint64_t field : {key, static_cast<uint64_t>(payload.size()), fnv1a64(payload)})
    for (int byte = 0; byte < 8; ++byte)
      entry += static_cast<char>((field >> (8 * byte)) & 0xff);
  std::ofstream(writer.entry_path(key), std::ios::binary) << entry << payload;

  BuildCache cache(s.device(), s.context(), dir, DiskBinaries::Always);
  Kernel k = cache.build_kernel(source, "vadd");
  CHECK(k.origin == BuildOrigin::Compiled);
  CHECK(cache.stats().disk_rejected == 1);
}

TEST_CASE("runtime: PoCL's programs are left to PoCL's own cache by default") {
  // Asking PoCL for a binary compiles every kernel again (for any work-group size): the default
  // stores nothing on PoCL and says why; other devices store as above.
  Session& s = test_session();
  REQUIRE(s.device().is_pocl());
  auto dir = tessera::testing::make_temp_dir("cache-pocl-default");
  BuildCache cache(s.device(), s.context(), dir);
  CHECK(cache.build_kernel(test_kernels_source(), "vadd").origin == BuildOrigin::Compiled);
  CHECK(cache.stats().disk_writes == 0);
  CHECK(cache.disk_disabled_reason() == "PoCL keeps its own kernel cache");
  CHECK(std::filesystem::is_empty(dir));
  BuildCache fresh(s.device(), s.context(), dir);
  CHECK(fresh.build_kernel(test_kernels_source(), "vadd").origin == BuildOrigin::Compiled);
}

TEST_CASE("runtime: an unusable cache directory falls back to the memory cache") {
  Session& s = test_session();
  auto dir = tessera::testing::make_temp_dir("cache-file");
  auto file = dir / "not-a-directory";
  std::ofstream(file) << "x";
  BuildCache cache(s.device(), s.context(), file / "sub");
  CHECK(cache.directory().empty());
  CHECK(!cache.disk_disabled_reason().empty());
  CHECK(cache.build_kernel(test_kernels_source(), "vadd").origin == BuildOrigin::Compiled);
  CHECK(cache.build_kernel(test_kernels_source(), "vadd").origin == BuildOrigin::MemoryCache);
  CHECK(cache.stats().disk_writes == 0);
}

TEST_CASE("runtime: the default cache directory follows the environment") {
  const char* saved = std::getenv("TESSERA_CACHE_DIR");
  std::string restore = saved ? saved : "";
  ::setenv("TESSERA_CACHE_DIR", "/some/where", 1);
  CHECK(default_cache_dir() == "/some/where");
  ::setenv("TESSERA_CACHE_DIR", "off", 1);
  CHECK(default_cache_dir().empty());
  ::unsetenv("TESSERA_CACHE_DIR");
  ::setenv("XDG_CACHE_HOME", "/xdg", 1);
  CHECK(default_cache_dir() == "/xdg/tessera");
  ::unsetenv("XDG_CACHE_HOME");
  if (std::getenv("HOME"))
    CHECK(default_cache_dir().string().ends_with(".cache/tessera"));
  if (saved)
    ::setenv("TESSERA_CACHE_DIR", restore.c_str(), 1);
}

TEST_CASE("runtime: a missing kernel name lists the program's kernels") {
  Session& s = test_session();
  std::string message = error_of([&] { s.build_kernel(test_kernels_source(), "nope"); });
  CHECK(has(message, "no kernel named 'nope'"));
  CHECK(has(message, "vadd"));
  CHECK(has(message, "reverse_scale"));
}

TEST_CASE("runtime: a build failure shows the device, the build log and the offending line") {
  Session& s = test_session();
  std::string source = "__kernel void broken(__global float* x) {\n"
                       "  int i = get_global_id(0);\n"
                       "  x[i] = undefined_thing * 2.0f;\n"
                       "}\n";
  std::string message = error_of([&] { s.build_kernel(source, "broken"); });
  INFO(message);
  CHECK(has(message, "broken"));
  CHECK(has(message, s.device().name));
  CHECK(has(message, "build log"));
  CHECK(has(message, "undefined_thing"));
  CHECK(has(message, "error"));
  CHECK(has(message, "offending source lines"));
  CHECK(has(message, "> 3 |   x[i] = undefined_thing * 2.0f;"));
  CHECK(s.cache().stats().compiled >= 1);
}

TEST_CASE("runtime: bad launch sizes are clear errors") {
  Session& s = test_session();
  Kernel k = s.build_kernel(test_kernels_source(), "vadd");
  Buffer<float> a(s, 1024), b(s, 1024), c(s, 1024);
  std::vector<KernelArg> args{a, b, c, 1000};
  std::string message = error_of([&] { run(s, k, args, Range{1000}, Range{64}); });
  CHECK(has(message, "does not divide"));
  CHECK(has(message, "1000"));
  CHECK(has(message, "vadd"));

  std::size_t big = s.device().max_work_group_size * 2;
  message = error_of([&] { run(s, k, args, Range{big}, Range{big}); });
  CHECK(has(message, "exceeds"));

  CHECK(has(error_of([&] { run(s, k, args, Range{64, 2}, Range{64}); }), "dimensions"));
  CHECK(has(error_of([&] { run(s, k, args, Range{0}); }), "0 in dimension 0"));
}

TEST_CASE("runtime: invalid build options are reported") {
  Session& s = test_session();
  std::string message =
      error_of([&] { s.build_kernel(test_kernels_source(), "vadd", "-no-such-option-xyz"); });
  INFO(message);
  CHECK(has(message, "-no-such-option-xyz"));
  CHECK(has(message, "vadd"));
}

TEST_CASE("runtime: the copy bandwidth is measured") {
  Session& s = test_session();
  Bandwidth b = measure_copy_bandwidth(s, std::size_t{4} << 20, {.warmup = 1, .repeats = 3});
  CHECK(b.bytes == std::size_t{4} << 20);
  CHECK(b.median_ms > 0.0);
  CHECK(b.gb_per_s > 0.0);
}

TEST_CASE("runtime: kernels are timed with profiling events") {
  Session& s = test_session();
  const int n = 1 << 16;
  auto a = random_floats(n, 5), b = random_floats(n, 6);
  Buffer<float> da(s, a), db(s, b), dc(s, n);
  Kernel k = s.build_kernel(test_kernels_source(), "vadd");
  double ms = run_timed(s, k, {da, db, dc, n}, Range{n}, Range{64});
  CHECK(ms > 0.0);
  CHECK(ms < 10000.0);
  Timing t = time_kernel(s, k, {da, db, dc, n}, Range{n}, Range{64}, {.warmup = 2, .repeats = 5});
  CHECK(t.samples_ms.size() == 5);
  CHECK(t.median_ms > 0.0);
  CHECK(t.min_ms <= t.median_ms);
  CHECK(t.median_ms <= t.max_ms);
  CHECK(dc.read()[n - 1] == a[n - 1] + b[n - 1]);
  CHECK_THROWS_AS(time_kernel(s, k, {da, db, dc, n}, Range{n}, {}, {.warmup = 0, .repeats = 0}),
                  Error);
}

TEST_CASE("runtime: TESSERA_BUILD_OPTIONS is added to every build") {
  Session& s = test_session();
  const std::string source = "__kernel void answer(__global int* out) { out[0] = ANSWER; }";
  ::setenv("TESSERA_BUILD_OPTIONS", "-D ANSWER=41", 1);
  Kernel k = s.build_kernel(source, "answer");
  Buffer<int32_t> out(s, 1);
  run_timed(s, k, {out}, Range{1}, Range{});
  CHECK(out.read()[0] == 41);
  // The options are part of the cache key: other options build again.
  ::setenv("TESSERA_BUILD_OPTIONS", "-D ANSWER=42", 1);
  Kernel again = s.build_kernel(source, "answer");
  run_timed(s, again, {out}, Range{1}, Range{});
  CHECK(out.read()[0] == 42);
  CHECK(again.program_key != k.program_key); // the kernel's key is the one it was cached under
  ::unsetenv("TESSERA_BUILD_OPTIONS");
  CHECK(has(error_of([&] { s.build_kernel(source, "answer"); }), "ANSWER"));
}

TEST_CASE("runtime: a kernel with a declared work-group runs with it and refuses another") {
  Session& s = test_session();
  const char* source = R"(
__kernel __attribute__((reqd_work_group_size(32, 1, 1)))
void twice(const __global float* x, __global float* y) {
  const size_t i = get_global_id(0);
  y[i] = 2.0f * x[i];
})";
  const int n = 128;
  auto x = random_floats(n, 7);
  Buffer<float> dx(s, x), dy(s, n);
  Kernel k = s.build_kernel(source, "twice");
  run(s, k, {dx, dy}, Range{n}, Range{32});
  auto y = dy.read();
  for (int i = 0; i < n; ++i)
    REQUIRE(y[i] == 2.0f * x[i]);
  std::string message = error_of([&] { run(s, k, {dx, dy}, Range{n}, Range{64}); });
  CHECK(has(message, "requires the work-group size 32x1x1"));
  // Leaving the kernel's maximum to the driver (as every launch does) still refuses it before
  // the launch, and a launch the driver refuses names its error and the kernel's maximum.
  message =
      error_of([&] { check_launch(s.device(), k, Range{n}, Range{64}, KernelLimit::Driver); });
  CHECK(has(message, "requires the work-group size 32x1x1"));
  set_args(k, {dx, dy});
  message = error_of([&] { enqueue_checked(s, k, Range{n}, Range{64}); });
  CHECK(has(message, "CL_INVALID_WORK_GROUP_SIZE"));
  CHECK(has(message, "the kernel reports a maximum work-group of"));
}
