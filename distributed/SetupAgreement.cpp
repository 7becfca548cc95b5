#include "distributed/SetupAgreement.h"

#include <algorithm>
#include <exception>
#include <iostream>

#include "core/Error.h"
#include "distributed/Mpi.h"

namespace tessera::distributed {

SetupOutcome attempt(const std::function<void()>& step) {
  try {
    step();
    return {};
  } catch (const Error& e) {
    return {e.what(), 2};
  } catch (const std::exception& e) {
    return {e.what(), 3};
  }
}

int agree_on_setup(const Communicator& world, const SetupOutcome& mine) {
  const int status = static_cast<int>(world.max(static_cast<double>(mine.status)));
  if (status == 0)
    return 0;
  // Each rank's part: nothing when it worked, else its status byte and its message.
  // (Built at its final size: GCC 12 warns falsely of a push_back and an insert.)
  std::vector<unsigned char> part;
  if (mine.status) {
    part.assign(mine.message.size() + 1, static_cast<unsigned char>(mine.status));
    std::copy(mine.message.begin(), mine.message.end(), part.begin() + 1);
  }
  auto parts = world.gather(part);
  if (world.rank() != 0)
    return status;
  // The lowest failing rank's message, and whether all ranks failed alike (then the message
  // needs no rank).
  int first = -1;
  bool alike = true;
  for (int r = 0; r < world.size(); ++r) {
    const auto& p = parts[static_cast<std::size_t>(r)];
    if (p.empty())
      alike = false;
    else if (first < 0)
      first = r;
    else
      alike = alike && p == parts[static_cast<std::size_t>(first)];
  }
  const auto& p = parts[static_cast<std::size_t>(first)];
  // One write (Communicator::fail says why).
  const std::string message =
      cat(p[0] == 3 ? "internal error: " : "error: ",
          alike ? std::string() : cat("rank ", first, " of ", world.size(), ": "),
          std::string(p.begin() + 1, p.end()), "\n");
  std::cerr.write(message.data(), static_cast<std::streamsize>(message.size()));
  std::cerr.flush();
  return status;
}

int agree_on_early_failure(const SetupOutcome& mine) {
  MpiRuntime mpi;
  return agree_on_setup(Communicator::world(), mine);
}

} // namespace tessera::distributed
