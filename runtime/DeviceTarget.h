// The target model (core/Target.h) of an OpenCL device: made once from what the device reports,
// read by the rules, the code generator and the explorer.
#pragma once

#include "core/Target.h"
#include "runtime/Device.h"

namespace tessera::runtime {

// The device's limits: its kind, work-group limits, local and constant memory, images; the
// streaming forms' local memory is the portable plan's, or less where the device has less.
// What OpenCL does not report (registers, private arrays) keeps the portable values.
Target target_of(const Device& device);

} // namespace tessera::runtime
