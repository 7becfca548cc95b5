// The limits of a long piece of work (enumerating and lowering variants, a solve's cycles): a
// deadline, a cancel flag (Ctrl-C: tools/Interrupt.h sets one) and the reason the work stopped,
// in one object that every phase of the work shares.
//
// The work's expensive inner loops ask `reached()` where they can stop cleanly, or call
// poll_limits() where they cannot (deep inside a strategy or a code generator): it throws
// Stopped when the limits of the calling thread (set by a LimitsScope) are reached, and the
// owner of the work catches it where it can keep what was found so far. Polling is cheap (an
// atomic load and a clock read), so that a deadline ends the work within a small overrun and a
// Ctrl-C within a fraction of a second.
#pragma once

#include <atomic>
#include <chrono>
#include <exception>

namespace tessera {

enum class StopReason { None, Limit, Deadline, Interrupted };
// "the variant limit", "the deadline", "an interrupt" ("" for None).
const char* describe(StopReason reason);

class WorkLimits {
public:
  // No deadline (0 or less) and no cancel flag: only stop() stops it.
  explicit WorkLimits(double deadline_seconds = 0, const std::atomic<bool>* cancel = nullptr);
  // A phase that must end by `share` of this deadline (none without one), from now on measured
  // from this one's start, with the same cancel flag.
  WorkLimits(const WorkLimits& whole, double share);
  WorkLimits(const WorkLimits&) = delete;
  WorkLimits& operator=(const WorkLimits&) = delete;

  // True once the work must stop; the first reason is kept. Safe from several threads.
  bool reached();
  // Stops the work for a reason the caller found (a count limit).
  void stop(StopReason reason);
  StopReason reason() const { return reason_.load(); }
  double seconds() const;
  double deadline_seconds() const { return deadline_; }

private:
  std::chrono::steady_clock::time_point start_;
  double deadline_ = 0;
  const std::atomic<bool>* cancel_ = nullptr;
  std::atomic<StopReason> reason_{StopReason::None};
};

// Thrown by poll_limits(); deliberately not a tessera::Error (code that drops a candidate on an
// Error must not take it for one).
struct Stopped : std::exception {
  StopReason reason;
  explicit Stopped(StopReason r) : reason(r) {}
  const char* what() const noexcept override;
};

// The limits poll_limits() reads on this thread while the scope lives (scopes nest).
class LimitsScope {
public:
  explicit LimitsScope(WorkLimits& limits);
  ~LimitsScope();
  LimitsScope(const LimitsScope&) = delete;
  LimitsScope& operator=(const LimitsScope&) = delete;

private:
  WorkLimits* previous_;
};

// Throws Stopped when the calling thread's limits are reached; nothing without a scope.
void poll_limits();

} // namespace tessera
