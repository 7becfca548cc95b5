// describe's inverse, for the files that keep a history as text (reports, launch descriptions,
// the solver's tuning entries, older tuning databases' signatures): "split-join at [1,0]
// {chunk=4}", a bare rule name, or a step without its position ("split-join {chunk=4}").
#include <algorithm>
#include <cctype>
#include <charconv>

#include "core/Error.h"
#include "rewrite/Rule.h"

namespace tessera::rewrite {

namespace {

int64_t integer(const std::string& text, const std::string& step, const std::string& where) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty())
    user_error(cat(where, ": '", text, "' in the step '", step, "' is not an integer"));
  return value;
}

// "1,0" -> {1, 0}.
Position position_of(const std::string& list, const std::string& step, const std::string& where) {
  Position p;
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t comma = list.find(',', start);
    if (comma == std::string::npos)
      comma = list.size();
    p.push_back(static_cast<int>(integer(list.substr(start, comma - start), step, where)));
    start = comma + 1;
  }
  return p;
}

// "chunk=4, tile=16" -> {chunk: 4, tile: 16}.
Params params_of(const std::string& list, const std::string& step, const std::string& where) {
  Params params;
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t comma = list.find(", ", start);
    if (comma == std::string::npos)
      comma = list.size();
    std::string item = list.substr(start, comma - start);
    std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      user_error(cat(where, ": '", item, "' in the step '", step, "' is not name=value"));
    params[item.substr(0, eq)] = integer(item.substr(eq + 1), step, where);
    start = comma + 2;
  }
  return params;
}

} // namespace

Step parse_step(const std::string& text, const std::string& where) {
  const std::string expected = "expected 'rule at [i,j] {name=value, ...}' or a rule's name";
  std::size_t name_end = text.find(' ');
  Step step;
  step.rule = text.substr(0, name_end);
  if (step.rule.empty() || !std::all_of(step.rule.begin(), step.rule.end(), [](char c) {
        return std::islower(static_cast<unsigned char>(c)) ||
               std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '_';
      }))
    user_error(cat(where, ": the step '", text, "' does not start with a rule's name; ", expected));
  if (name_end == std::string::npos)
    return step;
  std::string rest = text.substr(name_end);
  if (rest.rfind(" at [", 0) == 0) { // without it: a step whose position was left out
    std::size_t close = rest.find(']');
    if (close == std::string::npos)
      user_error(cat(where, ": the step '", text, "' has an unclosed position; ", expected));
    step.position = position_of(rest.substr(5, close - 5), text, where);
    rest = rest.substr(close + 1);
  }
  if (rest.empty())
    return step;
  if (rest.size() < 3 || rest.rfind(" {", 0) != 0 || rest.back() != '}')
    user_error(cat(where, ": the step '", text, "' has parameters not in braces; ", expected));
  step.params = params_of(rest.substr(2, rest.size() - 3), text, where);
  return step;
}

} // namespace tessera::rewrite
