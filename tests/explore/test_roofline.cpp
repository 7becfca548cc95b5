// The roofline: the cache size it is measured against, the buffer size it chooses, the file that
// keeps it per device, and how reports name a fraction of it (cache-resident or not). No test
// here depends on a timing.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "RuntimeFixture.h"
#include "core/Error.h"
#include "explore/Report.h"
#include "runtime/CacheSize.h"
#include "runtime/Roofline.h"
#include "runtime/RooflineFile.h"

using namespace tessera;
using namespace tessera::runtime;
using tessera::testing::make_temp_dir;
using tessera::testing::test_session;
namespace fs = std::filesystem;

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

Device fake_device(const std::string& type, uint64_t global, uint64_t max_alloc) {
  Device d;
  d.name = "fake";
  d.type = type;
  d.global_mem_size = global;
  d.max_mem_alloc_size = max_alloc;
  return d;
}

Roofline sample_roofline(std::size_t bytes) {
  Roofline r;
  r.gb_per_s = 12.5;
  r.method = "float4 copy kernel";
  r.methods = {{"clEnqueueCopyBuffer", 11.0}, {"copy kernel", 12.0}, {"float4 copy kernel", 12.5}};
  r.buffer_bytes = bytes;
  r.cache_bytes = 32 * kMiB;
  r.cache_source = "test";
  r.measured_at = "2026-01-01T00:00:00Z";
  return r;
}

} // namespace

TEST_CASE("roofline: cache sizes as /sys writes them") {
  CHECK(parse_cache_size("491520K") == uint64_t{491520} * 1024);
  CHECK(parse_cache_size("32M\n") == 32 * kMiB);
  CHECK(parse_cache_size("512") == 512u);
  CHECK_FALSE(parse_cache_size(""));
  CHECK_FALSE(parse_cache_size("0K"));
  CHECK_FALSE(parse_cache_size("12 apples"));
  CHECK_FALSE(parse_cache_size("-4K"));
}

TEST_CASE("roofline: the last level is the largest data or unified cache in /sys") {
  fs::path dir = make_temp_dir("sys-cache");
  write(dir / "index0" / "type", "Data\n");
  write(dir / "index0" / "size", "48K\n");
  write(dir / "index1" / "type", "Instruction\n");
  write(dir / "index1" / "size", "999M\n"); // instruction caches do not hold the grid
  write(dir / "index2" / "type", "Unified\n");
  write(dir / "index2" / "size", "2048K\n");
  write(dir / "index3" / "type", "Unified\n");
  write(dir / "index3" / "size", "36M\n");
  CHECK(system_last_level_cache(dir) == 36 * kMiB);
  CHECK_FALSE(system_last_level_cache(dir / "missing"));
}

TEST_CASE("roofline: a CPU whose driver says no cache takes /sys's, else the C library's") {
  Device d = fake_device("CPU", 0, 0);
  d.global_mem_cache_size = 0; // what PoCL reports on a virtual CPU whose /sys lists no caches
  const CacheSize size = last_level_cache(d);
  long libc = ::sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (libc <= 0)
    libc = ::sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (auto sys = system_last_level_cache()) {
    CHECK(size.bytes == *sys);
    CHECK(size.source == "/sys/devices/system/cpu/cpu0/cache");
  } else if (libc > 0) { // this project's development machines
    CHECK(size.bytes == static_cast<uint64_t>(libc));
    CHECK(size.source == "the C library (sysconf _SC_LEVEL3_CACHE_SIZE)");
  } else {
    CHECK(size.bytes == 0);
  }
}

TEST_CASE("roofline: TESSERA_CACHE_BYTES overrides the device, and a bad value is an error") {
  Device d = fake_device("CPU", 0, 0);
  d.global_mem_cache_size = 8 * kMiB;
  ::setenv("TESSERA_CACHE_BYTES", "3M", 1);
  CHECK(last_level_cache(d).bytes == 3 * kMiB);
  ::setenv("TESSERA_CACHE_BYTES", "lots", 1);
  CHECK_THROWS_WITH_AS(last_level_cache(d), doctest::Contains("TESSERA_CACHE_BYTES must be"),
                       Error);
  ::unsetenv("TESSERA_CACHE_BYTES");
  d.type = "GPU"; // a GPU's cache is the driver's number alone
  CHECK(last_level_cache(d).bytes == 8 * kMiB);
}

TEST_CASE("roofline: buffers of 4x the cache (at most 2 GiB on a CPU), 1 GiB on a GPU, clamped") {
  std::string why;
  Device cpu = fake_device("CPU", 64 * 1024 * kMiB, 16 * 1024 * kMiB);
  CHECK(roofline_buffer_bytes(cpu, 40 * kMiB, &why) == 160 * kMiB);
  CHECK(why.empty());
  CHECK(roofline_buffer_bytes(cpu, 1 * kMiB, &why) == 64 * kMiB);      // never below 64 MiB
  CHECK(roofline_buffer_bytes(cpu, 1024 * kMiB, &why) == 2048 * kMiB); // a fixed ceiling
  CHECK(why.empty());
  Device gpu = fake_device("GPU", 80 * 1024 * kMiB, 20 * 1024 * kMiB);
  CHECK(roofline_buffer_bytes(gpu, 50 * kMiB, &why) == 1024 * kMiB);
  Device small = fake_device("CPU", 3 * 1024 * kMiB, 4 * 1024 * kMiB);
  CHECK(roofline_buffer_bytes(small, 480 * kMiB, &why) == 1024 * kMiB);
  CHECK(why.find("a third of the device's global memory") != std::string::npos);
  // The size asked for follows the cache alone: a device with less free memory asks the same.
  CHECK(roofline_target_bytes(small, 480 * kMiB) == 1920 * kMiB);
  CHECK(roofline_target_bytes(cpu, 480 * kMiB) == 1920 * kMiB);
  CHECK(roofline_buffer_bytes(cpu, 480 * kMiB, &why, 16 * kMiB) == 16 * kMiB);
  CHECK(why.find("TESSERA_ROOFLINE_BYTES") != std::string::npos);
}

TEST_CASE("roofline: a problem that fits in the cache is cache-resident") {
  CHECK(explore::fits_in_cache(8.0 * kMiB, 32 * kMiB));
  CHECK_FALSE(explore::fits_in_cache(33.0 * kMiB, 32 * kMiB));
  CHECK_FALSE(explore::fits_in_cache(1.0, 0)); // unknown cache: never claimed
  CHECK(explore::roofline_fraction_label(8.0 * kMiB, 32 * kMiB) == "cache-resident");
  CHECK(explore::roofline_fraction_label(64.0 * kMiB, 32 * kMiB) == "partly cache-resident");
  CHECK(explore::roofline_fraction_label(65.0 * kMiB, 32 * kMiB) == "of the copy roofline");
  CHECK_FALSE(explore::partly_in_cache(30.0 * kMiB, 32 * kMiB)); // fits: cache-resident
  CHECK_FALSE(explore::partly_in_cache(40.0 * kMiB, 0));

  explore::Report r;
  r.stencil = "j2d5pt";
  r.size = {1024, 1024};
  r.device_name = "cpu";
  r.copy_gb_per_s = 10;
  r.copy_method = "float4 copy kernel";
  r.copy_bytes = 256 * kMiB;
  r.cache_bytes = 32 * kMiB;
  r.footprint_bytes = 8.0 * kMiB;
  explore::PointResult p;
  p.status = explore::PointStatus::Ok;
  p.median_ms = 1;
  p.gb_per_s = 27.4;
  p.fraction_of_copy = 2.74;
  r.points = {p};
  r.best = r.baseline = 0;
  std::string text = explore::format_report(r);
  CHECK(text.find("274.0% cache-resident") != std::string::npos);
  CHECK(text.find("fits in the cache") != std::string::npos);
  CHECK(text.find("of the copy roofline") == std::string::npos);
  auto back = explore::report_from_json(explore::report_to_json(r));
  CHECK(back.cache_resident());
  CHECK(back.copy_method == "float4 copy kernel");

  CHECK(text.find("part of its data sat in the cache") != std::string::npos);

  r.footprint_bytes = 128.0 * kMiB; // 4x the cache
  text = explore::format_report(r);
  CHECK(text.find("% of the copy roofline") != std::string::npos);
  CHECK(text.find("4.0x the cache") != std::string::npos);
  CHECK(text.find("cache-resident") == std::string::npos);
  // Above 100% with data far larger than the cache: the roofline is low, and the report says so.
  CHECK(explore::above_roofline_note(r).find("4.0x the cache, so its data did not sit in it: the "
                                             "roofline's copies are slower") != std::string::npos);
  CHECK(text.find(explore::above_roofline_note(r)) != std::string::npos);
  r.points[0].fraction_of_copy = 0.9;
  CHECK(explore::above_roofline_note(r).empty());
  r.points[0].fraction_of_copy = 2.74;
  r.cache_bytes = 0;
  CHECK(explore::above_roofline_note(r).find("either part of its data sat in a cache") !=
        std::string::npos);
  r.cache_bytes = 32 * kMiB;

  r.footprint_bytes = 36.0 * kMiB; // 1.1x the cache: part of it stays between sweeps
  text = explore::format_report(r);
  CHECK(text.find("274.0% partly cache-resident") != std::string::npos);
  CHECK(text.find("1.1x the cache: part of it stays in the cache") != std::string::npos);
}

TEST_CASE("roofline: the file keeps one entry per device and rejects stale or broken ones") {
  fs::path file = make_temp_dir("roofline") / "sub" / "roofline.json";
  CHECK_FALSE(read_roofline(file, "dev A", 64 * kMiB)); // no file yet
  store_roofline(file, "dev A", sample_roofline(64 * kMiB));
  store_roofline(file, "dev B", sample_roofline(128 * kMiB));
  auto a = read_roofline(file, "dev A", 64 * kMiB);
  REQUIRE(a);
  CHECK(a->from_file);
  CHECK(a->gb_per_s == doctest::Approx(12.5));
  CHECK(a->methods.at("copy kernel") == doctest::Approx(12.0));
  CHECK(a->cache_bytes == 32 * kMiB);
  CHECK(read_roofline(file, "dev B", 128 * kMiB));
  CHECK_FALSE(read_roofline(file, "dev A", 128 * kMiB)); // smaller buffers: measure again
  CHECK(read_roofline(file, "dev B", 64 * kMiB));        // larger ones are as good
  CHECK(read_roofline(file, "dev A", 70 * kMiB));        // drivers' limits move a little
  CHECK_FALSE(read_roofline(file, "dev C", 64 * kMiB));
  Roofline cut = sample_roofline(40 * kMiB); // the device's memory cut what it asked for
  cut.target_bytes = 128 * kMiB;
  store_roofline(file, "dev D", cut);
  CHECK(read_roofline(file, "dev D", 128 * kMiB)); // not measured again while memory moves
  CHECK_FALSE(read_roofline(file, "dev D", 256 * kMiB));

  std::ofstream(file) << "{\"format\": \"tessera-roofline\", \"version\": 2, \"devices\": "
                         "{\"dev A\": {\"gb_per_s\": \"fast\"}}}";
  CHECK_FALSE(read_roofline(file, "dev A", 64 * kMiB));
  std::ofstream(file) << "not json {";
  CHECK_FALSE(read_roofline(file, "dev A", 64 * kMiB));
  store_roofline(file, "dev A", sample_roofline(64 * kMiB)); // a broken file is replaced
  CHECK(read_roofline(file, "dev A", 64 * kMiB));
}

TEST_CASE("roofline: measured once per device, then read from the file; re-measured on request") {
  fs::path file = make_temp_dir("roofline-device") / "roofline.json";
  RooflineOptions options;
  options.file = file;
  options.max_bytes = 4 * kMiB;
  options.timing = {0, 1};
  Roofline first = device_roofline(test_session(), options);
  CHECK_FALSE(first.from_file);
  CHECK(first.buffer_bytes == 4 * kMiB);
  // clEnqueueCopyBuffer, then each copy kernel at the implementation's work-group size and at
  // 64, 256 and 1024 work-items where the device allows them (the launches divide by each).
  std::size_t sizes = 0;
  for (std::size_t local : {64, 256, 1024})
    sizes += local <= test_session().device().max_work_group_size;
  CHECK(first.methods.size() == 1 + 2 * (1 + sizes));
  CHECK(first.methods.count("float4 copy kernel, 64 work-items a group") == 1);
  CHECK(first.gb_per_s > 0);
  CHECK(fs::exists(file));
  Roofline second = device_roofline(test_session(), options);
  CHECK(second.from_file);
  CHECK(second.gb_per_s == doctest::Approx(first.gb_per_s));
  CHECK(second.method == first.method);
  options.remeasure = true;
  CHECK_FALSE(device_roofline(test_session(), options).from_file);
  fs::remove(file); // safe to delete: measured again
  options.remeasure = false;
  CHECK_FALSE(device_roofline(test_session(), options).from_file);
}

TEST_CASE("roofline: a bad TESSERA_ROOFLINE_BYTES is an error") {
  const char* saved = std::getenv("TESSERA_ROOFLINE_BYTES");
  std::string keep = saved ? saved : "";
  ::setenv("TESSERA_ROOFLINE_BYTES", "-1", 1);
  CHECK_THROWS_WITH_AS(roofline_options_from_env(),
                       doctest::Contains("TESSERA_ROOFLINE_BYTES must be a positive number"),
                       Error);
  ::setenv("TESSERA_ROOFLINE_BYTES", "2M", 1);
  CHECK(roofline_options_from_env().max_bytes == 2 * kMiB);
  if (saved)
    ::setenv("TESSERA_ROOFLINE_BYTES", keep.c_str(), 1);
  else
    ::unsetenv("TESSERA_ROOFLINE_BYTES");
}
