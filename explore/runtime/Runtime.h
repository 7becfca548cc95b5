// The OpenCL runtime layer in one include: devices, sessions, buffers, the build cache,
// launching and timing.
#pragma once

#include "explore/runtime/Bandwidth.h"
#include "explore/runtime/Buffer.h"
#include "explore/runtime/BuildCache.h"
#include "explore/runtime/BuildLog.h"
#include "explore/runtime/ClError.h"
#include "explore/runtime/Device.h"
#include "explore/runtime/Hash.h"
#include "explore/runtime/Kernel.h"
#include "explore/runtime/KernelArg.h"
#include "explore/runtime/Launch.h"
#include "explore/runtime/Range.h"
#include "explore/runtime/Session.h"
#include "explore/runtime/Timing.h"
