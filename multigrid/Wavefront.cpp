// Poisson's red-black Gauss-Seidel step on a 3-D grid as one wavefront (Wavefront.h): u staged
// plane by plane in local memory (with a ring two points wide) and f likewise (a ring one wide);
// the red values of three planes kept there; global memory read only to load u and f and written
// once with the result. The next planes of u and f are loaded into registers while the current
// ones are computed. The update itself is the half-sweeps' own formula (the helper their kernels
// define), with the same arguments in the same order, so the values are theirs to the bit.
#include "multigrid/Wavefront.h"

#include <algorithm>
#include <sstream>

#include "codegen/Portability.h"
#include "codegen/ScalarC.h"
#include "core/Error.h"
#include "multigrid/PointFunctions.h"
#include "runtime/Session.h"

namespace tessera::multigrid {

namespace {

int64_t div_up(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

// The value of a neighbour outside the grid, from the point's own value `c`.
std::string ghost(Boundary bc, ScalarKind kind) {
  switch (bc.kind) {
  case Boundary::Antisymmetric:
    return "(-(c))";
  case Boundary::Mirror:
  case Boundary::Clamp:
    return "(c)";
  case Boundary::Constant: {
    std::ostringstream v;
    v.precision(17);
    v << "((" << codegen::scalar_c_type(kind) << ")" << bc.value.as_double() << ")";
    return v.str();
  }
  default:
    internal_error("a Poisson wavefront with a boundary that reads far from the point");
  }
}

// The update of the point (gx, gy, gz) into `result`: the half-sweeps' own formula (their helper
// gsrb, its arguments in the order of their call) of its value `centre`, its six neighbours from
// the planes of `array` around `plane` (the point itself at [j + ring][i + ring]; a ghost for
// each outside the grid) and its f, `f_value`.
std::string update(const std::string& result, const std::string& centre, const std::string& f_value,
                   const std::string& array, const std::string& plane, int ring) {
  const std::string slot = array == "U" ? "UP" : "RP";
  auto at = [&](const std::string& of_plane, int dj, int di) {
    return cat(array, "[", slot, "(", of_plane, ")][j + ", ring + dj, "][i + ", ring + di, "]");
  };
  auto neighbour = [&](const char* name, const std::string& inside, const std::string& value) {
    return cat("        const T ", name, " = ", inside, " ? ", value, " : GHOST;\n");
  };
  return cat(
      "{\n        const T c = ", centre, ";\n", neighbour("zm", "gz > 0", at(plane + " - 1", 0, 0)),
      neighbour("zp", "gz < NZ - 1", at(plane + " + 1", 0, 0)),
      neighbour("ym", "gy > 0", at(plane, -1, 0)), neighbour("yp", "gy < NY - 1", at(plane, 1, 0)),
      neighbour("xm", "gx > 0", at(plane, 0, -1)), neighbour("xp", "gx < NX - 1", at(plane, 0, 1)),
      "        ", result, " = gsrb(c, zm, zp, ym, yp, xm, xp, ", f_value, ", 1);\n      }");
}

// The kernel's body: the prologue loads planes z0 - 2 .. z0; plane p's iteration prefetches
// plane p + 2, computes the red points of plane p (tile and ring), then the tile of plane
// p - 1, and stores the prefetched plane.
std::string body() {
  // Red points from u's planes (ring 2; (i, j) index the red values' planes, ring 1); black
  // points from the red values (ring 1; (i, j) index the tile).
  const std::string red =
      update("R[RP(p)][j][i]", "U[UP(p)][j + 1][i + 1]", "F[RP(p)][j][i]", "U", "p", 1);
  const std::string black = update("out[gx + NX * (gy + NY * gz)]", "U[UP(w)][j + 2][i + 2]",
                                   "F[RP(w)][j + 1][i + 1]", "R", "w", 1);
  return cat("  __local T U[4][WY][WX];\n"
             "  __local T R[3][RY][RX];\n"
             "  __local T F[3][RY][RX];\n"
             "  const int t = get_local_id(0) + TX * get_local_id(1);\n"
             "  const int x0 = (int)get_group_id(0) * TX, y0 = (int)get_group_id(1) * TY;\n"
             "  const int z0 = (int)get_group_id(2) * TZ, z1 = min(z0 + TZ, NZ);\n"
             "  T next[PREFETCH], next_f[PREFETCH_F];\n"
             "  for (int q = z0 - 2; q <= z0; ++q) {\n"
             "    LOAD(q);\n"
             "    for (int n = 0; n < PREFETCH; ++n) STORE(q, n);\n"
             "  }\n"
             "  LOAD_F(z0 - 1);\n"
             "  for (int n = 0; n < PREFETCH_F; ++n) STORE_F(z0 - 1, n);\n"
             "  barrier(CLK_LOCAL_MEM_FENCE);\n"
             "  for (int p = z0 - 1; p <= z1; ++p) {\n"
             "    LOAD(p + 2);\n"
             "    LOAD_F(p + 1);\n"
             "    if (p >= 0 && p < NZ)\n"
             "      for (int k = t; k < RX / 2 * RY; k += GROUP) {\n"
             "        const int j = k / (RX / 2);\n"
             "        const int i = 2 * (k % (RX / 2)) + ((x0 + y0 + j + p + RED_PARITY) & 1);\n"
             "        const int gx = x0 - 1 + i, gy = y0 - 1 + j, gz = p;\n"
             "        if (gx < 0 || gx >= NX || gy < 0 || gy >= NY) continue;\n"
             "        ",
             red,
             "\n"
             "      }\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "    const int w = p - 1;\n"
             "    for (int row = 0; row < ROWS; ++row) {\n"
             "      const int i = get_local_id(0), j = get_local_id(1) + row * (TY / ROWS);\n"
             "      const int gx = x0 + i, gy = y0 + j, gz = w;\n"
             "      if (w >= z0 && w < z1 && gx < NX && gy < NY) {\n"
             "        if (((gx + gy + gz + RED_PARITY) & 1) == 0)\n"
             "          out[gx + NX * (gy + NY * gz)] = R[RP(w)][j + 1][i + 1];\n"
             "        else ",
             black,
             "\n"
             "      }\n"
             "    }\n"
             "    for (int n = 0; n < PREFETCH; ++n) STORE(p + 2, n);\n"
             "    for (int n = 0; n < PREFETCH_F; ++n) STORE_F(p + 1, n);\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "  }\n");
}

} // namespace

WavefrontShape wavefront_shape(const runtime::Device& device, const std::vector<int64_t>& sizes) {
  const int64_t nx = sizes[2], ny = sizes[1], nz = sizes[0];
  const bool gpu = device.type == "GPU";
  WavefrontShape s;
  // On an H200 a 32x8 tile of 4 rows a work-item (work-groups of 32x2) was the fastest of 24
  // shapes at 256^3 and 512^3, 1.16-1.22x the 16x8 tile of one row (BENCHMARKS.md); 8 rows ran
  // at half its speed. The tile is as wide as the grid where that is narrower, rounded up to
  // even; its rows a work-item divide its height.
  s.tile_x = std::min<int64_t>(gpu ? 32 : 16, nx + nx % 2);
  s.tile_y = std::min<int64_t>(gpu ? 8 : 4, ny);
  // A device with less local memory than the tile needs (OpenCL promises 32 KiB; 30 KiB here)
  // gets a narrower, then a lower tile.
  const auto local = static_cast<int64_t>(device.local_mem_size);
  while (wavefront_local_bytes(s, ScalarKind::F64) > local && s.tile_x > 2)
    s.tile_x = std::max<int64_t>(2, s.tile_x / 4 * 2);
  while (wavefront_local_bytes(s, ScalarKind::F64) > local && s.tile_y > 1)
    s.tile_y /= 2;
  s.rows = gpu ? 4 : 1;
  while (s.tile_y % s.rows != 0)
    --s.rows;
  const int64_t tiles = div_up(nx, s.tile_x) * div_up(ny, s.tile_y);
  // A GPU holds several work-groups per compute unit; a CPU runs one per core at a time.
  const int64_t wanted = std::max<int64_t>(1, device.compute_units) * (gpu ? 32 : 4);
  const int64_t most = std::max<int64_t>(1, nz / kWavefrontMinSegment);
  const int64_t segment = div_up(nz, std::clamp<int64_t>(div_up(wanted, tiles), 1, most));
  s.segments = div_up(nz, segment); // every segment holds planes
  return s;
}

int64_t wavefront_local_bytes(const WavefrontShape& shape, ScalarKind kind) {
  const int64_t values =
      4 * (shape.tile_x + 4) * (shape.tile_y + 4) + 6 * (shape.tile_x + 2) * (shape.tile_y + 2);
  return values * (kind == ScalarKind::F64 ? 8 : 4);
}

std::string poisson_wavefront_why_not(const Level& level, Boundary bc) {
  if (level.dims != 3)
    return cat("the local-memory form is written for 3-D grids, not ", level.dims, "-D");
  if (!level.box.empty())
    return "a rank's box of a distributed grid";
  if (bc.kind != Boundary::Antisymmetric && bc.kind != Boundary::Mirror &&
      bc.kind != Boundary::Clamp && bc.kind != Boundary::Constant)
    return "a boundary that reads far from the point";
  return "";
}

std::string poisson_wavefront_source(const codegen::Kernel& red, const Level& level, Boundary bc,
                                     int red_parity, const WavefrontShape& shape,
                                     const std::string& name) {
  if (std::string why = poisson_wavefront_why_not(level, bc); !why.empty())
    internal_error(cat("a Poisson wavefront where it does not apply: ", why));
  if (shape.tile_x % 2 != 0)
    internal_error("a Poisson wavefront's tile is an even number of points wide");
  if (shape.rows < 1 || shape.tile_y % shape.rows != 0)
    internal_error(cat("a Poisson wavefront's rows a work-item (", shape.rows,
                       ") divide its tile's height (", shape.tile_y, ")"));
  const int64_t group = shape.tile_x * shape.tile_y / shape.rows;
  PointFunctions functions;
  functions.add(&red, red); // its helpers hold gsrb, the update; the point function is not called
  const std::string helpers = functions.helpers();
  if (helpers.find(" gsrb(") == std::string::npos)
    internal_error("the red half-sweep's kernel defines no update gsrb");
  const auto sizes = level.sizes();
  const int64_t wx = shape.tile_x + 4, wy = shape.tile_y + 4;
  const std::string type = codegen::scalar_c_type(level.kind);
  std::ostringstream src;
  src << "// Generated by tessera: Poisson's red-black step as one wavefront, planes in local "
         "memory.\n"
      << codegen::portability_preamble();
  if (level.kind == ScalarKind::F64)
    src << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  src << helpers << "\ntypedef " << type << " T;\n#define NX " << sizes[2] << "\n#define NY "
      << sizes[1] << "\n#define NZ " << sizes[0] << "\n#define TX " << shape.tile_x
      << "\n#define TY " << shape.tile_y << "\n#define TZ " << div_up(sizes[0], shape.segments)
      << "\n#define WX " << wx << "\n#define WY " << wy << "\n#define RX " << shape.tile_x + 2
      << "\n#define RY " << shape.tile_y + 2 << "\n#define ROWS " << shape.rows
      << "\n#define GROUP " << group << "\n#define PREFETCH " << div_up(wx * wy, group)
      << "\n#define PREFETCH_F " << div_up((shape.tile_x + 2) * (shape.tile_y + 2), group)
      << "\n#define RED_PARITY " << red_parity % 2 << "\n#define GHOST " << ghost(bc, level.kind)
      << "\n#define UP(q) ((q) & 3)\n#define RP(q) (((q) + 3) % 3)\n"
         "/* plane q of u (tile and a ring of two) into registers; register n into local memory "
         "*/\n"
         "#define LOAD(q) for (int n = 0; n < PREFETCH; ++n) { \\\n"
         "    const int k = t + n * GROUP, gx = x0 - 2 + k % WX, gy = y0 - 2 + k / WX; \\\n"
         "    next[n] = k < WX * WY && (q) >= 0 && (q) < NZ && gx >= 0 && gx < NX && gy >= 0 && "
         "\\\n"
         "        gy < NY ? u[gx + NX * (gy + NY * (q))] : 0; }\n"
         "#define STORE(q, n) if (t + (n) * GROUP < WX * WY) \\\n"
         "    U[UP(q)][(t + (n) * GROUP) / WX][(t + (n) * GROUP) % WX] = next[n]\n"
         "/* plane q of f (tile and a ring of one) likewise */\n"
         "#define LOAD_F(q) for (int n = 0; n < PREFETCH_F; ++n) { \\\n"
         "    const int k = t + n * GROUP, gx = x0 - 1 + k % RX, gy = y0 - 1 + k / RX; \\\n"
         "    next_f[n] = k < RX * RY && (q) >= 0 && (q) < NZ && gx >= 0 && gx < NX && gy >= 0 && "
         "\\\n"
         "        gy < NY ? f[gx + NX * (gy + NY * (q))] : 0; }\n"
         "#define STORE_F(q, n) if (t + (n) * GROUP < RX * RY) \\\n"
         "    F[RP(q)][(t + (n) * GROUP) / RX][(t + (n) * GROUP) % RX] = next_f[n]\n"
      << "\n__kernel __attribute__((reqd_work_group_size(TX, TY / ROWS, 1)))\nvoid " << name
      << "(const __global T* restrict u, const __global T* restrict f, __global T* restrict out) "
         "{\n"
      << body() << "}\n";
  return src.str();
}

std::shared_ptr<CompiledKernel>
poisson_wavefront_kernel(runtime::Session& session, const codegen::Kernel& red, const Level& level,
                         Boundary bc, int red_parity, const WavefrontShape& shape) {
  const auto sizes = level.sizes();
  codegen::Kernel code;
  code.name = "mg_gsrb_wavefront_local";
  code.source = poisson_wavefront_source(red, level, bc, red_parity, shape, code.name);
  code.params = red.params;
  for (auto& p : code.params) {
    p.role = codegen::KernelParam::Input;
    p.written = false;
  }
  code.params.back().written = true;
  code.output_type = red.output_type;
  code.launch.dims = 3;
  const int64_t group_y = shape.tile_y / shape.rows;
  code.launch.global = {ArithExpr(div_up(sizes[2], shape.tile_x) * shape.tile_x),
                        ArithExpr(div_up(sizes[1], shape.tile_y) * group_y),
                        ArithExpr(shape.segments)};
  code.launch.local = {shape.tile_x, group_y, 1};
  code.local_memory_bytes = wavefront_local_bytes(shape, level.kind);
  return compile(session, code, {shape.tile_x, group_y, 1},
                 cat("wavefront in local memory ", shape.tile_x, "x", shape.tile_y, ", ",
                     shape.segments, " segments, ", shape.rows, " rows a work-item"));
}

} // namespace tessera::multigrid
