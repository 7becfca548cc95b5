// Printing index expressions and accesses as OpenCL C.
//
// ArithExpr uses floor division; C truncates. Where both operands are provably non-negative
// the two agree and plain `/` and `%` are printed; elsewhere the helpers floor_div/floor_mod
// are used (and declared once in the kernel). Every min/max/select/floor helper left in an
// index is counted as a boundary guard, which tells the emitter whether an interior version
// without any is worth generating. The user functions it prints calls to are collected for the
// statement being built (KernelIR.h), so that unused functions are dropped by a pass over the
// statements rather than by searching the text.
#pragma once

#include <set>
#include <string>
#include <utility>

#include "codegen/View.h"

namespace tessera::codegen {

class CPrinter {
public:
  std::string arith(const ArithExpr& e);
  std::string access(const Access& a);

  int guards() const { return guards_; }
  void reset_guards() { guards_ = 0; }
  void count_guard() { ++guards_; } // a conditional printed by someone else (lane mode)
  bool uses_floor_div() const { return floor_div_; }
  bool uses_floor_mod() const { return floor_mod_; }
  void note_call(const std::string& function) { calls_.insert(function); }
  // The functions called by what was printed since the last take_calls().
  std::set<std::string> take_calls() { return std::exchange(calls_, {}); }

private:
  int guards_ = 0;
  bool floor_div_ = false, floor_mod_ = false;
  std::set<std::string> calls_;
  std::string operand(const ArithExpr& e); // parenthesised unless atomic
};

// Declarations of floor_div/floor_mod, for the kernel preamble.
std::string floor_helpers(bool div, bool mod);

} // namespace tessera::codegen
