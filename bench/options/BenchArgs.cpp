#include "options/BenchArgs.h"

#include <sstream>

#include "core/Error.h"
#include "tools/Commands.h"

namespace tessera::bench {

std::vector<std::string> split_list(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::stringstream s(text);
  for (std::string part; std::getline(s, part, sep);)
    if (!part.empty())
      parts.push_back(part);
  return parts;
}

namespace {

// `text` read whole by `parse` (std::stoll, std::stod: they stop at the first character that
// does not belong), or an Error saying what was expected.
template <class Parse>
auto read_whole(const std::string& text, Parse parse, const std::string& what, const char* expected,
                const std::string& usage) {
  std::size_t used = 0;
  decltype(parse(text, &used)) value{};
  try {
    value = parse(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    user_error(cat("bad ", what, " '", text, "': expected ", expected, "; ", usage));
  return value;
}

} // namespace

int64_t whole_number(const std::string& text, const std::string& what, const std::string& usage) {
  return read_whole(
      text, [](const std::string& t, std::size_t* used) { return std::stoll(t, used); }, what,
      "a whole number", usage);
}

double decimal_number(const std::string& text, const std::string& what, const std::string& usage) {
  return read_whole(
      text, [](const std::string& t, std::size_t* used) { return std::stod(t, used); }, what,
      "a number", usage);
}

std::string option_value(int argc, char** argv, int& i, const std::string& usage) {
  if (i + 1 >= argc)
    user_error(cat(argv[i], " needs a value; ", usage));
  return argv[++i];
}

std::vector<int64_t> whole_numbers(const std::string& text, const std::string& what,
                                   const std::string& usage) {
  std::vector<int64_t> numbers;
  for (const std::string& part : split_list(text, 'x'))
    numbers.push_back(whole_number(part, what, usage));
  if (numbers.empty())
    user_error(cat("bad ", what, " '", text, "': expected whole numbers separated by x; ", usage));
  return numbers;
}

bool parse_size_sweep_args(int argc, char** argv, SizeSweepArgs& args) {
  try {
    for (int a = 1; a < argc; ++a) {
      const std::string arg = argv[a];
      if (a + 1 >= argc)
        return false;
      const std::string value = argv[++a];
      if (arg == "--device") {
        args.device = value;
      } else if (arg == "--repeats") {
        args.repeats = std::stoi(value);
      } else if (arg == "--sizes-mib") {
        args.sizes_mib.clear();
        for (const auto& mib : split_list(value))
          args.sizes_mib.push_back(std::stoull(mib));
      } else {
        return false;
      }
    }
  } catch (const std::exception&) {
    return false;
  }
  return args.repeats >= 1 && !args.sizes_mib.empty();
}

const std::vector<int64_t>& GridSizes::of(int dims) const {
  if (dims < 1 || dims > 3)
    user_error(cat("grids have 1 to 3 dimensions, not ", dims));
  return by_dims[static_cast<std::size_t>(dims - 1)];
}

bool parse_size_option(const std::string& arg, const std::function<std::string()>& value,
                       GridSizes& sizes) {
  static const char* const names[] = {"--size1", "--size2", "--size3"};
  static const char* const what[] = {"--size1 (the 1-D stencils)", "--size2 (the 2-D stencils)",
                                     "--size3 (the 3-D stencils)"};
  for (int d = 1; d <= 3; ++d)
    if (arg == names[d - 1]) {
      sizes.by_dims[static_cast<std::size_t>(d - 1)] =
          tools::parse_numeric_size(value(), d, what[d - 1]);
      return true;
    }
  return false;
}

std::string size_options_usage() {
  return "[--size1 N] [--size2 AxB] [--size3 AxBxC]";
}

} // namespace tessera::bench
