// A record of the commands a device ran, for a timeline viewer: while a Timeline exists, the
// places that enqueue a solver's commands (its schedules, halo exchanges, the levels solved on
// every rank) note each command's label and profiling event; trace() gives them as Chrome
// trace-event JSON (ui.perfetto.dev or chrome://tracing open it), so that the gaps where the
// device waited for the host are seen, not guessed. `tessera solve --timeline FILE` writes it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace cl {
class CommandQueue;
class Event;
} // namespace cl

namespace tessera::runtime {

class Timeline {
public:
  // Starts recording; at most one Timeline records at a time (a second is an error). Past
  // `capacity` commands the rest are counted, not kept.
  explicit Timeline(std::size_t capacity = std::size_t{1} << 20);
  ~Timeline();
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  // Whether a Timeline is recording (a caller that must create an event only to note it asks
  // first).
  static bool recording();
  // Notes a command of the recording Timeline, if any (its event profiled; held until its
  // command completes, then kept as its start and end). An event without a command (a transfer
  // of no bytes) is skipped.
  static void note(const std::string& label, const cl::Event& event);
  // Notes a marker enqueued on `queue` (a point in the device's time: a cycle's start, a host
  // step's), when recording.
  static void mark(cl::CommandQueue& queue, const std::string& label);

  // The commands as complete ("X") events of process `process`, in microseconds from the first
  // command's start, ordered by start; `{"traceEvents": [...], "dropped": N}` (N: the commands
  // past the capacity, and those that failed, which have no times).
  nlohmann::json trace(int process) const;
  std::size_t size() const;

private:
  struct Entries;
  std::unique_ptr<Entries> entries_;
  static Entries* recording_; // the entries of the Timeline recording, if any
};

} // namespace tessera::runtime
