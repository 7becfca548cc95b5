// Helpers for the error suite: run a piece of code that must fail with tessera::Error and check
// that the message contains the expected parts (the primitive, what it got, what it needed).
#pragma once

#include <doctest/doctest.h>

#include <exception>
#include <functional>
#include <initializer_list>
#include <string>

#include "core/Error.h"

namespace tessera::testing {

// Empty when `f` throws a tessera::Error whose message contains every part; otherwise a
// description of what went wrong (nothing thrown, another exception type, a missing part).
inline std::string error_problem(const std::function<void()>& f,
                                 std::initializer_list<std::string> parts,
                                 std::string* message = nullptr) {
  std::string what;
  try {
    f();
    return "expected a tessera::Error, but nothing was thrown";
  } catch (const tessera::Error& e) {
    what = e.what();
  } catch (const tessera::InternalError& e) {
    return std::string("expected a tessera::Error, got an InternalError: ") + e.what();
  } catch (const std::exception& e) {
    return std::string("expected a tessera::Error, got another exception: ") + e.what();
  } catch (...) {
    return "expected a tessera::Error, got a non-standard exception";
  }
  if (message)
    *message = what;
  std::string problem;
  for (const auto& part : parts)
    if (what.find(part) == std::string::npos)
      problem += "\n  the message lacks \"" + part + "\"";
  return problem.empty() ? problem : "message: " + what + problem;
}

// The message of the tessera::Error thrown by `f`, or "" (and a failed check) if none.
inline std::string error_message(const std::function<void()>& f) {
  std::string message;
  std::string problem = error_problem(f, {}, &message);
  CHECK_MESSAGE(problem.empty(), problem);
  return message;
}

} // namespace tessera::testing

// CHECK_ERROR(expression, "part", "part", ...): the expression throws tessera::Error and its
// message contains every part.
#define CHECK_ERROR(expr, ...)                                                                     \
  do {                                                                                             \
    std::string tessera_problem_ =                                                                 \
        ::tessera::testing::error_problem([&] { (void)(expr); }, {__VA_ARGS__});                   \
    CHECK_MESSAGE(tessera_problem_.empty(), tessera_problem_);                                     \
  } while (0)
