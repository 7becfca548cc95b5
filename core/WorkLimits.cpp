#include "core/WorkLimits.h"

namespace tessera {

namespace {
thread_local WorkLimits* current_limits = nullptr;
} // namespace

const char* describe(StopReason reason) {
  switch (reason) {
  case StopReason::None:
    return "";
  case StopReason::Limit:
    return "the variant limit";
  case StopReason::Deadline:
    return "the deadline";
  case StopReason::Interrupted:
    return "an interrupt";
  }
  return "";
}

WorkLimits::WorkLimits(double deadline_seconds, const std::atomic<bool>* cancel)
    : start_(std::chrono::steady_clock::now()), deadline_(deadline_seconds), cancel_(cancel) {}

WorkLimits::WorkLimits(const WorkLimits& whole, double share)
    : start_(whole.start_), deadline_(whole.deadline_ * share), cancel_(whole.cancel_) {}

bool WorkLimits::reached() {
  if (reason_.load() != StopReason::None)
    return true;
  if (cancel_ && cancel_->load())
    stop(StopReason::Interrupted);
  else if (deadline_ > 0 && seconds() > deadline_)
    stop(StopReason::Deadline);
  return reason_.load() != StopReason::None;
}

void WorkLimits::stop(StopReason reason) {
  StopReason none = StopReason::None;
  reason_.compare_exchange_strong(none, reason);
}

double WorkLimits::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

const char* Stopped::what() const noexcept {
  return "the work was stopped by its limits";
}

LimitsScope::LimitsScope(WorkLimits& limits) : previous_(current_limits) {
  current_limits = &limits;
}

LimitsScope::~LimitsScope() {
  current_limits = previous_;
}

void poll_limits() {
  if (current_limits && current_limits->reached())
    throw Stopped(current_limits->reason());
}

} // namespace tessera
