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

// Builds a message with operator<< and throws it: `fail() << "slide expects ..." ;` throws at
// the end of the full expression.
template <class E> class Thrower {
public:
  Thrower() = default;
  Thrower(const Thrower&) = delete;
  template <class T> Thrower& operator<<(const T& value) {
    out_ << value;
    return *this;
  }
  [[noreturn]] ~Thrower() noexcept(false) { throw E(out_.str()); }

private:
  std::ostringstream out_;
};

// Usage: `if (!ok) user_error() << "split(" << m << ") expects ...";`
inline Thrower<Error> user_error() { return {}; }
inline Thrower<InternalError> internal_error() { return {}; }

} // namespace tessera
