// Open library bugs that tessera_fuzz found (tests/fuzz/KnownBugs.cpp), each replayed with
// `tessera_fuzz --replay` in a child process, under doctest::may_fail until it is fixed: then its
// case moves to tests/fuzz/Regressions.cpp and gets an ordinary test in test_regressions.cpp.
#include <doctest/doctest.h>

#include "tests/fuzz/Replay.h"

using namespace tessera;

TEST_CASE("open bugs found by the fuzzer (known bugs: may fail)" * doctest::may_fail()) {
  for (const auto& c : fuzz::known_bug_cases()) {
    CAPTURE(c.name);
    fuzz::testing::check_replay(c);
  }
}

TEST_CASE("known bug: the names the fuzzer leaves out (open_bug_names) are renamed" *
          doctest::may_fail()) {
  std::vector<std::string> names(fuzz::open_bug_names().begin(), fuzz::open_bug_names().end());
  if (names.empty())
    return;
  CHECK(fuzz::testing::names_that_break(names, false) == "");
  CHECK(fuzz::testing::names_that_break(names, true) == "");
}
