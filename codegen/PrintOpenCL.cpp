// Printing the kernel IR (KernelIR.h) as OpenCL C.
#include <sstream>

#include "codegen/KernelIR.h"
#include "core/Error.h"

namespace tessera::codegen {

void print_opencl(std::ostream& out, const Block& block, int indent) {
  std::string pad(static_cast<std::size_t>(2 * indent), ' ');
  for (const auto& s : block) {
    switch (s.kind) {
    case Stmt::Kind::Line:
      out << pad << s.text << "\n";
      break;
    case Stmt::Kind::Nest:
      out << pad << s.text << " {\n";
      print_opencl(out, s.body, indent + 1);
      out << pad << "}\n";
      break;
    case Stmt::Kind::IfElse:
      out << pad << "if (" << s.text << ") {\n";
      print_opencl(out, s.body, indent + 1);
      out << pad << "} else {\n";
      print_opencl(out, s.orelse, indent + 1);
      out << pad << "}\n";
      break;
    case Stmt::Kind::LocalGuard:
      internal_error("a MapLcl guard is printed before the work-group size was chosen");
    }
  }
}

std::string print_opencl(const Block& block, int indent) {
  std::ostringstream out;
  print_opencl(out, block, indent);
  return out.str();
}

} // namespace tessera::codegen
