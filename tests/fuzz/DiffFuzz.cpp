#include "tests/fuzz/DiffFuzz.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iostream>
#include <regex>

#include "codegen/Program.h"
#include "compile/ExecutableVariants.h"
#include "compile/Execute.h"
#include "core/Error.h"
#include "core/Json.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "primitives/Interpreter.h"
#include "primitives/TypeCheck.h"
#include "rewrite/Lower.h"
#include "rewrite/Variants.h"
#include "rewrite/rules/Rules.h"
#include "tests/fuzz/Reproducers.h"

namespace tessera::fuzz {

namespace fs = std::filesystem;
using json = nlohmann::json;
using rewrite::Position;
using rewrite::Step;

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

bool same_derivation(const rewrite::Variant& a, const rewrite::Variant& b) {
  return a.history == b.history && a.mapping == b.mapping && a.after_mapping == b.after_mapping;
}

json steps_to_json(const std::vector<Step>& steps) {
  json out = json::array();
  for (const auto& s : steps)
    out.push_back({{"rule", s.rule},
                   {"position", s.position},
                   {"params", s.params},
                   {"text", rewrite::describe(s)}});
  return out;
}

std::vector<Step> steps_from_json(const json& j) {
  std::vector<Step> steps;
  for (const auto& s : j) {
    Step step;
    step.rule = s.at("rule").get<std::string>();
    step.position = s.at("position").get<Position>();
    step.params = s.at("params").get<rewrite::Params>();
    steps.push_back(step);
  }
  return steps;
}

// The recipe's grids at its constant shape, then the program's further inputs (the weights of
// weighted_sum), whose declared types are constant.
std::vector<Type> constant_input_types(const Recipe& r, const Expr& program) {
  std::vector<Type> types;
  for (std::size_t k = 0; k < r.kinds.size(); ++k)
    types.push_back(
        array_of(Type::scalar(r.kinds[k]), std::vector<ArithExpr>(r.shape.begin(), r.shape.end())));
  const auto& params = program->params();
  for (std::size_t k = r.kinds.size(); k < params.size(); ++k)
    types.push_back(*params[k]->declared_type);
  return types;
}

std::vector<Data> make_inputs(const CaseSpec& spec) {
  std::vector<Data> inputs;
  uint32_t k = 0;
  for (const auto& t : spec.input_types)
    inputs.push_back(random_value(t, input_seed(spec.input_seed, k++)));
  return inputs;
}

// Bit-exact comparison of two interpreter results (NaNs compare equal).
bool identical(const Data& a, const Data& b) {
  auto x = a.flatten(), y = b.flatten();
  if (x.size() != y.size())
    return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!(x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i]))))
      return false;
  return true;
}

struct Comparison {
  bool ok = true;
  double max_error = 0;
  std::string detail;
};

// Kernel vs. interpreter: floating results within 1e-5 of max(1, |reference|), integers exact.
Comparison compare(const Data& got, const Data& expected, ScalarKind kind) {
  Comparison c;
  try {
    c.max_error = explore::max_relative_error(got, expected); // also checks the shapes
  } catch (const Error& e) {
    c.ok = false;
    c.detail = cat("the kernel's result has another shape: ", e.what());
    return c;
  }
  auto g = got.flatten(), x = expected.flatten();
  if (g.size() != x.size()) {
    c.ok = false;
    c.detail = cat("the kernel returned ", g.size(), " values, the interpreter ", x.size());
    return c;
  }
  std::size_t bad = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    bool same = (std::isnan(g[i]) && std::isnan(x[i])) || g[i] == x[i];
    if (!same && is_floating(kind))
      same = std::fabs(g[i] - x[i]) <= 1e-5 * std::max(1.0, std::fabs(x[i]));
    if (!same) {
      if (bad < 5)
        c.detail += cat(bad ? "; " : "", "value ", i, ": kernel ", g[i], ", interpreter ", x[i]);
      ++bad;
    }
  }
  if (bad) {
    c.ok = false;
    c.detail =
        cat(bad, " of ", g.size(), " values differ (", c.detail, bad > 5 ? "; ..." : "", ")");
  }
  return c;
}

// A Step chosen among the places where rules fire.
struct Site {
  std::size_t rule;
  Position position;
  std::size_t alternatives;
};

int rule_weight(const std::string& rule) {
  if (rule == "temporal-tiling")
    return 8;
  for (const char* r : {"slide-tiling", "tile-nd", "overlapped-tiling-nd", "stream-nd",
                        "split-join", "join-split-cancel", "transpose-cancel", "split-map",
                        "map-join", "map-fusion", "map-fission"})
    if (rule == r)
      return 2;
  return 1;
}

} // namespace

rewrite::RuleContext fuzz_rule_context() {
  rewrite::RuleContext ctx;
  ctx.tile_sizes = {2, 3, 4, 8};
  ctx.coarsening = {2, 4};
  ctx.temporal_steps = {2, 3};
  return ctx;
}

Expr apply_history(const Expr& program, const std::vector<Step>& history,
                   const std::vector<rewrite::Rule>& rules) {
  return rewrite::replay(program, history, rules, fuzz_rule_context());
}

std::string normalize_reason(const std::string& message) {
  std::string s = message;
  auto at = s.find(" [at ");
  if (at != std::string::npos)
    s = s.substr(0, at);
  s = std::regex_replace(s, std::regex("[0-9]+"), "N");
  s = std::regex_replace(s, std::regex("'[^']*'"), "'...'");
  if (s.size() > 160)
    s = s.substr(0, 160) + "...";
  return s;
}

Fuzzer::Fuzzer(runtime::Session& session, FuzzOptions options)
    : session_(session), options_(std::move(options)), rules_(rewrite::all_rules()) {}

CaseSpec Fuzzer::make_case(uint64_t index) {
  CaseSpec spec;
  spec.seed = options_.seed;
  spec.index = index;
  std::mt19937 rng(static_cast<uint32_t>(options_.seed * 1000003u + index * 7919u + 17u));
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::string last_error;
  for (int attempt = 0;; ++attempt) {
    if (attempt == 50)
      user_error("the program generator found no well-typed recipe: " + last_error);
    spec.recipe = random_recipe(rng);
    try {
      spec.program = build_program(spec.recipe);
      infer_type(spec.program);
      break;
    } catch (const Error& e) {
      last_error = e.what();
    }
  }
  const Recipe& r = spec.recipe;
  spec.input_types = constant_input_types(r, spec.program);
  if (r.size_mode == 2)
    spec.baked_sizes = size_values(r);
  spec.input_seed = static_cast<uint32_t>(rng());
  spec.split_interior = pick(1, 100) <= 80;
  spec.lowering = pick(1, 100) <= 30 ? "variant" : "default";
  spec.variant_pick = static_cast<uint32_t>(rng());

  // Random rewrites: a rule among those that fire somewhere, then a place and an alternative.
  int steps = pick(0, options_.max_steps);
  Expr cur = spec.program;
  for (int s = 0; s < steps; ++s) {
    TypeChecker types;
    try {
      types.apply(cur, input_types(cur));
    } catch (const Error&) {
      break; // an ill-typed intermediate: run() reports it
    }
    rewrite::RuleContext ctx = fuzz_rule_context();
    ctx.types = &types;
    std::map<std::size_t, std::vector<Site>> firing;
    rewrite::for_each_node(cur, [&](const Expr& node, const Position& at, bool inside) {
      ctx.inside_function = inside;
      for (std::size_t i = 0; i < rules_.size(); ++i) {
        rewrite::RuleResult res;
        try {
          res = rules_[i].apply(node, ctx);
        } catch (const Error&) {
          continue; // a rule that cannot type a node does not fire there
        }
        if (!res.alternatives.empty())
          firing[i].push_back({i, at, res.alternatives.size()});
      }
    });
    if (firing.empty())
      break;
    // A firing rule, weighted: rules that fire on few programs (temporal tiling fires only on
    // repeated stencil steps, and not after a lowering rule) get more weight than the lowering
    // rules that fire almost everywhere.
    int total = 0;
    for (const auto& [rule, sites] : firing)
      total += rule_weight(rules_[rule].name);
    int ticket = pick(0, total - 1);
    auto it = firing.begin();
    while ((ticket -= rule_weight(rules_[it->first].name)) >= 0)
      ++it;
    const Site& site =
        it->second[static_cast<std::size_t>(pick(0, static_cast<int>(it->second.size()) - 1))];
    ctx.inside_function = rewrite::inside_function_at(cur, site.position);
    auto res = rules_[site.rule].apply(rewrite::node_at(cur, site.position), ctx);
    const auto& alt = res.alternatives[static_cast<std::size_t>(
        pick(0, static_cast<int>(res.alternatives.size()) - 1))];
    spec.history.push_back({rules_[site.rule].name, site.position, alt.params});
    cur = rewrite::replace_at(cur, site.position, alt.replacement);
  }
  return spec;
}

Outcome Fuzzer::run(const CaseSpec& spec) {
  Outcome o;
  auto t0 = Clock::now();
  auto fail = [&](const std::string& stage, const std::string& message) {
    o.status = Outcome::Failure;
    o.stage = stage;
    o.message = message;
    o.seconds = seconds_since(t0);
    return o;
  };
  auto reject = [&](const std::string& stage, const std::string& message) {
    o.status = Outcome::Rejected;
    o.stage = stage;
    o.message = message;
    o.seconds = seconds_since(t0);
    return o;
  };
  std::string stage = "interpreter";
  try {
    auto inputs = make_inputs(spec);
    Data expected = evaluate(spec.program, inputs);
    ScalarKind kind = infer_type(spec.program).innermost().scalar_kind();

    // Rewrites.
    stage = "rewrite";
    o.rewritten = apply_history(spec.program, spec.history, rules_);
    try {
      infer_type(o.rewritten);
    } catch (const Error& e) {
      return fail("rewrite", cat("the rewritten program is ill-typed: ", e.what()));
    }
    if (!identical(evaluate(o.rewritten, inputs), expected))
      return fail("rewrite", "the interpreter evaluates the rewritten program differently");

    // Lowering.
    stage = "lowering";
    if (spec.lowering == "variant") {
      rewrite::EnumerateOptions eo;
      eo.depth = 1;
      eo.tile_sizes = {2, 4};
      eo.limit = 400;
      rewrite::LoweredVariants lv;
      try {
        lv = explore::executable_variants(o.rewritten, eo);
      } catch (const Error& e) {
        return reject("lowering", e.what());
      }
      const rewrite::Variant* chosen = nullptr;
      if (lv.variants.empty()) {
        // Nothing executable around this program: its default lowering still is a case.
        o.lowered = rewrite::lower_default(o.rewritten);
      } else if (!spec.variant.mapping) {
        chosen = &lv.variants[spec.variant_pick % lv.variants.size()];
      } else {
        for (const auto& v : lv.variants)
          if (same_derivation(v, spec.variant))
            chosen = &v;
        if (!chosen)
          return reject("lowering", "the recorded variant is not among the variants");
      }
      if (chosen) {
        o.lowered = chosen->program;
        o.variant = {Expr(), chosen->history, chosen->mapping, chosen->after_mapping};
      }
    } else if (spec.lowering == "none") {
      o.lowered = o.rewritten;
    } else {
      try {
        o.lowered = rewrite::lower_default(o.rewritten);
      } catch (const Error& e) {
        return reject("lowering", e.what());
      }
    }
    try {
      infer_type(o.lowered);
    } catch (const Error& e) {
      return fail("lowering", cat("the lowered program is ill-typed: ", e.what()));
    }
    if (!identical(evaluate(o.lowered, inputs), expected))
      return fail("lowering", "the interpreter evaluates the lowered program differently");

    // Code generation.
    stage = "codegen";
    codegen::CodegenOptions options;
    options.kernel_name = "fuzz";
    options.baked_sizes = spec.baked_sizes;
    options.split_interior = spec.split_interior;
    // A program of kernels: one launch, or one per stage where one kernel cannot compute it.
    codegen::KernelProgram kernel;
    try {
      kernel = codegen::generate_program(o.lowered, options);
    } catch (const Error& e) {
      return reject("codegen", e.what());
    }
    for (const auto& k : kernel.kernels)
      o.kernel_source += k.source;
    if (options_.census) {
      o.seconds = seconds_since(t0);
      return o; // not run: counted as generated
    }

    // The device.
    stage = "device";
    auto td = Clock::now();
    explore::Execution run = explore::execute(session_, kernel, inputs);
    o.device_seconds = seconds_since(td);
    stage = "compare";
    Comparison c = compare(run.output, expected, kind);
    o.max_error = c.max_error;
    if (!c.ok)
      return fail("compare", c.detail);
  } catch (const Error& e) {
    return fail(stage, cat("tessera::Error: ", e.what()));
  } catch (const InternalError& e) {
    return fail(stage, e.what());
  } catch (const std::exception& e) {
    return fail(stage, cat("unexpected exception: ", e.what()));
  }
  o.seconds = seconds_since(t0);
  return o;
}

json Fuzzer::reproducer(const CaseSpec& spec, const Outcome& o) {
  json types = json::array();
  for (const auto& t : spec.input_types) {
    json tj;
    to_json(tj, t);
    types.push_back(tj);
  }
  json j = {{"format", "tessera-fuzz-case"},
            {"version", 2},
            {"seed", spec.seed},
            {"case", spec.index},
            {"recipe", spec.recipe.to_json()},
            {"program_text", print(spec.program)},
            {"program", expr_to_json(spec.program)},
            {"history", steps_to_json(spec.history)},
            {"lowering", spec.lowering},
            {"variant_pick", spec.variant_pick},
            {"split_interior", spec.split_interior},
            {"baked_sizes", spec.baked_sizes},
            {"input_types", types},
            {"input_seed", spec.input_seed}};
  const rewrite::Variant& variant = o.variant.mapping ? o.variant : spec.variant;
  j["variant_steps"] = steps_to_json(variant.history);
  if (variant.mapping) {
    j["variant_mapping"] = rewrite::mapping_to_json(*variant.mapping);
    j["variant_after_mapping"] = steps_to_json(variant.after_mapping);
  }
  if (o.status != Outcome::Pass) {
    j["stage"] = o.stage;
    j["message"] = o.message;
  }
  if (o.rewritten)
    j["rewritten_text"] = print(o.rewritten);
  if (o.lowered) {
    j["lowered_text"] = print(o.lowered);
    j["lowered"] = expr_to_json(o.lowered);
  }
  if (!o.kernel_source.empty())
    j["kernel_source"] = o.kernel_source;
  return j;
}

CaseSpec Fuzzer::spec_from_reproducer(const json& j) {
  if (!j.is_object() || j.value("format", "") != "tessera-fuzz-case")
    user_error("not a tessera_fuzz reproducer (\"format\": \"tessera-fuzz-case\")");
  CaseSpec spec;
  spec.seed = j.value("seed", 0ull);
  spec.index = j.value("case", 0ull);
  spec.program = expr_from_json(j.at("program"));
  spec.history = steps_from_json(j.at("history"));
  spec.lowering = j.value("lowering", "default");
  spec.variant_pick = j.value("variant_pick", 0u);
  const int version = j.value("version", 1);
  if (version < 1 || version > 2)
    user_error(cat("tessera_fuzz reproducer version ", version,
                   " is not supported (this build reads versions 1 and 2)"));
  auto steps = steps_from_json(j.value("variant_steps", json::array()));
  if (version == 1) {
    // The mapping was a step "mapping: ..." of the variant's steps.
    for (auto& step : steps) {
      if (auto m = rewrite::mapping_from_v1_step(step.rule, "the reproducer's variant_steps"))
        spec.variant.mapping = *m;
      else
        (spec.variant.mapping ? spec.variant.after_mapping : spec.variant.history)
            .push_back(std::move(step));
    }
  } else {
    spec.variant.history = std::move(steps);
    if (j.contains("variant_mapping"))
      spec.variant.mapping = rewrite::mapping_from_json(j.at("variant_mapping"), "the reproducer");
    spec.variant.after_mapping = steps_from_json(j.value("variant_after_mapping", json::array()));
  }
  spec.split_interior = j.value("split_interior", true);
  spec.baked_sizes = j.value("baked_sizes", std::map<std::string, int64_t>{});
  for (const auto& t : j.at("input_types"))
    spec.input_types.push_back(type_from_json(t));
  spec.input_seed = j.value("input_seed", 1u);
  if (j.contains("recipe")) {
    // Informational only; the program above is what runs.
    spec.recipe.fn_seed = j["recipe"].value("fn_seed", 1u);
  }
  return spec;
}

CaseSpec Fuzzer::shrink(const CaseSpec& spec, const Outcome& failure) {
  auto t0 = Clock::now();
  CaseSpec best = spec;
  int attempts = 0;
  auto still_fails = [&](CaseSpec candidate) {
    if (attempts >= 200 || seconds_since(t0) > 90)
      return false;
    ++attempts;
    Outcome o = run(candidate);
    return o.status == Outcome::Failure && o.stage == failure.stage;
  };
  // Pin the variant by its steps, so that it stays the same while other things shrink.
  if (best.lowering == "variant" && !best.variant.mapping)
    best.variant = failure.variant;
  bool progress = true;
  while (progress) {
    progress = false;
    // Fewer rewrites.
    for (std::size_t i = 0; i < best.history.size(); ++i) {
      CaseSpec c = best;
      c.history.erase(c.history.begin() + static_cast<std::ptrdiff_t>(i));
      try {
        apply_history(c.program, c.history, rules_);
      } catch (const Error&) {
        continue;
      }
      if (still_fails(c)) {
        best = c;
        progress = true;
        break;
      }
    }
    if (progress)
      continue;
    // The default lowering, and the interior split off.
    if (best.lowering == "variant") {
      CaseSpec c = best;
      c.lowering = "default";
      c.variant = {};
      if (still_fails(c)) {
        best = c;
        progress = true;
        continue;
      }
    }
    if (best.split_interior) {
      CaseSpec c = best;
      c.split_interior = false;
      if (still_fails(c)) {
        best = c;
        progress = true;
        continue;
      }
    }
    // Simpler programs, with the same rewrites where they still apply.
    if (best.recipe.shape.empty())
      break; // loaded from a reproducer: no recipe
    for (const Recipe& r : simpler_recipes(best.recipe)) {
      CaseSpec c = best;
      c.recipe = r;
      try {
        c.program = build_program(r);
        infer_type(c.program);
        apply_history(c.program, c.history, rules_);
      } catch (const Error&) {
        continue;
      }
      c.input_types = constant_input_types(r, c.program);
      c.baked_sizes = r.size_mode == 2 ? size_values(r) : std::map<std::string, int64_t>{};
      if (still_fails(c)) {
        best = c;
        progress = true;
        break;
      }
    }
  }
  if (options_.verbose)
    std::cout << "shrinking took " << attempts << " runs, " << seconds_since(t0) << " s\n";
  return best;
}

} // namespace tessera::fuzz
