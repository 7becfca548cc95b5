// Small programs, written with the DSL, that replay through `tessera_fuzz --replay` (the format of
// tessera_fuzz's failure files; `tessera_fuzz --write-reproducers DIR` writes them all out).
//
//   regression_cases()  library bugs that tessera_fuzz found and that are fixed: each is an
//                       ordinary test in tests/fuzz/test_regressions.cpp that expects the
//                       outcome recorded here (the kernel matches the interpreter, or the code
//                       generator rejects the program with a specific message).
//   known_bug_cases()   open library bugs (tests/fuzz/KnownBugs.cpp): replayed by
//                       tests/fuzz/test_known_bugs.cpp under doctest::may_fail until fixed,
//                       then moved to the regressions.
// Replays run in a child process with a time limit: a bug may write out of bounds on the host
// (PoCL runs kernels in-process) or loop forever, which must not take the test program down.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Expr.h"

namespace tessera::fuzz {

struct ReproducerCase {
  std::string name;            // the test case's name: the behaviour that is checked
  std::string file;            // file name of the reproducer, e.g. "user-fun-name-clash.json"
  std::string description;     // what went (or goes) wrong, and where in the library
  std::string dsl;             // the program as DSL code
  std::function<Expr()> build; // the program (already lowered when `lowered` is true)
  bool lowered = true;         // run as it is (no rewrites, no lowering)
  // The expected outcome of `tessera_fuzz --replay`: "PASSED" (the kernel matches the
  // interpreter) or "REJECTED" (a tessera::Error from the lowering or the code generator),
  // and a part of the rejection message.
  std::string expect = "PASSED";
  std::string expect_message;
};

const std::vector<ReproducerCase>& regression_cases();
const std::vector<ReproducerCase>& known_bug_cases();

// Names of tricky_names() (FuzzProgram.h) that an open bug of known_bug_cases() breaks: the
// program generator leaves them out while the bug is open, so that a CI run stays green and
// still hunts everything else. Empty it when the bug is fixed.
const std::set<std::string>& open_bug_names();

// The reproducer of a case, in the format of tessera_fuzz's failure files.
nlohmann::json case_reproducer(const ReproducerCase& c);

} // namespace tessera::fuzz
