// Device enumeration and selection, error-code names, hashing, build-log parsing.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "compile/DeviceLimits.h"
#include "core/Bytes.h"
#include "core/Error.h"
#include "runtime/Runtime.h"
#include "tests/Helpers.h"

using namespace tessera;
using tessera::testing::error_of;
using namespace tessera::runtime;

namespace {

std::string upper(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

} // namespace

TEST_CASE("runtime: devices are listed and described") {
  auto devices = list_devices();
  REQUIRE(!devices.empty());
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const auto& d = devices[i];
    CHECK(d.index == static_cast<int>(i));
    CHECK(!d.name.empty());
    CHECK(!d.platform_name.empty());
    CHECK(d.max_work_group_size >= 1);
    CHECK(!d.max_work_item_sizes.empty());
    CHECK(d.global_mem_size > 0);
    CHECK(d.local_mem_size > 0);
    CHECK(d.compute_units >= 1);
    CHECK(d.description().find(d.name) != std::string::npos);
    CHECK(d.description().find(d.platform_name) != std::string::npos);
  }
}

TEST_CASE("runtime: the default device is PoCL when it is installed") {
  auto devices = list_devices();
  bool has_pocl = std::any_of(devices.begin(), devices.end(), [](const Device& d) {
    return d.platform_name == "Portable Computing Language";
  });
  Device d = select_device("");
  if (has_pocl)
    CHECK(d.platform_name == "Portable Computing Language");
  else
    CHECK(d.index == 0);
}

TEST_CASE("runtime: devices are selected by substring, index and P:D") {
  auto devices = list_devices();
  REQUIRE(!devices.empty());
  const Device& last = devices.back();

  // A case-insensitive substring of the name.
  std::string part = upper(last.name.substr(0, std::min<std::size_t>(6, last.name.size())));
  Device by_name = select_device(part);
  CHECK(upper(by_name.name).find(part) != std::string::npos);

  // A substring of the platform name.
  Device by_platform = select_device(upper(last.platform_name));
  CHECK(by_platform.platform_name == last.platform_name);

  CHECK(select_device(std::to_string(last.index)).index == last.index);
  CHECK(select_device(std::to_string(last.platform_index) + ":" + std::to_string(last.device_index))
            .index == last.index);
  CHECK(select_device("0").index == 0);
}

TEST_CASE("runtime: a missing device is an error listing the available devices") {
  auto devices = list_devices();
  for (std::string spec : {"no-such-device-xyz", "999", "7:3"}) {
    std::string message = error_of([&] { select_device(spec); });
    CHECK(message.find("available") != std::string::npos);
    CHECK(message.find(spec) != std::string::npos);
    for (const auto& d : devices) {
      CHECK(message.find(d.name) != std::string::npos);
      CHECK(message.find(d.platform_name) != std::string::npos);
    }
  }
  std::string none = missing_device_message({}, "");
  CHECK(none.find("no OpenCL") != std::string::npos);
  CHECK(none.find("pocl-opencl-icd") != std::string::npos);
  CHECK_THROWS_AS(select_device_among({}, ""), Error);
}

TEST_CASE("runtime: TESSERA_DEVICE supplies the device spec") {
  auto devices = list_devices();
  const Device& last = devices.back();
  ::setenv("TESSERA_DEVICE", std::to_string(last.index).c_str(), 1);
  CHECK(select_device_from_env().index == last.index);
  CHECK(select_device_from_env("0").index == 0); // an explicit spec wins

  ::setenv("TESSERA_DEVICE", "no-such-device-xyz", 1);
  std::string message = error_of([] { select_device_from_env(); });
  CHECK(message.find("TESSERA_DEVICE") != std::string::npos);
  CHECK(message.find("available") != std::string::npos);

  ::unsetenv("TESSERA_DEVICE");
  CHECK(select_device_from_env().index == select_device("").index);
}

TEST_CASE("runtime: OpenCL error codes have names") {
  CHECK(cl_error_name(0) == "CL_SUCCESS");
  CHECK(cl_error_name(-54) == "CL_INVALID_WORK_GROUP_SIZE");
  CHECK(cl_error_name(-4) == "CL_MEM_OBJECT_ALLOCATION_FAILURE");
  CHECK(cl_error_name(-11) == "CL_BUILD_PROGRAM_FAILURE");
  CHECK(cl_error_name(-1001) == "CL_PLATFORM_NOT_FOUND_KHR");
  CHECK(cl_error_name(-12345).find("unknown") != std::string::npos);
  std::string message = error_of([] { check_cl(-54, "launching k"); });
  CHECK(message.find("launching k") != std::string::npos);
  CHECK(message.find("CL_INVALID_WORK_GROUP_SIZE") != std::string::npos);
  CHECK_NOTHROW(check_cl(0, "fine"));
}

TEST_CASE("runtime: FNV-1a is stable and fields are length-prefixed") {
  CHECK(fnv1a64("") == 14695981039346656037ull);
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cull);
  CHECK(fnv1a64("foobar") == 0x85944171f73967e8ull);
  CHECK(hex64(0xaf63dc4c8601ec8cull) == "af63dc4c8601ec8c");
  CHECK(hex64(1) == "0000000000000001");
  CHECK(Hasher().add("ab").add("c").value() != Hasher().add("a").add("bc").value());
  CHECK(Hasher().add("ab").add("c").value() == Hasher().add("ab").add("c").value());
}

TEST_CASE("runtime: line numbers are found in build logs of several compilers") {
  CHECK(error_lines_in_log("<source>:12:5: error: use of undeclared identifier 'x'") ==
        std::vector<int>{12});
  CHECK(error_lines_in_log("input.cl:3:1: fatal error: 'foo.h' file not found") ==
        std::vector<int>{3});
  CHECK(error_lines_in_log("1:7:10: error: expected ';'\n1:2:1: warning: unused") ==
        std::vector<int>{7});
  CHECK(error_lines_in_log("<kernel>:20:3: error: x\n<kernel>:4:3: error: y\n"
                           "<kernel>:20:9: error: z") == std::vector<int>{4, 20});
  CHECK(error_lines_in_log("error: /root/.cache/pocl/kcache/tempfile_wkrP82.cl:3:10: use of "
                           "undeclared identifier 'u'\nwarning: /tmp/t.cl:8:1: unused") ==
        std::vector<int>{3});
  CHECK(error_lines_in_log("kernel.cl(9): error: identifier undefined") == std::vector<int>{9});
  CHECK(error_lines_in_log("ERROR: line 6: syntax error") == std::vector<int>{6});
  CHECK(error_lines_in_log("<stdin>:3:4: warning: unused variable").empty());
  CHECK(error_lines_in_log("error: something without a line").empty());
}

TEST_CASE("runtime: source excerpts show the offending lines with context") {
  std::string source;
  for (int i = 1; i <= 20; ++i)
    source += "line" + std::to_string(i) + "\n";
  std::string excerpt = source_excerpt(source, {5, 15}, 1);
  CHECK(excerpt.find(">  5 | line5") != std::string::npos);
  CHECK(excerpt.find("   4 | line4") != std::string::npos);
  CHECK(excerpt.find("   6 | line6") != std::string::npos);
  CHECK(excerpt.find("line10") == std::string::npos);
  CHECK(excerpt.find("...") != std::string::npos);
  CHECK(excerpt.find("> 15 | line15") != std::string::npos);
  CHECK(source_excerpt(source, {99}).empty());
  std::string whole = numbered_source("a\nb\n");
  CHECK(whole.find("1 | a") != std::string::npos);
  CHECK(whole.find("2 | b") != std::string::npos);
}

TEST_CASE("runtime: launch ranges") {
  Range r{64, 32};
  CHECK(r.dims() == 2);
  CHECK(r.total() == 2048);
  CHECK(r.str() == "64x32");
  int n = 7;
  Range one = n;
  CHECK(one.dims() == 1);
  CHECK(one[0] == 7);
  CHECK(Range{}.empty());
  CHECK(Range{}.str() == "auto");
  CHECK(Range::of({2, 3, 4}).total() == 24);
  CHECK_THROWS_AS(Range::of({1, 2, 3, 4}), Error);
  CHECK_THROWS_AS(Range(-1), Error);
  CHECK(median({3.0, 1.0, 2.0}) == 2.0);
  CHECK(median({4.0, 1.0, 2.0, 3.0}) == 2.5);
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(4096) == "4 KiB");
  CHECK(format_bytes(1536) == "1.5 KiB");
}

TEST_CASE("runtime: the placements' side conditions are the device's constant memory and images") {
  Device d = select_device("");
  rewrite::EnumerateOptions options;
  tessera::explore::apply_device_limits(options, d);
  CHECK(options.target.max_constant_bytes == static_cast<int64_t>(d.max_constant_buffer_size));
  CHECK(options.target.max_constant_args == static_cast<int>(d.max_constant_args));
  CHECK(options.target.max_constant_bytes >= 1024); // OpenCL's minimum for any device
  CHECK(options.target.images.supported == d.image_support);
  if (d.platform_name == "Portable Computing Language") { // PoCL has images
    CHECK(options.target.images.supported);
    CHECK(options.target.images.width_3d >= 256);
  }
  // Several devices share the limits every one of them meets.
  Device without = d;
  without.image_support = false;
  without.max_constant_buffer_size = 2048;
  tessera::explore::apply_device_limits(options, std::vector<Device>{d, without});
  CHECK_FALSE(options.target.images.supported);
  CHECK(options.target.max_constant_bytes == 2048);
}

TEST_CASE("runtime: a CPU device's space coarsens by whole vectors, a GPU's does not") {
  Device cpu = select_device("");
  cpu.type = "CPU";
  Device gpu = cpu;
  gpu.type = "GPU";
  auto has = [](const std::vector<int64_t>& factors, int64_t f) {
    return std::find(factors.begin(), factors.end(), f) != factors.end();
  };
  rewrite::EnumerateOptions on_cpu, on_gpu;
  tessera::explore::apply_device_limits(on_cpu, cpu);
  tessera::explore::apply_device_limits(on_gpu, gpu);
  CHECK(on_gpu.coarsening == rewrite::EnumerateOptions{}.coarsening);
  for (int64_t f : {2, 4, 8, 16, 32}) {
    CHECK(has(on_cpu.coarsening, f));
    CHECK(has(on_cpu.row_blocking, f)); // rows of partial sums, the same factors
  }
  CHECK(on_gpu.row_blocking == rewrite::EnumerateOptions{}.row_blocking);
  // Applying the limits twice (one device after another) does not repeat a factor.
  tessera::explore::apply_device_limits(on_cpu, cpu);
  CHECK(std::count(on_cpu.coarsening.begin(), on_cpu.coarsening.end(), 16) == 1);
  // Partial sums by plane from 13 window points on a GPU (the 3-D stars of radius 2-4, the
  // 27-point box), from 27 on a CPU (the 27-point box blocked along x) and on a GPU sharing its
  // enumeration with a CPU.
  CHECK(on_gpu.plane_sums_min_points == 13);
  CHECK(on_cpu.plane_sums_min_points == 27);
  rewrite::EnumerateOptions shared;
  tessera::explore::apply_device_limits(shared, std::vector<Device>{gpu, cpu});
  CHECK(shared.plane_sums_min_points == 27);
  tessera::explore::apply_device_limits(shared, std::vector<Device>{gpu, gpu});
  CHECK(shared.plane_sums_min_points == 13);
}
