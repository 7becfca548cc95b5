// The user functions of one kernel: their C names, signatures and definitions, and the N-lane
// versions lane mode calls (codegen/Vector.h). The emitter names a function when it applies it;
// printing lane vectors (PrintOpenCL.cpp) defines the N-lane versions it uses; the kernel prints
// the definitions that its statements call (called_functions, KernelIR.h).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "codegen/Vector.h"
#include "core/Scalar.h"

namespace tessera::codegen {

class UserFunctions {
public:
  // A name no function may take (the kernel's and its arguments').
  void reserve(const std::string& name) { reserved_.insert(name); }
  // The C name of `def` applied to arguments of `kinds`, defined on first use; two different
  // functions of one name get different C names.
  std::string scalar(const UserFunDef& def, const std::vector<ScalarKind>& kinds);
  // The signature of a function named by scalar(), null for other names.
  const UserFunSignature* signature(const std::string& name) const;
  // The N-lane version of a function named by scalar(), defined on first use: f_v4.
  std::string vector(const std::string& scalar_name, int lanes);
  // function name -> the functions its definition calls
  const std::map<std::string, std::set<std::string>>& calls() const { return calls_; }
  // The definitions of the functions in `used`, one a line, in name order.
  std::string definitions(const std::set<std::string>& used) const;
  bool uses_fp64() const { return fp64_; } // a function takes or returns double

private:
  std::set<std::string> reserved_;
  std::map<std::string, std::string> definitions_;     // name -> definition
  std::map<std::string, std::string> keys_;            // name + kinds + body -> name
  std::map<std::string, std::set<std::string>> calls_; // name -> functions it calls
  std::map<std::string, UserFunSignature> signatures_; // scalar name -> signature
  std::map<std::string, std::string> vectors_;         // "name/N" -> its N-lane version
  bool fp64_ = false;
};

} // namespace tessera::codegen
