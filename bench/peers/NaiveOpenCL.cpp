#include "peers/NaiveOpenCL.h"

#include <cstdio>
#include <sstream>

namespace tessera::peers {

namespace {

std::string literal(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%#.9gf", static_cast<double>(v));
  return text;
}

std::string shifted(const char* var, int offset, const char* extent) {
  if (offset == 0)
    return var;
  return std::string("clamp(") + var + (offset > 0 ? " + " : " - ") +
         std::to_string(std::abs(offset)) + ", 0, " + extent + " - 1)";
}

} // namespace

std::string naive_opencl_source(const LinearStencil& s) {
  std::ostringstream k;
  k << "__kernel void naive_" << s.name
    << "(const __global float* restrict x, __global float* restrict out,\n"
       "                      const int D, const int H, const int W) {\n"
       "  const int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);\n"
       "  float sum = "
    << literal(s.bias) << ";\n";
  for (const auto& t : s.taps)
    k << "  sum += " << literal(t.weight) << " * x[((long)" << shifted("k", t.offset[0], "D")
      << " * H + " << shifted("j", t.offset[1], "H") << ") * W + " << shifted("i", t.offset[2], "W")
      << "];\n";
  k << "  out[((long)k * H + j) * W + i] = sum;\n}\n";
  return k.str();
}

} // namespace tessera::peers
