#include "runtime/Timeline.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "runtime/ClError.h"
#include "runtime/Launch.h"
#include "runtime/OpenCL.h"

namespace tessera::runtime {

// A completed command: its label and its start and end on the device's clock (ns).
struct TimelineSpan {
  std::string label;
  cl_ulong start = 0, end = 0;
};

namespace {

TimelineSpan span_of(const std::string& label, const cl::Event& event) {
  const EventTimes t = event_times(event, cat("'", label, "' for the timeline"));
  return {label, t.start, t.end};
}

} // namespace

// Events are held only until their commands complete (settle): a driver's events cost memory,
// spans do not, so a long solve keeps one cycle's events at a time.
struct Timeline::Entries {
  std::vector<TimelineSpan> spans;
  std::vector<std::pair<std::string, cl::Event>> pending;
  std::size_t capacity = 0;
  std::size_t dropped = 0;

  void settle() {
    std::vector<std::pair<std::string, cl::Event>> running;
    for (auto& [label, event] : pending) {
      cl_int status = CL_QUEUED;
      check_cl(event.getInfo(CL_EVENT_COMMAND_EXECUTION_STATUS, &status),
               cat("asking whether '", label, "' completed, for the timeline"));
      if (status == CL_COMPLETE)
        spans.push_back(span_of(label, event));
      else if (status < 0) // (a command that failed has no times; the solve reports the error)
        ++dropped;
      else
        running.emplace_back(std::move(label), std::move(event));
    }
    pending = std::move(running);
  }
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
  if (recording_->spans.size() + recording_->pending.size() >= recording_->capacity) {
    ++recording_->dropped;
    return;
  }
  recording_->pending.emplace_back(label, event);
}

void Timeline::mark(cl::CommandQueue& queue, const std::string& label) {
  if (!recording())
    return;
  recording_->settle(); // (a cycle's start: the commands before it have mostly completed)
  cl::Event marker;
  check_cl(queue.enqueueMarkerWithWaitList(nullptr, &marker), cat("marking '", label, "'"));
  note(label, marker);
}

std::size_t Timeline::size() const {
  return entries_->spans.size() + entries_->pending.size();
}

nlohmann::json Timeline::trace(int process) const {
  std::vector<TimelineSpan> spans = entries_->spans;
  std::size_t dropped = entries_->dropped;
  for (const auto& [label, event] : entries_->pending) {
    if (event.wait() != CL_SUCCESS) { // a command that failed: no times
      ++dropped;
      continue;
    }
    spans.push_back(span_of(label, event));
  }
  std::stable_sort(spans.begin(), spans.end(),
                   [](const TimelineSpan& a, const TimelineSpan& b) { return a.start < b.start; });
  const cl_ulong origin = spans.empty() ? 0 : spans.front().start;
  nlohmann::json events = nlohmann::json::array();
  for (const auto& s : spans)
    events.push_back({{"name", s.label},
                      {"ph", "X"},
                      {"pid", process},
                      {"tid", 0},
                      {"ts", static_cast<double>(s.start - origin) / 1e3},
                      {"dur", static_cast<double>(s.end > s.start ? s.end - s.start : 0) / 1e3}});
  return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}, {"dropped", dropped}};
}

} // namespace tessera::runtime
