#include "tools/Interrupt.h"

#include <iostream>

namespace tessera::tools {

namespace {

std::atomic<bool> interrupt_flag{false};

extern "C" void on_interrupt(int) {
  interrupt_flag.store(true);
  std::signal(SIGINT, SIG_DFL); // a second Ctrl-C ends the program at once
}

void install() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, nullptr);
}

} // namespace

InterruptGuard::InterruptGuard() {
  interrupt_flag.store(false);
  ::sigaction(SIGINT, nullptr, &previous_);
  install();
}

InterruptGuard::~InterruptGuard() {
  ::sigaction(SIGINT, &previous_, nullptr);
}

void InterruptGuard::reclaim() {
  if (interrupt_flag.load())
    return;
  struct sigaction current {};
  ::sigaction(SIGINT, nullptr, &current);
  if (current.sa_handler != on_interrupt || (current.sa_flags & SA_SIGINFO))
    install();
}

bool InterruptGuard::interrupted() const {
  return interrupt_flag.load();
}

const std::atomic<bool>& InterruptGuard::flag() const {
  return interrupt_flag;
}

int interrupted_after(const std::string& done, const std::string& json) {
  std::cerr << "interrupted after " << done
            << (json.empty() ? std::string()
                             : ": " + json + " has what was known, marked interrupted")
            << "\n";
  return kInterruptedStatus;
}

} // namespace tessera::tools
