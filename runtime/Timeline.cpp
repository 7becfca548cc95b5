#include "runtime/Timeline.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "runtime/ClError.h"
#include "runtime/OpenCL.h"

namespace tessera::runtime {

struct Timeline::Entries {
  std::vector<std::pair<std::string, cl::Event>> commands;
  std::size_t capacity = 0;
  std::size_t dropped = 0;
};

Timeline::Entries* Timeline::recording_ = nullptr;

Timeline::Timeline(std::size_t capacity) : entries_(std::make_unique<Entries>()) {
  if (recording_)
    internal_error("two timelines recorded at once");
  entries_->capacity = capacity;
  recording_ = entries_.get();
}

Timeline::~Timeline() {
  if (recording_ == entries_.get())
    recording_ = nullptr;
}

bool Timeline::recording() {
  return recording_ != nullptr;
}

void Timeline::note(const std::string& label, const cl::Event& event) {
  if (!recording_ || !event())
    return;
  if (recording_->commands.size() >= recording_->capacity) {
    ++recording_->dropped;
    return;
  }
  recording_->commands.emplace_back(label, event);
}

void Timeline::mark(cl::CommandQueue& queue, const std::string& label) {
  if (!recording())
    return;
  cl::Event marker;
  check_cl(queue.enqueueMarkerWithWaitList(nullptr, &marker), cat("marking '", label, "'"));
  note(label, marker);
}

std::size_t Timeline::size() const {
  return entries_->commands.size();
}

nlohmann::json Timeline::trace(int process) const {
  struct Span {
    const std::string* label;
    cl_ulong start, end;
  };
  std::vector<Span> spans;
  for (const auto& [label, event] : entries_->commands) {
    Span s{&label, 0, 0};
    check_cl(event.getProfilingInfo(CL_PROFILING_COMMAND_START, &s.start),
             cat("reading the start of '", label, "' for the timeline"));
    check_cl(event.getProfilingInfo(CL_PROFILING_COMMAND_END, &s.end),
             cat("reading the end of '", label, "' for the timeline"));
    spans.push_back(s);
  }
  std::stable_sort(spans.begin(), spans.end(),
                   [](const Span& a, const Span& b) { return a.start < b.start; });
  const cl_ulong origin = spans.empty() ? 0 : spans.front().start;
  nlohmann::json events = nlohmann::json::array();
  for (const auto& s : spans)
    events.push_back({{"name", *s.label},
                      {"ph", "X"},
                      {"pid", process},
                      {"tid", 0},
                      {"ts", static_cast<double>(s.start - origin) / 1e3},
                      {"dur", static_cast<double>(s.end > s.start ? s.end - s.start : 0) / 1e3}});
  return {{"traceEvents", std::move(events)},
          {"displayTimeUnit", "ms"},
          {"dropped", entries_->dropped}};
}

} // namespace tessera::runtime
