// The steps every search strategy is made of (explore/Search.cpp, explore/Bandit.cpp): measure
// a point or materialize a variant only when it fits before the deadline, rank what was
// measured, and re-time the finalists.
#pragma once

#include <vector>

#include "explore/Search.h"

namespace tessera::explore::steps {

// Measures the point unless the deadline (less the evaluator's reserve) would pass or a stop
// was requested; returns whether it measured.
bool try_measure(Evaluator& ev, int point, int repeats, double deadline);

// The variant's points, materializing it first when that and a first point (one launch) fit
// before the deadline (less the reserve); null when they do not (or a stop was requested).
const std::vector<int>* points_within(Evaluator& ev, SearchSpace& space, int variant,
                                      double deadline);

// The point's median, infinity when it failed or was not measured.
double median_of(const Evaluator& ev, int point);

// Hands the points of `points` not measured yet to Evaluator::build_ahead (where it builds any).
void build_ahead(Evaluator& ev, const std::vector<int>& points);

// How many variants' first points the search hands to Evaluator::build_ahead at a time.
constexpr std::size_t kBuildAhead = 8;
// Hands the evaluator the first points (not measured yet) of variants[from, from + kBuildAhead)
// that fit, generated one after the other, before the deadline (Evaluator::build_ahead).
void build_ahead(Evaluator& ev, SearchSpace& space, const std::vector<int>& variants,
                 std::size_t from, double deadline);

// The `count` fastest measured points of the space, fastest first.
std::vector<int> fastest(const Evaluator& ev, const SearchSpace& space, std::size_t count);

// Estimated cost of the final re-timing over the current finalists.
double finals_cost(const Evaluator& ev, const SearchSpace& space, int repeats);

// The final stage: successive halving of the fastest points with more and more launches.
void final_halving(Evaluator& ev, const SearchSpace& space, const SearchOptions& o);

} // namespace tessera::explore::steps
