#include "peers/NaiveOpenCL.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "core/Error.h"

namespace tessera::peers {

namespace {

std::string literal(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%#.9gf", static_cast<double>(v));
  return text;
}

// The base index of output index `p` on an input of scale `s`, shifted by `offset`.
std::string base(Scale s, const char* p, int offset) {
  std::string b = s == Scale::Same ? p : s == Scale::Finer ? cat("2 * ", p) : cat(p, " / 2");
  return offset == 0 ? b : cat("(", b, offset > 0 ? " + " : " - ", std::abs(offset), ")");
}

// The boundary as OpenCL: at(i, n) maps an index onto the axis, sgn(i, n) is its sign.
std::string edge_functions(Boundary::Kind edge) {
  std::string at = edge == Boundary::Clamp  ? "clamp(i, 0, n - 1)"
                   : edge == Boundary::Wrap ? "i < 0 ? i + n : i >= n ? i - n : i"
                                            : "i < 0 ? -1 - i : i >= n ? 2 * n - 1 - i : i";
  std::string sgn = edge == Boundary::Antisymmetric ? "(i < 0 || i >= n) ? -1.0f : 1.0f" : "1.0f";
  return cat("inline int at(int i, int n) { return ", at, "; }\n",
             "inline float sgn(int i, int n) { return ", sgn, "; }\n");
}

} // namespace

std::string naive_opencl_source(const LinearStencil& s) {
  std::ostringstream k;
  k << edge_functions(s.edge) << "__kernel void naive_" << s.name << "(";
  for (int m = 0; m < s.inputs(); ++m)
    k << "const __global float* restrict x" << m << ", ";
  k << "__global float* restrict out) {\n"
       "  const int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);\n"
       "  const int c = "
    << (s.parity ? "(k & 1) * 4 + (j & 1) * 2 + (i & 1)" : "0") << ";\n  float sum = 0.0f;\n";
  for (std::size_t c = 0; c < s.classes.size(); ++c) {
    k << "  if (c == " << c << ") {\n    sum = " << literal(s.classes[c].bias) << ";\n";
    for (const auto& t : s.classes[c].taps) {
      const auto m = static_cast<std::size_t>(t.input);
      const auto& n = s.in[m];
      std::string ik = base(s.scale[m], "k", t.offset[0]), ij = base(s.scale[m], "j", t.offset[1]),
                  ii = base(s.scale[m], "i", t.offset[2]);
      k << "    sum += " << literal(t.weight);
      if (s.edge == Boundary::Antisymmetric)
        k << " * sgn(" << ik << ", " << n[0] << ") * sgn(" << ij << ", " << n[1] << ") * sgn(" << ii
          << ", " << n[2] << ")";
      k << " * x" << m << "[((long)at(" << ik << ", " << n[0] << ") * " << n[1] << " + at(" << ij
        << ", " << n[1] << ")) * " << n[2] << " + at(" << ii << ", " << n[2] << ")];\n";
    }
    k << "  }\n";
  }
  k << "  out[((long)k * " << s.out[1] << " + j) * " << s.out[2] << " + i] = sum;\n}\n";
  return k.str();
}

} // namespace tessera::peers
