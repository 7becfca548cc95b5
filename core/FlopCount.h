// Counting the floating-point operations the interpreter evaluates in user functions (+, -, *,
// /, negation and math calls on f32 or f64 values): a program's arithmetic per output, which
// sets its arithmetic intensity against a device's compute ceiling.
#pragma once

#include <cstdint>

namespace tessera {

// Counts the operations evaluated on this thread while it lives (the innermost of nested
// counters counts).
class FlopCount {
public:
  FlopCount();
  ~FlopCount();
  FlopCount(const FlopCount&) = delete;
  FlopCount& operator=(const FlopCount&) = delete;
  uint64_t flops() const { return flops_; }

private:
  uint64_t flops_ = 0;
  uint64_t* outer_;
};

// Adds one operation to this thread's innermost counter, if there is one.
void count_flop();

} // namespace tessera
