// The library bugs that tessera_fuzz found and that are fixed: each case replays its reproducer
// (tests/fuzz/Regressions.cpp) with `tessera_fuzz --replay` in a child process and expects the
// recorded outcome. A child process, because before the fixes some of these kernels wrote out of
// bounds and corrupted the host heap on PoCL, and one sent the code generator into an endless
// loop (the replay is killed after 20 s).
#include <doctest/doctest.h>

#include <set>

#include "core/Json.h"
#include "tests/fuzz/DiffFuzz.h"
#include "tests/fuzz/FuzzProgram.h"
#include "tests/fuzz/Replay.h"

using namespace tessera;
using fuzz::testing::check_replay;
using fuzz::testing::find_case;

namespace {

void regression(const std::string& name) {
  check_replay(find_case(fuzz::regression_cases(), name));
}

} // namespace

TEST_CASE(
    "codegen: different user functions that share a name keep their own bodies in the kernel") {
  regression(
      "codegen: different user functions that share a name keep their own bodies in the kernel");
}

TEST_CASE("codegen: a MapGlb computing an intermediate inside a work-item's function is rejected") {
  regression(
      "codegen: a MapGlb computing an intermediate inside a work-item's function is rejected");
}

TEST_CASE("codegen: a MapWrg nested in a MapGlb is rejected") {
  regression("codegen: a MapWrg nested in a MapGlb is rejected");
}

TEST_CASE("codegen: an intermediate computed with MapWrg inside a MapWrg is rejected") {
  regression("codegen: an intermediate computed with MapWrg inside a MapWrg is rejected");
}

TEST_CASE("codegen: the negation of a negative constant is valid OpenCL C (no --c)") {
  regression("codegen: the negation of a negative constant is valid OpenCL C (no --c)");
}

TEST_CASE(
    "codegen: user functions and inputs named like OpenCL C keywords, types, built-ins or the "
    "generator's variables are renamed") {
  regression("codegen: user functions and inputs named like OpenCL C keywords, types, built-ins or "
             "the generator's variables are renamed");
}

TEST_CASE("codegen: inputs whose names start with gid, lid or wg are renamed (no endless loop)") {
  regression("codegen: inputs whose names start with gid, lid or wg are renamed (no endless loop)");
}

TEST_CASE(
    "codegen: every tricky name the fuzzer uses is renamed, as a user function and as an input") {
  std::vector<std::string> names;
  for (const auto& n : fuzz::tricky_names())
    if (!fuzz::open_bug_names().count(n))
      names.push_back(n);
  CHECK(names.size() >= 70);
  CHECK(fuzz::testing::names_that_break(names, false) == "");
  CHECK(fuzz::testing::names_that_break(names, true) == "");
}

TEST_CASE("every regression case has a test case and a reproducer that round-trips") {
  std::set<std::string> names, files;
  for (const auto& c : fuzz::regression_cases()) {
    CAPTURE(c.name);
    CHECK(names.insert(c.name).second);
    CHECK(files.insert(c.file).second);
    CHECK((c.expect == "PASSED" || (c.expect == "REJECTED" && !c.expect_message.empty())));
    auto j = fuzz::case_reproducer(c);
    auto spec = fuzz::Fuzzer::spec_from_reproducer(nlohmann::json::parse(j.dump()));
    CHECK(save_expr(spec.program) == save_expr(c.build()));
  }
  CHECK(fuzz::regression_cases().size() == 13); // one TEST_CASE above each
}

TEST_CASE(
    "codegen: i32 arithmetic wraps in the kernel as in the interpreter (no signed overflow)") {
  regression(
      "codegen: i32 arithmetic wraps in the kernel as in the interpreter (no signed overflow)");
}

TEST_CASE("codegen: toPrivate of a MapLcl inside a MapSeq at work-group level is rejected") {
  regression("codegen: toPrivate of a MapLcl inside a MapSeq at work-group level is rejected");
}

TEST_CASE("lowering: a MapLcl inside toPrivate becomes MapSeq (each work-item its own copy)") {
  regression("lowering: a MapLcl inside toPrivate becomes MapSeq (each work-item its own copy)");
}

TEST_CASE("codegen: a constant boundary read twice in unrolled loops is right on PoCL") {
  regression("codegen: a constant boundary read twice in unrolled loops is right on PoCL");
}
