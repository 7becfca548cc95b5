#include "multigrid/Tuning.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "codegen/Kernel.h"
#include "codegen/Stages.h"
#include "compile/DeviceLimits.h"
#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/Json.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "explore/Explorer.h"
#include "explore/Report.h"
#include "explore/TuningDatabase.h"
#include "explore/Variants.h"
#include "multigrid/Layout.h"
#include "primitives/TypeCheck.h"
#include "rewrite/Lower.h"
#include "rewrite/rules/Rules.h"
#include "runtime/BuildCache.h"
#include "runtime/Hash.h"
#include "runtime/Launch.h"
#include "runtime/Session.h"

namespace tessera::multigrid {

namespace {

using nlohmann::json;

std::string kernel_name(const std::string& op) {
  std::string name = "mg_";
  for (char c : op)
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

codegen::Kernel generate(const Expr& lowered, const std::string& op,
                         codegen::CodegenOptions options = {}) {
  options.kernel_name = kernel_name(op);
  // The operators are single-kernel programs; a variant that needs several launches (a program
  // of kernels) is not one the tuner can time as one kernel.
  std::size_t stages = codegen::split_into_stages(lowered).size();
  if (stages > 1)
    user_error(cat("multigrid operator ", op, ": the variant is a program of ", stages,
                   " kernel launches, not one kernel"));
  return codegen::generate_kernel(lowered, options);
}

// The program completed by vectorize-4 (4 neighbouring results a work-item in vector
// registers), or null where that rule does not apply.
Expr vectorized_4(const Expr& program) {
  TypeChecker types;
  types.apply(program, input_types(program));
  rewrite::RuleContext context;
  context.types = &types;
  for (const rewrite::Rule& rule : rewrite::completing_rules())
    if (rule.name == "vectorize-4")
      for (const auto& alternative : rule.apply(program, context).alternatives)
        return alternative.replacement;
  return {};
}

// A file that does not read is an empty database (its entries are explored again); one of a
// newer version is an error (writing would lose what it holds).
json read_database(const std::filesystem::path& path) {
  return explore::read_tuning_file(path, /*lenient=*/true);
}

// Random values in [-1, 1) written to every input of `kernel`, then the kernel's output.
std::vector<double> run_on_random_inputs(DeviceMemory& memory,
                                         const std::shared_ptr<CompiledKernel>& kernel) {
  std::vector<BufferId> inputs;
  BufferId output;
  uint32_t seed = 7;
  for (const auto& p : kernel->code.params) {
    auto count = p.element_count.as_constant();
    if (!count)
      internal_error("a multigrid kernel buffer of symbolic size");
    BufferId id = memory.allocate(p.name, p.element, *count);
    if (p.role == codegen::KernelParam::Output) {
      output = id;
      continue;
    }
    Data values = random_value(Type::array(Type::scalar(p.element), ArithExpr(*count)), seed++);
    std::vector<double> flat = values.flatten();
    if (p.element == ScalarKind::F64)
      memory.buffer(id).write(flat.data(), flat.size() * sizeof(double));
    else if (p.element == ScalarKind::F32) {
      std::vector<float> f(flat.begin(), flat.end());
      memory.buffer(id).write(f.data(), f.size() * sizeof(float));
    } else {
      std::vector<int32_t> i(flat.begin(), flat.end());
      memory.buffer(id).write(i.data(), i.size() * sizeof(int32_t));
    }
    inputs.push_back(id);
  }
  Schedule once;
  once.launch("check", kernel, inputs, output);
  once.run(memory);
  return read_values(memory, output);
}

// True when both kernels compute the same values (to rounding) on the same random inputs.
bool agree(runtime::Session& session, const std::shared_ptr<CompiledKernel>& a,
           const std::shared_ptr<CompiledKernel>& b) {
  DeviceMemory memory(session);
  std::vector<double> x = run_on_random_inputs(memory, a), y = run_on_random_inputs(memory, b);
  if (x.size() != y.size())
    return false;
  double scale = 1, diff = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i]))
      return false;
    diff = std::max(diff, std::abs(x[i] - y[i]));
    scale = std::max(scale, std::abs(y[i]));
  }
  return diff <= 1e-4 * scale;
}

// Adds the entry to the database file, merged with what is on disk now; written atomically.
void store_entry(const std::filesystem::path& database, const std::string& key, const json& entry) {
  if (database.empty())
    return;
  std::error_code ec;
  std::filesystem::create_directories(database.parent_path(), ec);
  json db = read_database(database);
  db["entries"][key] = entry;
  write_file_atomically(database.string(), db.dump(1) + "\n");
}

int64_t points(const std::vector<int64_t>& extents) {
  int64_t p = 1;
  for (int64_t e : extents)
    p *= e;
  return p;
}

} // namespace

void check_operator_name(const std::string& name) {
  // As multigrid/Hierarchy.cpp and Solver.cpp name them; fused smoothing's kernels by their
  // steps ("gsrb-fused-2", its further forms "gsrb-fused-2-form-1").
  static const std::regex known(
      "gsrb-(red|black|step)|jacobi|line-(red|black)|residual|residual-norm|restrict|residual-"
      "restrict|"
      "(fmg-)?prolong(-[xy])?|"
      "restrict-beta[0-2]|residual-f64|convert-to-f(32|64)|(gsrb|jacobi)-fused-[0-9]+(-form-[0-9]+)"
      "?");
  if (!std::regex_match(name, known))
    user_error(cat("unknown operator '", name,
                   "' (the operators are gsrb-red, gsrb-black, gsrb-step, jacobi, line-red, "
                   "line-black, residual, restrict, residual-restrict, prolong, fmg-prolong "
                   "(HPGMG-FV's: prolong-x, prolong-y and fmg-prolong-x, fmg-prolong-y too), "
                   "restrict-beta0 to "
                   "restrict-beta2, residual-f64, convert-to-f32, convert-to-f64, and with fused "
                   "smoothing gsrb-fused-K and jacobi-fused-K)"));
}

Tuner::Tuner(runtime::Session& session, TuningOptions options)
    : session_(&session), options_(std::move(options)) {
  database_ = options_.database;
  if (database_.empty()) {
    auto dir = runtime::default_cache_dir();
    if (!dir.empty())
      database_ = dir / "tuning.json";
  }
}

void Tuner::log(const std::string& line) const {
  if (options_.log)
    options_.log(line);
}

namespace {

// Whether the kernel runs in work-groups of `local` on its device (its reported maximum, which
// registers may lower below the device's; the local memory it needs): else the driver chooses.
bool fits(CompiledKernel& k, const runtime::Range& local) {
  try {
    runtime::check_launch(k.session->device(), k.built(), k.global, local);
    return true;
  } catch (const Error&) {
    return false;
  }
}

} // namespace

runtime::Range default_work_group(const std::vector<int64_t>& gpu, const runtime::Range& global,
                                  const std::string& device_type) {
  if (device_type == "CPU" || gpu.empty() || static_cast<int>(gpu.size()) != global.dims())
    return {};
  std::vector<std::size_t> sizes;
  for (int d = 0; d < global.dims(); ++d) {
    const auto l = static_cast<std::size_t>(gpu[static_cast<std::size_t>(d)]);
    if (l == 0 || global[d] % l != 0)
      return {};
    sizes.push_back(l);
  }
  return runtime::Range::of(sizes);
}

std::shared_ptr<CompiledKernel> Tuner::kernel(const OperatorSpec& spec) {
  Expr program = spec.build(spec.extents);
  runtime::Hasher hasher;
  hasher.add(session_->device().identity()).add(spec.name).add(print(program));
  if (spec.in_place) // not stored in the database; out-of-place keys stay as they were
    hasher.add("in place");
  const std::string key = runtime::hex64(hasher.value());
  // The same operator with and without its interior apart: two kernels.
  const std::string memo_key = spec.split_interior ? key + " split" : key;
  if (auto found = memo_.find(memo_key); found != memo_.end())
    return found->second;

  std::shared_ptr<CompiledKernel> k;
  auto named = options_.named.find(spec.name);
  const bool explored = options_.mode == TuneMode::Explore &&
                        (options_.explore_only.empty() || options_.explore_only.count(spec.name));
  if (spec.in_place || (!explored && named == options_.named.end()) ||
      points(spec.extents) < options_.min_points) {
    if ((k = cpu_default(spec, program))) {
      memo_[memo_key] = k;
      return k;
    }
    const Expr lowered = rewrite::lower_default(program);
    k = compile(*session_, generate(lowered, spec.name, {.in_place = spec.in_place}), {},
                spec.in_place ? "default lowering, in place" : "default lowering");
    if (auto wg = default_work_group(spec.gpu_work_group, k->global, session_->device().type);
        !wg.empty() && fits(*k, wg)) {
      k->local = wg;
      k->variant += ", work-group " + wg.str();
    }
    add_interior(*k, lowered, spec);
  } else if (named != options_.named.end()) {
    auto variants = explore::enumerate_variants(program, 1).variants;
    if (named->second < 0 || named->second >= static_cast<int>(variants.size()))
      user_error(cat("operator ", spec.name, " on a grid of ", points(spec.extents), " points has ",
                     variants.size(), " executable variants (0 to ", variants.size() - 1,
                     "), got variant ", named->second));
    k = compile(*session_, generate(variants[named->second].program, spec.name), {},
                cat("v", named->second, " (named)"));
  } else {
    k = from_entry(spec, program, key);
    if (!k)
      k = tuned(spec, program, key);
  }
  memo_[memo_key] = k;
  return k;
}

std::shared_ptr<CompiledKernel> Tuner::cpu_default(const OperatorSpec& spec,
                                                   const Expr& program) const {
  if (session_->device().type != "CPU" || spec.in_place || !spec.split_interior ||
      spec.interior_build || points(spec.extents) < options_.min_points)
    return nullptr;
  const Expr vectorized = vectorized_4(program);
  if (!vectorized)
    return nullptr;
  try {
    return compile(*session_, generate(vectorized, spec.name), {}, "vectorized, a CPU's default");
  } catch (const Error&) {
    return nullptr; // the code generator refuses it: the default lowering
  }
}

void Tuner::add_interior(CompiledKernel& k, const Expr& lowered, const OperatorSpec& spec) const {
  if (!spec.split_interior || points(spec.extents) < options_.split_min_points)
    return;
  const bool own_form = static_cast<bool>(spec.interior_build);
  if (!own_form && session_->device().type != "CPU")
    return; // the same kernel's interior pays on a CPU's vectoriser only
  const Expr interior =
      own_form ? rewrite::lower_default(spec.interior_build(spec.extents)) : lowered;
  // A half-sweep's interior computes its colour's points alone: a CPU's in place (own forms
  // stay whole there), and a GPU's form of its own out of place a work-item a pair of points,
  // the other one copied from u (HPGMG-FV's 4th order: every lane of a warp computes, its
  // F-cycle 1.06-1.11x faster on an H200; PoCL's cycle at 64^3 showed no gain beyond its noise,
  // and a CPU's vectoriser prefers unit-stride rows).
  const bool gpu = session_->device().type == "GPU";
  const bool by_colour = spec.colour_parity >= 0 && (spec.in_place ? !own_form : own_form && gpu);
  // A GPU runs the interior on whole rows (interior_rows_group, Program.h).
  codegen::Kernel code = generate(interior, spec.name,
                                  {.in_place = spec.in_place,
                                   .interior_only = true,
                                   .colour_parity = by_colour ? spec.colour_parity : -1,
                                   .colour_pair_copy = by_colour && !spec.in_place ? "u" : "",
                                   .interior_rows = gpu});
  if (code.interior_margin == 0) // no interior version: the kernel as it is
    return;
  const int64_t margin = std::max(code.interior_margin, spec.interior_margin);
  if (2 * margin >= *std::min_element(spec.extents.begin(), spec.extents.end()))
    return;
  k.interior = compile(*session_, std::move(code), {}, k.variant + ", interior");
  k.interior_margin = margin;
  if (!spec.slab_build)
    return;
  const int dims = static_cast<int>(spec.extents.size());
  k.slab_regions = spec.slab_regions && session_->device().type == "GPU" &&
                   k.global.total() >= static_cast<std::size_t>(kSlabRegionPoints);
  std::vector<unsigned> masks; // every one but the interior's, or the 2d slabs'
  if (k.slab_regions)
    for (unsigned inside = 0; inside + 1 < (1u << dims); ++inside)
      masks.push_back(inside);
  else
    for (int axis = 0; axis < dims; ++axis)
      masks.push_back(slab_inside(dims, axis));
  k.slabs.resize(std::size_t{1} << dims);
  for (unsigned inside : masks) {
    codegen::CodegenOptions options{.in_place = spec.in_place};
    if (k.slab_regions) // one launch over the parts of this mask
      options.index_gaps = region_gaps(inside, k.global, margin);
    k.slabs[inside] = compile(
        *session_,
        generate(rewrite::lower_default(spec.slab_build(spec.extents, inside)), spec.name, options),
        {}, cat(k.variant, ", part inside ", inside));
  }
}

std::shared_ptr<CompiledKernel> Tuner::from_entry(const OperatorSpec& spec, const Expr& program,
                                                  const std::string& key) {
  if (database_.empty())
    return nullptr;
  json db = read_database(database_);
  if (!db["entries"].contains(key))
    return nullptr;
  try {
    const json& e = db["entries"][key];
    Expr lowered = expr_from_json(e.at("lowered"));
    auto local = e.at("local").get<std::vector<int64_t>>();
    auto k = compile(*session_, generate(lowered, spec.name), local,
                     cat("v", e.at("variant").get<int>(),
                         " local=", e.at("local_text").get<std::string>(), " (tuned)"));
    // The explorer's split launch: the schedule runs the same kernel split (add_interior).
    if (e.contains("mapping") && e["mapping"].value("kind", "") == "split-launch")
      add_interior(*k, lowered, spec);
    auto reference =
        compile(*session_, generate(rewrite::lower_default(program), spec.name), {}, "default");
    if (!agree(*session_, k, reference))
      user_error("its kernel disagrees with the default lowering");
    ++from_database_;
    return k;
  } catch (const std::exception& e) {
    ++rebuilt_;
    log(cat("tuning database entry of ", spec.name, " dropped (", e.what(), "); exploring again"));
    return nullptr;
  }
}

std::shared_ptr<CompiledKernel> Tuner::tuned(const OperatorSpec& spec, const Expr& program,
                                             const std::string& key) {
  log(cat("exploring ", spec.name, " (budget ", options_.budget_s, " s)"));
  // The placements (constant memory, images) this device allows are among the variants.
  rewrite::EnumerateOptions control;
  explore::apply_device_limits(control, session_->device());
  // The enumeration's share of the budget, as explore's (tools/ExploreCommands.cpp).
  control.deadline_seconds = 0.2 * options_.budget_s;
  control.cancel = options_.stop;
  explore::Problem problem =
      explore::make_problem(spec.name, spec.build, spec.extents, 1, std::move(control));
  explore::ExploreOptions o;
  o.budget_s = options_.budget_s;
  o.repeats = 3;
  o.tuning_database = database_; // every point measured is kept, and later runs start from them
  o.stop = options_.stop;
  explore::Report report = explore::explore(*session_, problem, o);
  ++explored_;
  if (!report.best) {
    log(cat("no variant of ", spec.name, " was measured; using the default lowering"));
    return compile(*session_, generate(rewrite::lower_default(program), spec.name), {},
                   "default lowering");
  }
  const explore::PointResult& best = *report.find(*report.best);
  const explore::VariantInfo& variant = problem.variants.at(static_cast<std::size_t>(best.variant));
  auto local = explore::parse_local_size(best.local);
  json entry = {{"operator", spec.name},
                {"extents", spec.extents},
                {"device", session_->device().name},
                {"variant", best.variant},
                {"lowered", expr_to_json(variant.program)},
                {"local", local},
                {"local_text", best.local},
                {"median_ms", best.median_ms},
                {"speedup_over_default", report.speedup},
                {"date", explore::utc_now()}};
  explore::write_derivation(entry, variant.history);
  if (!report.interrupted) // an interrupted search's best is this run's, not the device's
    store_entry(database_, key, entry);
  auto k = compile(*session_, generate(variant.program, spec.name), local,
                   cat("v", best.variant, " local=", best.local, " (explored)"));
  // The explorer's split launch: the schedule runs the same kernel split (add_interior).
  if (explore::is_split_launch(variant))
    add_interior(*k, variant.program, spec);
  return k;
}

} // namespace tessera::multigrid
