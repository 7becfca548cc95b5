#include "explore/VariantNames.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "core/Error.h"

namespace tessera::explore {

namespace {

const char* const kBaselineNote = "(the plain MapGlb lowering: the baseline)";

// `text` with runs of white space as one space and none at either end.
std::string squeezed(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ')
        out += ' ';
    } else {
      out += c;
    }
  }
  if (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

// A name as the user gave it, without what `tessera variants` prints around the name itself.
std::string bare_name(const std::string& which) {
  std::string name = squeezed(which);
  if (!name.empty() && name.front() == '[')
    if (auto close = name.find("] "); close != std::string::npos)
      name = name.substr(close + 2);
  const std::string note = kBaselineNote;
  if (name.size() > note.size() && name.ends_with(note))
    name = squeezed(name.substr(0, name.size() - note.size()));
  return name;
}

bool is_number(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

} // namespace

std::string variant_name(const Derivation& history) {
  std::string name;
  for (const auto& line : history.lines())
    name += (name.empty() ? "" : "; ") + line;
  return name;
}

std::size_t find_variant(const Variants& variants, const std::string& which,
                         const std::string& program, int depth) {
  const std::size_t count = variants.variants.size();
  const std::string listed =
      cat(program, " has ", count, " variants at depth ", depth, " (0 to ", count - 1,
          "; `tessera variants ", program, "` lists them with their names)");
  const std::string text = squeezed(which);
  if (is_number(text)) {
    if (text.size() > 18 || std::stoll(text) >= static_cast<long long>(count))
      user_error(cat("no variant ", text, ": ", listed));
    return static_cast<std::size_t>(std::stoll(text));
  }
  const std::string name = bare_name(which);
  std::vector<std::size_t> matches;
  for (std::size_t i = 0; i < count; ++i)
    if (variant_name(variants.variants[i].history) == name)
      matches.push_back(i);
  if (matches.size() == 1)
    return matches.front();
  if (matches.size() > 1) { // two derivations print alike: the number tells them apart
    std::string numbers;
    for (std::size_t i : matches)
      numbers += cat(numbers.empty() ? "" : ", ", i);
    user_error(cat("the variant name '", name, "' names ", matches.size(), " variants of ", program,
                   " (", numbers, "): give its number"));
  }
  std::string absent;
  for (const auto& line : variants.absent)
    absent += cat("; absent ", line);
  user_error(cat("no variant named '", name,
                 "' here (a variant as `tessera variants` names it, "
                 "e.g. 'mapping: global', or its number): ",
                 listed, absent));
}

} // namespace tessera::explore
