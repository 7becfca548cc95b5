#include "explore/TuningDatabase.h"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <tuple>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/JsonInteger.h"
#include "explore/Derivation.h"
#include "explore/Features.h"
#include "runtime/BuildCache.h"
#include "runtime/Hash.h"

namespace tessera::explore {

namespace {

using nlohmann::json;

constexpr const char* kFormat = "tessera-tuning";

json empty_database() {
  return {{"format", kFormat}, {"version", kTuningVersion}, {"entries", json::object()}};
}

// Version 1 -> 2: the entries' derivations. An entry whose history does not read loses it (an
// entry is advice, checked against the default lowering before it is used).
void convert_from_v1(json& db) {
  if (!db.contains("entries") || !db["entries"].is_object())
    return;
  for (auto& [key, entry] : db["entries"].items()) {
    if (!entry.is_object() || !entry.contains("history"))
      continue;
    try {
      Derivation d = read_derivation(entry, 1, cat("tuning entry ", key));
      entry.erase("history");
      write_derivation(entry, d);
    } catch (const Error&) {
      entry.erase("history");
    }
  }
}

// Versions 1 and 2 -> 3: the points' signatures from text to variant keys. A point whose
// signature does not read is dropped (the database is advice).
void convert_signatures(json& db) {
  if (!db.contains("points"))
    return;
  json kept = json::array();
  for (auto& p : db["points"]) {
    if (!p.is_object() || !p.contains("signature") || !p["signature"].is_string())
      continue;
    try {
      p["signature"] =
          json::parse(signature_from_text(p["signature"].get<std::string>(), "a tuned point"));
      kept.push_back(std::move(p));
    } catch (const Error&) {
    }
  }
  db["points"] = std::move(kept);
}

} // namespace

json read_tuning_file(const std::filesystem::path& path, bool lenient) {
  std::ifstream in(path);
  if (!in)
    return empty_database();
  std::stringstream text;
  text << in.rdbuf();
  json db = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  const std::string expected = cat("expected a tessera tuning database ({\"format\": \"", kFormat,
                                   "\", \"version\": ", kTuningVersion,
                                   ", ...}); give another file (--tuning-db) or remove this one");
  auto bad = [&](const std::string& what) {
    if (lenient)
      return empty_database();
    user_error(cat("tuning database '", path.string(), "' ", what, ": ", expected));
  };
  if (db.is_discarded() || !db.is_object())
    return bad("is not JSON");
  std::optional<int> version =
      db.contains("version") ? json_integer<int>(db["version"]) : std::nullopt;
  if (db.value("format", "") != kFormat || !version || *version < kOldestTuningVersion)
    return bad(cat("has format '", db.value("format", "?"), "' version ",
                   db.contains("version") ? db["version"].dump() : "none"));
  // A newer tessera's file is refused even by a lenient reader: writing would lose what it holds.
  if (*version > kTuningVersion)
    user_error(cat("tuning database '", path.string(), "' has version ", *version,
                   "; this tessera reads versions ", kOldestTuningVersion, " to ", kTuningVersion,
                   " (a newer tessera wrote it?): give another file (--tuning-db) or remove it"));
  if (db.contains("points") && !db["points"].is_array())
    return bad("has \"points\" that is not an array");
  if (!db.contains("entries") || !db["entries"].is_object()) {
    if (lenient)
      return empty_database();
    db["entries"] = json::object();
  }
  if (*version == 1)
    convert_from_v1(db);
  if (*version <= 2)
    convert_signatures(db);
  db["version"] = kTuningVersion;
  return db;
}

namespace {

// A signature (variant_signature's compact JSON) as the object it is.
json key_json(const std::string& signature) {
  json key = json::parse(signature, nullptr, /*allow_exceptions=*/false);
  if (!key.is_object())
    internal_error(cat("a tuned point's signature is not a variant key: ", signature));
  return key;
}

json to_json(const TunedPoint& p) {
  return {{"device", p.device},
          {"program_hash", p.program_hash},
          {"stencil", p.stencil},
          {"size", p.size},
          {"depth", p.depth},
          {"signature", key_json(p.signature)},
          {"words", p.words},
          {"local", p.local},
          {"status", to_string(p.status)},
          {"median_ms", p.median_ms},
          {"baseline_ms", p.baseline_ms},
          {"date", p.date}};
}

// A record that does not read is skipped: the database is advice, and one bad record (from an
// older tessera, or edited by hand) must not cost the others.
bool from_json(const json& j, TunedPoint& p) {
  try {
    p.device = j.at("device").get<std::string>();
    p.program_hash = j.at("program_hash").get<std::string>();
    p.stencil = j.value("stencil", "");
    p.size = j.value("size", std::vector<int64_t>{});
    p.depth = j.value("depth", 1);
    if (!j.at("signature").is_object())
      return false;
    p.signature = j.at("signature").dump();
    p.words = j.value("words", std::vector<std::string>{});
    p.local = j.value("local", "auto");
    p.status = point_status_from_string(j.value("status", "ok"), "a tuning record");
    p.median_ms = j.value("median_ms", 0.0);
    p.baseline_ms = j.value("baseline_ms", 0.0);
    p.date = j.value("date", "");
    return true;
  } catch (const json::exception&) {
    return false;
  } catch (const Error&) { // an unknown status
    return false;
  }
}

} // namespace

double TunedPoint::speedup() const {
  return status == PointStatus::Ok && median_ms > 0 && baseline_ms > 0 ? baseline_ms / median_ms
                                                                       : 0.0;
}

std::filesystem::path default_tuning_database() {
  auto dir = runtime::default_cache_dir();
  return dir.empty() ? dir : dir / "tuning.json";
}

std::string device_key(const std::string& device_identity) {
  return runtime::hex64(runtime::fnv1a64(device_identity));
}

std::vector<TunedPoint> read_tuned_points(const std::filesystem::path& database,
                                          const std::string& device) {
  std::vector<TunedPoint> points;
  if (database.empty())
    return points;
  json db = read_tuning_file(database);
  if (!db.contains("points"))
    return points;
  for (const auto& j : db["points"]) {
    TunedPoint p;
    if (from_json(j, p) && p.device == device)
      points.push_back(std::move(p));
  }
  return points;
}

void record_tuned_points(const std::filesystem::path& database,
                         const std::vector<TunedPoint>& points) {
  if (database.empty() || points.empty())
    return;
  json db = read_tuning_file(database);
  // Oldest first; a newer record of the same point replaces the older one.
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  std::vector<TunedPoint> all;
  std::map<Key, std::size_t> where;
  auto add = [&](const TunedPoint& p) {
    Key key{p.device, p.program_hash, p.signature, p.local};
    if (auto it = where.find(key); it != where.end()) {
      all[it->second] = p;
      return;
    }
    where[key] = all.size();
    all.push_back(p);
  };
  if (db.contains("points"))
    for (const auto& j : db["points"]) {
      TunedPoint p;
      if (from_json(j, p))
        add(p);
    }
  for (const auto& p : points)
    add(p);
  std::size_t skip = all.size() > kMaxTunedPoints ? all.size() - kMaxTunedPoints : 0;
  json out = json::array();
  for (std::size_t i = skip; i < all.size(); ++i)
    out.push_back(to_json(all[i]));
  db["points"] = std::move(out);
  std::error_code ec;
  if (database.has_parent_path())
    std::filesystem::create_directories(database.parent_path(), ec);
  write_file_atomically(database.string(), db.dump() + "\n");
}

} // namespace tessera::explore
