#include "explore/DeviceEvaluator.h"

#include <set>

#include "core/Error.h"

namespace tessera::explore {

std::string kernel_identifier(const std::string& name) {
  std::string id;
  for (char c : name)
    id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  // OpenCL C's keywords and type names cannot name a kernel ("restrict", "half", ...).
  static const std::set<std::string> reserved = {
      "auto",     "bool",     "break",  "case",    "char",     "const",     "constant",
      "continue", "default",  "do",     "double",  "else",     "enum",      "extern",
      "float",    "for",      "global", "goto",    "half",     "if",        "inline",
      "int",      "kernel",   "local",  "long",    "private",  "read_only", "read_write",
      "register", "restrict", "return", "short",   "signed",   "size_t",    "sizeof",
      "static",   "struct",   "switch", "typedef", "uchar",    "uint",      "ulong",
      "union",    "unsigned", "ushort", "void",    "volatile", "while",     "write_only"};
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0])) || reserved.count(id))
    id = std::string("k_").append(id);
  return id;
}

std::size_t cells(const std::vector<int64_t>& extents) {
  std::size_t n = 1;
  for (auto e : extents)
    n *= static_cast<std::size_t>(e);
  return n;
}

std::string shorten(std::string text, std::size_t limit) {
  if (text.size() > limit)
    text = text.substr(0, limit) + "\n... (" + std::to_string(text.size() - limit) +
           " more characters)";
  return text;
}

// Best (fastest ok point, preferring fully timed ones), baseline and speedup from the points.
void summarise(Report& report, int full_repeats) {
  report.baseline.reset();
  report.best.reset();
  report.speedup = 0;
  if (report.find(0))
    report.baseline = 0;
  const PointResult* best = nullptr;
  for (int pass = 0; pass < 2 && !best; ++pass)
    for (const auto& p : report.points) {
      if (p.status != PointStatus::Ok || (pass == 0 && p.repeats < full_repeats))
        continue;
      if (!best || p.median_ms < best->median_ms)
        best = &p;
    }
  if (best)
    report.best = best->id;
  const PointResult* base = report.baseline ? report.find(*report.baseline) : nullptr;
  if (best && base && base->status == PointStatus::Ok && best->median_ms > 0)
    report.speedup = base->median_ms / best->median_ms;
}

} // namespace tessera::explore
