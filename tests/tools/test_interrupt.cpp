// The Ctrl-C handler of `tessera explore` (tools/Interrupt.h): installed over an ignored SIGINT,
// put back on top of a handler installed after it (as PoCL's compiler does), and the second
// Ctrl-C left to the default action.
#include <doctest/doctest.h>

#include <csignal>

#include "tools/Interrupt.h"

using namespace tessera;

namespace {

int foreign_calls = 0;
extern "C" void foreign_handler(int) {
  ++foreign_calls;
}

void (*current_handler())(int) {
  struct sigaction now {};
  ::sigaction(SIGINT, nullptr, &now);
  return now.sa_handler;
}

} // namespace

TEST_CASE("interrupt: the guard catches SIGINT even when it was ignored, and reclaims it") {
  auto* before = std::signal(SIGINT, SIG_IGN); // as a background job of a script starts
  {
    tools::InterruptGuard guard;
    CHECK_FALSE(guard.interrupted());
    // Another handler installed later (PoCL's LLVM) is replaced by ours again.
    std::signal(SIGINT, foreign_handler);
    guard.reclaim();
    std::raise(SIGINT);
    CHECK(foreign_calls == 0);
    CHECK(guard.interrupted());
    CHECK(guard.flag().load());
    // After the first Ctrl-C the default action stays, so that a second one ends the program.
    CHECK((current_handler() == SIG_DFL));
    guard.reclaim();
    CHECK((current_handler() == SIG_DFL));
  }
  CHECK((current_handler() == SIG_IGN)); // the guard restores what was there
  std::signal(SIGINT, before);
}
