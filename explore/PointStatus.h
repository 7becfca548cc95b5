// How the measurement of a point ended. Only the report and tuning-database JSON spell it as
// text ("ok", "failed", "mismatch"); the code compares the enum.
#pragma once

#include <string>

namespace tessera::explore {

enum class PointStatus {
  Ok,       // checked against the reference and timed
  Failed,   // an error (generation, build, launch, refusal): PointResult::error says which
  Mismatch, // ran, but differs from the reference by more than the tolerance (max_error)
};

std::string to_string(PointStatus status);
// The status spelled `text`; a tessera::Error that names `where` for any other text.
PointStatus point_status_from_string(const std::string& text, const std::string& where);

} // namespace tessera::explore
