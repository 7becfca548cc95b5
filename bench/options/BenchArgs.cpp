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
