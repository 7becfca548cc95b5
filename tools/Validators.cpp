#include "tools/Validators.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/Error.h"

namespace tessera::tools {

CLI::Validator integer_in(long long low, long long high) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        errno = 0;
        char* end = nullptr;
        long long v = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || errno == ERANGE || v < low || v > high)
          return cat("expected an integer from ", low, " to ", high, ", got '", text, "'");
        return "";
      },
      cat("INT in [", low, " - ", high, "]"));
}

CLI::Validator positive_number(const std::string& what) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        char* end = nullptr;
        double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !(v > 0) || !std::isfinite(v))
          return cat("expected a positive number", what.empty() ? "" : " of ", what, ", got '",
                     text, "'");
        return "";
      },
      what == "seconds" ? "SECONDS > 0" : "NUMBER > 0");
}

CLI::Validator positive_seconds() {
  return positive_number("seconds");
}

CLI::Validator not_empty(const std::string& example) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        return text.empty() ? cat("expected a value like ", example, ", got an empty one") : "";
      },
      "");
}

} // namespace tessera::tools
