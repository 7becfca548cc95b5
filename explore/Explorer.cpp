#include "explore/Explorer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "codegen/Kernel.h"
#include "codegen/Names.h"
#include "compile/Workload.h"
#include "core/Error.h"
#include "core/FlopCount.h"
#include "core/Printer.h"
#include "explore/DeviceEvaluator.h"
#include "explore/Prior.h"
#include "explore/ReportWriter.h"
#include "explore/TuningDatabase.h"
#include "explore/Variants.h"
#include "primitives/Interpreter.h"
#include "runtime/CacheSize.h"
#include "runtime/Device.h"
#include "runtime/DeviceTarget.h"
#include "runtime/Hash.h"
#include "runtime/RooflineFile.h"

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

namespace {

// One run of explore(), phase by phase: the prior (the report's header, the search's order from
// the tuning database, the points of a resumed report), the reference (the roofline and the
// output every point is checked against), the search, the confirmation of the finalists and
// the record (the space's statistics, the strategies replayed, the tuning database). The
// phases and, while the search runs, the evaluator write the report through one ReportWriter
// (explore/ReportWriter.h).
class Exploration {
public:
  Exploration(runtime::Session& session, const Problem& problem, const ExploreOptions& given)
      : session_(session), device_(session.device()), target_(runtime::target_of(device_)),
        problem_(problem), options_(given) {}

  Report run() {
    check_options();
    prior();
    if (options_.resume)
      resume(*options_.resume);
    reference();
    if (!search())
      return writer_.take(); // stopped before the baseline was measured
    confirmation();
    record();
    return writer_.take();
  }

private:
  void check_options() const {
    if (problem_.variants.empty())
      user_error("nothing to explore: the problem has no variants");
    if (options_.repeats < 1)
      user_error(cat("--repeats must be at least 1, got ", options_.repeats));
    if (options_.warmup < 0)
      user_error(cat("--warmup must be at least 0, got ", options_.warmup));
    if (!(options_.budget_s > 0))
      user_error(cat("the budget must be positive, got ", options_.budget_s, " s"));
  }

  // What the run is: the problem, the device and the options.
  void start_report() {
    report_.stencil = problem_.name;
    report_.size = problem_.extents;
    report_.device_name = device_.name;
    report_.device_platform = device_.platform_name;
    report_.device_description = device_.description();
    report_.date = utc_now();
    report_.budget_s = options_.budget_s;
    report_.strategy = to_string(options_.strategy);
    report_.seed = options_.seed;
    report_.repeats = options_.repeats;
    report_.warmup = options_.warmup;
    report_.depth = options_.depth;
    report_.tolerance = options_.tolerance;
    report_.enumeration = problem_.enumeration;
    report_.program = print(problem_.program);
  }

  // The order of the search: the tuning database's points of this device, then a cost model.
  void prior() {
    start_report();
    device_id_ = device_key(device_.identity());
    program_id_ = program_hash(report_.program);
    // A database that does not read is advice lost, not an error: the run goes on without it
    // and leaves the file alone (`tessera explore` refuses such a file before it starts).
    std::vector<TunedPoint> known;
    try {
      known = read_tuned_points(options_.tuning_database, device_id_);
    } catch (const Error& e) {
      unusable_database_ = e.what();
    }
    Prior prior = make_prior(
        problem_.variants, known,
        {problem_.name, program_id_, static_cast<int64_t>(cells(problem_.extents)), target_.cpu()});
    report_.prior = unusable_database_.empty()
                        ? prior.summary
                        : cat(prior.summary, " (not used: ", unusable_database_, ")");
    lazy_.emplace(problem_.variants, target_, codegen::kernel_identifier(problem_.name),
                  std::move(prior));
    lazy_->points_of(0); // the baseline's points first: point 0 is the baseline
  }

  // The points of an earlier report of the same problem, renumbered in this run's space.
  void resume(const Report& old) {
    check_resumable(old, problem_.name, problem_.extents, options_, report_.program);
    if (old.device_name != device_.name)
      user_error(cat("cannot resume: the report was measured on '", old.device_name,
                     "', this run uses '", device_.name, "'"));
    // The variants the old report measured are listed first, so that its points keep theirs.
    for (const auto& p : old.points)
      if (p.variant >= 0 && p.variant < lazy_->variant_count())
        lazy_->points_of(p.variant);
    const Space& space = lazy_->space();
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
      writer_.add(std::move(q));
    }
    for (const auto& t : old.trace)
      if (new_id.count(t.point))
        report_.trace.push_back({t.t_s, new_id[t.point], t.median_ms, t.repeats});
    writer_.continue_after(old.total_elapsed_s);
    report_.runs = old.runs + 1;
  }

  // Progress from the first second: the setup before the first point is shown too.
  void setup(const char* phase) const {
    if (options_.on_progress)
      options_.on_progress(
          {report_.points.size(), lazy_->space().points.size(),
           std::chrono::duration<double>(std::chrono::steady_clock::now() - options_.start).count(),
           options_.budget_s, 0, 0, 0, phase});
  }

  // The roofline, measured once per device with buffers far larger than its cache.
  runtime::Roofline roofline() {
    setup("measuring the copy roofline (once for this device, outside the budget)");
    auto roofline = runtime::device_roofline(
        session_, options_.roofline ? *options_.roofline : runtime::roofline_options_from_env());
    report_.copy_gb_per_s = roofline.gb_per_s;
    report_.copy_bytes = roofline.buffer_bytes;
    report_.copy_method = roofline.method;
    report_.cache_bytes = roofline.cache_bytes;
    report_.cache_upper_bound = runtime::cache_size_is_upper_bound(roofline.cache_source);
    report_.roofline_note = roofline.limited_by;
    report_.peak_precision = "f32";
    // Measured once per device and kept: not the search's time, so not the budget's.
    report_.roofline_measure_s = roofline.measure_s;
    options_.start += std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(roofline.measure_s));
    for (auto& p : report_.points)
      if (p.status == PointStatus::Ok && report_.copy_gb_per_s > 0)
        p.fraction_of_copy = p.gb_per_s / report_.copy_gb_per_s;
    return roofline;
  }

  // What the points are compared with: the copy roofline and the reference output.
  void reference() {
    auto roofline = this->roofline();
    setup("computing the reference");
    workload_.emplace(session_, problem_.program, options_.seed);
    for (const auto& in : workload_->inputs())
      if (in.kind == ScalarKind::F64)
        report_.peak_precision = "f64";
    report_.peak_gflops =
        report_.peak_precision == "f64" ? roofline.compute.f64_gflops : roofline.compute.f32_gflops;
    if (beyond_the_interpreter()) {
      trust_the_baseline();
      return;
    }
    reference_ = counting_flops(
        report_, [&] { return evaluate(problem_.program, workload_->input_data()).flatten(); });
    report_.check_method = "the reference interpreter";
    report_.check_size = problem_.extents;
    if (!has_nonzero(reference_))
      user_error("the interpreter's output for the random inputs is all zeros: checking the "
                 "variants against it would prove nothing");
  }

  // Whether the grid is too large for the interpreter: more cells than its limit, or more reads
  // than the limit's cells of a 27-point window (box2d4r at 256^2 reads 81 values a cell: 10 s
  // of the interpreter before the first point).
  bool beyond_the_interpreter() const {
    const auto reads =
        static_cast<std::size_t>(std::max<int64_t>(27, window_size(problem_.program).reads));
    const std::size_t n = cells(problem_.extents);
    return n > options_.interpreter_limit || n * reads > options_.interpreter_limit * 27;
  }

  // A grid too large for the interpreter: the plain lowering, checked against the interpreter on
  // the small grid, gives the reference (its output, once the baseline is measured).
  void trust_the_baseline() {
    if (!problem_.small_program || !problem_.small_baseline)
      user_error(cat("the grid ", size_text(problem_.extents), " is too large for the interpreter ",
                     "and the problem gives no small grid to check the trusted variant on"));
    Workload small(session_, problem_.small_program, options_.seed);
    codegen::CodegenOptions co;
    co.kernel_name = codegen::kernel_identifier(problem_.name);
    co.target = target_;
    auto kernel = codegen::generate_program(problem_.small_baseline, co);
    auto built = build_program(session_, kernel);
    auto out = small.run(kernel, built);
    auto expected = counting_flops(
        report_, [&] { return evaluate(problem_.small_program, small.input_data()).flatten(); });
    if (!has_nonzero(expected))
      user_error("the interpreter's output on the small check grid is all zeros: checking "
                 "against it would prove nothing");
    report_.check_error = max_relative_difference(out, expected);
    report_.check_size = problem_.small_extents;
    if (!within_tolerance(report_.check_error, options_.tolerance))
      user_error(cat("the plain MapGlb lowering disagrees with the interpreter on ",
                     size_text(problem_.small_extents), " (max relative error ",
                     report_.check_error, "): there is no trusted reference for ",
                     size_text(problem_.extents)));
    report_.check_method = cat("the plain MapGlb lowering's output (trusted: it matches the "
                               "interpreter on ",
                               size_text(problem_.small_extents), ")");
    // The baseline's output becomes the reference when the baseline is measured; a resumed
    // report has it already, so compute it now.
    if (report_.find(0)) {
      auto k0 = generate_variant(lazy_->space().variants[0], co);
      auto b0 = build_program(session_, k0);
      reference_ = workload_->run(k0, b0);
    }
  }

  // The search over the lazy space; false when it was stopped before the baseline was measured
  // (the report is then interrupted, with nothing new measured).
  bool search() {
    evaluator_.emplace(session_, problem_, options_, *lazy_, *workload_, writer_, reference_);
    search_options_.strategy = options_.strategy;
    search_options_.deadline_s = options_.budget_s;
    search_options_.repeats = options_.repeats;
    search_options_.seed = options_.seed;
    search_start_ = evaluator_->now();
    explore::search(*evaluator_, *lazy_, search_options_);
    const PointResult* base = report_.find(0);
    if (!base && evaluator_->stop_requested()) {
      report_.interrupted = true;
      return false;
    }
    if (!base)
      user_error("the exploration stopped before the baseline was measured");
    if (base->status == PointStatus::Failed && beyond_the_interpreter())
      user_error(cat("the plain MapGlb lowering (the trusted variant) failed, so no variant can "
                     "be checked: ",
                     base->error));
    summarise(report_, options_.repeats);
    report_.interrupted = evaluator_->stop_requested();
    return true;
  }

  // The finalists: the fastest fully timed points (then any), the search's best first, and the
  // tuning database's best point.
  std::vector<int> finalists() {
    std::vector<int> finalists{*report_.best};
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<const PointResult*> ok;
      for (const auto& p : report_.points)
        if (p.status == PointStatus::Ok && p.id != 0 &&
            (pass == 1 || p.repeats >= options_.repeats))
          ok.push_back(&p);
      std::sort(ok.begin(), ok.end(), [](auto* a, auto* b) { return a->median_ms < b->median_ms; });
      for (const auto* p : ok)
        if (finalists.size() < kFinalists &&
            std::find(finalists.begin(), finalists.end(), p->id) == finalists.end())
          finalists.push_back(p->id);
    }
    if (*report_.best == 0)
      finalists.erase(finalists.begin());
    // The database's best point is a finalist too (in the last one's place): a single noisy
    // launch in this run must not lose what earlier runs measured best.
    if (int known = known_best_point(report_, *lazy_);
        known > 0 && std::find(finalists.begin(), finalists.end(), known) == finalists.end()) {
      if (finalists.size() >= kFinalists)
        finalists.pop_back();
      finalists.push_back(known);
    }
    return finalists;
  }

  // The finalists re-timed side by side with the baseline; the fastest is the best.
  void confirmation() {
    if (!report_.best || report_.interrupted)
      return;
    evaluator_->phase("confirming");
    std::vector<int> finalists = this->finalists();
    int chosen = finalists.empty() ? 0 : evaluator_->confirm(finalists, 0);
    const PointResult* base_now = report_.find(0);
    if (base_now && base_now->status == PointStatus::Ok &&
        report_.find(chosen)->median_ms > base_now->median_ms)
      chosen = 0; // no variant beat the baseline when timed side by side
    summarise(report_, options_.repeats);
    report_.best = chosen;
    const PointResult* b = report_.find(chosen);
    const PointResult* s = report_.find(0);
    report_.speedup = b && s && s->status == PointStatus::Ok && b->median_ms > 0
                          ? s->median_ms / b->median_ms
                          : 0;
  }

  // The space's statistics, the strategies replayed on the points, the tuning database, and
  // the last checkpoint.
  void record() {
    const Space& space = lazy_->space();
    report_.space_variants = space.variants.size();
    report_.space_materialized = static_cast<std::size_t>(lazy_->materialized_count());
    report_.space_points = space.points.size();
    report_.space_filtered = space.filtered_count();
    report_.filtered = space.filtered;
    report_.complete = lazy_->materialized_count() == lazy_->variant_count() &&
                       report_.points.size() == space.points.size();
    SearchOptions replay = search_options_;
    replay.deadline_s += writer_.trace_offset();
    report_.strategies = strategy_results(report_, lazy_->snapshot(), replay,
                                          search_start_ + writer_.trace_offset());
    if (unusable_database_.empty())
      record_tuned_points(options_.tuning_database,
                          tuned_points(report_, *lazy_, device_id_, program_id_));
    writer_.checkpoint(evaluator_->now());
    evaluator_->progress();
  }

  runtime::Session& session_;
  const runtime::Device& device_;
  const Target target_; // the device's limits, for the space and the kernels
  const Problem& problem_;
  ExploreOptions options_; // its start moves past a roofline measured in this run
  // The one writer of the report; the phases change it through report_, the evaluator through
  // the writer's methods.
  ReportWriter writer_{options_};
  Report& report_ = writer_.edit();
  std::string device_id_, program_id_;
  std::string unusable_database_; // why the tuning database was not read (empty: it was)
  std::optional<LazySpace> lazy_;
  std::optional<Workload> workload_;
  std::vector<double> reference_;
  std::optional<DeviceEvaluator> evaluator_;
  SearchOptions search_options_;
  double search_start_ = 0;
};

} // namespace

Report explore(runtime::Session& session, const Problem& problem, const ExploreOptions& options) {
  return Exploration(session, problem, options).run();
}

} // namespace tessera::explore
