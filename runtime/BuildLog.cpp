#include "runtime/BuildLog.h"

#include <algorithm>
#include <iomanip>
#include <regex>
#include <set>
#include <sstream>

#include "core/Error.h"
#include "runtime/ClError.h"
#include "runtime/Device.h"

namespace tessera::runtime {

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

int width_of(std::size_t n) {
  return static_cast<int>(std::to_string(n).size());
}

const std::size_t kMaxWholeSourceLines = 400;

} // namespace

std::vector<int> error_lines_in_log(const std::string& log) {
  // file:LINE:COL: [fatal ]error   and   file:LINE: [fatal ]error
  static const std::regex with_file(R"(:(\d+)(?::\d+)?:\s*(?:fatal\s+)?error\b)",
                                    std::regex::icase);
  // (LINE): error   and   line LINE: error
  static const std::regex parenthesised(R"(\((\d+)\)\s*:?\s*(?:fatal\s+)?error\b)",
                                        std::regex::icase);
  // error: file:LINE:COL: ...   (PoCL)
  static const std::regex error_first(R"(\b(?:fatal\s+)?error:\s*\S*:(\d+):\d+:)",
                                      std::regex::icase);
  static const std::regex worded(R"(\bline\s+(\d+)\b.*\berror\b)", std::regex::icase);
  std::set<int> found;
  for (const auto& line : split_lines(log)) {
    std::smatch m;
    if (std::regex_search(line, m, error_first) || std::regex_search(line, m, with_file) ||
        std::regex_search(line, m, parenthesised) || std::regex_search(line, m, worded)) {
      try {
        int n = std::stoi(m[1].str());
        if (n > 0)
          found.insert(n);
      } catch (const std::exception&) {
        // out of range: not a line number
      }
    }
  }
  return {found.begin(), found.end()};
}

std::string numbered_source(const std::string& source) {
  auto lines = split_lines(source);
  std::ostringstream out;
  int w = width_of(lines.size());
  for (std::size_t i = 0; i < lines.size() && i < kMaxWholeSourceLines; ++i)
    out << "  " << std::setw(w) << (i + 1) << " | " << lines[i] << "\n";
  if (lines.size() > kMaxWholeSourceLines)
    out << "  ... (" << lines.size() - kMaxWholeSourceLines << " more lines)\n";
  return out.str();
}

std::string source_excerpt(const std::string& source, const std::vector<int>& wanted, int context) {
  auto lines = split_lines(source);
  int count = static_cast<int>(lines.size());
  std::set<int> marked, shown;
  for (int n : wanted) {
    if (n < 1 || n > count)
      continue;
    marked.insert(n);
    for (int k = std::max(1, n - context); k <= std::min(count, n + context); ++k)
      shown.insert(k);
  }
  std::ostringstream out;
  int w = width_of(lines.size());
  int previous = 0;
  for (int n : shown) {
    if (previous != 0 && n != previous + 1)
      out << "  " << std::string(w, ' ') << " ...\n";
    out << (marked.count(n) ? "> " : "  ") << std::setw(w) << n << " | "
        << lines[static_cast<std::size_t>(n - 1)] << "\n";
    previous = n;
  }
  return out.str();
}

std::string build_failure_message(const Device& device, const std::string& kernel_name,
                                  const std::string& options, int code, const std::string& log,
                                  const std::string& source) {
  std::ostringstream out;
  out << "OpenCL build of kernel '" << kernel_name << "' failed on device " << device.name << " ("
      << device.platform_name << ")";
  if (!options.empty())
    out << " with options \"" << options << "\"";
  out << ": " << cl_error_name(code) << "\n";
  std::string trimmed = log;
  while (!trimmed.empty() &&
         (trimmed.back() == '\n' || trimmed.back() == '\0' || trimmed.back() == ' '))
    trimmed.pop_back();
  out << "build log:\n" << (trimmed.empty() ? "(empty)" : trimmed) << "\n";
  auto lines = error_lines_in_log(log);
  std::string excerpt = lines.empty() ? "" : source_excerpt(source, lines);
  if (!excerpt.empty())
    out << "offending source lines:\n" << excerpt;
  else
    out << "kernel source:\n" << numbered_source(source);
  return out.str();
}

} // namespace tessera::runtime
