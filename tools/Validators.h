// Checks of option values that say what the option expects and what it got (CLI11's own print
// "Could not convert" or a range up to 1.8e308). CLI11 puts "--option: " in front of the
// message. Every command's options use them, so that one kind of mistake reads alike.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/Error.h"

namespace CLI {
class Validator;
}

namespace tessera::tools {

// An integer from `low` to `high`.
CLI::Validator integer_in(long long low, long long high);
// A finite number greater than zero; `what` says what it counts ("seconds", "a coupling").
CLI::Validator positive_number(const std::string& what);
// Seconds: positive_number("seconds").
CLI::Validator positive_seconds();
// Anything but the empty string (`--json ""`); `example` is a value that would do.
CLI::Validator not_empty(const std::string& example);

// The value `value` names among `choices`; an error naming what was given and every choice.
template <class T>
T pick(const std::string& what, const std::string& value,
       const std::vector<std::pair<std::string, T>>& choices) {
  std::string names;
  for (const auto& [name, v] : choices) {
    if (name == value)
      return v;
    names += (names.empty() ? "" : ", ") + name;
  }
  user_error(cat("unknown ", what, " '", value, "' (expected one of ", names, ")"));
}

} // namespace tessera::tools
