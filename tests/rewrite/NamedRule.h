// The catalog's rule of a name, for tests (a failure when there is none).
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

inline Rule named(const std::string& name) {
  for (const auto& list : {all_rules(), completing_rules()})
    for (const auto& r : list)
      if (r.name == name)
        return r;
  FAIL("no rule " << name);
  return {};
}

} // namespace tessera::rewrite
