// Ctrl-C during a long command (explore, solve, sweep): the first SIGINT asks the run to stop (it
// finishes the point, cycle or exchange period in hand, writes its --json marked interrupted and
// exits with kInterruptedStatus); a second one ends the program at once.
//
// The handler is installed before anything else (before the OpenCL platform exists), so that
// no moment of the run loses a Ctrl-C, even when the process started with SIGINT ignored (a
// background job of a script). PoCL's compiler (LLVM) installs its own SIGINT handler when it
// first runs; it would remove its temporary files and re-raise the signal. `reclaim()` puts
// ours back on top (called after the device is set up and after every point): ours does not end
// the process, so LLVM's files are cleaned up by LLVM's own normal path.
#pragma once

#include <atomic>
#include <csignal>
#include <string>

namespace tessera::tools {

class InterruptGuard {
public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // Re-installs the handler if another one replaced it (not after the first Ctrl-C: then the
  // default action stays, so that a second Ctrl-C ends the program).
  void reclaim();
  bool interrupted() const;
  const std::atomic<bool>& flag() const;

private:
  struct sigaction previous_ {};
};

// The exit status of a command stopped by Ctrl-C (docs/cli.md).
constexpr int kInterruptedStatus = 130;

// A command stopped by Ctrl-C after some of its work: "interrupted after <done>" on stderr, with
// the --json file that holds what was known (none: empty); returns kInterruptedStatus.
int interrupted_after(const std::string& done, const std::string& json);

} // namespace tessera::tools
