#include "rewrite/Rule.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "core/Json.h"
#include "core/Printer.h"

namespace tessera::rewrite {

std::string describe(const Step& step) {
  std::string s = step.rule + " at [";
  for (std::size_t i = 0; i < step.position.size(); ++i)
    s += (i ? "," : "") + std::to_string(step.position[i]);
  s += "]";
  if (!step.params.empty()) {
    s += " {";
    bool first = true;
    for (const auto& [k, v] : step.params) {
      s += cat(first ? "" : ", ", k, "=", v);
      first = false;
    }
    s += "}";
  }
  return s;
}

nlohmann::json to_json(const Variant& variant) {
  auto steps = [](const std::vector<Step>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& s : list)
      out.push_back({{"rule", s.rule}, {"position", s.position}, {"params", s.params}});
    return out;
  };
  nlohmann::json j = {{"program", print(variant.program)},
                      {"expr", expr_to_json(variant.program)},
                      {"history", steps(variant.history)}};
  if (variant.mapping)
    j["mapping"] = mapping_to_json(*variant.mapping);
  if (!variant.after_mapping.empty())
    j["after_mapping"] = steps(variant.after_mapping);
  return j;
}

Variant variant_from_json(const nlohmann::json& j) {
  auto steps = [&](const char* key) {
    std::vector<Step> out;
    if (!j.contains(key))
      return out;
    try {
      for (const auto& s : j.at(key))
        out.push_back({s.at("rule").get<std::string>(), s.at("position").get<Position>(),
                       s.at("params").get<Params>()});
    } catch (const nlohmann::json::exception& e) {
      user_error(cat("a variant's \"", key, "\" is malformed: ", e.what()));
    }
    return out;
  };
  if (!j.is_object() || !j.contains("expr"))
    user_error("a variant is a JSON object with \"expr\", \"history\" and \"mapping\"");
  Variant v{expr_from_json(j.at("expr")), steps("history"), std::nullopt, steps("after_mapping")};
  if (j.contains("mapping"))
    v.mapping = mapping_from_json(j.at("mapping"), "a variant's \"mapping\"");
  return v;
}

bool Rule::applies_to(NodeKind kind) const {
  return node_kinds.empty() ||
         std::find(node_kinds.begin(), node_kinds.end(), kind) != node_kinds.end();
}

Rule at_kinds(Rule rule, std::vector<NodeKind> kinds) {
  rule.node_kinds = std::move(kinds);
  return rule;
}

Rule with_family(Rule rule, std::string family) {
  rule.family = std::move(family);
  return rule;
}

namespace {

// The candidate tile sizes a value of a TileSizeMultiple domain may come from: value / factor
// for each of its factors that divides it.
std::vector<int64_t> multiple_of(const ParamDomain& domain, int64_t value) {
  std::vector<int64_t> sizes;
  for (int64_t factor : domain.values)
    if (factor > 0 && value > 0 && value % factor == 0)
      sizes.push_back(value / factor);
  return sizes;
}

} // namespace

bool in_domain(const ParamDomain& domain, int64_t value, const RuleContext& context) {
  auto among = [value](const std::vector<int64_t>& values) {
    return std::find(values.begin(), values.end(), value) != values.end();
  };
  switch (domain.source) {
  case ParamDomain::Source::TileSizes:
    return among(context.tile_sizes);
  case ParamDomain::Source::TileSizeMultiple: {
    const auto& tiles = context.tile_sizes;
    for (int64_t size : multiple_of(domain, value))
      if (std::find(tiles.begin(), tiles.end(), size) != tiles.end())
        return true;
    return false;
  }
  case ParamDomain::Source::Coarsening:
    return among(context.coarsening);
  case ParamDomain::Source::TemporalSteps:
    return among(context.temporal_steps);
  case ParamDomain::Source::RowBlocking:
    return among(context.row_blocking);
  case ParamDomain::Source::ProgramCount:
    return value >= 0;
  case ParamDomain::Source::Fixed:
    break;
  }
  return among(domain.values);
}

void check_params(const Rule& rule, const Params& params, const RuleContext& context) {
  if (rule.params.empty())
    return;
  for (const auto& [key, value] : params) {
    const std::string& name = key; // a structured binding cannot be captured before C++20
    auto it = std::find_if(rule.params.begin(), rule.params.end(),
                           [&](const ParamDomain& d) { return d.name == name; });
    if (it == rule.params.end())
      user_error(cat(rule.name, ": no parameter \"", name, "\""));
    if (!in_domain(*it, value, context))
      user_error(cat(rule.name, ": ", name, "=", value, " is outside its domain"));
  }
  for (const auto& d : rule.params)
    if (!d.optional && !params.count(d.name))
      user_error(cat(rule.name, ": the parameter \"", d.name, "\" is required"));
}

namespace {
void visit_from(const Expr& e, Position& pos, bool inside,
                const std::function<void(const Expr&, const Position&, bool)>& f) {
  f(e, pos, inside);
  bool child_inside = inside || (e->is_function() && !pos.empty());
  for (std::size_t i = 0; i < e->children.size(); ++i) {
    pos.push_back(static_cast<int>(i));
    visit_from(e->children[i], pos, child_inside, f);
    pos.pop_back();
  }
}
} // namespace

void for_each_node(const Expr& program,
                   const std::function<void(const Expr&, const Position&, bool)>& visit) {
  Position pos;
  visit_from(program, pos, false, visit);
}

Expr node_at(const Expr& program, const Position& position) {
  Expr cur = program;
  for (int i : position) {
    if (i < 0 || i >= static_cast<int>(cur->children.size()))
      user_error(cat("position does not exist in the program (child ", i, " of a ",
                     kind_name(cur->kind), " with ", cur->children.size(), " children)"));
    cur = cur->children[static_cast<std::size_t>(i)];
  }
  return cur;
}

Expr replace_at(const Expr& program, const Position& position, const Expr& replacement) {
  if (position.empty())
    return replacement;
  std::vector<Expr> children = program->children;
  int i = position.front();
  if (i < 0 || i >= static_cast<int>(children.size()))
    user_error("position does not exist in the program");
  children[static_cast<std::size_t>(i)] =
      replace_at(children[static_cast<std::size_t>(i)],
                 Position(position.begin() + 1, position.end()), replacement);
  return with_children(program, std::move(children));
}

bool inside_function_at(const Expr& program, const Position& position) {
  Expr cur = program;
  for (std::size_t depth = 0; depth < position.size(); ++depth) {
    if (depth > 0 && cur->is_function())
      return true;
    cur = node_at(cur, {position[depth]});
  }
  return false;
}

namespace {

// The context's candidate list a domain draws from; null for a fixed or program-decided one.
std::vector<int64_t>* candidates(ParamDomain::Source source, RuleContext& context) {
  switch (source) {
  case ParamDomain::Source::TileSizes:
    return &context.tile_sizes;
  case ParamDomain::Source::Coarsening:
    return &context.coarsening;
  case ParamDomain::Source::TemporalSteps:
    return &context.temporal_steps;
  case ParamDomain::Source::RowBlocking:
    return &context.row_blocking;
  case ParamDomain::Source::TileSizeMultiple: // the candidates are value / factor
  case ParamDomain::Source::Fixed:
  case ParamDomain::Source::ProgramCount:
    break;
  }
  return nullptr;
}

// Adds `value` to a candidate list unless it is there.
void add_candidate(std::vector<int64_t>& list, int64_t value) {
  if (std::find(list.begin(), list.end(), value) == list.end())
    list.push_back(value);
}

// The context step `index` replays in: its parameters that the rule declares drawn from a
// candidate list join that list (a history replays with any context), and the node's place
// (inside a function or not) is the one the enumerator saw. Error naming the rule and the
// parameter when the step's parameters do not match the rule's declaration.
RuleContext step_context(const Rule& rule, const Step& step, std::size_t index, const Expr& program,
                         RuleContext context) {
  auto fail = [&](const std::string& why) {
    user_error(cat("replay: step ", index + 1, " (", describe(step), "): ", why));
  };
  if (rule.params.empty() && !step.params.empty())
    fail(cat(rule.name, " declares no parameters, the step has \"", step.params.begin()->first,
             "\""));
  for (const auto& domain : rule.params) {
    auto value = step.params.find(domain.name);
    if (value == step.params.end())
      continue;
    if (auto* list = candidates(domain.source, context))
      add_candidate(*list, value->second);
    if (domain.source == ParamDomain::Source::TileSizeMultiple)
      for (int64_t size : multiple_of(domain, value->second)) // every size it may come from
        add_candidate(context.tile_sizes, size);
  }
  try {
    check_params(rule, step.params, context);
  } catch (const Error& e) {
    fail(e.what());
  }
  context.inside_function = inside_function_at(program, step.position);
  return context;
}

} // namespace

Expr replay(const Expr& program, const std::vector<Step>& history, const std::vector<Rule>& rules,
            const RuleContext& context) {
  Expr cur = program;
  for (std::size_t i = 0; i < history.size(); ++i) {
    const Step& step = history[i];
    auto rule = std::find_if(rules.begin(), rules.end(),
                             [&](const Rule& r) { return r.name == step.rule; });
    if (rule == rules.end())
      user_error(cat("replay: unknown rule '", step.rule, "'"));
    TypeChecker types;
    types.apply(cur, input_types(cur));
    RuleContext ctx = step_context(*rule, step, i, cur, context);
    ctx.types = &types;
    ctx.below_program_body = step.position.size() > 1;
    RuleResult result = rule->apply(node_at(cur, step.position), ctx);
    auto alt = std::find_if(result.alternatives.begin(), result.alternatives.end(),
                            [&](const Alternative& a) { return a.params == step.params; });
    if (alt == result.alternatives.end())
      user_error(cat("replay: ", describe(step), " does not apply",
                     result.why_not.empty() ? "" : ": " + result.why_not));
    cur = replace_at(cur, step.position, alt->replacement);
  }
  return cur;
}

std::vector<Expr> rewrites_everywhere(const Expr& program, const Rule& rule, RuleContext context) {
  TypeChecker types;
  types.apply(program, input_types(program));
  context.types = &types;
  std::vector<Expr> rewritten;
  for_each_node(program, [&](const Expr& node, const Position& at, bool inside) {
    context.inside_function = inside;
    for (const auto& alt : rule.apply(node, context).alternatives)
      rewritten.push_back(replace_at(program, at, alt.replacement));
  });
  return rewritten;
}

} // namespace tessera::rewrite
