// Command-line pieces that the benchmark programs share (search_bench, cpu_peers, ...): lists,
// checked numbers, and the
// grid sizes per number of dimensions (--size1 N, --size2 AxB, --size3 AxBxC), parsed as
// `tessera explore --size` parses them.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessera::bench {

// "a,b,,c" -> {"a", "b", "c"}: the parts between separators, empty ones dropped.
std::vector<std::string> split_list(const std::string& text, char sep = ',');

// `text` as a whole number (all of it); an Error naming `what` and `usage` otherwise.
int64_t whole_number(const std::string& text, const std::string& what, const std::string& usage);
// `text` as a number (all of it, decimal or with an exponent); an Error as whole_number's.
double decimal_number(const std::string& text, const std::string& what, const std::string& usage);
// The value of option argv[i], argv[i + 1] (i moves to it); an Error naming the option and
// `usage` when it has none.
std::string option_value(int argc, char** argv, int& i, const std::string& usage);
// "8x16" -> {8, 16}: whole numbers separated by x, each checked as whole_number.
std::vector<int64_t> whole_numbers(const std::string& text, const std::string& what,
                                   const std::string& usage);

// A grid size for each number of dimensions; empty where none was given.
struct GridSizes {
  std::array<std::vector<int64_t>, 3> by_dims;
  const std::vector<int64_t>& of(int dims) const;
};

// When `arg` is --size1, --size2 or --size3: parses the option's value (taken from `value`,
// which consumes it) into `sizes` and returns true; Error for a malformed size. Otherwise
// returns false and consumes nothing.
bool parse_size_option(const std::string& arg, const std::function<std::string()>& value,
                       GridSizes& sizes);

// The options of a benchmark that measures one device at several buffer sizes (roofline,
// fill_bench): --device SPEC, --sizes-mib A,B,... and --repeats N (at least 1), over the defaults
// `args` holds. False on any other argument or a malformed value.
struct SizeSweepArgs {
  std::string device;
  std::vector<uint64_t> sizes_mib;
  int repeats = 5;
};
bool parse_size_sweep_args(int argc, char** argv, SizeSweepArgs& args);

// "[--size1 N] [--size2 AxB] [--size3 AxBxC]", for usage messages.
std::string size_options_usage();

} // namespace tessera::bench
