// Rewrite rules as values.
//
// A rule has a name and a function from a node (and its context: types, the enclosing
// mapping) to the alternatives it can be rewritten to, each with the parameters chosen (tile
// sizes from their domain, dimensions). When it does not apply it says why, so the enumerator
// can report why branches were cut. Every rule preserves the semantics; tests check that on
// random programs with the interpreter.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/Expr.h"
#include "core/Target.h"
#include "primitives/TypeCheck.h"
#include "rewrite/Mapping.h"

namespace tessera::rewrite {

// Where a node sits: the child indices from the program's root (stable, unlike visit order).
using Position = std::vector<int>;

// Named integer parameters of one rule application, e.g. {"tile": 64}.
using Params = std::map<std::string, int64_t>;

struct Alternative {
  Expr replacement;
  Params params;
};

// What a rule sees besides the node: the program's types and the parameter domains.
struct RuleContext {
  TypeChecker* types = nullptr;        // types of the program's value expressions
  std::vector<int64_t> tile_sizes;     // candidate tile/chunk sizes (filtered by divisibility)
  std::vector<int64_t> coarsening;     // candidate thread-coarsening factors
  std::vector<int64_t> temporal_steps; // candidate numbers of fused time steps
  std::vector<int64_t> row_blocking;   // candidate results along y of a 2.5-D march (stream-nd)
  int64_t plane_sums_min_points = 28;  // EnumerateOptions::plane_sums_min_points
  // True when the node is inside a function (a map body): rewrites there cannot split the
  // program into computations that need a global barrier between them.
  bool inside_function = false;
  // True when the node is known to lie below the program's body (position deeper than [1]):
  // a rule that rewrites a whole program of kernels (time tiling) does not apply there.
  bool below_program_body = false;
  // The device's limits (constant memory, images, local memory, registers, private arrays);
  // the portable target when no device is in sight.
  Target target;
  // The type of a value expression of the program (Error if it has none).
  const Type& type_of(const Expr& e) const { return types->type_of(e); }
};

struct RuleResult {
  std::vector<Alternative> alternatives;
  std::string why_not; // set when there are no alternatives
  static RuleResult none(std::string why) { return {{}, std::move(why)}; }
};

// What the mapping stage (rewrite/Variants.h), which completes high-level variants into
// executable ones, needs to know of a rule's steps: the rule declares it, so that the stage
// knows no rule by name. Empty functions: the rule's steps say nothing to it.
struct MappingTraits {
  // A step that tiles the computing map: how many of its dimensions (from the step's
  // parameters). The stage offers the work-group, local-memory and coarsened-tile mappings for
  // each number of tiled dimensions of a derivation.
  std::function<int(const Params&)> tiled_dims;
  // A step that streams the computing map (its result transposed back): the streaming mapping.
  std::function<Mapping(const Params&)> streaming;
  // A rule that completes a whole program at its root (vectorize-4, coarsen-nd, placements):
  // the mapping of an alternative, from its parameters. `on_plain_lowering`: the rule applies
  // to the default lowering (a placement of an input), not to the high-level program.
  std::function<Mapping(const Params&)> completes;
  bool on_plain_lowering = false;
};

// A parameter a rule declares: its name and the values its alternatives may give it, fixed
// (`values`), one of the context's candidate lists, a candidate tile size times one of the
// factors in `values` (a 2-D tile 4x a candidate), or a count the program decides (an input's
// index, a number of array levels: any non-negative value). An optional parameter may be absent
// from an alternative (stream-nd's "segment"). A strategy that asks for an alternative by its
// parameters (rule(r, params), rewrite_with) is checked against the declaration.
struct ParamDomain {
  enum class Source {
    Fixed,
    TileSizes,
    TileSizeMultiple,
    Coarsening,
    TemporalSteps,
    RowBlocking,
    ProgramCount
  };
  std::string name;
  std::vector<int64_t> values; // Source::Fixed: the values; TileSizeMultiple: the factors
  Source source = Source::Fixed;
  bool optional = false;
};

// Whether `value` is in the domain in a context.
bool in_domain(const ParamDomain& domain, int64_t value, const RuleContext& context);

struct Rule {
  std::string name;        // kebab-case, e.g. "split-join"
  std::string description; // one line, with the equation
  std::function<RuleResult(const Expr& node, const RuleContext& context)> apply;
  MappingTraits mapping;
  // The parameters of its alternatives; empty: the rule has none (replay refuses a step of it
  // that has some).
  std::vector<ParamDomain> params;
  // False for a rule that decides from the node's form alone: it applies without the program's
  // types, to a fragment (a function being lowered) as well as to a whole program.
  bool reads_types = true;
  // The family of optimisation a step of this rule makes a variant ("tiled", "temporal", ...;
  // explore/Family.h), empty: none. Reports group variants by it without naming rules.
  std::string family = {};
  // The kinds of node the rule applies to (or explains why not): the enumerator tries it only
  // there. Empty: every kind. tests/rewrite/test_rule_kinds.cpp checks the declarations.
  std::vector<NodeKind> node_kinds = {};
  bool applies_to(NodeKind kind) const;
};

// The rule with the node kinds it applies to declared.
Rule at_kinds(Rule rule, std::vector<NodeKind> kinds);

// The rule with its family declared.
Rule with_family(Rule rule, std::string family);

// Error naming the rule when `params` has a parameter the rule does not declare, lacks one it
// requires, or has a value outside its domain. (A rule that declares none is not checked here;
// replay refuses a step of it with parameters.)
void check_params(const Rule& rule, const Params& params, const RuleContext& context);

// One step of a derivation: which rule, where, with which parameters.
struct Step {
  std::string rule;
  Position position;
  Params params;
  bool operator==(const Step&) const = default;
};

// A program and its derivation. A lowered variant (lowered_variants) also records the mapping
// that made it executable, and the rules applied to the mapped program (glb-order).
struct Variant {
  Expr program;
  std::vector<Step> history; // rewrite steps (before the mapping)
  std::optional<Mapping> mapping;
  std::vector<Step> after_mapping;
};

std::string describe(const Step& step); // "split-join at [1,0] {chunk=4}"
// describe's inverse (also of a bare rule name, and of a step whose position was left out), for
// files that keep a history as text (rewrite/StepText.cpp). Error naming `where` for other text.
Step parse_step(const std::string& text, const std::string& where);
nlohmann::json to_json(const Variant& variant);        // the program, its history and mapping
Variant variant_from_json(const nlohmann::json& json); // to_json's inverse (Error if malformed)
// Replays a history on the original program: each step's parameters are read and checked
// against its rule's declaration (Rule::params; Error naming the rule and the parameter when
// one is unknown, missing or outside its domain), and the values a declaration draws from a
// candidate list are added to that list of `context`, so that any context replays a history.
// Throws Error when a step no longer applies.
Expr replay(const Expr& program, const std::vector<Step>& history, const std::vector<Rule>& rules,
            const RuleContext& context);

// Visits every node of `program` in pre-order with its position and whether it lies inside a
// function other than the program itself (a map body, say).
void for_each_node(
    const Expr& program,
    const std::function<void(const Expr& node, const Position& at, bool inside_function)>& visit);

// Whether the node at `position` lies inside a function other than the program itself (as
// for_each_node says).
bool inside_function_at(const Expr& program, const Position& position);

// The node at a position and a copy of the program with the node there replaced.
Expr node_at(const Expr& program, const Position& position);
Expr replace_at(const Expr& program, const Position& position, const Expr& replacement);

// Every program that one application of `rule` anywhere in `program` (a typed lambda) gives;
// `context` supplies the parameter domains, the types are the program's.
std::vector<Expr> rewrites_everywhere(const Expr& program, const Rule& rule,
                                      RuleContext context = {});

} // namespace tessera::rewrite
