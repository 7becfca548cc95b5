// Differential fuzzing of the whole pipeline: a random program (FuzzProgram.h), a random
// sequence of 0-4 rewrites from the rule catalog at positions where they fire, a lowering (the
// default one, or one of rewrite::lowered_variants' mappings), code generation, and a run on an
// OpenCL device (PoCL) compared with the reference interpreter on the original program.
//
// Each stage is checked on its own, so that a failure names the culprit:
//   rewrite     a rule produced an ill-typed program, or one that the interpreter evaluates
//               differently (bit-exact comparison)
//   lowering    the lowering produced an ill-typed or different program
//   codegen     the code generator failed with anything but a tessera::Error
//   device      the generated kernel did not build or run
//   compare     the kernel's result differs from the interpreter's (f32/f64: relative 1e-5 of
//               max(1, |reference|); i32: exact)
// A tessera::Error from the code generator (or the lowering) is a rejection, not a failure.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rewrite/Rule.h"
#include "runtime/Session.h"
#include "tests/fuzz/FuzzProgram.h"

namespace tessera::fuzz {

// Everything that determines one case; replayable from its JSON form.
struct CaseSpec {
  uint64_t seed = 1;
  uint64_t index = 0;
  Recipe recipe;
  Expr program; // built from the recipe, or loaded from a reproducer
  std::vector<rewrite::Step> history;
  // The lowering: "default" (rewrite::lower_default), "variant" (one of
  // rewrite::lowered_variants(rewritten, depth 1, tiles {2, 4}), identified by its own steps;
  // the default lowering when there is none) or "none" (the program is already lowered).
  std::string lowering = "default";
  // The variant's derivation (its program unset): history, mapping and steps after it.
  rewrite::Variant variant;
  uint32_t variant_pick = 0; // which variant when `variant` has no mapping
  bool split_interior = true;
  std::vector<Type> input_types;              // constant types of the inputs
  std::map<std::string, int64_t> baked_sizes; // CodegenOptions::baked_sizes
  uint32_t input_seed = 1;
};

struct Outcome {
  enum Status { Pass, Rejected, Failure } status = Pass;
  std::string stage;   // where it was rejected or failed
  std::string message; // the error, or what differed
  Expr rewritten, lowered;
  rewrite::Variant variant; // the chosen variant (its derivation; no mapping: none chosen)
  std::string kernel_source;
  double max_error = 0;
  double seconds = 0;
  double device_seconds = 0;
};

struct FuzzOptions {
  uint64_t cases = 300;
  uint64_t seed = 1;
  uint64_t first = 0; // index of the first case (cases are independent: replays case `first`)
  double minutes = 0; // 0: no time limit
  std::string out_dir = "fuzz-failures";
  int max_failures = 5; // stop after this many failures
  bool shrink = true;
  bool verbose = false;
  int max_steps = 4; // rewrites per case: 0..max_steps
  // Census: every stage up to code generation, no kernel run (how many cases are rejected,
  // and why, in a fraction of the time). "passed" then means "generated".
  bool census = false;
};

class Fuzzer {
public:
  Fuzzer(runtime::Session& session, FuzzOptions options);

  // A random case: the recipe and the rewrites (the lowering choice is part of the spec).
  CaseSpec make_case(uint64_t index);
  // Runs every stage of a case.
  Outcome run(const CaseSpec& spec);
  // A smaller case that fails at the same stage (history, lowering and recipe shrunk).
  CaseSpec shrink(const CaseSpec& spec, const Outcome& failure);
  // Runs the whole campaign and prints a summary; returns the number of failures.
  int campaign();

  static nlohmann::json reproducer(const CaseSpec& spec, const Outcome& outcome);
  static CaseSpec spec_from_reproducer(const nlohmann::json& j);

private:
  runtime::Session& session_;
  FuzzOptions options_;
  std::vector<rewrite::Rule> rules_;
};

// Applies a history to a program: rewrite::replay in the fuzzer's rule context (positions and
// parameters as recorded, checked against the rules' declarations; the context of each
// position, inside a function or not, is recomputed). Throws Error when a step does not apply.
Expr apply_history(const Expr& program, const std::vector<rewrite::Step>& history,
                   const std::vector<rewrite::Rule>& rules);

// The shared rule context (tile sizes etc.) used for random rewrites and their replay.
rewrite::RuleContext fuzz_rule_context();

// "reason with numbers replaced by N", for grouping rejection messages.
std::string normalize_reason(const std::string& message);

} // namespace tessera::fuzz
