#include "core/SizeBinding.h"

#include <optional>

#include "core/Error.h"

namespace tessera {

void collect_size_equations(const Data& d, const Type& t, std::vector<SizeEquation>& out) {
  if (!t.is_array() || !d.is_array())
    return;
  out.push_back({t.length(), static_cast<int64_t>(d.size())});
  if (d.size() > 0)
    collect_size_equations(d[0], t.element(), out);
}

void collect_size_equations(const std::vector<int64_t>& shape, const Type& t,
                            std::vector<SizeEquation>& out) {
  const Type* level = &t;
  for (int64_t extent : shape) {
    if (!level->is_array())
      return;
    out.push_back({level->length(), extent});
    level = &level->element();
  }
}

namespace {

// length(v = x) with the other variables from `sizes`; nullopt where it cannot be evaluated.
std::optional<int64_t> length_at(const SizeEquation& eq, const std::string& v, int64_t x,
                                 SizeValues& sizes) {
  sizes[v] = x;
  std::optional<int64_t> result;
  try {
    result = eq.length.evaluate(sizes);
  } catch (const Error&) {
  }
  sizes.erase(v);
  return result;
}

// The value x >= 1 of v with length(x) = actual, if there is one. Affine lengths are solved
// directly; others (floor divisions of v) are searched, assuming the length grows with v.
std::optional<int64_t> solve_one(const SizeEquation& eq, const std::string& v, SizeValues& sizes) {
  auto g1 = length_at(eq, v, 1, sizes), g2 = length_at(eq, v, 2, sizes),
       g3 = length_at(eq, v, 3, sizes);
  if (!g1 || !g2 || !g3)
    return std::nullopt;
  auto holds = [&](int64_t x) { return x >= 1 && length_at(eq, v, x, sizes) == eq.actual; };
  int64_t slope = *g2 - *g1;
  if (slope != 0 && *g3 - *g2 == slope) {
    int64_t offset = eq.actual - *g1;
    if (offset % slope != 0)
      return std::nullopt;
    int64_t x = 1 + offset / slope;
    return holds(x) ? std::optional<int64_t>(x) : std::nullopt;
  }
  if (*g1 > eq.actual)
    return std::nullopt;
  // Smallest x with length(x) >= actual, for a length that does not decrease.
  constexpr int64_t limit = int64_t{1} << 31;
  int64_t lo = 1, hi = 2;
  for (auto g = length_at(eq, v, hi, sizes); g && *g < eq.actual; g = length_at(eq, v, hi, sizes))
    if ((hi *= 2) > limit)
      return std::nullopt;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    auto g = length_at(eq, v, mid, sizes);
    if (!g)
      return std::nullopt;
    if (*g < eq.actual)
      lo = mid + 1;
    else
      hi = mid;
  }
  return holds(lo) ? std::optional<int64_t>(lo) : std::nullopt;
}

} // namespace

void solve_sizes(const std::vector<SizeEquation>& equations, SizeValues& sizes) {
  for (bool progress = true; progress;) {
    progress = false;
    for (const auto& eq : equations) {
      std::vector<std::string> unknown;
      for (const auto& v : eq.length.variables())
        if (!sizes.count(v))
          unknown.push_back(v);
      if (unknown.size() != 1)
        continue;
      if (auto x = solve_one(eq, unknown[0], sizes)) {
        sizes[unknown[0]] = *x;
        progress = true;
      }
    }
  }
}

void check_assumptions(const std::vector<Assumption>& assumptions, const SizeValues& sizes,
                       const std::string& where) {
  for (const auto& a : assumptions) {
    int64_t value = 0;
    try {
      value = a.must_be_zero.evaluate(sizes);
    } catch (const Error& e) {
      user_error(cat(where.empty() ? "" : where + ": ", "cannot check the condition '", a.message,
                     "': ", e.what()));
    }
    if (value == 0)
      continue;
    // Name the sizes the assumption was checked with: "(with N = 10)".
    std::string bound;
    for (const auto& name : a.must_be_zero.variables())
      if (auto it = sizes.find(name); it != sizes.end())
        bound += cat(bound.empty() ? "" : ", ", name, " = ", it->second);
    std::string message = bound.empty() ? a.message : cat(a.message, " (with ", bound, ")");
    user_error(where.empty() ? message : cat(where, ": ", message));
  }
}

} // namespace tessera
