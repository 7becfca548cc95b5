// tessera's public C++ API in one include. One header per concern:
//   tessera/Program.h   build a program with the DSL, type-check it, bind sizes, iterate steps
//   tessera/Variants.h  its executable rewrite variants with their histories and families
//   tessera/Kernel.h    a variant's OpenCL kernel, its launch description, kernel files
//   tessera/Device.h    OpenCL devices (includes the OpenCL C++ headers)
//   tessera/Explore.h   explore the variants on a device within a budget, the best variant
//   tessera/Run.h       run a kernel or variant on the user's own buffers
//   tessera/Multigrid.h the multigrid operators and the V/W/F-cycle solver
// Link with tessera::tessera (find_package(tessera)); see docs/api.md.
#pragma once

#include "tessera/Device.h"
#include "tessera/Explore.h"
#include "tessera/Kernel.h"
#include "tessera/Multigrid.h"
#include "tessera/Program.h"
#include "tessera/Run.h"
#include "tessera/Variants.h"
