// Which kernel each operator at each level runs: the default lowering, a variant the user
// names, or the explored best variant for its size and device, found on first use and kept in a
// tuning database on disk.
//
// The database is one JSON file {"format": "tessera-tuning", "version": 2, "entries": {KEY: ...}}
// keyed by a hash of the device's identity and the operator's program (sizes included). An entry
// holds the chosen lowered program (as JSON), its work-group size and its measured time. It is
// written atomically (merged with what is on disk at that moment). An entry is never trusted: a
// file that does not parse, an entry that does not load, or a kernel whose output differs from
// the default lowering's on random data is dropped and explored again.
#pragma once

#include <atomic>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "multigrid/Operators.h"
#include "multigrid/Program.h"

namespace tessera::multigrid {

enum class TuneMode {
  Default, // the plain lowering of every operator: no exploration
  Explore, // the database's choice, exploring what it lacks
};

// Below this many points a kernel's launches cost more than the branch the split saves.
constexpr int64_t kSplitLaunchPoints = 64 * 64 * 64;

struct TuningOptions {
  TuneMode mode = TuneMode::Default;
  double budget_s = 10; // per operator explored
  // Operators on grids of fewer points use the plain lowering (whatever the mode or the named
  // variants): on small grids a kernel's time is its launch, which no variant changes, and
  // exploring costs more than it can gain.
  int64_t min_points = 32 * 32 * 32;
  // Operators with an interior version run it apart on grids of this many points or more
  // (OperatorSpec::split_interior; tests lower it to split small grids).
  int64_t split_min_points = kSplitLaunchPoints;
  std::filesystem::path database; // empty: tuning.json in the build-cache directory
  // Variants the user names, by operator name ("gsrb-red", "gsrb-black", "jacobi", "residual",
  // "restrict", "prolong", ...): the index in the operator's list of executable variants
  // (0: the plain lowering), on every level of at least min_points points.
  std::map<std::string, int> named;
  // With TuneMode::Explore: the operators explored, by name (check_operator_name); the others
  // take the default lowering. Empty: every operator.
  std::set<std::string> explore_only;
  std::function<void(const std::string&)> log; // progress lines (exploring, loaded, rebuilt)
  // Set (by Ctrl-C) to end an exploration early: its best so far is used, not recorded.
  const std::atomic<bool>* stop = nullptr;
};

// Error unless `name` is the name of an operator the solver builds (a key of
// TuningOptions::named), listing the names.
void check_operator_name(const std::string& name);

// One operator at one level: its name (for the breakdown and for named variants), the level
// whose extents the program has, and how to build the program for any extents of that rank.
struct OperatorSpec {
  std::string name;
  std::vector<int64_t> extents;
  std::function<Expr(const std::vector<int64_t>&)> build;
  // The kernel is launched with its output buffer one of its inputs (CodegenOptions::in_place):
  // the default lowering only, whatever the mode (the explorer times kernels out of place).
  bool in_place = false;
  // A red-black half-sweep that updates the points whose index sum plus colour_parity is even
  // (and leaves the others as they are): its interior kernel computes those points alone
  // (CodegenOptions::colour_parity), in place on a CPU, and out of place where the interior is a
  // form of its own (each work-item copies the other point of its pair from u). -1: not one.
  int colour_parity = -1;
  // On grids of at least TuningOptions::split_min_points points, the default lowering's interior
  // runs as a kernel of its own (CompiledKernel::interior): on a CPU the same kernel without its
  // boundary branch (where the CPU's default is not the vectorized kernel, cpu_default: in place),
  // on every device the interior form below. A whole grid on one device (a distributed box launches
  // its parts itself).
  bool split_interior = false;
  // Where the operator has a form of its own for the points away from its boundary (HPGMG-FV's
  // 4th order without its extrapolations), that form, exact on the points interior_margin or
  // more from every edge: with split_interior its kernel runs on the interior on every device
  // (a GPU too: the whole form's boundary code is what makes it slow there).
  std::function<Expr(const std::vector<int64_t>&)> interior_build;
  int64_t interior_margin = 0;
  // Where the operator has forms for the parts around the interior (HPGMG-FV's 4th order with
  // the extrapolations of the dimensions a part reaches the ends of alone), the form of a part
  // within the interior along the level's dimensions in `inside` (bit k: dimension k, outermost
  // first; slab_inside): exact interior_margin or more from the ends of those, anywhere along
  // the others. With the interior form, its kernels run on the parts (CompiledKernel::slabs).
  std::function<Expr(const std::vector<int64_t>&, unsigned inside)> slab_build;
  // On a GPU, with slab_build, on ranges of kSlabRegionPoints or more: the parts are the interior's
  // 3^d - 1 faces, edges and corners, each with the form of its own mask (a face's extrapolations
  // along one dimension), the parts of one mask in one launch (CompiledKernel::slab_regions),
  // rather than 2d slabs whose outermost pair spans every edge with the whole form. A CPU keeps the
  // slabs (fewer kernels for PoCL to build).
  bool slab_regions = false;
  // The default lowering's work-group on a GPU (OpenCL's x first) where each size divides the
  // kernel's range; empty, or elsewhere: the driver's choice (default_work_group).
  std::vector<int64_t> gpu_work_group;
};

// The work-group of a default lowering: `gpu` on a device other than a CPU where it has the
// range's dimensions and each size divides the range's; else empty (the driver's).
runtime::Range default_work_group(const std::vector<int64_t>& gpu, const runtime::Range& global,
                                  const std::string& device_type);

// From this many points of its range a split launch's parts by inside mask (7 launches in 3-D)
// cost less than its slabs (6): one F-cycle of HPGMG-FV's 4th order at 512^3 on an H200 spent
// 4.8 against 12.2 ms in the smoother's parts at 512^3, 4.2 against 6.7 at 256^3, but 3.5
// against 3.2 at 128^3 and 3.8 against 3.4 ms below (OperatorSpec::slab_regions).
constexpr int64_t kSlabRegionPoints = 256 * 256 * 256;

class Tuner {
public:
  Tuner(runtime::Session& session, TuningOptions options);
  // The compiled kernel for the operator; the same spec twice gives the same kernel.
  std::shared_ptr<CompiledKernel> kernel(const OperatorSpec& spec);
  runtime::Session& session() const { return *session_; }
  const std::filesystem::path& database() const { return database_; }
  int explored() const { return explored_; }
  int from_database() const { return from_database_; }
  int rebuilt() const { return rebuilt_; }

private:
  std::shared_ptr<CompiledKernel> tuned(const OperatorSpec& spec, const Expr& program,
                                        const std::string& key);
  std::shared_ptr<CompiledKernel> from_entry(const OperatorSpec& spec, const Expr& program,
                                             const std::string& key);
  void log(const std::string& line) const;
  // On a CPU, an operator of a whole grid of min_points or more without forms of its own: its
  // vectorize-4 completion (PoCL vectorises the 4 results of a work-item; the explorer's choice
  // for the half-sweeps and residuals); null elsewhere or where it does not apply.
  std::shared_ptr<CompiledKernel> cpu_default(const OperatorSpec& spec, const Expr& program) const;
  void add_interior(CompiledKernel& k, const Expr& lowered, const OperatorSpec& spec) const;

  runtime::Session* session_;
  TuningOptions options_;
  std::filesystem::path database_;
  std::map<std::string, std::shared_ptr<CompiledKernel>> memo_;
  int explored_ = 0, from_database_ = 0, rebuilt_ = 0;
};

} // namespace tessera::multigrid
