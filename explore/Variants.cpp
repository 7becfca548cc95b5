#include "explore/Variants.h"

#include <algorithm>

#include "codegen/Program.h"
#include "codegen/SplitLaunch.h"
#include "compile/ExecutableVariants.h"
#include "core/Error.h"
#include "core/Fields.h"
#include "core/Printer.h"
#include "explore/Family.h"
#include "explore/Space.h"
#include "rewrite/Lower.h"
#include "rewrite/Rule.h"
#include "rewrite/Variants.h"
#include "rewrite/rules/Rules.h"

namespace tessera::explore {

VariantInfo variant_info(const rewrite::Variant& variant) {
  VariantInfo info;
  info.program = variant.program;
  info.text = print(variant.program);
  auto add = [&](std::vector<rewrite::Step>& into, const std::vector<rewrite::Step>& steps) {
    for (const auto& step : steps) {
      into.push_back(step);
      for (const auto& [k, v] : step.params)
        info.params[k] = v;
    }
  };
  add(info.history.steps, variant.history);
  info.history.mapping = variant.mapping;
  add(info.history.after_mapping, variant.after_mapping);
  return info;
}

namespace {

// The generation check: throws tessera::Error when the code generator rejects the program or
// its kernels exceed the target's limits (core/Target.h; the portable target where no device is
// in sight).
void generate_kernels(const Expr& lowered, const Target& target) {
  codegen::CodegenOptions options;
  options.target = target;
  auto program = codegen::generate_program(lowered, options);
  if (std::string why = beyond_limits(program, target); !why.empty())
    user_error(cat(why, target == Target{}
                            ? ", the portable limit without a device (explore/Space.h)"
                            : ", the device's limit"));
}

// The split launch of the default lowering (variants[0]) as a variant of its own, appended
// (after every other, so that their numbers do not depend on it) where the lowering has one
// (codegen/SplitLaunch.h); "" when it was added, else why not.
std::string add_split_launch(std::vector<VariantInfo>& variants, const Target& target) {
  VariantInfo split = variants[0];
  split.history.mapping = rewrite::Mapping{rewrite::MappingKind::SplitLaunch};
  try {
    codegen::CodegenOptions options;
    options.target = target;
    generate_variant(split, options);
  } catch (const Error& e) {
    return e.what();
  }
  variants.push_back(std::move(split));
  return "";
}

// The variants of `program` to `depth`, checked by options.check_generation when it is set.
Variants variants_of(const Expr& program, int depth, rewrite::EnumerateOptions options) {
  if (depth < 0)
    user_error(cat("the rewrite depth must be at least 0, got ", depth));
  options.depth = depth;
  add_compile_rules(options);
  auto lowered = rewrite::lowered_variants(program, options);
  Variants result;
  result.stop = lowered.stop;
  std::set<std::string> present;
  for (const auto& v : lowered.variants) {
    result.variants.push_back(variant_info(v));
    present.insert(variant_family(result.variants.back().history));
  }
  std::map<std::string, std::string> refused; // family -> the first reason of its candidates
  for (const auto& [v, why] : lowered.rejected)
    refused.emplace(variant_family(variant_info(v).history), why);
  std::string no_split = result.variants.empty()
                             ? "no default lowering"
                             : add_split_launch(result.variants, options.target);
  present.insert("split-launch"); // its reason is its own, below
  result.absent = absent_families(present, lowered.stats.not_applicable, refused);
  if (!no_split.empty())
    result.absent.push_back("split-launch: " + no_split);
  for (const auto& [why, count] : lowered.rejection_reasons)
    result.rejected.push_back(cat(count, count == 1 ? " candidate: " : " candidates: ", why));
  if (result.variants.empty()) {
    // The enumeration always keeps the default lowering first; be robust if it does not.
    result.variants.push_back(variant_info(
        {rewrite::lower_default(program), {}, rewrite::Mapping{rewrite::MappingKind::Global}, {}}));
  }
  result.summary =
      options.check_generation
          ? cat(result.variants.size(), " executable variants from ", lowered.stats.summary(), "; ",
                lowered.rejected_by_codegen, " rejected by the code generator; ", lowered.seconds,
                " s in all (lowering and generating included)")
          : cat(result.variants.size(),
                " lowered variants (kernels generated when the search "
                "reaches them) from ",
                lowered.stats.summary(), "; ", lowered.seconds, " s in all");
  if (lowered.not_lowered || lowered.not_generated)
    result.summary += cat("; cut by ", describe(lowered.stop), ": ", lowered.not_lowered,
                          " high-level variants not lowered, ", lowered.not_generated,
                          " candidates not generated");
  return result;
}

} // namespace

std::vector<std::string> absent_families(const std::set<std::string>& present,
                                         const std::map<std::string, std::size_t>& not_applicable,
                                         const std::map<std::string, std::string>& refused) {
  std::vector<std::string> lines;
  for (const auto& family : variant_families()) {
    if (family == "plain" || present.count(family))
      continue;
    auto reasons_of = [&](const std::string& of) {
      std::string why;
      for (const auto& [reason, count] : not_applicable) {
        auto colon = reason.find(": ");
        if (colon != std::string::npos && rewrite::rule_family(reason.substr(0, colon)) == of)
          why += (why.empty() ? "" : "; ") + reason;
      }
      return why;
    };
    std::string why = reasons_of(family);
    // The mappings of tiled variants (work-groups, local memory, coarsened tiles) apply to the
    // tilings of several dimensions: why those did not apply.
    bool from_tiles = family == "work-groups" || family == "local-memory" || family == "coarsened";
    if (std::string tiling = reasons_of("tiled"); from_tiles && !tiling.empty())
      why += (why.empty() ? "" : "; ") + cat("its mapping needs a tiled variant (", tiling, ")");
    if (auto r = refused.find(family); r != refused.end())
      why += (why.empty() ? "" : "; ") + cat("every candidate was refused (", r->second, ")");
    if (why.empty())
      why = "no rule of the family applies to this program";
    lines.push_back(family + ": " + why);
  }
  return lines;
}

Variants enumerate_variants(const Expr& program, int depth, rewrite::EnumerateOptions options) {
  options.check_generation = [target = options.target](const Expr& lowered) {
    generate_kernels(lowered, target);
  };
  return variants_of(program, depth, std::move(options));
}

std::vector<int64_t> small_extents(const std::vector<int64_t>& extents) {
  int64_t side = extents.size() == 1 ? 4096 : extents.size() == 2 ? 64 : 16;
  std::vector<int64_t> small;
  for (auto e : extents)
    small.push_back(std::min(e, side));
  return small;
}

WindowSize window_size(const Expr& program) {
  WindowSize w;
  rewrite::for_each_node(program, [&](const Expr& node, const rewrite::Position&, bool) {
    if (node->kind == NodeKind::UserFun)
      w.reads = std::max<int64_t>(w.reads, node->user_fun->arity);
    if (node->kind == NodeKind::Pad)
      if (auto left = pad_fields(*node).left.as_constant())
        w.radius = std::max(w.radius, *left);
  });
  return w;
}

std::vector<int64_t> small_extents(const std::vector<int64_t>& extents, const Expr& program) {
  std::vector<int64_t> small = small_extents(extents);
  const auto [reads, radius] = window_size(program);
  // The interpreter's work on the small grid as for a 27-point stencil on the default one:
  // a 729-point box checks on 10^3 instead of 16^3 (seconds less before the first point), one
  // side for every extent (extents equal in the program stay equal: they may be one size
  // variable), at least 2r+2 (every boundary and an interior) and 8.
  constexpr int64_t kReads = 27;
  auto cells_at = [&](int64_t side) {
    int64_t cells = 1;
    for (int64_t e : small)
      cells *= std::min(e, side);
    return cells;
  };
  const int64_t budget = cells_at(INT64_MAX) * kReads;
  const int64_t least = std::max<int64_t>(2 * radius + 2, 8);
  int64_t side = *std::max_element(small.begin(), small.end());
  while (reads > kReads && side > least && cells_at(side) * reads > budget)
    --side;
  for (auto& e : small)
    e = std::min(e, side);
  return small;
}

Problem make_problem(const std::string& name, const ProgramAt& build,
                     const std::vector<int64_t>& extents, int depth,
                     rewrite::EnumerateOptions control) {
  // The kernels take their sizes as 32-bit ints (codegen::KernelParam::Size).
  constexpr int64_t max_extent = (int64_t{1} << 31) - 1;
  for (std::size_t d = 0; d < extents.size(); ++d)
    if (extents[d] < 1 || extents[d] > max_extent)
      user_error(cat("the grid of ", name, ": extent ", d, " is ", extents[d],
                     ", expected 1 to 2^31 - 1 (", max_extent, ")"));
  Problem p;
  p.name = name;
  p.extents = extents;
  p.program = build(extents);
  // The explorer generates a variant's kernel when its search reaches it (explore/LazySpace.h).
  control.check_generation = nullptr;
  auto variants = variants_of(p.program, depth, std::move(control));
  p.variants = std::move(variants.variants);
  p.enumeration = variants.summary;
  for (const auto& line : variants.absent)
    p.enumeration += "; absent " + line;
  if (control.cancel && control.cancel->load())
    return p; // cancelled: the caller stops; a lowering of many fused steps takes a second
  p.small_extents = small_extents(extents, p.program);
  p.small_program = build(p.small_extents);
  p.small_baseline = rewrite::lower_default(p.small_program);
  return p;
}

std::vector<int64_t> parse_local_size(const std::string& text) {
  std::vector<int64_t> local;
  if (text == "auto" || text.empty())
    return local;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = std::min(text.find('x', start), text.size());
    std::size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(text.substr(start, end - start), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != end - start || v <= 0)
      user_error(cat("bad work-group size '", text, "': expected 'auto' or sizes like 32x8"));
    local.push_back(v);
    start = end + 1;
  }
  return local;
}

} // namespace tessera::explore
