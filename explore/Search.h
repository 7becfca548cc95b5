// Search strategies over the points of a space, written against an Evaluator so that the same
// code runs on the device (explore/Explorer.cpp) and replays a finished exploration from the
// recorded costs (to compare how fast each strategy gets within 5% of the best).
//
//   exhaustive  the baseline, then every variant's points in enumeration order while the
//               budget lasts;
//   random      the baseline, then the variants in a random order (seeded), each variant's
//               points in a random order, while it lasts;
//   halving     successive halving: variants first (each through its first point, 1 timed
//               launch) in the prior's order (explore/Prior.h) for 60% of the time left; then
//               every work-group size of the best quarter of the variants seen (1 launch);
//               repeated while time and points remain; finally the best 8 points are re-timed
//               with 2, 4, ... launches, keeping the faster half each round, the winner with the
//               full number of repeats (time for this last stage is kept free from the start);
//   bandit      learns while it runs (explore/Bandit.cpp): the prior's first points, then
//               repeatedly the variant whose predicted speedup (a FeatureModel refitted after
//               every measurement) plus an exploration bonus for its family (an arm: tiled,
//               coarsened, streaming, ...) is highest, the work-group sizes of each new best
//               point next, and the same final re-timing as halving.
// Every strategy measures the baseline (point 0) first, with the full number of repeats, and
// stops starting points whose estimated cost would overrun the deadline. Variants are
// materialized (generated) only when reached, and only when that fits the budget too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "explore/Report.h"
#include "explore/SearchSpace.h"
#include "explore/Space.h"

namespace tessera::explore {

enum class Strategy { Exhaustive, Random, Halving, Bandit };

std::string to_string(Strategy strategy);
// Error naming the strategies for anything else.
Strategy parse_strategy(const std::string& name);
const std::vector<Strategy>& all_strategies();

struct Measurement {
  bool ok = false; // built, checked and timed
  double median_ms = 0;
  int repeats = 0;
};

class Evaluator {
public:
  virtual ~Evaluator() = default;
  // Seconds since the start of the run.
  virtual double now() const = 0;
  // The first call for a point generates, builds, checks and times it; later calls re-time it
  // with `repeats` launches.
  virtual Measurement measure(int point, int repeats) = 0;
  // Estimated seconds that measure(point, repeats) would take.
  virtual double estimate(int point, int repeats) const = 0;
  // Estimated seconds of the first measurement of a point of a variant not generated yet
  // (generation itself is SearchSpace::materialize_estimate).
  virtual double estimate_unlisted(int repeats) const { return 0 * repeats; }
  // Whether the point has a result (measured in this run or an earlier one).
  virtual bool measured(int point) const = 0;
  virtual std::optional<Measurement> result(int point) const = 0;
  // Seconds to keep free at the end of the budget (final confirmation, writing the report).
  virtual double reserve() const { return 0; }
  // Asked before each point: stop early (Ctrl-C).
  virtual bool stop_requested() const { return false; }
  // Told which phase the search is in ("variants", "work-group sizes", "halving 2", ...).
  virtual void phase(const std::string&) {}
  // The points the search measures next (not measured yet), in order: an evaluator may build
  // their kernels ahead, together (PoCL parses and links a program in its build: its cost per
  // program, about 0.1 s, is then paid once for them all).
  virtual void build_ahead(const std::vector<int>&) {}
  // Whether build_ahead does anything (the search then generates variants ahead for it).
  virtual bool builds_ahead() const { return false; }
};

struct SearchOptions {
  Strategy strategy = Strategy::Halving;
  double deadline_s = 60; // in the evaluator's clock: start no point that would end later
  int repeats = 5;        // timed launches of a full measurement
  uint32_t seed = 1;
};

// Runs the strategy over the space (its point 0 is the baseline).
void search(Evaluator& evaluator, SearchSpace& space, const SearchOptions& options);
// The same over a space known whole (points[0] is the baseline).
void search(Evaluator& evaluator, const std::vector<Point>& points, const SearchOptions& options);

// Replays a strategy on the points recorded in a report: each point costs what it cost when it
// was measured (its build once per kernel source, its check, and its launches), and measures
// what it measured. Returns the time (from `start_s`, the moment the search began, plus that
// offset) at which a point within 5% of target_ms is first measured; nullopt with `note` set
// when the strategy needs a point the report lacks first or never gets there by the deadline.
std::optional<double> replay_time_to_target(const Report& report, const SpaceSnapshot& space,
                                            const SearchOptions& options, double start_s,
                                            double target_ms, std::string* note);

// The strategies' times to within 5% of the best: the strategy that ran as measured (from the
// trace), and every strategy replayed (random: mean over 10 orders).
// The space is what the run materialized (its points, prior order, families and words).
std::vector<StrategyResult> strategy_results(const Report& report, const SpaceSnapshot& space,
                                             const SearchOptions& options, double start_s);

} // namespace tessera::explore
