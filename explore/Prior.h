// The order in which a search visits the variants: what the tuning database knows first, then
// a cost model, so that the first seconds of a run measure the most promising points.
//
//   1. variants that earlier runs of the same program on this device measured faster than its
//      baseline, fastest first (a deeper run starts with the shallower runs' winners);
//   2. the same for similar programs (the same stencil at other sizes, depths or steps);
//   3. the rest: partial sums by plane (offered only for windows large enough that arithmetic
//      bounds them) and, on a CPU, the split launch first, then by the cost model learned from
//      every point of the device (FeatureModel over explore/Features.h words), shallower variants
//      first among equals, and among variants still equal one family at a time in turn: without a
//      database every depth-1 variant comes before the deeper ones, so a deeper space measures what
//      a shallower one would before anything else;
//   4. variants that failed for this program before.
// Each variant's work-group sizes are ordered the same way (the database's best first).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "explore/FeatureModel.h"
#include "explore/Features.h"
#include "explore/Space.h"
#include "explore/TuningDatabase.h"

namespace tessera::explore {

struct PriorContext {
  std::string stencil;      // the problem's name
  std::string program_hash; // of the high-level program's text
  int64_t cells = 1;        // output cells of the grid
  bool cpu = false;         // the device is a CPU
};

struct Prior {
  std::vector<int> order; // variant indices, best first; the baseline (0) is not in it
  std::vector<VariantFeatures> features;                  // per variant
  std::vector<std::vector<std::string>> preferred_locals; // per variant, best first
  FeatureModel model; // learned from the database's points of the device
  std::size_t from_program = 0, from_similar = 0; // variants placed by tiers 1 and 2
  // "tuning database: 12 variants from earlier runs of this program, 3 from similar programs;
  // cost model from 420 points"
  std::string summary;
};

Prior make_prior(const std::vector<VariantInfo>& variants, const std::vector<TunedPoint>& known,
                 const PriorContext& context);

// The program's hash in the database (the same text gives the same hash in every run).
std::string program_hash(const std::string& program_text);

} // namespace tessera::explore
