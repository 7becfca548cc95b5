// Transfers larger than one MPI message (gather, broadcast, the halo exchange's sends and
// receives) travel as several messages in order: with the message limit lowered to a few bytes,
// parts of different sizes on every rank (one empty) arrive whole and in order.
// And the set-up of a distributed command agrees on its failures: one message, one status.
#include <doctest/doctest.h>

#include <iostream>
#include <sstream>
#include <stdexcept>

#include "core/Error.h"
#include "distributed/SetupAgreement.h"
#include "tests/distributed/MpiFixture.h"

using namespace tessera;
using namespace tessera::distributed;

namespace {

// Rank r's bytes: 3r + 5 of them (rank 1: none), each a function of rank and position.
std::vector<unsigned char> part_of(int rank) {
  std::vector<unsigned char> bytes(rank == 1 ? 0 : static_cast<std::size_t>(3 * rank + 5));
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<unsigned char>(31 * rank + 7 * i + 1);
  return bytes;
}

struct MessageLimit {
  std::size_t saved = message_limit();
  explicit MessageLimit(std::size_t bytes) { set_message_limit(bytes); }
  ~MessageLimit() { set_message_limit(saved); }
};

} // namespace

TEST_CASE("a gather larger than one message arrives whole, in rank order") {
  auto world = testing::mpi_world();
  MessageLimit limit(4);
  auto parts = world.gather(part_of(world.rank()));
  if (world.rank() == 0) {
    REQUIRE(parts.size() == static_cast<std::size_t>(world.size()));
    for (int r = 0; r < world.size(); ++r)
      CHECK(parts[static_cast<std::size_t>(r)] == part_of(r));
  } else {
    CHECK(parts.empty());
  }
}

TEST_CASE("a broadcast larger than one message reaches every rank whole") {
  auto world = testing::mpi_world();
  MessageLimit limit(3);
  std::vector<unsigned char> data = world.rank() == 0 ? part_of(7) : part_of(world.rank());
  world.broadcast(data);
  CHECK(data == part_of(7));
}

TEST_CASE("nonblocking sends larger than one message arrive whole") {
  auto world = testing::mpi_world();
  MessageLimit limit(2);
  const int right = (world.rank() + 1) % world.size();
  const int left = (world.rank() + world.size() - 1) % world.size();
  auto mine = part_of(world.rank() + 2);
  std::vector<unsigned char> received(part_of(left + 2).size());
  Requests requests(world);
  requests.receive(received.data(), received.size(), left, 3);
  requests.send(mine.data(), mine.size(), right, 3);
  requests.wait();
  CHECK(received == part_of(left + 2));
}

TEST_CASE("a message limit of zero or over 2^31 - 1 bytes is refused") {
  CHECK_THROWS_WITH_AS(set_message_limit(0), doctest::Contains("expected 1 to 2^31 - 1"), Error);
  CHECK_THROWS_WITH_AS(set_message_limit(std::size_t{1} << 31),
                       doctest::Contains("expected 1 to 2^31 - 1"), Error);
}

// The set-up of a distributed command (distributed/SetupAgreement.h): a mistake is printed once,
// by rank 0, and every rank gets the same exit status, however many ranks found it.
TEST_CASE("set-up failures are agreed on: one message, one status on every rank") {
  auto world = testing::mpi_world();
  auto agreed = [&](const SetupOutcome& mine, int expected_status, const std::string& expected) {
    std::ostringstream err;
    auto* old = std::cerr.rdbuf(err.rdbuf());
    int status = agree_on_setup(world, mine);
    std::cerr.rdbuf(old);
    CHECK(status == expected_status);
    CHECK(err.str() == (world.rank() == 0 ? expected : std::string()));
  };
  agreed({}, 0, "");
  // Every rank found the same mistake: no rank in the message.
  agreed({"bad size '3x5'", 2}, 2, "error: bad size '3x5'\n");
  // One rank alone (the last): the message names it.
  const bool last = world.rank() == world.size() - 1;
  agreed(last ? SetupOutcome{"no device matches 'gpu'", 2} : SetupOutcome{}, 2,
         world.size() == 1 ? "error: no device matches 'gpu'\n"
                           : cat("error: rank ", world.size() - 1, " of ", world.size(),
                                 ": no device matches 'gpu'\n"));
  // An internal error anywhere makes the status 3 on every rank.
  agreed(last ? SetupOutcome{"a bug", 3} : SetupOutcome{"bad size", 2}, 3,
         world.size() == 1 ? "internal error: a bug\n"
                           : "error: rank 0 of " + std::to_string(world.size()) + ": bad size\n");
  // attempt() turns what a step throws into an outcome.
  CHECK(attempt([] {}).status == 0);
  CHECK(attempt([] { user_error("bad"); }).status == 2);
  CHECK(attempt([] { throw std::runtime_error("bug"); }).status == 3);
  CHECK(attempt([] { user_error("bad"); }).message == "bad");
}
