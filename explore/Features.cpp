#include "explore/Features.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "explore/Family.h"

namespace tessera::explore {

namespace {

using nlohmann::json;

json steps_key(const std::vector<rewrite::Step>& steps) {
  json out = json::array();
  for (const auto& s : steps)
    out.push_back({{"rule", s.rule}, {"params", s.params}});
  return out;
}

// The mapping's fields that its words name (version 2's signatures were its words).
json mapping_key(rewrite::Mapping m) {
  m.dims = 0;
  m.segment = 0;
  if (m.kind == rewrite::MappingKind::Streaming)
    m.factor = 0;
  json j = rewrite::mapping_to_json(m);
  for (const char* unnamed : {"dims", "segment"})
    j.erase(unnamed);
  if (m.kind == rewrite::MappingKind::Streaming)
    j.erase("factor");
  return j;
}

json key_of(const std::vector<rewrite::Step>& steps, const std::optional<rewrite::Mapping>& mapping,
            const std::vector<rewrite::Step>& after_mapping) {
  json key = {{"steps", steps_key(steps)}};
  if (mapping)
    key["mapping"] = mapping_key(*mapping);
  if (!after_mapping.empty())
    key["after_mapping"] = steps_key(after_mapping);
  return key;
}

int64_t param(const VariantInfo& v, const std::string& name, int64_t otherwise) {
  auto it = v.params.find(name);
  return it == v.params.end() ? otherwise : it->second;
}

int64_t power(int64_t base, int64_t exponent) {
  int64_t r = 1;
  for (int64_t i = 0; i < exponent; ++i)
    r *= base;
  return r;
}

} // namespace

json variant_key(const Derivation& d) {
  return key_of(d.steps, d.mapping, d.after_mapping);
}

std::string variant_signature(const Derivation& derivation) {
  return variant_key(derivation).dump();
}

std::string signature_from_text(const std::string& text, const std::string& where) {
  std::vector<rewrite::Step> steps, after_mapping;
  std::optional<rewrite::Mapping> mapping;
  if (text != "plain")
    for (std::size_t start = 0; start <= text.size();) {
      std::size_t bar = text.find(" | ", start);
      if (bar == std::string::npos)
        bar = text.size();
      const std::string part = text.substr(start, bar - start);
      start = bar + 3;
      if (auto m = rewrite::mapping_from_v1_step(part, where)) {
        if (mapping)
          user_error(cat(where, ": the signature '", text, "' has two mappings"));
        mapping = *m;
        continue;
      }
      (mapping ? after_mapping : steps).push_back(rewrite::parse_step(part, where));
    }
  return key_of(steps, mapping, after_mapping).dump();
}

VariantFeatures variant_features(const VariantInfo& variant, int64_t cells) {
  VariantFeatures f;
  f.family = variant_family(variant.history);
  std::set<std::string> words{"family:" + f.family};
  // The arm names the rules in order, the mapping whole ("mapping: coarsened").
  auto add_rule = [&](const std::string& rule) {
    words.insert("rule:" + rule);
    f.arm += (f.arm.empty() ? "" : " | ") + rule;
  };
  const Derivation& d = variant.history;
  for (const auto& step : d.steps)
    add_rule(step.rule);
  if (d.mapping)
    add_rule(mapping_line(*d.mapping));
  for (const auto& step : d.after_mapping)
    add_rule(step.rule);
  f.steps = static_cast<int>(d.steps.size() + d.after_mapping.size());
  for (const auto& [name, value] : variant.params)
    words.insert(cat(name, "=", value));
  // Results per work-item, from the mapping that completed the variant.
  const int64_t dims = std::max<int64_t>(1, param(variant, "dims", 1));
  switch (d.mapping ? d.mapping->kind : rewrite::MappingKind::Global) {
  case rewrite::MappingKind::CoarsenedTiles:
  case rewrite::MappingKind::Coarsened:
    // The cells of a tile (the tiling steps' parameters). A whole-program coarsening has no
    // tile and counts 1, as version 1 did, which matched both by the words "mapping: coarsened".
    f.outputs_per_item = power(param(variant, "tile", 1), dims);
    break;
  case rewrite::MappingKind::Streaming:
    f.outputs_per_item = static_cast<int64_t>(std::pow(
        static_cast<double>(std::max<int64_t>(1, cells)), 1.0 / static_cast<double>(dims)));
    break;
  case rewrite::MappingKind::Vectorized:
    f.outputs_per_item = d.mapping->factor;
    break;
  default:
    break;
  }
  f.outputs_per_item = std::max<int64_t>(1, f.outputs_per_item);
  if (f.arm.empty())
    f.arm = "plain";
  f.work_items = std::max<int64_t>(1, cells / f.outputs_per_item);
  // Buckets of a factor of 4: enough to tell a launch that fills a GPU from one that cannot.
  auto log4 = [](int64_t n) {
    return static_cast<int>(std::floor(std::log2(static_cast<double>(n)) / 2));
  };
  words.insert(cat("outputs/item~4^", log4(f.outputs_per_item)));
  words.insert(cat("items~4^", log4(f.work_items)));
  words.insert(cat("steps=", f.steps));
  f.words.assign(words.begin(), words.end());
  return f;
}

std::vector<std::string> point_words(const VariantFeatures& features, const std::string& local) {
  std::vector<std::string> words = features.words;
  words.push_back("local=" + local);
  return words;
}

} // namespace tessera::explore
