// HPGMG-FV's 4th-order red-black step on the interior as one pass (Fv4Step.h): the red points
// of three planes (the tile and a ring of one) in local memory, u, f and the coefficients read
// from global memory where each update reads them (the caches serve the neighbours' reads).
#include "multigrid/Fv4Step.h"

#include <algorithm>
#include <sstream>

#include "codegen/Portability.h"
#include "codegen/ScalarC.h"
#include "core/Error.h"
#include "multigrid/HelmholtzFv4.h"
#include "multigrid/PointFunctions.h"
#include "multigrid/Wavefront.h"
#include "runtime/Session.h"

namespace tessera::multigrid {

namespace {

int64_t div_up(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

// The interior's first point and its end along each dimension: [2, n - 2).
constexpr int64_t kMargin = detail::kFv4InteriorMargin;
// A point this near a boundary is read by the black half-sweep around the interior (its
// whole form reads u up to 3 cells in, HelmholtzFv4.h): the kernel stores it into shell.
constexpr int64_t kShellDepth = 4;

// The flat offset of `o` (z, y, x) in a grid of `sizes` (z, y, x).
int64_t flat(const std::vector<int>& o, const std::vector<int64_t>& sizes) {
  return o[2] + sizes[2] * (o[1] + sizes[1] * static_cast<int64_t>(o[0]));
}

std::string at(const std::string& array, int64_t offset) {
  return offset == 0 ? cat(array, "[i]") : cat(array, "[i + ", offset, "]");
}

// The point function's arguments but u's: f, alpha, beta_k at its offsets, the update flag.
std::string other_arguments(const detail::Fv4InteriorReads& reads,
                            const std::vector<int64_t>& sizes) {
  std::string text = ", f[i], alpha[i]";
  for (std::size_t k = 0; k < reads.beta.size(); ++k)
    for (const auto& o : reads.beta[k])
      text += ", " + at(cat("beta", k), flat(o, sizes));
  return text + ", 1)";
}

// The red update of the point at index i: every value from global memory.
std::string red_update(const detail::Fv4InteriorReads& reads, const std::vector<int64_t>& sizes,
                       const std::string& function) {
  std::string text = function + "(";
  for (std::size_t n = 0; n < reads.u.size(); ++n)
    text += (n ? ", " : "") + at("u", flat(reads.u[n], sizes));
  return text + other_arguments(reads, sizes);
}

// The black update of the point at index i, (lx, ly) in the red planes' frame on plane q: its
// face neighbours from the red planes; the other points of odd distance are red too, but the
// form never reads them (a NaN, should it ever do so, fails every comparison with the
// half-sweeps); the points of even distance (its own colour) from u.
std::string black_update(const detail::Fv4InteriorReads& reads, const std::vector<int64_t>& sizes,
                         const std::string& function) {
  std::string text = function + "(";
  for (std::size_t n = 0; n < reads.u.size(); ++n) {
    const auto& o = reads.u[n];
    const int distance = std::abs(o[0]) + std::abs(o[1]) + std::abs(o[2]);
    text += n ? ", " : "";
    if (distance == 1)
      text += cat("R[RP(q + ", o[0], ")][ly + ", o[1], "][lx + ", o[2], "]");
    else if (distance % 2 == 1)
      text += "(T)NAN";
    else
      text += at("u", flat(o, sizes));
  }
  return text + other_arguments(reads, sizes);
}

// Plane p's red points of the tile and its ring: computed where the interior form holds, read
// from shell 1 cell from a boundary (the red half-sweep around the interior wrote them there).
std::string red_stage(const std::string& update) {
  return cat("    #pragma unroll\n"
             "    for (int r = 0; r < RED_ITERATIONS; ++r) {\n"
             "      const int n = t + r * GROUP, ly = n / RED_ROW, gy = y0 - 1 + ly;\n"
             "      const int lx = 2 * (n % RED_ROW) + ((x0 - 1 + gy + p + FIRST) & 1);\n"
             "      const int gx = x0 - 1 + lx;\n"
             "      if (n < RED_POINTS && gx >= 1 && gx <= NX - 2 && gy >= 1 && gy <= NY - 2) {\n"
             "        const int i = gx + NX * (gy + NY * p);\n"
             "        R[RP(p)][ly][lx] = gx >= 2 && gx < NX - 2 && gy >= 2 && gy < NY - 2 && "
             "p >= 2 && p < NZ - 2\n"
             "            ? ",
             update,
             "\n"
             "            : shell[i];\n"
             "      }\n"
             "    }\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n");
}

// Plane q = p - 1's points of the tile a pair along x a work-item: the black one computed, the
// red one copied from the red planes; those near a boundary stored into shell too.
std::string pair_stage(const std::string& update) {
  return cat("    const int q = p - 1;\n"
             "    if (q >= z0) {\n"
             "      #pragma unroll\n"
             "      for (int r = 0; r < PAIR_ITERATIONS; ++r) {\n"
             "        const int n = t + r * GROUP, j = n / (TX / 2), gy = y0 + j, ly = j + 1;\n"
             "        const int pair = x0 + 2 * (n % (TX / 2));\n"
             "        const int bx = pair + ((pair + gy + q + FIRST + 1) & 1), rx = 2 * pair + 1 "
             "- bx;\n"
             "        if (n < TX / 2 * TY && gy < NY - 2) {\n"
             "          if (rx < NX - 2) {\n"
             "            const int i = rx + NX * (gy + NY * q);\n"
             "            const T value = R[RP(q)][ly][rx - x0 + 1];\n"
             "            out[i] = value;\n"
             "            if (SHELL(rx, gy, q)) shell[i] = value;\n"
             "          }\n"
             "          if (bx < NX - 2) {\n"
             "            const int i = bx + NX * (gy + NY * q), lx = bx - x0 + 1;\n"
             "            out[i] = ",
             update,
             ";\n"
             "            if (SHELL(bx, gy, q)) shell[i] = u[i];\n"
             "          }\n"
             "        }\n"
             "      }\n"
             "    }\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n");
}

} // namespace

Fv4StepShape fv4_step_shape(const runtime::Device& device, const std::vector<int64_t>& sizes) {
  const bool gpu = device.type == "GPU";
  Fv4StepShape s;
  const int64_t inner_x = sizes[2] - 2 * kMargin, inner_y = sizes[1] - 2 * kMargin;
  s.tile_x = std::min<int64_t>(gpu ? 32 : 16, inner_x + inner_x % 2);
  s.tile_y = std::min<int64_t>(gpu ? 16 : 4, inner_y);
  s.group = gpu ? 128 : 32;
  s.segments = fv4_step_segments(device, sizes, s);
  return s;
}

int64_t fv4_step_segments(const runtime::Device& device, const std::vector<int64_t>& sizes,
                          const Fv4StepShape& shape) {
  const int64_t inner_x = sizes[2] - 2 * kMargin, inner_y = sizes[1] - 2 * kMargin;
  const int64_t planes = sizes[0] - 2 * kMargin;
  const int64_t tiles = div_up(inner_x, shape.tile_x) * div_up(inner_y, shape.tile_y);
  return wave_segments(device, tiles, planes, kWavefrontMinSegment);
}

int64_t fv4_step_local_bytes(const Fv4StepShape& shape, ScalarKind kind) {
  return 3 * (shape.tile_y + 2) * (shape.tile_x + 2) * (kind == ScalarKind::F64 ? 8 : 4);
}

std::string fv4_step_why_not(const Level& level, const CompiledKernel& red,
                             const CompiledKernel& black) {
  if (level.dims != 3)
    return cat("the one-pass step is written for 3-D grids, not ", level.dims, "-D");
  if (!level.box.empty())
    return "a rank's box of a distributed grid";
  if (level.n < 8)
    return cat("a grid of ", level.n, " cells a side (the one-pass step needs 8 or more)");
  for (const CompiledKernel* k : {&red, &black})
    if (!k->interior || k->interior_margin != kMargin)
      return cat("the half-sweep ", k->variant, " has no interior form 2 cells in");
  return "";
}

std::string fv4_step_source(const codegen::Kernel& interior, const Level& level, int first_colour,
                            const Fv4StepShape& shape, const std::string& name) {
  if (level.dims != 3 || !level.box.empty() || level.n < 8)
    internal_error(cat("a one-pass 4th-order step on ", level.describe()));
  if (shape.tile_x % 2 != 0 || shape.tile_x < 2 || shape.tile_y < 1 || shape.group < 1 ||
      shape.segments < 1)
    internal_error(cat("a one-pass 4th-order step's tile ", shape.tile_x, "x", shape.tile_y,
                       " (an even width), group ", shape.group, ", ", shape.segments, " segments"));
  PointFunctions functions;
  functions.add(&interior, interior); // its helpers hold the update; its point function unused
  const std::string helpers = functions.helpers();
  const std::string function =
      detail::fv4_form_name("fv4Gsrb", detail::Fv4Region{detail::Fv4Region::Interior});
  if (helpers.find(" " + function + "(") == std::string::npos)
    internal_error(cat("the red half-sweep's interior kernel defines no ", function));
  const auto sizes = level.sizes();
  const auto reads = detail::fv4_interior_reads(3);
  const int64_t planes = sizes[0] - 2 * kMargin;
  const int64_t red_row = (shape.tile_x + 2) / 2, red_points = red_row * (shape.tile_y + 2);
  std::ostringstream src;
  src << "// Generated by tessera: HPGMG-FV's 4th-order red-black step on the interior in one "
         "pass.\n"
      << codegen::portability_preamble();
  if (level.kind == ScalarKind::F64)
    src << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  src << helpers << "\ntypedef " << codegen::scalar_c_type(level.kind) << " T;\n#define NX "
      << sizes[2] << "\n#define NY " << sizes[1] << "\n#define NZ " << sizes[0] << "\n#define TX "
      << shape.tile_x << "\n#define TY " << shape.tile_y << "\n#define TZ "
      << div_up(planes, shape.segments) << "\n#define GROUP " << shape.group << "\n#define FIRST "
      << first_colour % 2 << "\n#define RED_ROW " << red_row << "\n#define RED_POINTS "
      << red_points << "\n#define RED_ITERATIONS " << div_up(red_points, shape.group)
      << "\n#define PAIR_ITERATIONS " << div_up(shape.tile_x / 2 * shape.tile_y, shape.group)
      << "\n#define RP(q) ((q) % 3)\n#define SHELL(x, y, z) ((x) < " << kShellDepth
      << " || (x) >= NX - " << kShellDepth << " || (y) < " << kShellDepth << " || (y) >= NY - "
      << kShellDepth << " || (z) < " << kShellDepth << " || (z) >= NZ - " << kShellDepth << ")\n"
      << "\n__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))\nvoid " << name
      << "(const __global T* restrict u, const __global T* restrict f,\n"
         "    const __global T* restrict alpha, const __global T* restrict beta0,\n"
         "    const __global T* restrict beta1, const __global T* restrict beta2,\n"
         "    __global T* shell, __global T* restrict out) {\n"
         "  __local T R[3][TY + 2][TX + 2];\n"
         "  const int t = get_local_id(0);\n"
         "  const int x0 = 2 + (int)get_group_id(0) * TX, y0 = 2 + (int)get_group_id(1) * TY;\n"
         "  const int z0 = 2 + (int)get_group_id(2) * TZ, z1 = min(z0 + TZ, NZ - 2);\n"
         "  if (z0 >= NZ - 2) return; /* a segment past the planes (uniform in the group) */\n"
         "  for (int p = z0 - 1; p <= z1; ++p) {\n"
      << red_stage(red_update(reads, sizes, function))
      << pair_stage(black_update(reads, sizes, function)) << "  }\n}\n";
  return src.str();
}

std::shared_ptr<CompiledKernel> fv4_step_kernel(runtime::Session& session,
                                                const CompiledKernel& red, const Level& level,
                                                int first_colour, const Fv4StepShape& shape) {
  const auto sizes = level.sizes();
  codegen::Kernel code;
  code.name = "mg_fv4_step";
  code.source = fv4_step_source(red.interior->code, level, first_colour, shape, code.name);
  for (const auto& p : red.code.params)
    if (p.role == codegen::KernelParam::Input)
      code.params.push_back(p);
  if (code.params.size() != 6)
    internal_error(cat("a 4th-order half-sweep with ", code.params.size(),
                       " inputs (u, f, alpha and three betas expected)"));
  codegen::KernelParam shell = code.params.front(), out = shell;
  shell.name = "shell";
  shell.written = true;
  out.name = "out";
  out.written = true;
  code.params.push_back(shell);
  code.params.push_back(out);
  code.output_type = red.code.output_type;
  code.launch.dims = 3;
  code.launch.global = {ArithExpr(div_up(sizes[2] - 2 * kMargin, shape.tile_x) * shape.group),
                        ArithExpr(div_up(sizes[1] - 2 * kMargin, shape.tile_y)),
                        ArithExpr(shape.segments)};
  code.launch.local = {shape.group, 1, 1};
  code.local_memory_bytes = fv4_step_local_bytes(shape, level.kind);
  return compile(
      session, code, {shape.group, 1, 1},
      cat("one pass a step ", shape.tile_x, "x", shape.tile_y, ", ", shape.segments, " segments"));
}

} // namespace tessera::multigrid
