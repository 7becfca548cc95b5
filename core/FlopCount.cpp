#include "core/FlopCount.h"

namespace tessera {

namespace {
thread_local uint64_t* current_counter = nullptr;
} // namespace

FlopCount::FlopCount() : outer_(current_counter) {
  current_counter = &flops_;
}

FlopCount::~FlopCount() {
  current_counter = outer_;
}

void count_flop() {
  if (current_counter)
    ++*current_counter;
}

} // namespace tessera
