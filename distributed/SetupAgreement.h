// The set-up of a distributed command (`mpirun ... tessera sweep`, `solve`), where every rank
// runs the same checks on the same options: a mistake is found by every rank, so none may end
// the run with MPI_Abort (Open MPI's abort banner, exit status 1, the message once per rank).
// Instead every rank reaches each agreement point with its outcome; when any rank failed, one
// message is printed (by rank 0) and every rank returns the same exit status and ends normally.
// Only a failure after set-up, which the other ranks cannot know of while they wait for its
// halos, ends the run with Communicator::fail (MPI_Abort).
//
// An agreement point is a collective: every rank must reach the same points in the same order,
// with no other collective between a check that may fail on one rank and the next point.
#pragma once

#include <functional>
#include <string>

namespace tessera::distributed {

class Communicator;

struct SetupOutcome {
  std::string message; // empty: this rank's step worked
  int status = 0;      // 2: an Error (bad input or environment), 3: an internal error
};

// Runs `step` and catches what it throws (tessera::Error: status 2; any other exception: 3).
SetupOutcome attempt(const std::function<void()>& step);

// Collective over `world`: 0 when every rank's outcome is success. Otherwise every rank returns
// the largest status of the failing ranks, after rank 0 printed "error: MESSAGE" when every rank
// failed with one message, else "error: rank R of P: MESSAGE" of the lowest failing rank.
int agree_on_setup(const Communicator& world, const SetupOutcome& mine);

// A distributed command that failed before it started MPI (its options did not parse), under
// mpirun: MPI is started to reach the command's first agreement point with the failure, so that
// the message is printed once however many ranks failed. Returns the exit status.
int agree_on_early_failure(const SetupOutcome& mine);

} // namespace tessera::distributed
