// The marching loop of a streaming kernel (stream-nd), for tests that check what it loads.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <regex>
#include <string>

namespace tessera::testing {

inline std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

// How many values of `array` the text loads: its scalar reads `array[..]` and the components
// of its aligned vector reads of a march's rows (`w[k] = (*(const __global floatN*)(array +
// (..))).sk;`, one statement a component).
inline std::size_t loaded_values(const std::string& text, const std::string& array = "x") {
  return count(text, array + "[") + count(text, "float4*)(" + array + " + (") +
         count(text, "float2*)(" + array + " + (");
}

// The first marching loop of a kernel: its loads (from `for (` to the result's first store) and
// the rest of its body.
struct March {
  std::string window; // the private array's name
  std::string loads, rest;
};

inline March first_march(const std::string& source) {
  std::smatch m;
  REQUIRE(std::regex_search(source, m, std::regex("float (win[0-9]+)\\[")));
  auto begin = source.find("for (", static_cast<std::size_t>(m.position(0)));
  REQUIRE(begin != std::string::npos);
  // The result's store: out[..] = .., or vstoreN(.., 0, out + ..) for several results along x
  // (a march's vector loads of its rows are vstoreN(.., 0, win..) into its window).
  auto store = std::min(source.find("out[", begin), source.find(", 0, out + ", begin));
  REQUIRE(store != std::string::npos);
  auto end = source.find("\n    }", store);
  return {m[1], source.substr(begin, store - begin), source.substr(store, end - store)};
}

} // namespace tessera::testing
