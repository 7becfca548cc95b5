// The fuzzer's program generator and case machinery: programs are well-typed and
// deterministic, cover every primitive and rule, and reproducers round-trip.
#include <doctest/doctest.h>

#include <set>

#include "core/Error.h"
#include "core/Json.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "primitives/Interpreter.h"
#include "primitives/TypeCheck.h"
#include "rewrite/Lower.h"
#include "rewrite/rules/Rules.h"
#include "tests/fuzz/DiffFuzz.h"
#include "tests/fuzz/FuzzProgram.h"
#include "tests/fuzz/RecipeKinds.h"

using namespace tessera;

TEST_CASE("fuzz: random recipes build well-typed programs that the interpreter evaluates") {
  std::mt19937 rng(7);
  int built = 0, ill_typed = 0;
  std::map<std::string, std::size_t> kinds;
  std::set<std::string> scalar_kinds;
  for (int i = 0; i < 400; ++i) {
    fuzz::Recipe r = fuzz::random_recipe(rng);
    Expr p;
    try {
      p = fuzz::build_program(r);
      infer_type(p);
    } catch (const Error& e) {
      ++ill_typed;
      MESSAGE("recipe " << r.describe() << " is ill-typed: " << std::string(e.what()));
      continue;
    }
    ++built;
    fuzz::count_kinds(p, kinds);
    for (auto k : r.kinds)
      scalar_kinds.insert(to_string(k));
    if (i % 20 == 0 && r.size_mode == 0) { // the interpreter evaluates a sample
      // The recipe's inputs, and the weights input of weighted_sum where there is one.
      std::vector<Data> inputs = random_inputs(p, static_cast<uint32_t>(i));
      CAPTURE(r.describe());
      CAPTURE(print(p));
      CHECK_NOTHROW(evaluate(p, inputs));
    }
  }
  CHECK(ill_typed * 50 < built); // under 2%
  for (const char* k : {"Map", "Reduce", "Zip", "Split", "Join", "Slide", "Pad clamp", "Pad mirror",
                        "Pad wrap", "Pad constant", "Pad antisymmetric", "Drop", "Transpose",
                        "Iterate", "At", "Get", "Generate", "UserFun", "Lambda"}) {
    CAPTURE(k);
    CHECK(kinds[k] > 0);
  }
  CHECK(scalar_kinds == std::set<std::string>{"f32", "f64", "i32"});
}

TEST_CASE("fuzz: recipes and cases are deterministic") {
  std::mt19937 a(11), b(11);
  for (int i = 0; i < 30; ++i) {
    auto ra = fuzz::random_recipe(a), rb = fuzz::random_recipe(b);
    CHECK(ra.to_json() == rb.to_json());
    auto text = [](const fuzz::Recipe& r) {
      try {
        return save_expr(fuzz::build_program(r));
      } catch (const Error& e) {
        return std::string(e.what());
      }
    };
    CHECK(text(ra) == text(rb));
  }
}

TEST_CASE("fuzz: every rule of the catalog fires on some random program") {
  auto rules = rewrite::all_rules();
  std::set<std::string> fired;
  std::mt19937 rng(3);
  for (int i = 0; i < 300 && fired.size() < rules.size(); ++i) {
    Expr p;
    try {
      p = fuzz::build_program(fuzz::random_recipe(rng));
    } catch (const Error&) {
      continue;
    }
    TypeChecker types;
    types.apply(p, input_types(p));
    rewrite::RuleContext ctx = fuzz::fuzz_rule_context();
    ctx.types = &types;
    std::function<void(const Expr&, bool, bool)> walk = [&](const Expr& e, bool inside, bool root) {
      ctx.inside_function = inside;
      for (const auto& r : rules) {
        try {
          if (!r.apply(e, ctx).alternatives.empty())
            fired.insert(r.name);
        } catch (const Error&) {
        }
      }
      for (const auto& c : e->children)
        walk(c, inside || (e->is_function() && !root), false);
    };
    walk(p, false, true);
    // Rules of lowered programs (glb-order) fire on the default lowering.
    Expr lowered = rewrite::lower_default(p);
    TypeChecker lowered_types;
    lowered_types.apply(lowered, input_types(lowered));
    ctx.types = &lowered_types;
    walk(lowered, false, true);
  }
  // Diamond, parallelogram and rolling tiling replace a whole program of k steps over its input
  // with constant sizes, which the generator's recipes do not build; tests/codegen/
  // test_time_tiling.cpp checks them on every boundary, radius and k (tests/rewrite/test_rules.cpp
  // on random programs of several steps).
  const std::set<std::string> whole_program_rules = {"diamond-tiling", "parallelogram-tiling",
                                                     "rolling-tiling"};
  for (const auto& r : rules) {
    CAPTURE(r.name);
    if (!whole_program_rules.count(r.name))
      CHECK(fired.count(r.name) == 1);
  }
}

TEST_CASE("fuzz: a reproducer round-trips through JSON and replays its history") {
  fuzz::FuzzOptions options;
  options.seed = 5;
  // make_case needs no device: a session is only used by run().
  std::mt19937 rng(5);
  fuzz::CaseSpec spec;
  spec.program = fuzz::build_program(fuzz::random_recipe(rng));
  spec.history = {};
  spec.input_types = input_types(spec.program);
  auto j = fuzz::Fuzzer::reproducer(spec, {});
  auto back = fuzz::Fuzzer::spec_from_reproducer(nlohmann::json::parse(j.dump()));
  CHECK(save_expr(back.program) == save_expr(spec.program));
  CHECK(back.input_types.size() == spec.input_types.size());
  CHECK(fuzz::normalize_reason("Split(4) of [f32]_10 [at x.cpp:3]") == "Split(N) of [fN]_N");
}

TEST_CASE("fuzz: a reproducer names its variant by steps and mapping; version 1 converts") {
  std::mt19937 rng(6);
  fuzz::CaseSpec spec;
  spec.program = fuzz::build_program(fuzz::random_recipe(rng));
  spec.input_types = input_types(spec.program);
  spec.lowering = "variant";
  rewrite::Mapping groups{rewrite::MappingKind::WorkGroups};
  groups.dims = 1;
  spec.variant = {Expr(), {{"split-join", {1}, {{"chunk", 4}}}}, groups, {}};
  nlohmann::json j = fuzz::Fuzzer::reproducer(spec, {});
  CHECK(j["version"] == 2);
  CHECK(j["variant_mapping"] == nlohmann::json{{"kind", "work-groups"}, {"dims", 1}});
  auto back = fuzz::Fuzzer::spec_from_reproducer(nlohmann::json::parse(j.dump()));
  CHECK(back.variant.history == spec.variant.history);
  CHECK(back.variant.mapping == spec.variant.mapping);
  CHECK(back.variant.after_mapping.empty());
  // Version 1: the mapping a step of variant_steps (its dimensions were not recorded).
  j["version"] = 1;
  j.erase("variant_mapping");
  j.erase("variant_after_mapping");
  j["variant_steps"].push_back({{"rule", "mapping: work-groups"},
                                {"position", nlohmann::json::array()},
                                {"params", nlohmann::json::object()}});
  auto old = fuzz::Fuzzer::spec_from_reproducer(j);
  CHECK(old.variant.history == spec.variant.history);
  REQUIRE(old.variant.mapping);
  CHECK(old.variant.mapping->kind == rewrite::MappingKind::WorkGroups);
  CHECK(old.variant.mapping->dims == 0);
  j["version"] = 3;
  CHECK_THROWS_WITH_AS(fuzz::Fuzzer::spec_from_reproducer(j),
                       "tessera_fuzz reproducer version 3 is not supported (this build reads "
                       "versions 1 and 2)",
                       Error);
}

// The new notation (inline arithmetic on values, weighted_sum with constant or input weights)
// in random programs: they build, and their kernels match the interpreter on PoCL.
TEST_CASE("fuzz: the new-notation window functions build and run through the pipeline") {
  runtime::Session session = runtime::Session::from_env();
  fuzz::FuzzOptions options;
  options.max_steps = 2;
  fuzz::Fuzzer fuzzer(session, options);
  std::map<int, int> passed;
  int failed = 0;
  auto done = [&] {
    return passed[fuzz::WindowInline] >= 4 && passed[fuzz::WindowWeightedConstant] >= 4 &&
           passed[fuzz::WindowWeightedInput] >= 4;
  };
  for (uint64_t index = 0; index < 400 && !done(); ++index) {
    fuzz::CaseSpec spec = fuzzer.make_case(index);
    int family = spec.recipe.window_fn;
    if (family < fuzz::kClassicWindowFunctions || passed[family] >= 4)
      continue;
    fuzz::Outcome outcome = fuzzer.run(spec);
    CAPTURE(spec.recipe.describe());
    CAPTURE(outcome.message);
    CHECK(outcome.status != fuzz::Outcome::Failure);
    failed += outcome.status == fuzz::Outcome::Failure;
    if (outcome.status == fuzz::Outcome::Pass)
      ++passed[family];
  }
  CHECK(failed == 0);
  for (int family : {fuzz::WindowInline, fuzz::WindowWeightedConstant, fuzz::WindowWeightedInput}) {
    CAPTURE(family);
    CHECK(passed[family] >= 2);
  }
}
