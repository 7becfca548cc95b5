// stencil_bench's report of a stream-temporal (2.5-D blocking) variant: its parameters in
// short, and what bounds it (recomputed halo, work-group, local memory, spilled registers).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "core/Error.h"
#include "rewrite/Rule.h"
#include "runtime/Session.h"

namespace tessera::bench {

// A stream-temporal variant in short: its tile, segment and steps.
inline std::string stream_text(const rewrite::Params& p) {
  auto get = [&](const char* key) { return p.count(key) ? p.at(key) : int64_t{0}; };
  return cat("stream-temporal k=", get("steps"), " tile ", get("tile"),
             p.count("tile_inner") ? cat("x", get("tile_inner")) : "",
             p.count("segment") ? cat(" segment ", get("segment")) : " whole march",
             p.count("phases") ? cat(" phases ", get("phases")) : "");
}

// What bounds a 2.5-D blocking variant (stream-temporal): the share of its level computations
// that is recomputed halo (each level j computes its tile plus (k-j)r per side, over its
// segment plus (k-j)r planes at each end), its work-group size, local memory, and the private
// bytes per work-item (registers spilled beyond the budget of its work-group size on NVIDIA).
inline std::string stream_limits(runtime::Session& session, const codegen::Kernel& kernel,
                                 const rewrite::Params& p, int k, int r, int64_t extent0) {
  std::vector<int64_t> tile{p.at("tile")};
  if (p.count("tile_inner"))
    tile.push_back(p.at("tile_inner"));
  const double planes = static_cast<double>(p.count("segment") ? p.at("segment") : extent0);
  double useful = 0, total = 0;
  for (int j = 1; j <= k; ++j) {
    double h = (k - j) * r, area = 1, inner = 1;
    for (int64_t t : tile) {
      area *= static_cast<double>(t) + 2 * h;
      inner *= static_cast<double>(t);
    }
    total += area * std::min(planes + 2 * h, static_cast<double>(extent0));
    useful += inner * planes;
  }
  cl_ulong private_bytes = 0;
  auto built = session.build_kernel(kernel.source, kernel.name);
  built.kernel.getWorkGroupInfo(session.device().device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                &private_bytes);
  return cat(" (redundant ", static_cast<int>(100 * (1 - useful / total) + 0.5), "%, group ",
             kernel.launch.local[0], ", ", kernel.local_memory_bytes / 1024, " KiB local, ",
             private_bytes, " B private)");
}

} // namespace tessera::bench
