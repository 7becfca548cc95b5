// A program of kernels: the solver's unit of execution on one device. Buffers come from a memory
// plan (allocated once, reused by every run); a schedule is a list of steps (kernel launches,
// fills, copies) over those buffers that is enqueued back to back with no host round trip, each
// step timed by its profiling event and accounted to an operator label.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "runtime/Buffer.h"
#include "runtime/Kernel.h"
#include "runtime/Range.h"

namespace tessera::runtime {
class Session;
}

namespace tessera::multigrid {

// A generated kernel for the session's device, with its launch sizes. The driver builds it on
// its first use (a launch, or a question about its limits): a kernel that a fused or one-launch
// form replaces is never built (a 64^3 solve built 24 of its 35 programs for nothing).
struct CompiledKernel {
  codegen::Kernel code;
  runtime::Range global, local;
  // `local` is cpu_work_group's choice for `global` (a CPU, a kernel that leaves its work-group
  // open): a launch of part of the range chooses again for the part (Schedule::launch_part).
  bool local_for_cpu = false;
  std::string variant; // which variant it is ("default lowering", "v12 local=32x8", ...)
  // The share of the output's elements a launch writes (for the bytes it must move): an
  // in-place red-black half-sweep writes half of them.
  double written_fraction = 1;
  runtime::Session* session = nullptr;
  // The interior version (codegen::CodegenOptions::interior_only) of this kernel on a CPU, or of
  // the operator's own interior form (OperatorSpec::interior_build), exact on the work-items
  // interior_margin or more from every end of the range: a launch runs it there and this kernel
  // on the rest (Schedule::launch).
  std::shared_ptr<CompiledKernel> interior;
  int64_t interior_margin = 0;
  // With the interior, the kernels of the parts around it by their inside mask (slab_inside:
  // bit k set where a part lies within the interior along the level's dimension k, outermost
  // first; OperatorSpec::slab_build); an empty list or entry: this kernel on that part.
  std::vector<std::shared_ptr<CompiledKernel>> slabs;
  // The parts around the interior are its 3^d - 1 faces, edges and corners, each with the
  // form of its own mask, not 2d slabs spanning the edges (OperatorSpec::slab_regions): the
  // parts of one mask in one launch, its kernel's index gaps (region_gaps) skipping the interior
  // along the dimensions the mask lacks, so 2^d - 1 launches around the interior.
  bool slab_regions = false;

  // The driver's kernel, built now if it was not yet (throws tessera::Error when it fails).
  runtime::Kernel& built();
  bool is_built() const { return built_.has_value(); }

private:
  std::optional<runtime::Kernel> built_;
};
// `code` for the session's device (built on first use); `local` overrides the kernel's own
// work-group size.
std::shared_ptr<CompiledKernel> compile(runtime::Session& session, codegen::Kernel code,
                                        std::vector<int64_t> local, std::string variant);

// The inside mask of a split launch's slab along `range_axis` (OpenCL's x first): it spans the
// interior along the range's axes above it (their slabs come first) and the whole range along
// those below, so it lies within the interior along the level's dimensions 0 .. dims - 2 -
// range_axis (outermost first).
unsigned slab_inside(int dims, int range_axis);

// The index gaps (codegen::CodegenOptions::index_gaps) of the kernel that computes, in one
// launch, the parts of a split launch of `global` with the inside mask `inside`: along the
// dimensions outside it the `margin` points at each end, the interior skipped.
std::array<std::array<int64_t, 2>, 3> region_gaps(unsigned inside, const runtime::Range& global,
                                                  int64_t margin);

// A GPU's work-group for a part of a kernel's range narrower than a warp along its first
// (contiguous) axis, as a split launch's slabs along x are: the part's whole width there, then
// the largest divisors of the next axes, up to 256 work-items (a size every kernel launches on
// NVIDIA's and AMD's GPUs). NVIDIA's own choice for such a range ran HPGMG-FV's 4th-order slabs
// along x at a twelfth of the speed of the same points along z (an H200, 256^3: 845 against
// 70 us a slab).
runtime::Range narrow_part_group(const std::vector<std::size_t>& size,
                                 std::size_t max_work_group_size,
                                 const std::vector<std::size_t>& max_work_item_sizes);

// A GPU's work-group for an interior launched on whole rows (codegen::Kernel::interior_rows):
// 32 work-items along the row, 4 rows, one plane (the largest divisors up to those). On an H200
// HPGMG-FV's 4th-order half-sweep and residual ran 1.25-1.31x faster so than offset by the
// margin with the driver's work-group; 32x4x2, 64x4x1, 32x2x4, 64x2x2 and 128x2x1 came between
// (bench/interior_bench, 256^3 and 512^3).
runtime::Range interior_rows_group(const std::vector<std::size_t>& size,
                                   std::size_t max_work_group_size,
                                   const std::vector<std::size_t>& max_work_item_sizes);

struct BufferId {
  int index = -1;
  bool operator==(const BufferId&) const = default;
};

// The memory plan: every device buffer of the solver, allocated once.
class DeviceMemory {
public:
  explicit DeviceMemory(runtime::Session& session) : session_(&session) {}
  BufferId allocate(const std::string& name, ScalarKind kind, int64_t count);
  const runtime::RawBuffer& buffer(BufferId id) const;
  runtime::RawBuffer& buffer(BufferId id);
  ScalarKind kind(BufferId id) const;
  int64_t count(BufferId id) const;
  const std::string& name(BufferId id) const;
  std::size_t total_bytes() const;
  std::size_t largest_bytes() const; // of one buffer
  runtime::Session& session() const { return *session_; }

private:
  struct Entry {
    std::string name;
    ScalarKind kind;
    int64_t count;
    runtime::RawBuffer buffer;
  };
  const Entry& entry(BufferId id) const;
  runtime::Session* session_;
  std::vector<Entry> entries_;
};

// Time spent per operator label.
struct OperatorTime {
  int64_t launches = 0;
  double ms = 0;
};
using Breakdown = std::map<std::string, OperatorTime>;

class Schedule {
public:
  // The output may be one of the inputs only for a kernel generated in place
  // (codegen::CodegenOptions::in_place). A kernel with an interior version runs as that on the
  // interior and as itself on the slabs around it, one launch each.
  void launch(const std::string& label, std::shared_ptr<CompiledKernel> kernel,
              std::vector<BufferId> inputs, BufferId output);
  // A kernel with an interior version on the parts around the interior alone (the interior
  // computed by another kernel: Fv4Step.h).
  void launch_around_interior(const std::string& label, std::shared_ptr<CompiledKernel> kernel,
                              std::vector<BufferId> inputs, BufferId output);
  // The kernel on a part of its range: work-items [offset, offset + global) along each axis
  // (a kernel whose work-items index points by get_global_id alone; see offsettable).
  void launch_part(const std::string& label, std::shared_ptr<CompiledKernel> kernel,
                   std::vector<BufferId> inputs, BufferId output, runtime::Range offset,
                   runtime::Range global);
  void fill_zero(const std::string& label, BufferId buffer);
  void copy(const std::string& label, BufferId from, BufferId to);
  // Work of the host between two steps (a halo exchange, a coarse grid moved to another rank):
  // the queue is finished first, and `work` leaves its results on the device when it returns.
  // Its time is not profiled (the breakdown counts device time). `writes`: the buffers it
  // changes. With `ordered_by_queue`, the queue is not finished first: `work` enqueues its
  // transfers on the session's (in-order) queue and waits for what it reads itself, and leaves
  // its writes enqueued before the steps after it (one wait instead of three on the device).
  void host(const std::string& label, std::function<void(DeviceMemory&)> work,
            std::vector<BufferId> writes, bool ordered_by_queue = false);
  // One launch of a kernel whose parameters are `buffers` in order, each read and written as
  // the kernel likes (the coarse levels' cycle in one launch: multigrid/CoarseCycle.h); `bytes`:
  // what it must move.
  void launch_over(const std::string& label, std::shared_ptr<CompiledKernel> kernel,
                   std::vector<BufferId> buffers, double bytes);
  // Appends other's steps; what it knows of halos afterwards is what `other` knew.
  void append(const Schedule& other);

  // How deep a buffer's halo (a rank's box beyond its block: multigrid/Layout.h) is known to be
  // exact after the steps so far; 0 for a buffer this schedule knows nothing of, so a new
  // schedule assumes nothing of the steps that will run before it. Every step that writes a
  // buffer forgets it; the layout that appended the step records what it knows.
  int exact_halo(BufferId b) const;
  void set_exact_halo(BufferId b, int depth);
  // The same per red-black colour (the parity of a point's global index sum): a half-sweep
  // leaves the other colour as exact as it was, and an exchange may carry one colour alone.
  int exact_halo(BufferId b, int colour) const;
  void set_exact_halo(BufferId b, int colour0, int colour1);

  // Enqueues every step, waits for the queue once, and adds the profiled time of each step to
  // `breakdown` under its label (when given). Returns the total device time in milliseconds.
  // The kernels the steps launch that are not built yet are built first, as one program where
  // that pays (compile/KernelRunner.h's build_together: PoCL parses and links a program in its
  // build, about 0.1 s each, and compiles each kernel at its first launch); a kernel no step
  // launches (one a fused or one-launch form replaces) is not built.
  double run(DeviceMemory& memory, Breakdown* breakdown = nullptr) const;
  // run() in two halves, so that the host waits for the device once where something else
  // follows the steps: enqueue() issues every step without waiting (a host step finishes the
  // queue first) and returns their events; collect() reads them once the queue has finished
  // them (a blocking read enqueued after them: a cycle's residual norm).
  // Profiling::EveryStep gives every step an event: collect() sums their times and adds them to
  // `breakdown`. Profiling::Span gives events to the first and last launches (and the fills)
  // alone: collect() returns the time from the first event's start to the last one's end, the
  // idle gaps between included, and leaves `breakdown` as it is. An event costs a launch about
  // 4 us on an H200 (1.2 ms of a 512^3 F-cycle's 300 launches).
  enum class Profiling { EveryStep, Span };
  std::vector<cl::Event> enqueue(DeviceMemory& memory,
                                 Profiling profiling = Profiling::EveryStep) const;
  double collect(const std::vector<cl::Event>& events, Breakdown* breakdown = nullptr) const;
  // The bytes each step must move (every input read once, the output written once; a fill
  // writes its buffer, a copy reads and writes it), summed per label.
  std::map<std::string, double> bytes_by_label(const DeviceMemory& memory) const;
  std::size_t size() const { return steps_.size(); }

  struct Step {
    // Over: launch_over's kernel, its buffers in `inputs`, no output.
    enum Kind { Launch, Fill, Copy, Host, Over } kind;
    std::string label;
    std::shared_ptr<CompiledKernel> kernel;
    std::vector<BufferId> inputs;
    BufferId output;
    std::function<void(DeviceMemory&)> work;
    double bytes = 0;              // Over: what it must move
    bool ordered_by_queue = false; // a Host step that needs no finished queue
    runtime::Range offset, part;   // a Launch of part of the kernel's range (empty: all)
    // The share of the output's points the launch computes where `part` does not say it (a
    // colour-strided interior: each row's work-items span the whole row); 0: part's share.
    double share = 0;
    runtime::Range local; // a Launch's own work-group (empty: the kernel's)
  };
  const std::vector<Step>& steps() const { return steps_; }
  // Appends a step as it is (a schedule rewritten step by step: CoarseCycle::fuse).
  void push(const Step& step);

private:
  void add_launch(const std::string& label, std::shared_ptr<CompiledKernel> kernel,
                  std::vector<BufferId> inputs, BufferId output);
  // The interior version on the interior, the kernel (or the slabs' own) on the slabs around it.
  void launch_split(const std::string& label, const std::shared_ptr<CompiledKernel>& kernel,
                    const std::vector<BufferId>& inputs, BufferId output,
                    bool with_interior = true);

  std::vector<Step> steps_;
  std::map<int, std::array<int, 2>> exact_halos_; // by BufferId::index, per colour
  // The launches were checked (runtime::check_launch) by an earlier enqueue: a schedule run
  // every cycle asks the driver about its kernels once.
  mutable bool checked_ = false;
};

} // namespace tessera::multigrid
