#include "explore/PointStatus.h"

#include "core/Error.h"

namespace tessera::explore {

std::string to_string(PointStatus status) {
  switch (status) {
  case PointStatus::Ok:
    return "ok";
  case PointStatus::Failed:
    return "failed";
  case PointStatus::Mismatch:
    return "mismatch";
  }
  internal_error("a point status out of range");
}

PointStatus point_status_from_string(const std::string& text, const std::string& where) {
  for (auto s : {PointStatus::Ok, PointStatus::Failed, PointStatus::Mismatch})
    if (to_string(s) == text)
      return s;
  user_error(cat(where, ": \"status\" is '", text, "', expected ok, failed or mismatch"));
}

} // namespace tessera::explore
