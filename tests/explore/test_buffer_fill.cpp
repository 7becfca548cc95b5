// Filling device buffers: the plan that keeps every fill far below the 2^31 pattern units at
// which NVIDIA's OpenCL hangs (runtime/Buffer.h), and real fills on the default device
// with sizes that are not multiples of the widened pattern.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "RuntimeFixture.h"
#include "core/Error.h"
#include "runtime/Buffer.h"

using namespace tessera;
using namespace tessera::runtime;

TEST_CASE("plan_fill: a 1-byte pattern over 3 GiB counts no more than 2^31 of its units") {
  const std::size_t bytes = (std::size_t{3} << 30) + 4;
  FillPlan plan = plan_fill(bytes, 1);
  REQUIRE(!plan.piece_offsets.empty());
  std::size_t covered = 0;
  for (std::size_t i = 0; i < plan.piece_offsets.size(); ++i) {
    CHECK(plan.piece_offsets[i] == covered);              // contiguous
    CHECK(plan.piece_bytes[i] <= (std::size_t{1} << 30)); // small pieces
    CHECK(plan.piece_offsets[i] % plan.width == 0);       // in widened units
    CHECK((plan.piece_offsets[i] + plan.piece_bytes[i]) / plan.width < (1u << 31));
    covered += plan.piece_bytes[i];
  }
  CHECK(covered == plan.bulk);
  CHECK(plan.bulk == bytes - 4);
  CHECK(plan.tail_from_host); // 3 GiB of 1-byte units: the tail's offset is too far
  CHECK_FALSE(plan_fill(1000, 4).tail_from_host);
}

TEST_CASE("plan_fill: small pieces when asked, and bad patterns refused") {
  FillPlan plan = plan_fill(1 << 20, 8, 1000); // 1000 rounds down to 992 = 62 x 16
  CHECK(plan.width == 16);
  CHECK(plan.piece_bytes.front() == 992);
  CHECK(plan.piece_offsets.size() == (std::size_t{1} << 20) / 992 + 1);
  CHECK_THROWS_AS(plan_fill(100, 3), Error);
  CHECK_THROWS_AS(plan_fill(100, 8), Error);     // 100 bytes are not whole 8-byte patterns
  CHECK(plan_fill(12, 4).piece_offsets.empty()); // all tail
  CHECK(plan_fill(256, 128).width == 128);       // a 128-byte pattern stays whole
}

// The narrowest widened pattern is the fastest (16 bytes; an H200 fills 1 GiB 14x faster with it
// than with 128), as long as a buffer counts fewer than 2^31 of its units.
TEST_CASE("plan_fill: 16-byte units up to 32 GiB, wider beyond") {
  CHECK(plan_fill(std::size_t{1} << 30, 8).width == 16);
  CHECK(plan_fill(std::size_t{32} << 30, 8).width == 32); // 2^31 units of 16 bytes: too many
  CHECK(plan_fill(std::size_t{100} << 30, 8).width == 64);
  CHECK(plan_fill(std::size_t{300} << 30, 8).width == 128);
  CHECK(plan_fill(std::size_t{1} << 20, 32).width == 32); // never narrower than the pattern
}

TEST_CASE("RawBuffer::fill writes every byte, tails included") {
  auto& session = testing::test_session();
  for (std::size_t bytes :
       {std::size_t{1}, std::size_t{100}, std::size_t{4096}, std::size_t{1000003}}) {
    RawBuffer buffer(session, bytes);
    const unsigned char first = 0x5a;
    buffer.fill(&first, 1);
    std::vector<unsigned char> host(bytes);
    buffer.read(host.data(), bytes);
    CHECK(std::count(host.begin(), host.end(), first) == static_cast<long>(bytes));
  }
  // A 4-byte pattern whose bytes differ: the widened pattern keeps their order.
  const std::size_t count = 1001; // 4004 bytes: 250 widened units of 16 bytes, a 4-byte tail
  RawBuffer buffer(session, count * 4);
  const uint32_t pattern = 0x01020304u;
  buffer.fill(&pattern, 4);
  std::vector<uint32_t> host(count);
  buffer.read(host.data(), count * 4);
  CHECK(std::count(host.begin(), host.end(), pattern) == static_cast<long>(count));
}
