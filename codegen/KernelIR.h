// The kernel IR: the statements the emitter builds between the views and the OpenCL C text.
//
// The emitter (Emitter.h) walks a lowered program and appends statements. A statement that
// reads or writes data keeps its expressions structured (Piece: accesses through the views, and
// lane mode's N-vector values) until they are printed; loop headers and declarations are text.
// How statements nest and what they call are data. Passes over the statements then decide what
// the text alone could not say:
//   - the interior copy of a MapGlb body (specialise): its accesses' indices under narrower
//     ranges of the global ids, where boundary handling disappears and lane mode may read
//     vectors; Emitter::glb_body_with_interior chooses the margin and wraps both in an IfElse;
//   - the work-group size of a MapLcl whose size was left to the program (LocalGuard,
//     resolve_local_guards): the largest MapLcl extent, known once the whole kernel is built;
//   - the expressions printed (print_expressions), recording the user functions each
//     statement calls, and which ones the kernel calls (called_functions): unused ones are not
//     printed.
// PrintOpenCL.cpp prints the expressions and then the statements as OpenCL C.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "codegen/CExpr.h"
#include "codegen/Vector.h"

namespace tessera::codegen {

struct Stmt;
using Block = std::vector<Stmt>;

// A part of a statement: text, or an expression printed late.
//   Text     `text`
//   Scalar   `access` as a C expression
//   Vector   `access` as an N-vector of `element` in lane mode `lanes` (LanePrinter)
//   Address  `p + (i)` of `access`, a memory read: the address vloadN/vstoreN take
//   Guard    `if (c) ` of `access`, an Integer condition c (a store at the edge of a Drop's
//            output), `if (!(c)) ` when `negated`; nothing where it provably holds (an
//            interior copy), and the whole statement is left out where it never does
//   Run      the loads of one row of a march's window into the private array `text` from
//            `slot` on, element t from `run[t]`: aligned vector loads where N consecutive
//            elements are contiguous in global memory and the first index is a multiple of N
//            (an OpenCL buffer starts aligned beyond any vector type), each component assigned
//            on its own (text[slot + k] = (*(const __global floatN*)(p + (i))).sk; the compiler
//            loads the vector once; PoCL 3.1 miscompiled vstore2 of it into the private array
//            of a 125-point box's plane blocked along x and y, relative errors of 1e-2),
//            else one statement an element; where the indices simplify (an interior copy) the
//            same row reads whole vectors
struct Piece {
  enum class Kind { Text, Scalar, Vector, Address, Guard, Run } kind = Kind::Text;
  std::string text;
  Access access;
  std::vector<Access> run; // Run
  int64_t slot = 0;        // Run
  ScalarKind element = ScalarKind::F32;
  std::shared_ptr<const LaneMode> lanes;
  bool negated = false; // Guard

  static Piece literal(std::string text);
  static Piece scalar(Access access);
  static Piece vector(Access access, ScalarKind element, std::shared_ptr<const LaneMode> lanes);
  static Piece address(Access read);
  static Piece guard(ArithExpr condition, bool negated = false);
  static Piece row_loads(std::string array, int64_t slot, std::vector<Access> reads);
};
using Pieces = std::vector<Piece>;

struct Stmt {
  enum class Kind {
    Line,       // one statement (declaration, assignment, store, barrier, comment): `text`
    Nest,       // `text {` body `}`: a loop, a conditional, an `else`; `{` body `}` without text
    IfElse,     // if (text) { body } else { orelse }, or else if (else_condition) { orelse }
    LocalGuard, // a MapLcl body: `if (lid < extent)` unless the work-group is exactly `extent`
  };
  Kind kind = Kind::Line;
  std::string text;
  Pieces pieces; // a Line whose expressions are not printed yet: `text` once they are
  Block body, orelse;
  std::string else_condition;  // IfElse: the orelse runs only where it holds
  std::set<std::string> calls; // the user functions `text` calls
  int dim = 0;                 // LocalGuard: the MapLcl's dimension
  int64_t extent = 0;          // LocalGuard: the MapLcl's extent

  static Stmt line(std::string text, std::set<std::string> calls = {});
  static Stmt line(Pieces pieces);
  static Stmt nest(std::string header, Block body, std::set<std::string> calls = {});
  static Stmt if_else(std::string condition, Block then, Block otherwise,
                      std::string else_condition = "");
  static Stmt local_guard(int dim, int64_t extent, Block body);
};

// ---- passes (KernelPasses.cpp)

// A copy of the statements with every expression's indices substituted: `ranges` maps loop
// variables to narrower ranges of themselves (the interior of a MapGlb), which the printer
// then simplifies (fewer min/max/select guards, vector reads where lanes stay in range).
Block specialise(const Block& block, const std::map<std::string, ArithExpr>& ranges);

// The user functions the statements call, directly or through the functions they call
// (`calls_of`: a function's name -> the functions its definition calls).
std::set<std::string>
called_functions(const Block& block, const std::map<std::string, std::set<std::string>>& calls_of);

// Replaces every LocalGuard by its body when the work-group size of its dimension is its
// extent, by `if (lid<d> < extent)` around its body when the work-group is larger.
Block resolve_local_guards(const Block& block, const std::array<int64_t, 3>& local);

// ---- printing (PrintOpenCL.cpp)

// Prints every statement's pieces into its text with `printer` (lane vectors call the N-lane
// versions of `functions`, defined there on first use),
// adding the user functions it calls to the statement's calls; the printer counts the guards.
void print_expressions(Block& block, CPrinter& printer, UserFunctions& functions);
// How many guards (min/max/select/floor helpers) the statements' expressions print to.
int count_guards(const Block& block, const CPrinter& printer, UserFunctions& functions);

// The statements as OpenCL C, two spaces per level from `indent` (expressions printed).
void print_opencl(std::ostream& out, const Block& block, int indent);
std::string print_opencl(const Block& block, int indent);

} // namespace tessera::codegen
