#include "explore/StepsComparison.h"
#include "core/Format.h"

#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "explore/Derivation.h"
#include "explore/Family.h"
#include "explore/Report.h"
#include "rewrite/rules/Rules.h"

namespace tessera::explore {

namespace {

using nlohmann::json;

// The fastest point measured correctly, among those `wanted` accepts.
template <class Wanted> const PointResult* fastest(const Report& r, const Wanted& wanted) {
  const PointResult* best = nullptr;
  for (const auto& p : r.points)
    if (p.status == PointStatus::Ok && p.median_ms > 0 && wanted(p) &&
        (!best || p.median_ms < best->median_ms))
      best = &p;
  return best;
}

std::string one_line(const PointResult& p) {
  std::string s;
  for (const auto& step : p.history.lines())
    s += (s.empty() ? "" : " > ") + step;
  return cat(s.empty() ? "as written" : s, " (local ", p.local, ")");
}

} // namespace

// The form is the fusing rule's own name, found by its declared family (no rule is named
// here), with " registers" where the step keeps its window in registers.
std::string fused_form(const std::vector<rewrite::Step>& history) {
  for (const auto& step : history) {
    if (rewrite::rule_family(step.rule) == "temporal") {
      auto registers = step.params.find("registers");
      bool in_registers = registers != step.params.end() && registers->second == 1;
      return in_registers ? step.rule + " registers" : step.rule;
    }
  }
  return "";
}

StepsComparison compare_steps(int steps, const Report& single, const Report& fused) {
  StepsComparison c;
  c.steps = steps;
  const PointResult* one = fastest(single, [](const PointResult&) { return true; });
  if (!one) {
    c.note = "no single-sweep variant was measured";
    return c;
  }
  c.single_ms = one->median_ms;
  c.single_variant = one_line(*one);
  c.sweeps_ms = steps * one->median_ms;
  // A variant fusing all K steps in one kernel (its fusing step says steps=K); fusions of
  // fewer steps launch the others separately.
  auto fuses_all = [&](const PointResult& p) {
    if (variant_family(p.history) != "temporal")
      return false;
    for (const auto& step : p.history.rule_steps())
      if (auto k = step.params.find("steps"); k != step.params.end() && k->second == steps)
        return true;
    return false;
  };
  const PointResult* best = fastest(fused, fuses_all);
  for (const auto& p : fused.points)
    if (p.status == PointStatus::Ok && p.median_ms > 0 && fuses_all(p) &&
        !fused_form(p.history.rule_steps()).empty()) {
      auto [it, added] = c.fused_by_form.emplace(fused_form(p.history.rule_steps()), p.median_ms);
      it->second = std::min(it->second, p.median_ms);
    }
  if (!best) {
    c.note = cat("no variant fusing all ", steps,
                 " steps was measured (none generated, none "
                 "correct, or the budget ran out first)");
    return c;
  }
  c.fused_ms = best->median_ms;
  c.fused_variant = one_line(*best);
  // Effective bandwidth: the traffic of K sweeps (each reads and writes the grid) in the
  // fused time; the report's per-point figure counts the program's inputs and output once.
  c.fused_fraction_of_copy = steps * best->fraction_of_copy;
  c.speedup = c.sweeps_ms / best->median_ms;
  return c;
}

json steps_comparison_to_json(const StepsComparison& c) {
  json j{{"steps", c.steps},
         {"single_sweep_ms", c.single_ms},
         {"single_sweep_variant", c.single_variant},
         {"sweeps_ms", c.sweeps_ms},
         {"fused_ms", c.fused_ms ? json(*c.fused_ms) : json(nullptr)},
         {"fused_variant", c.fused_variant},
         {"fused_fraction_of_copy", c.fused_fraction_of_copy},
         {"fused_speedup_over_sweeps", c.speedup}};
  if (!c.note.empty())
    j["note"] = c.note;
  if (!c.fused_by_form.empty())
    j["fused_by_form"] = c.fused_by_form;
  return j;
}

StepsComparison steps_comparison_from_json(const json& j, const std::string& source) {
  std::string where = cat(source, ": \"steps_comparison\"");
  if (!j.is_object())
    user_error(cat(where, " must be an object"));
  auto number = [&](const char* key) {
    if (!j.contains(key) || !j.at(key).is_number() || !std::isfinite(j.at(key).get<double>()) ||
        j.at(key).get<double>() < 0)
      user_error(cat(where, ": \"", key, "\" must be a non-negative number"));
    return j.at(key).get<double>();
  };
  auto text = [&](const char* key) {
    if (j.contains(key) && !j.at(key).is_string())
      user_error(cat(where, ": \"", key, "\" must be a string"));
    return j.contains(key) ? j.at(key).get<std::string>() : std::string();
  };
  StepsComparison c;
  double steps = number("steps");
  if (steps < 2 || steps != std::floor(steps) || steps > 1000)
    user_error(cat(where, ": \"steps\" must be a whole number of at least 2, got ", steps));
  c.steps = static_cast<int>(steps);
  c.single_ms = number("single_sweep_ms");
  c.single_variant = text("single_sweep_variant");
  c.sweeps_ms = number("sweeps_ms");
  if (j.contains("fused_ms") && !j.at("fused_ms").is_null())
    c.fused_ms = number("fused_ms");
  c.fused_variant = text("fused_variant");
  c.fused_fraction_of_copy = number("fused_fraction_of_copy");
  c.speedup = number("fused_speedup_over_sweeps");
  c.note = text("note");
  if (j.contains("fused_by_form")) {
    const json& forms = j.at("fused_by_form");
    if (!forms.is_object())
      user_error(cat(where, ": \"fused_by_form\" must be an object of times"));
    for (const auto& [form, ms] : forms.items()) {
      if (!ms.is_number() || !std::isfinite(ms.get<double>()) || ms.get<double>() < 0)
        user_error(cat(where, ": \"fused_by_form\": \"", form, "\" must be a non-negative number"));
      c.fused_by_form[form] = ms.get<double>();
    }
  }
  return c;
}

std::string format_steps_comparison(const StepsComparison& c) {
  std::ostringstream out;
  out << "  " << c.steps << " steps: ";
  if (c.single_ms <= 0) {
    out << c.note << "\n";
    return out.str();
  }
  out << c.steps << " sweeps of the best single sweep " << c.steps << " x " << fixed(c.single_ms, 3)
      << " ms = " << fixed(c.sweeps_ms, 3) << " ms\n"
      << "            single sweep: " << c.single_variant << "\n";
  if (!c.fused_ms) {
    out << "            fused: " << c.note << "\n";
    return out.str();
  }
  out << "            best fused: " << fixed(*c.fused_ms, 3) << " ms ("
      << fixed(100 * c.fused_fraction_of_copy, 1) << "% of the copy bandwidth in effective "
      << "bandwidth): " << fixed(c.speedup, 2) << "x the " << c.steps << " sweeps\n"
      << "            fused variant: " << c.fused_variant << "\n";
  if (!c.fused_by_form.empty()) {
    out << "            best per form:";
    bool first = true;
    for (const auto& [form, ms] : c.fused_by_form) {
      out << (first ? " " : ", ") << form << " " << fixed(ms, 3) << " ms ("
          << fixed(c.sweeps_ms / ms, 2) << "x)";
      first = false;
    }
    out << "\n";
  }
  return out.str();
}

} // namespace tessera::explore
