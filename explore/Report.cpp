#include "explore/Report.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/JsonInteger.h"
#include "explore/ComputeCeiling.h"

namespace tessera::explore {

using nlohmann::json;

const PointResult* Report::find(int id) const {
  for (const auto& p : points)
    if (p.id == id)
      return &p;
  return nullptr;
}

bool fits_in_cache(double footprint_bytes, uint64_t cache_bytes) {
  return cache_bytes > 0 && footprint_bytes <= static_cast<double>(cache_bytes);
}

bool partly_in_cache(double footprint_bytes, uint64_t cache_bytes) {
  return cache_bytes > 0 && !fits_in_cache(footprint_bytes, cache_bytes) &&
         footprint_bytes <= kPartlyResidentFactor * static_cast<double>(cache_bytes);
}

std::string roofline_fraction_label(double footprint_bytes, uint64_t cache_bytes) {
  if (fits_in_cache(footprint_bytes, cache_bytes))
    return "cache-resident";
  return partly_in_cache(footprint_bytes, cache_bytes) ? "partly cache-resident"
                                                       : "of the copy roofline";
}

bool Report::cache_resident() const {
  return fits_in_cache(footprint_bytes, cache_bytes);
}

std::string Report::fraction_label() const {
  return roofline_fraction_label(footprint_bytes, cache_bytes);
}

PointResult* Report::find(int id) {
  for (auto& p : points)
    if (p.id == id)
      return &p;
  return nullptr;
}

namespace {

// NaN and infinities are not JSON numbers: they are written as null.
json number(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}

json point_to_json(const PointResult& p) {
  json j = {{"id", p.id},
            {"key", p.key},
            {"variant", p.variant},
            {"program", p.program},
            {"params", p.params},
            {"local", p.local},
            {"kernel_hash", p.kernel_hash},
            {"local_memory_bytes", p.local_memory_bytes},
            {"status", to_string(p.status)}};
  write_derivation(j, p.history);
  if (!p.error.empty())
    j["error"] = p.error;
  if (p.status != PointStatus::Failed)
    j["max_error"] = number(p.max_error);
  if (p.status == PointStatus::Ok) {
    j["median_ms"] = number(p.median_ms);
    j["min_ms"] = number(p.min_ms);
    j["repeats"] = p.repeats;
    j["gb_per_s"] = number(p.gb_per_s);
    j["gcells_per_s"] = number(p.gcells_per_s);
    j["fraction_of_copy"] = number(p.fraction_of_copy);
  }
  j["build_ms"] = number(p.build_ms);
  j["build_origin"] = p.build_origin;
  j["check_s"] = number(p.check_s);
  j["launch_s"] = number(p.launch_s);
  j["cost_s"] = number(p.cost_s);
  j["finished_at_s"] = number(p.finished_at_s);
  return j;
}

// Field access that turns nlohmann's exceptions into messages naming the field.
class Reader {
public:
  Reader(const json& j, std::string where) : j_(j), where_(std::move(where)) {
    if (!j_.is_object())
      user_error(cat(where_, ": expected a JSON object"));
  }
  template <class T> T get(const char* key) const {
    if (!j_.contains(key))
      user_error(cat(where_, ": missing \"", key, "\""));
    return convert<T>(j_.at(key), key);
  }
  template <class T> T get(const char* key, T fallback) const {
    if (!j_.contains(key) || j_.at(key).is_null())
      return fallback;
    return convert<T>(j_.at(key), key);
  }
  bool has(const char* key) const { return j_.contains(key) && !j_.at(key).is_null(); }
  const json& at(const char* key) const {
    if (!j_.contains(key))
      user_error(cat(where_, ": missing \"", key, "\""));
    return j_.at(key);
  }
  const std::string& where() const { return where_; }

private:
  template <class T> T convert(const json& v, const char* key) const {
    if constexpr (std::is_same_v<T, double>) {
      if (v.is_null())
        return NAN;
    }
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (auto i = json_integer<T>(v))
        return *i;
      user_error(cat(where_, ": \"", key, "\" must be an integer in [",
                     std::numeric_limits<T>::min(), ", ", std::numeric_limits<T>::max(), "], got ",
                     v.dump()));
    }
    try {
      return v.get<T>();
    } catch (const json::exception&) {
      user_error(cat(where_, ": \"", key, "\" has the wrong type (", v.type_name(), ")"));
    }
  }
  const json& j_;
  std::string where_;
};

PointResult point_from_json(const json& j, int version, const std::string& where) {
  Reader r(j, where);
  PointResult p;
  p.id = r.get<int>("id");
  p.key = r.get<std::string>("key");
  p.variant = r.get<int>("variant");
  p.program = r.get<std::string>("program", "");
  p.history = read_derivation(j, version, where);
  p.params = r.get<std::map<std::string, int64_t>>("params", {});
  p.local = r.get<std::string>("local", "auto");
  p.kernel_hash = r.get<std::string>("kernel_hash", "");
  p.local_memory_bytes = r.get<int64_t>("local_memory_bytes", 0);
  p.status = point_status_from_string(r.get<std::string>("status"), where);
  p.error = r.get<std::string>("error", "");
  p.max_error = r.get<double>("max_error", 0.0);
  if (p.status == PointStatus::Ok) {
    p.median_ms = r.get<double>("median_ms");
    if (!(p.median_ms > 0))
      user_error(cat(where, ": an ok point needs \"median_ms\" > 0"));
    p.min_ms = r.get<double>("min_ms", p.median_ms);
    p.repeats = r.get<int>("repeats", 1);
    p.gb_per_s = r.get<double>("gb_per_s", 0.0);
    p.gcells_per_s = r.get<double>("gcells_per_s", 0.0);
    p.fraction_of_copy = r.get<double>("fraction_of_copy", 0.0);
  }
  p.build_ms = r.get<double>("build_ms", 0.0);
  p.build_origin = r.get<std::string>("build_origin", "");
  p.check_s = r.get<double>("check_s", 0.0);
  p.launch_s = r.get<double>("launch_s", 0.0);
  p.cost_s = r.get<double>("cost_s", 0.0);
  p.finished_at_s = r.get<double>("finished_at_s", 0.0);
  return p;
}

} // namespace

json report_to_json(const Report& r) {
  json points = json::array();
  for (const auto& p : r.points) {
    points.push_back(point_to_json(p));
    if (std::string bound = point_bound(r, p); !bound.empty()) {
      points.back()["gflops_per_s"] = number(point_gflops(r, p));
      points.back()["bound"] = bound;
    }
  }
  json strategies = json::array();
  for (const auto& s : r.strategies) {
    json j = {{"name", s.name}, {"how", s.how}};
    j["time_to_within_5pct_s"] = s.time_to_5pct_s ? number(*s.time_to_5pct_s) : json(nullptr);
    if (!s.note.empty())
      j["note"] = s.note;
    strategies.push_back(j);
  }
  json trace = json::array();
  for (const auto& t : r.trace)
    trace.push_back({number(t.t_s), t.point, number(t.median_ms), t.repeats});
  json j = {
      {"format", kReportFormat},
      {"version", kReportVersion},
      {"stencil", r.stencil},
      {"size", r.size},
      {"program", r.program},
      {"device",
       {{"name", r.device_name},
        {"platform", r.device_platform},
        {"description", r.device_description},
        {"copy_gb_per_s", number(r.copy_gb_per_s)},
        {"copy_bytes", r.copy_bytes},
        {"copy_method", r.copy_method},
        {"cache_bytes", r.cache_bytes},
        {"roofline_note", r.roofline_note},
        {"roofline_measure_s", number(r.roofline_measure_s)}}},
      {"footprint_bytes", number(r.footprint_bytes)},
      {"timing_regime", r.timing_regime},
      {"compute",
       {{"peak_gflops", number(r.peak_gflops)},
        {"precision", r.peak_precision},
        {"flops_per_output", number(r.flops_per_output)}}},
      {"cache_resident", r.cache_resident()},
      {"date", r.date},
      {"budget_s", number(r.budget_s)},
      {"elapsed_s", number(r.elapsed_s)},
      {"total_elapsed_s", number(r.total_elapsed_s)},
      {"runs", r.runs},
      {"interrupted", r.interrupted},
      {"complete", r.complete},
      {"strategy", r.strategy},
      {"seed", r.seed},
      {"repeats", r.repeats},
      {"warmup", r.warmup},
      {"depth", r.depth},
      {"check",
       {{"method", r.check_method},
        {"tolerance", r.tolerance},
        {"size", r.check_size},
        {"trusted_error", number(r.check_error)}}},
      {"space",
       {{"variants", r.space_variants},
        {"materialized", r.space_materialized},
        {"points", r.space_points},
        {"filtered", r.space_filtered},
        {"filtered_reasons", r.filtered},
        {"enumeration", r.enumeration}}},
      {"prior", r.prior},
      {"points", points},
      {"best", r.best ? json(*r.best) : json(nullptr)},
      {"baseline", r.baseline ? json(*r.baseline) : json(nullptr)},
      {"speedup", number(r.speedup)},
      {"confirmation", r.confirmation},
      {"strategies", strategies},
      {"trace", trace},
  };
  if (r.steps)
    j["steps_comparison"] = steps_comparison_to_json(*r.steps);
  return j;
}

namespace {

// The device's part of a report: its name, copy bandwidth and roofline, and its compute peak
// (version 3).
void read_device(Report& rep, const Reader& r, const std::string& source) {
  Reader dev(r.at("device"), source + ": \"device\"");
  rep.device_name = dev.get<std::string>("name");
  rep.device_platform = dev.get<std::string>("platform", "");
  rep.device_description = dev.get<std::string>("description", "");
  rep.copy_gb_per_s = dev.get<double>("copy_gb_per_s", 0.0);
  rep.copy_bytes = dev.get<std::size_t>("copy_bytes", 0);
  rep.copy_method = dev.get<std::string>("copy_method", "");
  rep.cache_bytes = dev.get<uint64_t>("cache_bytes", 0);
  rep.roofline_note = dev.get<std::string>("roofline_note", "");
  rep.roofline_measure_s = dev.get<double>("roofline_measure_s", 0.0);
  rep.footprint_bytes = r.get<double>("footprint_bytes", 0.0);
  rep.timing_regime = r.get<std::string>("timing_regime", "");
  if (r.has("compute")) { // version 3
    Reader compute(r.at("compute"), source + ": \"compute\"");
    rep.peak_gflops = compute.get<double>("peak_gflops", 0.0);
    rep.peak_precision = compute.get<std::string>("precision", "");
    rep.flops_per_output = compute.get<double>("flops_per_output", 0.0);
  }
}

void read_strategies(Report& rep, const Reader& r, const std::string& source) {
  if (r.has("strategies")) {
    const json& ss = r.at("strategies");
    if (!ss.is_array())
      user_error(cat(source, ": \"strategies\" must be an array"));
    for (std::size_t i = 0; i < ss.size(); ++i) {
      Reader s(ss[i], cat(source, ": strategies[", i, "]"));
      StrategyResult sr;
      sr.name = s.get<std::string>("name");
      sr.how = s.get<std::string>("how", "");
      sr.note = s.get<std::string>("note", "");
      if (s.has("time_to_within_5pct_s"))
        sr.time_to_5pct_s = s.get<double>("time_to_within_5pct_s");
      rep.strategies.push_back(sr);
    }
  }
}

void read_trace(Report& rep, const Reader& r, const std::string& source) {
  if (r.has("trace")) {
    const json& tr = r.at("trace");
    if (!tr.is_array())
      user_error(cat(source, ": \"trace\" must be an array"));
    for (const auto& e : tr) {
      if (!e.is_array() || e.size() < 3)
        user_error(cat(source, ": \"trace\" entries are [t_s, point, median_ms, repeats]"));
      auto point = json_integer<int>(e[1]);
      auto repeats = e.size() > 3 ? json_integer<int>(e[3]) : std::optional<int>(0);
      auto seconds = [](const json& v) { return v.is_null() || v.is_number(); };
      if (!point || !repeats || !seconds(e[0]) || !seconds(e[2]))
        user_error(cat(source, ": \"trace\" entries are [t_s, point, median_ms, repeats]"));
      rep.trace.push_back({e[0].is_null() ? 0.0 : e[0].get<double>(), *point,
                           e[2].is_null() ? 0.0 : e[2].get<double>(), *repeats});
    }
  }
}

} // namespace

Report report_from_json(const json& j, const std::string& source) {
  if (!j.is_object())
    user_error(cat(source, " is not a tessera report: expected a JSON object"));
  if (!j.contains("format") || j.at("format") != kReportFormat)
    user_error(cat(source, " is not a tessera report: \"format\" is not \"", kReportFormat, "\""));
  Reader r(j, source);
  int version = r.get<int>("version");
  if (version < kOldestReportVersion || version > kReportVersion)
    user_error(cat(source, ": report version ", version, " is not supported (this tessera reads ",
                   "versions ", kOldestReportVersion, " to ", kReportVersion, ")"));
  Report rep;
  rep.stencil = r.get<std::string>("stencil");
  rep.size = r.get<std::vector<int64_t>>("size");
  rep.program = r.get<std::string>("program", "");
  read_device(rep, r, source);
  if (rep.size.empty() || rep.size.size() > 3 ||
      std::any_of(rep.size.begin(), rep.size.end(), [](int64_t e) { return e <= 0; }))
    user_error(
        cat(source, ": \"size\" must be 1 to 3 positive extents, got ", r.at("size").dump()));
  rep.date = r.get<std::string>("date", "");
  rep.budget_s = r.get<double>("budget_s", 0.0);
  rep.elapsed_s = r.get<double>("elapsed_s", 0.0);
  rep.total_elapsed_s = r.get<double>("total_elapsed_s", rep.elapsed_s);
  rep.runs = r.get<int>("runs", 1);
  rep.interrupted = r.get<bool>("interrupted", false);
  rep.complete = r.get<bool>("complete", false);
  rep.strategy = r.get<std::string>("strategy", "exhaustive");
  rep.seed = r.get<uint32_t>("seed", 1);
  rep.repeats = r.get<int>("repeats", 5);
  rep.warmup = r.get<int>("warmup", 1);
  rep.depth = r.get<int>("depth", 1);
  if (r.has("check")) {
    Reader c(r.at("check"), source + ": \"check\"");
    rep.check_method = c.get<std::string>("method", "");
    rep.tolerance = c.get<double>("tolerance", kTolerance);
    rep.check_size = c.get<std::vector<int64_t>>("size", {});
    rep.check_error = c.get<double>("trusted_error", 0.0);
  }
  if (r.has("space")) {
    Reader s(r.at("space"), source + ": \"space\"");
    rep.space_variants = s.get<std::size_t>("variants", 0);
    rep.space_points = s.get<std::size_t>("points", 0);
    rep.space_materialized = s.get<std::size_t>("materialized", rep.space_variants);
    rep.space_filtered = s.get<std::size_t>("filtered", 0);
    rep.filtered = s.get<std::map<std::string, std::size_t>>("filtered_reasons", {});
    rep.enumeration = s.get<std::string>("enumeration", "");
  }
  rep.prior = r.get<std::string>("prior", "");
  const json& points = r.at("points");
  if (!points.is_array())
    user_error(cat(source, ": \"points\" must be an array"));
  for (std::size_t i = 0; i < points.size(); ++i)
    rep.points.push_back(point_from_json(points[i], version, cat(source, ": points[", i, "]")));
  auto point_ref = [&](const char* key) -> std::optional<int> {
    if (!r.has(key))
      return std::nullopt;
    int id = r.get<int>(key);
    if (!rep.find(id))
      user_error(cat(source, ": \"", key, "\" names point ", id, ", which is not in \"points\""));
    return id;
  };
  // Every point's bandwidth is a fraction of the copy bandwidth: it must have been measured.
  if (!rep.points.empty() && !(rep.copy_gb_per_s > 0 && std::isfinite(rep.copy_gb_per_s)))
    user_error(cat(source, ": \"device\": \"copy_gb_per_s\" must be a positive number (the ",
                   "device's measured copy bandwidth), got ", rep.copy_gb_per_s));
  rep.best = point_ref("best");
  rep.baseline = point_ref("baseline");
  rep.speedup = r.get<double>("speedup", 0.0);
  rep.confirmation = r.get<std::string>("confirmation", "");
  read_strategies(rep, r, source);
  read_trace(rep, r, source);
  if (j.contains("steps_comparison"))
    rep.steps = steps_comparison_from_json(j.at("steps_comparison"), source);
  return rep;
}

void write_report(const Report& report, const std::string& path) {
  write_file_atomically(path, report_to_json(report).dump(1) + "\n");
}

Report parse_report(const std::string& text, const std::string& source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    // parse_error, and out_of_range for a number that overflows a double (1e400)
    user_error(cat("cannot read report ", source, ": invalid JSON (", e.what(), ")"));
  }
  return report_from_json(j, source);
}

Report read_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    user_error(cat("cannot read report '", path, "': no such file or not readable"));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_report(buffer.str(), cat("'", path, "'"));
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

} // namespace tessera::explore
