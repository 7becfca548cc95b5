// Open library bugs that tessera_fuzz found: one ReproducerCase each (see Reproducers.h), replayed
// by tests/fuzz/test_known_bugs.cpp under doctest::may_fail. When a bug is fixed, its case moves
// to tests/fuzz/Regressions.cpp with the expected outcome and a name that describes the
// behaviour. None is open at the moment.
#include "tests/fuzz/Reproducers.h"

#include "dsl/Dsl.h"
#include "primitives/TypeCheck.h"
#include "tests/fuzz/DiffFuzz.h"

namespace tessera::fuzz {

const std::vector<ReproducerCase>& known_bug_cases() {
  static const std::vector<ReproducerCase> cases = {};
  return cases;
}

const std::set<std::string>& open_bug_names() {
  static const std::set<std::string> names = {};
  return names;
}

nlohmann::json case_reproducer(const ReproducerCase& c) {
  CaseSpec spec;
  spec.program = c.build();
  spec.lowering = c.lowered ? "none" : "default";
  spec.split_interior = true;
  for (const auto& t : input_types(spec.program))
    spec.input_types.push_back(t);
  spec.input_seed = 1;
  nlohmann::json j = Fuzzer::reproducer(spec, {});
  j["case_name"] = c.name;
  j["description"] = c.description;
  j["dsl"] = c.dsl;
  return j;
}

} // namespace tessera::fuzz
