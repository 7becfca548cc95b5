#include "explore/Explorer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "codegen/Kernel.h"
#include "core/Error.h"
#include "core/FlopCount.h"
#include "core/Printer.h"
#include "explore/DeviceEvaluator.h"
#include "explore/Prior.h"
#include "explore/TuningDatabase.h"
#include "explore/Workload.h"
#include "explore/runtime/Device.h"
#include "explore/runtime/Hash.h"
#include "explore/runtime/RooflineFile.h"
#include "primitives/Interpreter.h"

namespace tessera::explore {

namespace {

// The interpreter's run `f` (returning the flat output), its user-function flops per output
// kept in the report.
template <class F> std::vector<double> counting_flops(Report& report, F f) {
  FlopCount count;
  std::vector<double> out = f();
  if (!out.empty())
    report.flops_per_output = static_cast<double>(count.flops()) / static_cast<double>(out.size());
  return out;
}

// The run's measured points as the tuning database keeps them.
std::vector<TunedPoint> tuned_points(const Report& report, const LazySpace& lazy,
                                     const std::string& device, const std::string& program) {
  std::vector<TunedPoint> out;
  const PointResult* base = report.find(0);
  if (!base || base->status != PointStatus::Ok)
    return out; // no yardstick: speedups would mean nothing
  const std::string date = utc_now();
  for (const auto& p : report.points) {
    if (p.id < 0 || p.id >= lazy.point_count())
      continue;
    TunedPoint t;
    t.device = device;
    t.program_hash = program;
    t.stencil = report.stencil;
    t.size = report.size;
    t.depth = report.depth;
    t.signature = variant_signature(p.history);
    t.words = lazy.point_words(p.id);
    t.local = p.local;
    t.status = p.status;
    t.median_ms = p.median_ms;
    t.baseline_ms = base->median_ms;
    t.date = date;
    out.push_back(std::move(t));
  }
  return out;
}

// The fastest measured point of the variant the tuning database ranks first (-1: none, or the
// prior knows nothing of this program or similar ones).
int known_best_point(const Report& report, LazySpace& lazy) {
  const Prior& prior = lazy.prior();
  if (prior.from_program + prior.from_similar == 0 || prior.order.empty() ||
      !lazy.materialized(prior.order.front()))
    return -1;
  int best = -1;
  for (int id : lazy.points_of(prior.order.front())) {
    const PointResult* p = report.find(id);
    if (p && p->status == PointStatus::Ok &&
        (best < 0 || p->median_ms < report.find(best)->median_ms))
      best = id;
  }
  return best;
}

} // namespace

std::string point_key(const Point& point, const VariantInfo& variant) {
  return cat("v", point.variant, " local=", point.local_text(), " #",
             runtime::hex64(runtime::fnv1a64(variant.text)).substr(0, 12));
}

Report explore(runtime::Session& session, const Problem& problem, const ExploreOptions& given) {
  ExploreOptions options = given; // its start moves past a roofline measured in this run
  if (problem.variants.empty())
    user_error("nothing to explore: the problem has no variants");
  if (options.repeats < 1)
    user_error(cat("--repeats must be at least 1, got ", options.repeats));
  if (options.warmup < 0)
    user_error(cat("--warmup must be at least 0, got ", options.warmup));
  if (!(options.budget_s > 0))
    user_error(cat("the budget must be positive, got ", options.budget_s, " s"));
  const auto& device = session.device();
  Report report;
  report.stencil = problem.name;
  report.size = problem.extents;
  report.device_name = device.name;
  report.device_platform = device.platform_name;
  report.device_description = device.description();
  report.date = utc_now();
  report.budget_s = options.budget_s;
  report.strategy = to_string(options.strategy);
  report.seed = options.seed;
  report.repeats = options.repeats;
  report.warmup = options.warmup;
  report.depth = options.depth;
  report.tolerance = options.tolerance;
  report.enumeration = problem.enumeration;

  report.program = print(problem.program);
  // The order of the search: the tuning database's points of this device, then a cost model.
  const std::string device_id = device_key(device.identity());
  const std::string program_id = program_hash(report.program);
  // A database that does not read is advice lost, not an error: the run goes on without it and
  // leaves the file alone (`tessera explore` refuses such a file before it starts).
  std::vector<TunedPoint> known;
  std::string unusable_database;
  try {
    known = read_tuned_points(options.tuning_database, device_id);
  } catch (const Error& e) {
    unusable_database = e.what();
  }
  Prior prior =
      make_prior(problem.variants, known,
                 {problem.name, program_id, static_cast<int64_t>(cells(problem.extents))});
  report.prior = unusable_database.empty()
                     ? prior.summary
                     : cat(prior.summary, " (not used: ", unusable_database, ")");
  LazySpace lazy(problem.variants, DeviceLimits::of(device), kernel_identifier(problem.name),
                 std::move(prior));
  const Space& space = lazy.space();
  lazy.points_of(0); // the baseline's points first: point 0 is the baseline

  double trace_offset = 0;
  if (options.resume) {
    const Report& old = *options.resume;
    check_resumable(old, problem.name, problem.extents, options, report.program);
    if (old.device_name != device.name)
      user_error(cat("cannot resume: the report was measured on '", old.device_name,
                     "', this run uses '", device.name, "'"));
    // The variants the old report measured are listed first, so that its points keep theirs.
    for (const auto& p : old.points)
      if (p.variant >= 0 && p.variant < lazy.variant_count())
        lazy.points_of(p.variant);
    std::map<std::string, int> id_of_key;
    for (std::size_t i = 0; i < space.points.size(); ++i)
      id_of_key[point_key(space.points[i],
                          space.variants[static_cast<std::size_t>(space.points[i].variant)])] =
          static_cast<int>(i);
    std::map<int, int> new_id; // old id -> new id
    for (const auto& p : old.points) {
      auto it = id_of_key.find(p.key);
      if (it == id_of_key.end())
        continue;
      PointResult q = p;
      q.id = it->second;
      new_id[p.id] = q.id;
      report.points.push_back(q);
    }
    for (const auto& t : old.trace)
      if (new_id.count(t.point))
        report.trace.push_back({t.t_s, new_id[t.point], t.median_ms, t.repeats});
    trace_offset = old.total_elapsed_s;
    report.runs = old.runs + 1;
  }

  // Progress from the first second: the setup before the first point is shown too.
  auto setup = [&](const char* phase) {
    if (options.on_progress)
      options.on_progress(
          {report.points.size(), space.points.size(),
           std::chrono::duration<double>(std::chrono::steady_clock::now() - options.start).count(),
           options.budget_s, 0, 0, 0, phase});
  };
  setup("measuring the copy roofline (once for this device, outside the budget)");
  // The roofline, measured once per device with buffers far larger than its cache.
  auto roofline = runtime::device_roofline(
      session, options.roofline ? *options.roofline : runtime::roofline_options_from_env());
  report.copy_gb_per_s = roofline.gb_per_s;
  report.copy_bytes = roofline.buffer_bytes;
  report.copy_method = roofline.method;
  report.cache_bytes = roofline.cache_bytes;
  report.roofline_note = roofline.limited_by;
  report.peak_precision = "f32";
  // Measured once per device and kept: not the search's time, so not the budget's.
  report.roofline_measure_s = roofline.measure_s;
  options.start += std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(roofline.measure_s));
  for (auto& p : report.points)
    if (p.status == PointStatus::Ok && report.copy_gb_per_s > 0)
      p.fraction_of_copy = p.gb_per_s / report.copy_gb_per_s;

  // The reference.
  setup("computing the reference");
  Workload workload(session, problem.program, options.seed);
  for (const auto& in : workload.inputs())
    if (in.kind == ScalarKind::F64)
      report.peak_precision = "f64";
  report.peak_gflops =
      report.peak_precision == "f64" ? roofline.compute.f64_gflops : roofline.compute.f32_gflops;
  std::vector<double> reference;
  if (cells(problem.extents) <= options.interpreter_limit) {
    reference = counting_flops(
        report, [&] { return evaluate(problem.program, workload.input_data()).flatten(); });
    report.check_method = "the reference interpreter";
    report.check_size = problem.extents;
    if (!has_nonzero(reference))
      user_error("the interpreter's output for the random inputs is all zeros: checking the "
                 "variants against it would prove nothing");
  } else {
    if (!problem.small_program || !problem.small_baseline)
      user_error(cat("the grid ", size_text(problem.extents), " is too large for the interpreter ",
                     "and the problem gives no small grid to check the trusted variant on"));
    Workload small(session, problem.small_program, options.seed);
    codegen::CodegenOptions co;
    co.kernel_name = kernel_identifier(problem.name);
    auto kernel = codegen::generate_program(problem.small_baseline, co);
    auto built = build_program(session, kernel);
    auto out = small.run(kernel, built);
    auto expected = counting_flops(
        report, [&] { return evaluate(problem.small_program, small.input_data()).flatten(); });
    if (!has_nonzero(expected))
      user_error("the interpreter's output on the small check grid is all zeros: checking "
                 "against it would prove nothing");
    report.check_error = max_relative_difference(out, expected);
    report.check_size = problem.small_extents;
    if (!within_tolerance(report.check_error, options.tolerance))
      user_error(cat("the plain MapGlb lowering disagrees with the interpreter on ",
                     size_text(problem.small_extents), " (max relative error ", report.check_error,
                     "): there is no trusted reference for ", size_text(problem.extents)));
    report.check_method = cat("the plain MapGlb lowering's output (trusted: it matches the "
                              "interpreter on ",
                              size_text(problem.small_extents), ")");
    // The baseline's output becomes the reference when the baseline is measured; a resumed
    // report has it already, so compute it now.
    if (report.find(0)) {
      auto k0 = codegen::generate_program(space.variants[0].program, co);
      auto b0 = build_program(session, k0);
      reference = workload.run(k0, b0);
    }
  }

  DeviceEvaluator evaluator(session, problem, options, lazy, workload, report, reference,
                            trace_offset);
  SearchOptions so;
  so.strategy = options.strategy;
  so.deadline_s = options.budget_s;
  so.repeats = options.repeats;
  so.seed = options.seed;
  double search_start = evaluator.now();
  search(evaluator, lazy, so);
  const PointResult* base = report.find(0);
  if (!base && evaluator.stop_requested()) {
    report.interrupted = true;
    return report;
  }
  if (!base)
    user_error("the exploration stopped before the baseline was measured");
  if (base->status == PointStatus::Failed && cells(problem.extents) > options.interpreter_limit)
    user_error(cat("the plain MapGlb lowering (the trusted variant) failed, so no variant can be "
                   "checked: ",
                   base->error));

  summarise(report, options.repeats);
  report.interrupted = evaluator.stop_requested();
  if (report.best && !report.interrupted) {
    evaluator.phase("confirming");
    // The finalists: the fastest fully timed points (then any), the search's best first.
    std::vector<int> finalists{*report.best};
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<const PointResult*> ok;
      for (const auto& p : report.points)
        if (p.status == PointStatus::Ok && p.id != 0 && (pass == 1 || p.repeats >= options.repeats))
          ok.push_back(&p);
      std::sort(ok.begin(), ok.end(), [](auto* a, auto* b) { return a->median_ms < b->median_ms; });
      for (const auto* p : ok)
        if (finalists.size() < kFinalists &&
            std::find(finalists.begin(), finalists.end(), p->id) == finalists.end())
          finalists.push_back(p->id);
    }
    if (*report.best == 0)
      finalists.erase(finalists.begin());
    // The database's best point is a finalist too (in the last one's place): a single noisy
    // launch in this run must not lose what earlier runs measured best.
    if (int known = known_best_point(report, lazy);
        known > 0 && std::find(finalists.begin(), finalists.end(), known) == finalists.end()) {
      if (finalists.size() >= kFinalists)
        finalists.pop_back();
      finalists.push_back(known);
    }
    int chosen = finalists.empty() ? 0 : evaluator.confirm(finalists, 0);
    const PointResult* base_now = report.find(0);
    if (base_now && base_now->status == PointStatus::Ok &&
        report.find(chosen)->median_ms > base_now->median_ms)
      chosen = 0; // no variant beat the baseline when timed side by side
    summarise(report, options.repeats);
    report.best = chosen;
    const PointResult* b = report.find(chosen);
    const PointResult* s = report.find(0);
    report.speedup = b && s && s->status == PointStatus::Ok && b->median_ms > 0
                         ? s->median_ms / b->median_ms
                         : 0;
  }
  report.space_variants = space.variants.size();
  report.space_materialized = static_cast<std::size_t>(lazy.materialized_count());
  report.space_points = space.points.size();
  report.space_filtered = space.filtered_count();
  report.filtered = space.filtered;
  report.complete = lazy.materialized_count() == lazy.variant_count() &&
                    report.points.size() == space.points.size();
  SearchOptions replay = so;
  replay.deadline_s += trace_offset;
  report.strategies =
      strategy_results(report, lazy.snapshot(), replay, search_start + trace_offset);
  if (unusable_database.empty())
    record_tuned_points(options.tuning_database, tuned_points(report, lazy, device_id, program_id));
  report.elapsed_s = evaluator.now();
  report.total_elapsed_s = trace_offset + report.elapsed_s;
  if (options.on_checkpoint)
    options.on_checkpoint(report);
  evaluator.progress();
  return report;
}

} // namespace tessera::explore
