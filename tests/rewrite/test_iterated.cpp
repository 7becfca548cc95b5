// Variants of iterated stencils (stencils::iterated_stencil: one step applied k times): the
// 3-D 7-point Jacobi step twice and the 2-D 5-point step 2, 3 and 4 times, enumerated to depth
// 6 and lowered to executable variants. Every variant type-checks; a seeded sample of 200 (and
// the baseline, always) generates kernels that build on PoCL and match the interpreter on the
// original program.
//
// The space to depth 6 is far too big to enumerate completely (with the exploration rules and
// tiles {2, 4}: about 30,000 high-level variants to depth 4 for j2d5pt x2, 100,000 for j3d7pt
// x2, 150,000 for j2d5pt x3, over 300,000 for x4), so the enumerator samples its frontier: at
// every depth only kFrontier of the new variants (a sample drawn with the seed) are rewritten
// further. The message gives the real counts per depth and what was cut.
//
// PoCL builds kernels one at a time within a process (about 0.1-0.4 s each on a cold kernel
// cache), and two processes build twice as many: each case starts a copy of this test binary
// that checks every other kernel of the sample while this process checks the others.
//
//   TESSERA_VARIANT_SEED=N       another seed (default 1): another frontier and another sample
//   TESSERA_VARIANT_SAMPLE=N     kernels checked per program (default 200)
//   TESSERA_VARIANT_PROCESSES=1  check the whole sample in this process
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "codegen/Program.h"
#include "compile/ExecutableVariants.h"
#include "core/Error.h"
#include "core/Json.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "core/Substitute.h"
#include "primitives/Interpreter.h"
#include "primitives/TypeCheck.h"
#include "rewrite/Enumerate.h"
#include "rewrite/Lower.h"
#include "rewrite/Pattern.h"
#include "rewrite/Variants.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Iterated.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;

namespace {

constexpr int kDepth = 6;
constexpr std::size_t kFrontier = 6;

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

uint32_t variant_seed() {
  const char* env = std::getenv("TESSERA_VARIANT_SEED");
  return env ? static_cast<uint32_t>(std::strtoul(env, nullptr, 10)) : 1;
}

// In the helper process: the file with the variants it checks.
const char* helper_file() {
  return std::getenv("TESSERA_ITERATED_HELPER");
}

bool helper_wanted() {
  const char* processes = std::getenv("TESSERA_VARIANT_PROCESSES");
  return !helper_file() && !(processes && std::strtoul(processes, nullptr, 10) < 2);
}

// Starts this test binary on the test case `name` as a helper process that checks the
// variants saved in `file`; -1 when it could not be started.
pid_t start_helper(const std::string& name, const std::string& file) {
  std::string exe = "/proc/self/exe", filter = "--test-case=" + name, minimal = "--minimal=true";
  std::vector<char*> argv{exe.data(), filter.data(), minimal.data(), nullptr};
  std::string helper = "TESSERA_ITERATED_HELPER=" + file;
  std::vector<char*> envp;
  for (char** e = environ; *e; ++e)
    envp.push_back(*e);
  envp.push_back(helper.data());
  envp.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv.data(), envp.data()) != 0)
    return -1;
  return pid;
}

std::size_t sample_size() {
  const char* env = std::getenv("TESSERA_VARIANT_SAMPLE");
  return env ? static_cast<std::size_t>(std::strtoul(env, nullptr, 10)) : 200;
}

rewrite::EnumerateOptions depth6_options(uint32_t seed) {
  rewrite::EnumerateOptions options;
  options.depth = kDepth;
  options.tile_sizes = {2, 4};
  options.frontier_limit = kFrontier;
  options.seed = seed;
  options.threads = 0; // code generation of the candidates on every core
  return options;
}

// Whether `node` is a descendant of e.
bool mentions_node(const Expr& e, const Node* node) {
  for (const auto& c : e->children)
    if (c.get() == node || mentions_node(c, node))
      return true;
  return false;
}

bool uses(const rewrite::Variant& v, const std::string& rule) {
  for (const auto& s : v.history)
    if (s.rule == rule)
      return true;
  return false;
}

std::string derivation(const rewrite::Variant& v) {
  std::string s;
  for (const auto& step : v.history)
    s += "\n  " + rewrite::describe(step);
  return s;
}

struct KernelChecks {
  int passed = 0;
  int fused = 0;
  std::map<std::string, int> mappings;
  double codegen_s = 0;
};

// Generates, runs and compares the kernel of each variant with the expected result.
KernelChecks check_kernels(const std::vector<rewrite::Variant>& variants,
                           const std::vector<Data>& inputs, const Data& expected) {
  KernelChecks out;
  std::vector<codegen::KernelProgram> kernels;
  auto t = Clock::now();
  for (const auto& v : variants)
    kernels.push_back(codegen::generate_program(v.program));
  out.codegen_s = since(t);
  testing::build_together(kernels);
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const auto& v = variants[i];
    CAPTURE(i);
    INFO("derivation:" << derivation(v));
    INFO("program: " << print(v.program));
    const codegen::KernelProgram& kernel = kernels[i];
    INFO("kernels:\n" << kernel.describe());
    auto run = explore::execute(testing::test_session(), kernel, inputs);
    double error = explore::max_relative_error(run.output, expected);
    CHECK(error <= 1e-5);
    out.passed += error <= 1e-5;
    if (v.mapping)
      ++out.mappings[rewrite::describe(*v.mapping)];
    out.fused += uses(v, "temporal-tiling");
  }
  return out;
}

// Saves variants (programs and derivations) for the helper process, and loads them there.
void save_variants(const std::vector<rewrite::Variant>& variants, const std::string& path) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& v : variants)
    all.push_back(rewrite::to_json(v));
  std::ofstream(path) << all.dump();
}

std::vector<rewrite::Variant> load_variants(const std::string& path) {
  std::ifstream in(path);
  nlohmann::json all = nlohmann::json::parse(in);
  std::vector<rewrite::Variant> variants;
  for (const auto& j : all)
    variants.push_back(rewrite::variant_from_json(j));
  return variants;
}

void check_iterated(const std::string& test_name, const std::string& stencil,
                    const std::vector<ArithExpr>& extents, int steps) {
  uint32_t seed = variant_seed();
  CAPTURE(stencil);
  CAPTURE(steps);
  CAPTURE(seed);
  Expr program = stencils::iterated_stencil(stencil, extents, steps);
  auto inputs = random_inputs(program, seed);
  Data expected = evaluate(program, inputs);
  if (helper_file()) { // the helper process: the kernels of the saved variants only
    check_kernels(load_variants(helper_file()), inputs, expected);
    return;
  }
  bool any_nonzero = false;
  for (double x : expected.flatten())
    any_nonzero |= x != 0;
  REQUIRE(any_nonzero);
  Type type = infer_type(program);

  auto start = Clock::now();
  auto lowered = explore::executable_variants(program, depth6_options(seed));
  double lowering_s = since(start);
  const auto& variants = lowered.variants;
  MESSAGE(stencil << " x" << steps << ", depth " << kDepth << ", frontier " << kFrontier
                  << ", seed " << seed << ": " << lowered.summary());
  REQUIRE(variants.size() > 1);
  CHECK(lowered.stats.depth_reached == kDepth);
  CHECK(lowered.stats.ill_typed == 0);
  CHECK(lowered.not_lowered == 0);
  CHECK(lowered.not_generated == 0);
  // The baseline is the default lowering of the program.
  CHECK(variants[0].history.empty());
  CHECK(variants[0].mapping == rewrite::Mapping{rewrite::MappingKind::Global});
  CHECK(variants[0].after_mapping.empty());

  // Every variant type-checks, with the program's type.
  auto typing = Clock::now();
  std::size_t typed = 0;
  for (const auto& v : variants) {
    try {
      if (infer_type(v.program) == type)
        ++typed;
      else
        FAIL_CHECK("variant of another type: " << infer_type(v.program).to_string()
                                               << derivation(v));
    } catch (const Error& e) {
      FAIL_CHECK("variant does not type-check: " << e.what() << derivation(v));
    }
  }
  CHECK(typed == variants.size());
  double typing_s = since(typing);

  // A seeded sample of kernels (the baseline always) against the interpreter on the original.
  std::vector<std::size_t> order(variants.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::mt19937 rng(seed);
  std::shuffle(order.begin() + 1, order.end(), rng);
  order.resize(std::min(order.size(), std::max<std::size_t>(1, sample_size())));
  // With a helper process, this one checks the even positions of the sample (the baseline among
  // them) and the helper the odd ones, saved to a file that must load back unchanged.
  std::vector<rewrite::Variant> mine, theirs;
  for (std::size_t at = 0; at < order.size(); ++at)
    (helper_wanted() && at % 2 ? theirs : mine).push_back(variants[order[at]]);
  pid_t helper = -1;
  std::string file = (std::filesystem::temp_directory_path() /
                      cat("tessera-iterated-", getpid(), "-", stencil, "-", steps, ".json"))
                         .string();
  if (!theirs.empty()) {
    save_variants(theirs, file);
    auto loaded = load_variants(file);
    bool same = loaded.size() == theirs.size();
    for (std::size_t i = 0; same && i < loaded.size(); ++i)
      same = structurally_equal(loaded[i].program, theirs[i].program);
    CHECK_MESSAGE(same, "the saved variants do not load back unchanged: checked here instead");
    if (same)
      helper = start_helper(test_name, file);
    if (helper < 0) {
      mine.insert(mine.end(), theirs.begin(), theirs.end());
      theirs.clear();
    }
  }

  auto running = Clock::now();
  KernelChecks checks = check_kernels(mine, inputs, expected);
  double kernels_s = since(running);
  std::string helper_result;
  if (helper >= 0) {
    int status = 0;
    bool ok =
        waitpid(helper, &status, 0) == helper && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    CHECK_MESSAGE(ok, "the helper process checking the other half of the sample failed (its "
                      "failures are printed above)");
    helper_result = cat("; the other ", theirs.size(),
                        " checked by a helper process: ", ok ? "all match" : "FAILED", " (waited ",
                        since(running) - kernels_s, " s more)");
  }
  std::filesystem::remove(file);
  std::string by_mapping;
  for (const auto& [name, count] : checks.mappings)
    by_mapping += cat(by_mapping.empty() ? "" : ", ", count, " ", name);
  MESSAGE(stencil << " x" << steps << ": " << checks.passed << " of " << mine.size()
                  << " sampled kernels match here (" << by_mapping << "; " << checks.fused
                  << " temporally tiled)" << helper_result << "; enumeration and lowering "
                  << lowering_s << " s, type checks " << typing_s << " s, kernels " << kernels_s
                  << " s (code generation " << checks.codegen_s << " s, the rest PoCL)");
}

// SUITE: "kernel-sweeps" (the sanitizer build leaves it out, tests/main.cpp) or "extended"
// (CMakeLists.txt: 3-D, and three and four steps, repeat what 2-D and two steps check).
#define ITERATED_CASE(NAME, SUITE, ...)                                                            \
  TEST_CASE(NAME* doctest::test_suite(SUITE)) {                                                    \
    check_iterated(NAME, __VA_ARGS__);                                                             \
  }

} // namespace

ITERATED_CASE("iterated j3d7pt x2: executable variants to depth 6 type-check and run on PoCL",
              "extended", "j3d7pt", {8, 8, 8}, 2)

ITERATED_CASE("iterated j2d5pt x2: executable variants to depth 6 type-check and run on PoCL",
              "kernel-sweeps", "j2d5pt", {16, 16}, 2)

ITERATED_CASE("iterated j2d5pt x3: executable variants to depth 6 type-check and run on PoCL",
              "extended", "j2d5pt", {16, 16}, 3)

ITERATED_CASE("iterated j2d5pt x4: executable variants to depth 6 type-check and run on PoCL",
              "extended", "j2d5pt", {16, 16}, 4)

TEST_CASE("the default lowering of an iterated stencil is one launch per step that matches") {
  // Every step is mapped to global work-items and is a launch of its own (one kernel has no
  // global barrier between steps); the intermediates live in buffers between the launches.
  for (int steps : {2, 3, 4}) {
    CAPTURE(steps);
    Expr program = stencils::iterated_stencil("j2d5pt", {16, 16}, steps);
    Expr lowered = rewrite::lower_default(program);
    std::string text = print(lowered);
    std::size_t glb = 0;
    for (std::size_t at = text.find("MapGlb(1)(MapGlb(0)"); at != std::string::npos;
         at = text.find("MapGlb(1)(MapGlb(0)", at + 1))
      ++glb;
    CHECK(glb == static_cast<std::size_t>(steps));
    CHECK(text.find("MapSeq(MapSeq(") == std::string::npos);
    auto kernels = testing::check_program(lowered, random_inputs(program, 5), {}, 1e-5);
    CHECK(kernels.launches.size() == static_cast<std::size_t>(steps));
    CHECK(kernels.buffers.size() <= 2);
  }
  Expr program = stencils::iterated_stencil("j3d7pt", {8, 8, 8}, 2);
  testing::check_program(rewrite::lower_default(program), random_inputs(program, 6), {}, 1e-5);
}

TEST_CASE("every high-level variant of an iterated stencil is lowered, whichever step it rewrote") {
  // Rewrites of an earlier step (tiling it, say) leave the last step's computation untiled: the
  // variant gets the default mapping (a launch per step). Mapping strategies belong to the
  // computing call only.
  Expr program = stencils::iterated_stencil("j2d5pt", {16, 16}, 2);
  rewrite::EnumerateOptions options;
  options.depth = 1;
  options.tile_sizes = {2, 4};
  auto high = rewrite::enumerate(program, rewrite::exploration_rules(), options);
  auto lowered = explore::executable_variants(program, options);
  std::set<std::string> lowered_derivations;
  for (const auto& v : lowered.variants) {
    CHECK(v.mapping); // beside the rewrite steps, not one of them
    lowered_derivations.insert(derivation(v));
  }
  // The first step: the computing call under the second step's neighbourhoods.
  const Expr& original = high.variants[0].program;
  Expr first = rewrite::arg0(original->body());
  while (!(first->kind == NodeKind::Call && first->callee()->kind == NodeKind::Map &&
           !is_layout_only(first->callee())))
    first = rewrite::arg0(first);
  auto inside_first = [&](const rewrite::Variant& v) {
    if (v.history.empty())
      return false;
    Expr node = rewrite::node_at(original, v.history[0].position);
    return node.same_as(first) || mentions_node(first, node.get());
  };
  int earlier_step = 0;
  for (const auto& v : high.variants) {
    CAPTURE(derivation(v));
    CHECK(lowered_derivations.count(derivation(v)) == 1);
    earlier_step += inside_first(v);
  }
  CHECK(earlier_step > 0);
  // The lowered variants of those earlier-step rewrites run.
  auto inputs = random_inputs(program, 7);
  int checked = 0;
  for (const auto& v : lowered.variants)
    if (v.history.size() == 1 && v.history[0].rule == "tile-nd" && inside_first(v) && checked < 3) {
      CAPTURE(derivation(v));
      testing::check_program(v.program, inputs, {}, 1e-5);
      ++checked;
    }
  CHECK(checked > 0);
}

TEST_CASE("the enumerator reports why branches were cut") {
  Expr program = stencils::iterated_stencil("j2d5pt", {16, 16}, 2);
  const auto rules = rewrite::exploration_rules();
  rewrite::EnumerateOptions options;
  options.tile_sizes = {2, 4};

  SUBCASE("the variant limit") {
    options.depth = 6;
    options.limit = 100;
    auto e = rewrite::enumerate(program, rules, options);
    CHECK(e.variants.size() == 100);
    CHECK(e.stats.stop == StopReason::Limit);
    CHECK(e.stats.depth_reached == 2);
    CHECK(e.stats.summary().find("stopped at the variant limit during depth 2") !=
          std::string::npos);
  }
  SUBCASE("the deadline") {
    options.depth = 6;
    options.deadline_seconds = 1e-9;
    auto e = rewrite::enumerate(program, rules, options);
    CHECK(e.stats.stop == StopReason::Deadline);
    CHECK(e.stats.depth_reached < 6);
    CHECK(e.stats.summary().find("deadline") != std::string::npos);
    auto lowered = explore::executable_variants(program, options);
    CHECK(lowered.not_lowered + lowered.not_generated > 0); // the program itself is lowered
    CHECK(lowered.summary().find("deadline: ") != std::string::npos);
  }
  SUBCASE("the progress callback: phases in order, and false stops like the deadline") {
    options.depth = 2;
    std::vector<std::string> phases;
    options.on_progress = [&](const rewrite::EnumerationProgress& p) {
      if (phases.empty() || phases.back() != p.phase)
        phases.push_back(p.phase);
      return true;
    };
    auto all = explore::executable_variants(program, options);
    CHECK(phases.front() == "depth 1");
    CHECK(std::find(phases.begin(), phases.end(), "depth 2") != phases.end());
    CHECK(std::find(phases.begin(), phases.end(), "lowering") != phases.end());
    CHECK(phases.back() == "generating kernels");
    int calls = 0;
    options.on_progress = [&](const rewrite::EnumerationProgress&) { return ++calls < 3; };
    auto stopped = explore::executable_variants(program, options);
    CHECK(stopped.stats.stop == StopReason::Interrupted);
    CHECK(stopped.variants.size() < all.variants.size());
  }
  SUBCASE("a sampled frontier, the same for the same seed") {
    options.depth = 4;
    options.frontier_limit = 5;
    auto a = rewrite::enumerate(program, rules, options);
    auto b = rewrite::enumerate(program, rules, options);
    CHECK(a.stats.depth_reached == 4);
    CHECK(a.stats.not_expanded > 0);
    CHECK(a.stats.per_depth.size() == 5);
    std::size_t sum = 0;
    for (auto n : a.stats.per_depth)
      sum += n;
    CHECK(sum == a.variants.size());
    REQUIRE(a.variants.size() == b.variants.size());
    for (std::size_t i = 0; i < a.variants.size(); ++i)
      CHECK(structurally_equal(a.variants[i].program, b.variants[i].program));
    options.seed = 2;
    auto c = rewrite::enumerate(program, rules, options);
    bool same = a.variants.size() == c.variants.size();
    for (std::size_t i = 0; same && i < a.variants.size(); ++i)
      same = structurally_equal(a.variants[i].program, c.variants[i].program);
    CHECK_FALSE(same);
  }
  SUBCASE("the complete space without cuts: per-depth counts, no new variants") {
    options.depth = 6;
    std::vector<rewrite::Rule> fusion;
    for (const auto& r : rules)
      if (r.name == "map-fusion")
        fusion.push_back(r);
    auto e = rewrite::enumerate(program, fusion, options);
    CHECK(e.stats.exhausted);
    CHECK(e.stats.stop == StopReason::None);
    CHECK(e.stats.per_depth.back() == 0);
    CHECK(e.stats.per_depth.size() == static_cast<std::size_t>(e.stats.depth_reached) + 1);
    CHECK(e.stats.summary().find("no new variants past depth") != std::string::npos);
  }
}
