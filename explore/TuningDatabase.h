// The measured points of every exploration, kept in the tuning database that the multigrid
// solver shares (multigrid/Tuning.h): {"format": "tessera-tuning", "version": 3, "entries":
// {...the solver's chosen kernels...}, "points": [...]}. Each point records the device (a hash
// of its identity), the program (a hash of its high-level text, sizes included), the stencil's
// name and size, the variant's key (explore/Features.h variant_key: its steps' rules and
// parameters, its mapping, as JSON) and feature words, its
// work-group size, its status and its median time against the baseline's. A later exploration
// on the same device starts from them: the same program's best points first, then those of
// similar programs (the same stencil at other sizes or depths), and a cost model learned from
// all of the device's points orders the rest (explore/Prior.h).
//
// Version 3 keys a point by the structure of its derivation ("signature": variant_key, a JSON
// object), so that the words a step is printed in (rewrite::describe) are no part of the key.
// Older files are converted when read: version 2's and 1's signatures were those words
// ("tile-nd {dims=2, tile=16} | mapping: coarsened", signature_from_text reads them; a point
// whose signature does not read is dropped), version 1's entries had the mapping as a
// "mapping: ..." step of their "history" (version 2 records the derivations as
// explore/Derivation.h writes them).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "explore/PointStatus.h"

namespace tessera::explore {

struct TunedPoint {
  std::string device;       // runtime::hex64 of the device's identity
  std::string program_hash; // runtime::hex64 of the high-level program's text
  std::string stencil;
  std::vector<int64_t> size;
  int depth = 1;
  std::string signature; // explore/Features.h variant_signature: variant_key as compact JSON
  std::vector<std::string> words;
  std::string local = "auto";
  PointStatus status = PointStatus::Ok;
  double median_ms = 0, baseline_ms = 0;
  std::string date;
  // baseline / median; 0 for a point that failed.
  double speedup() const;
};

inline constexpr int kTuningVersion = 3;       // written
inline constexpr int kOldestTuningVersion = 1; // the oldest read

// The database file as JSON of version kTuningVersion (converted from an older version); an
// empty database when the file does not exist. Error naming the file for one of a version this
// tessera does not read (the version found and those it reads); for one that is not JSON or not
// a tuning database, Error too, or an empty database when `lenient` (the solver's entries are
// advice, rebuilt when lost).
nlohmann::json read_tuning_file(const std::filesystem::path& path, bool lenient = false);

// The hash that identifies a device in the database.
std::string device_key(const std::string& device_identity);

// The points of `device` (a device_key) in the database; none when the file does not exist.
// Error when it exists but is not a tuning database (what it is instead, and the file).
std::vector<TunedPoint> read_tuned_points(const std::filesystem::path& database,
                                          const std::string& device);

// Adds the points to the database, merged with what is on disk now (a point of the same device,
// program, signature and work-group size replaces the older one; the oldest go beyond
// kMaxTunedPoints); written atomically, the solver's entries kept.
void record_tuned_points(const std::filesystem::path& database,
                         const std::vector<TunedPoint>& points);

inline constexpr std::size_t kMaxTunedPoints = 20000;

// tuning.json in the build cache's directory (runtime::default_cache_dir), the file the
// multigrid solver uses too; empty when there is no cache directory (TESSERA_CACHE_DIR=off).
std::filesystem::path default_tuning_database();

} // namespace tessera::explore
