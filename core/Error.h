// Errors. User mistakes (ill-typed expressions, bad sizes, bad files, missing devices) are
// reported by throwing tessera::Error with a message that names the primitive or object
// involved, what it got and what it needed. Internal invariant violations are
// tessera::InternalError: they indicate a bug in tessera, not in the user's program.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace tessera {

class Error : public std::runtime_error {
public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

class InternalError : public std::logic_error {
public:
  explicit InternalError(const std::string& message)
      : std::logic_error("internal error (a bug in tessera): " + message) {}
};

// Concatenates anything printable with operator<< into one message string.
template <class... Parts> std::string cat(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

// Usage: `if (!ok) user_error(cat("split(", m, ") expects ..."));`
[[noreturn]] inline void user_error(const std::string& message) {
  throw Error(message);
}
[[noreturn]] inline void internal_error(const std::string& message) {
  throw InternalError(message);
}

} // namespace tessera
