// The kernel emitter: walks a lowered program once, composing views for data-layout
// primitives and building loops and statements (KernelIR.h) for computing ones.
//
//   value(e)            the view of a value expression; computations it needs are built
//                       first and materialised in private or local memory
//   write(e, dest)      builds the computation of e straight into the destination view; Join,
//                       Split and Transpose on the way out become views of the destination
//
// Where a Map's iterations run is decided by its kind (MapGlb/MapWrg/MapLcl/MapSeq); where an
// intermediate lives by toGlobal/toLocal/toPrivate or, without one, by who computes and who
// reads it (see EmitValues.cpp).
//
// The emitter builds the kernel's statements (KernelIR.h) rather than text: passes over them
// drop unused user functions and choose the work-group sizes left open, and PrintOpenCL.cpp
// prints them.
//
// The emitter's members live in one file per concern: Emitter.cpp (output helpers and the
// kernel), EmitValues.cpp, EmitWrites.cpp, EmitLoops.cpp, EmitInterior.cpp (boundary/interior
// split), EmitLanes.cpp (lane mode), Scan.cpp, Storage.cpp, PointFunction.cpp; the StreamSteps
// kernel is a class of its own, StreamStepsWriter.h.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/CExpr.h"
#include "codegen/Kernel.h"
#include "codegen/KernelIR.h"
#include "codegen/StreamSums.h"
#include "codegen/UserFunctions.h"
#include "codegen/Vector.h"
#include "codegen/View.h"
#include "primitives/TypeCheck.h"

namespace tessera::codegen {

// Does `e` (a function or value) contain a Map of the given kind anywhere?
bool contains_map(const Expr& e, MapKind kind);

// A value during emission: how to read it and its type.
struct Operand {
  View view;
  Type type;
};

class StreamStepsWriter;

class Emitter : private Generator {
  // The StreamSteps kernel (codegen/StreamStepsWriter.h) appends its parts through the
  // emitter's statements, names and launch.
  friend class StreamStepsWriter;

public:
  Emitter(Expr program, CodegenOptions options);
  Emitter(const Emitter&) = delete; // open_ points into body_
  Emitter& operator=(const Emitter&) = delete;
  Kernel run();
  // Kernels written around one work-item's computation (codegen/TimeTileKernel.cpp): the
  // statements that compute f of a value read through `arg` into the private scalar `result`
  // (declared by the caller), expressions printed, and then the source of what the emitted
  // statements call (the fp64 pragma, index helpers, user functions). codegen/PointFunction.cpp.
  Block point_block(const Expr& f, const View& arg, const Type& arg_type, const std::string& result,
                    ScalarKind kind);
  std::string helpers_source();

private:
  // ---- expressions
  // A view's access; the emitter applies the functions of Generate views on the way.
  Access resolve(const View& view, const Path& path) { return codegen::resolve(view, path, this); }
  View element(const Expr& f, const ArithExpr& index) override;
  Operand value(const Expr& e);
  Operand apply_value(const Expr& f, const std::vector<Operand>& args);
  void write(const Expr& e, const View& dest);
  View output_view(const Expr& f, const View& dest, const Type& arg_type);
  void apply_write(const Expr& f, const std::vector<Operand>& args, const View& dest);

  // ---- computing primitives
  void write_map(const Node& f, const Operand& in, const View& dest, const Type& result);
  void write_reduce(const Node& f, const Operand& in, const View& dest);
  void write_scan(const Node& f, const Operand& in, const View& dest); // codegen/Scan.cpp
  bool stream_windows(const Node& f, const Operand& in, const View& dest);
  // A march's load (codegen/Stream.cpp): element `index` of `source`, an array of `element`s,
  // into the private array `array` from `first` on, row-major, a row (the innermost axis) a
  // statement, so that contiguous runs read as vectors (Piece::row_loads).
  void load_element(const View& source, const Type& element, const ArithExpr& index,
                    const std::string& array, int64_t first);
  // codegen/StreamSums.cpp: a march whose step is a sum by plane keeps partial sums.
  bool stream_plane_sums(const PlaneSumStep& step, const View& source, const Type& window,
                         const Operand& in, const View& dest);
  void write_iterate(const Node& f, const Operand& in, const View& dest);
  // The whole kernel of 2.5-D blocked time steps (codegen/StreamStepsWriter.h).
  void write_stream_steps(const Node& f, const std::vector<Operand>& args, const View& dest);
  void write_user_fun(const Node& f, const std::vector<Operand>& args, const View& dest);
  void copy(const Operand& src, const View& dest);
  // dest = value; in lane mode a vector store or a private vector assignment.
  void assign(const View& dest, const Access& value);
  // Lane mode's store of `value` into `target` (a memory access), where `guard` holds
  // (codegen/EmitLanes.cpp).
  void store_lanes(const Access& target, const std::optional<ArithExpr>& guard,
                   const Access& value);
  Operand materialize(const Expr& f, const std::vector<Operand>& args, const Type& result,
                      std::optional<AddressSpace> requested);
  // Storage for an intermediate (codegen/Storage.cpp): `element` under the array levels
  // `shape`, tuples as one array per component; `whole` is the intermediate's type.
  View storage(const std::vector<ArithExpr>& shape, const Type& element, AddressSpace space,
               const Type& whole);
  std::shared_ptr<Memory> allocate(const Type& type, AddressSpace space, const Type& whole);

  // ---- lane mode: N neighbouring results per work-item (codegen/Vector.h)
  bool write_vector_lanes(const Node& f, const Operand& in, const View& dest, const Type& result);
  Piece value_piece(const Access& value, ScalarKind kind); // a scalar, or an N-vector in lane mode
  std::string declared_type(ScalarKind kind);              // float or floatN
  // Lane mode meets something it does not cover: records why (the first reason), and the
  // emitter finishes the lanes' statements quickly (write and apply_write return at once);
  // write_vector_lanes then drops them and reports that the scalar code is needed.
  void cannot_vectorise(const std::string& reason);

  // ---- loops
  struct Loop {
    std::string var_name;
    ArithExpr var;
    ArithExpr extent;
  };
  void parallel_loop(const Node& map, const ArithExpr& n,
                     const std::function<void(ArithExpr)>& body);
  void sequential_loop(const ArithExpr& n, bool unroll, const std::string& prefix,
                       const std::function<void(ArithExpr)>& body);
  void glb_body_with_interior(const std::function<void()>& body);
  int count_guards(const Block& block);

  // ---- output: statements appended to the innermost open block
  void line(const std::string& text);
  void line(Pieces pieces); // a statement whose expressions print late
  void open(const std::string& text);
  void close();
  // The statements `emit` appends, in a block of their own (not appended here).
  Block capture(const std::function<void()>& emit);
  void append(Block block);
  // The work-group sizes left open (a MapWrg dimension without CodegenOptions::local_size) are
  // the largest MapLcl extent in that dimension: sets the launch and resolves the guards.
  void choose_work_groups();
  // Emitter::run's parts: the parameters (returns the output's view), and the source.
  View declare_parameters(Kernel& kernel, const std::vector<Type>& inputs, const Type& out_type);
  std::string source(Kernel& kernel);
  std::string print(const Access& a); // printed now (StreamSteps: never specialised)
  Piece lvalue(const Access& target); // a memory access (the target of a write)
  std::string fresh(const std::string& prefix);
  Type result_type(const Expr& f, const std::vector<Operand>& args);
  bool at_work_group_level() const { return wrg_depth_ > 0 && lcl_depth_ == 0 && seq_depth_ == 0; }
  bool in_work_item() const { return glb_depth_ > 0 || lcl_depth_ > 0 || seq_depth_ > 0; }

  Expr program_;
  CodegenOptions options_;
  TypeChecker types_;
  Block body_;                       // the kernel's statements
  std::vector<Block*> open_{&body_}; // the blocks being built, innermost last
  CPrinter printer_;
  std::map<const Node*, Operand> env_;
  std::map<std::string, int> counters_;
  UserFunctions functions_;
  std::vector<std::string> local_decls_;
  std::set<std::string> preamble_;             // work-item index declarations
  std::set<std::string> pending_declarations_; // private scalars not yet declared
  int64_t local_bytes_ = 0;
  int64_t private_bytes_ = 0; // Kernel::private_bytes
  // Declares a private array (counted in private_bytes_).
  void declare_private(ScalarKind element, const std::string& name, int64_t count,
                       bool in_lanes = false);
  // A kernel whose code assumes its one-dimensional work-group size (StreamSteps) declares it
  // (reqd_work_group_size): the device compiler then budgets registers for that many
  // work-items, and a launch with another size fails instead of computing wrong values.
  int64_t required_work_group_ = 0;
  LaunchConfig launch_;
  std::array<bool, 3> glb_used_{false, false, false};
  std::array<bool, 3> wrg_dims_{false, false, false};
  std::array<bool, 3> lcl_dims_{false, false, false};
  std::array<int64_t, 3> lcl_extent_{0, 0, 0}; // largest MapLcl extent per dimension
  // The extent of a MapWrg whose work-group size is left open, per dimension.
  std::array<std::optional<ArithExpr>, 3> open_wrg_;
  std::vector<Loop> glb_loops_;
  // CodegenOptions::interior_only: the margins of the interior versions emitted (one for a
  // plain kernel), and whether a body had none.
  std::vector<int64_t> interior_margins_;
  bool body_without_interior_ = false;
  bool colour_strided_ = false;   // CodegenOptions::colour_parity applied (Kernel::colour_strided)
  bool interior_guarded_ = false; // the interior under its condition (Kernel::interior_rows)
  bool stride_by_colour();
  // CodegenOptions::colour_pair_copy: the output's index where the body stores its result, and
  // the copy of each pair's other point appended after the interior (`condition` with gid0).
  std::optional<ArithExpr> out_store_index_;
  std::shared_ptr<const Memory> out_memory_;
  Block colour_pair_copy(const std::string& condition);
  std::map<int, int64_t> glb_extents_; // MapGlb(d)'s constant extent
  int64_t interior_margin() const;     // Kernel::interior_margin
  int glb_depth_ = 0, wrg_depth_ = 0, lcl_depth_ = 0, seq_depth_ = 0;
  bool uses_fp64_ = false;
  // Lane mode: the lanes, their variable and private vectors; null in scalar code.
  std::shared_ptr<LaneMode> lane_mode_;
  std::optional<std::string> lane_failure_; // why lane mode cannot print the lanes
};

} // namespace tessera::codegen
