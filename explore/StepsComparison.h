// `explore --steps K`: the fused variants of K steps against K sweeps of the best single-sweep
// variant found in the same run. The single step is explored first (with a share of the
// budget), then the K-step program; the comparison takes the fastest measured point of the
// K-step program whose derivation fuses the steps (a rule of the temporal family, as the rule
// declares it: temporal-tiling, stream-temporal, or any later fusing rule).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rewrite/Rule.h"

namespace tessera::explore {

struct Report;

struct StepsComparison {
  int steps = 0;
  double single_ms = 0;           // the best single sweep (median)
  std::string single_variant;     // its history, one line
  double sweeps_ms = 0;           // steps * single_ms
  std::optional<double> fused_ms; // the best fused variant of the K-step program, if measured
  std::string fused_variant;
  double fused_fraction_of_copy = 0; // effective bandwidth (K sweeps' traffic) / copy
  double speedup = 0;                // sweeps_ms / fused_ms (> 1: fusing wins)
  std::string note;                  // why there is no fused time, when there is none
  // The best fused time of each form: the fusing rule's name ("temporal-tiling",
  // "stream-temporal"), with " registers" where its window is in registers (2.5-D blocking).
  std::map<std::string, double> fused_by_form;
};

// The fusing form of a variant's history (one of fused_by_form's keys), or "" if none.
std::string fused_form(const std::vector<rewrite::Step>& history);

// The comparison from the single-step report and the K-step report.
StepsComparison compare_steps(int steps, const Report& single, const Report& fused);

nlohmann::json steps_comparison_to_json(const StepsComparison& c);
StepsComparison steps_comparison_from_json(const nlohmann::json& j, const std::string& source);
// "K fused steps: best X ms (variant) vs K sweeps of the best single sweep: K x Y ms = Z ms:
//  R x"
std::string format_steps_comparison(const StepsComparison& c);

} // namespace tessera::explore
