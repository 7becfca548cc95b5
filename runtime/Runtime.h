// The OpenCL runtime layer in one include: devices, sessions, buffers, the build cache,
// launching and timing.
#pragma once

#include "runtime/Bandwidth.h"
#include "runtime/Buffer.h"
#include "runtime/BuildCache.h"
#include "runtime/BuildLog.h"
#include "runtime/ClError.h"
#include "runtime/Device.h"
#include "runtime/Hash.h"
#include "runtime/Kernel.h"
#include "runtime/KernelArg.h"
#include "runtime/Launch.h"
#include "runtime/Range.h"
#include "runtime/Session.h"
#include "runtime/Timing.h"
