// Making OpenCL build failures readable: find the source lines a build log complains about
// and show them with line numbers and context.
#pragma once

#include <string>
#include <vector>

namespace tessera::runtime {

struct Device;

// 1-based source line numbers that the build log reports errors at, sorted and unique.
// Understands "<source>:12:5: error: ...", "input.cl:12:5: fatal error: ...",
// "error: /tmp/x.cl:12:5: ..." (PoCL), "1:12:5: error: ..." (Intel), "<kernel>:12:5: error"
// (NVIDIA), "(12): error ..." and "line 12: error ..." forms. Warnings are ignored.
std::vector<int> error_lines_in_log(const std::string& log);

// The whole source with right-aligned line numbers ("  12 | text").
std::string numbered_source(const std::string& source);

// The given lines with `context` lines around each, marked with '>'; gaps shown as "...".
std::string source_excerpt(const std::string& source, const std::vector<int>& lines,
                           int context = 2);

// The full message of a failed build: device, kernel, options, error name, build log, and the
// offending source lines (or the whole numbered source when the log names no line).
std::string build_failure_message(const Device& device, const std::string& kernel_name,
                                  const std::string& options, int code, const std::string& log,
                                  const std::string& source);

} // namespace tessera::runtime
