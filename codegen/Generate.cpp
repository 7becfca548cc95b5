#include "codegen/Emitter.h"
#include "codegen/Kernel.h"
#include "core/Error.h"
#include "core/Printer.h"
#include "core/Substitute.h"
#include "core/WorkItemMemory.h"

namespace tessera::codegen {

Kernel generate_kernel(const Expr& program, const CodegenOptions& options) {
  // A Map without a mapping would run in one work-item: refuse rather than launch one.
  if (Expr high = unlowered_computation(program)) {
    std::string text = print(high);
    if (text.size() > 80)
      text = text.substr(0, 77) + "...";
    user_error(
        cat("generate_kernel needs a lowered program, but ", text,
            " has no mapping (MapGlb, MapWrg/MapLcl, MapSeq, ReduceSeq): lower it first "
            "with rewrite::lower_default(program) or pick one of rewrite::lowered_variants"));
  }
  return Emitter(program, options).run();
}

std::string Kernel::describe() const {
  std::string s = cat("kernel ", name, "\n  program: ", program_text, "\n  arguments:\n");
  for (const auto& p : params) {
    switch (p.role) {
    case KernelParam::Input:
      s += cat("    in  ", p.name, " : ", p.type, " (", p.element_count.to_string(), " x ",
               to_string(p.element), ", global)\n");
      break;
    case KernelParam::Output:
      s += cat("    out ", p.name, " : ", p.type, " (", p.element_count.to_string(), " x ",
               to_string(p.element), ", global)\n");
      break;
    case KernelParam::Size:
      s += cat("    int ", p.name, " (size)\n");
      break;
    }
  }
  s += "  global size: ";
  for (int d = 0; d < launch.dims; ++d)
    s += (d ? " x " : "") + launch.global[d].to_string();
  s += "\n  local size:  ";
  for (int d = 0; d < launch.dims; ++d)
    s +=
        (d ? " x " : "") + (launch.local[d] ? std::to_string(launch.local[d]) : std::string("any"));
  s += cat("\n  local memory: ", local_memory_bytes, " bytes\n");
  return s;
}

} // namespace tessera::codegen
