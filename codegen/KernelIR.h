// The kernel IR: the statements the emitter builds between the views and the OpenCL C text.
//
// The emitter (Emitter.h) walks a lowered program and appends statements; expressions inside a
// statement are already printed (CExpr.h prints accesses and indices), but what a statement
// calls and how statements nest are data. Passes over the statements then decide what the
// text alone could not say:
//   - which user functions the kernel calls (called_functions): unused ones are not printed;
//   - the work-group size of a MapLcl whose size was left to the program (LocalGuard,
//     resolve_local_guards): the largest MapLcl extent, known once the whole kernel is built;
//   - the interior/boundary split (Emitter::glb_body_with_interior) wraps blocks in an IfElse.
// PrintOpenCL.cpp prints the statements as OpenCL C.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace tessera::codegen {

struct Stmt;
using Block = std::vector<Stmt>;

struct Stmt {
  enum class Kind {
    Line,       // one statement (declaration, assignment, store, barrier, comment): `text`
    Nest,       // `text {` body `}`: a loop, a conditional, an `else`, a bare block
    IfElse,     // if (text) { body } else { orelse }
    LocalGuard, // a MapLcl body: `if (lid < extent)` unless the work-group is exactly `extent`
  };
  Kind kind = Kind::Line;
  std::string text;
  Block body, orelse;
  std::set<std::string> calls; // the user functions `text` calls
  int dim = 0;                 // LocalGuard: the MapLcl's dimension
  int64_t extent = 0;          // LocalGuard: the MapLcl's extent

  static Stmt line(std::string text, std::set<std::string> calls = {});
  static Stmt nest(std::string header, Block body, std::set<std::string> calls = {});
  static Stmt if_else(std::string condition, Block then, Block otherwise);
  static Stmt local_guard(int dim, int64_t extent, Block body);
};

// ---- passes (KernelPasses.cpp)

// The user functions the statements call, directly or through the functions they call
// (`calls_of`: a function's name -> the functions its definition calls).
std::set<std::string>
called_functions(const Block& block, const std::map<std::string, std::set<std::string>>& calls_of);

// Replaces every LocalGuard by its body when the work-group size of its dimension is its
// extent, by `if (lid<d> < extent)` around its body when the work-group is larger.
Block resolve_local_guards(const Block& block, const std::array<int64_t, 3>& local);

// ---- printing (PrintOpenCL.cpp)

// The statements as OpenCL C, two spaces per level from `indent`.
void print_opencl(std::ostream& out, const Block& block, int indent);
std::string print_opencl(const Block& block, int indent);

} // namespace tessera::codegen
