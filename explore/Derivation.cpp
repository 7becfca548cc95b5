#include "explore/Derivation.h"

#include <nlohmann/json.hpp>

#include "core/Error.h"

namespace tessera::explore {

using nlohmann::json;

std::string describe_step(const rewrite::Step& step) {
  if (step.position.empty() && step.params.empty())
    return step.rule;
  return rewrite::describe(step);
}

std::vector<rewrite::Step> parse_steps(const std::vector<std::string>& words,
                                       const std::string& where) {
  std::vector<rewrite::Step> steps;
  for (const auto& w : words)
    steps.push_back(rewrite::parse_step(w, where));
  return steps;
}

namespace {

std::vector<std::string> words_of(const std::vector<rewrite::Step>& steps) {
  std::vector<std::string> words;
  for (const auto& s : steps)
    words.push_back(describe_step(s));
  return words;
}

} // namespace

std::vector<rewrite::Step> Derivation::rule_steps() const {
  std::vector<rewrite::Step> all = steps;
  all.insert(all.end(), after_mapping.begin(), after_mapping.end());
  return all;
}

std::string mapping_line(const rewrite::Mapping& mapping) {
  return "mapping: " + rewrite::describe(mapping);
}

std::vector<std::string> Derivation::lines() const {
  std::vector<std::string> all = words_of(steps);
  if (mapping)
    all.push_back(mapping_line(*mapping));
  for (const auto& s : after_mapping)
    all.push_back(describe_step(s));
  return all;
}

std::string Derivation::LineIterator::operator*() const {
  const std::size_t before = d_->steps.size(), mapped = d_->mapping ? 1 : 0;
  if (i_ < before)
    return describe_step(d_->steps[i_]);
  if (i_ < before + mapped)
    return mapping_line(*d_->mapping);
  return describe_step(d_->after_mapping.at(i_ - before - mapped));
}

void write_derivation(json& object, const Derivation& d) {
  object["history"] = words_of(d.steps);
  if (d.mapping)
    object["mapping"] = rewrite::mapping_to_json(*d.mapping);
  if (!d.after_mapping.empty())
    object["after_mapping"] = words_of(d.after_mapping);
}

namespace {

std::vector<std::string> strings(const json& object, const char* key, const std::string& where) {
  if (!object.contains(key) || object.at(key).is_null())
    return {};
  const json& list = object.at(key);
  if (!list.is_array())
    user_error(cat(where, ": \"", key, "\" must be an array of strings"));
  std::vector<std::string> out;
  for (const auto& s : list) {
    if (!s.is_string())
      user_error(cat(where, ": \"", key, "\" must be an array of strings, got ", s.dump()));
    out.push_back(s.get<std::string>());
  }
  return out;
}

} // namespace

Derivation read_derivation(const json& object, int version, const std::string& where) {
  Derivation d;
  if (version == 1) {
    // The mapping was a step of the history; the steps after it were applied to the mapped
    // program.
    for (auto& step : strings(object, "history", where)) {
      if (auto m = rewrite::mapping_from_v1_step(step, where)) {
        if (d.mapping)
          user_error(cat(where, ": the history has two mapping steps"));
        d.mapping = *m;
      } else {
        (d.mapping ? d.after_mapping : d.steps).push_back(rewrite::parse_step(step, where));
      }
    }
    return d;
  }
  d.steps = parse_steps(strings(object, "history", where), where);
  if (object.contains("mapping") && !object.at("mapping").is_null())
    d.mapping = rewrite::mapping_from_json(object.at("mapping"), where + ": \"mapping\"");
  d.after_mapping = parse_steps(strings(object, "after_mapping", where), where);
  return d;
}

} // namespace tessera::explore
