// Poisson's red-black Gauss-Seidel steps on a 3-D grid as one wavefront (Wavefront.h): u staged
// plane by plane in local memory with a ring of H = 2 x steps points, each half-sweep's values of
// three planes kept there; global memory written once with the result. The next plane of u is
// loaded into registers while the current ones are computed, and each work-item's values of f
// into its own registers (the first stage's an iteration ahead): no other work-item reads them. The
// update itself is the half-sweeps' own formula (the helper their kernels define), with the same
// arguments in the same order, so the values are theirs to the bit.
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

// The array holding stage `k`'s values (stage 0: u; stage k >= 1: after k half-sweeps; the
// last stage is written to global memory) as a macro of (plane, ly, lx).
std::string stage_array(int k) {
  return k <= 0 ? "SU" : cat("S", k);
}

// A wavefront kernel's sizes: H = 2 x steps half-sweeps, u's window of WX x WY points (the tile
// and a ring of H) and the work-group's size.
struct Geometry {
  int h;
  int64_t wx, wy, group;
  // Stage k's points (k < H): its colour's in the tile and a ring H - k wide; how many loop
  // iterations of the work-group cover them.
  int64_t points(int k) const { return (wx / 2 - k) * (wy - 2 * k); }
  int64_t iterations(int k) const { return div_up(points(k), group); }
};

// The update of stage `k`'s point (lx, ly) of plane q (global (gx, gy, gz)) into `result`, with
// f's value `f_value`: the half-sweeps' own formula (their helper gsrb, its arguments in the
// order of their call). Its neighbours are the other colour's values after stage k - 1, its own
// value the one after stage k - 2 (the last half-sweep of its colour; u before that); a ghost for
// each neighbour outside the grid.
std::string update(int k, const std::string& result, const std::string& f_value) {
  const std::string near = stage_array(k - 1), own = stage_array(k - 2);
  auto neighbour = [&](const char* name, const std::string& inside, const std::string& at) {
    return cat("        const T ", name, " = ", inside, " ? ", near, "(", at, ") : GHOST;\n");
  };
  return cat(
      "{\n        const T c = ", own, "(q, ly, lx);\n", neighbour("zm", "gz > 0", "q - 1, ly, lx"),
      neighbour("zp", "gz < NZ - 1", "q + 1, ly, lx"), neighbour("ym", "gy > 0", "q, ly - 1, lx"),
      neighbour("yp", "gy < NY - 1", "q, ly + 1, lx"), neighbour("xm", "gx > 0", "q, ly, lx - 1"),
      neighbour("xp", "gx < NX - 1", "q, ly, lx + 1"), "        ", result,
      " = gsrb(c, zm, zp, ym, yp, xm, xp, ", f_value, ", 1);\n      }");
}

// The coordinates of stage k's point n (of g.points(k), each row its colour's points) on plane
// `q`: local (lx, ly) in u's window and global (gx, gy).
std::string stage_point(const Geometry& g, int k, const std::string& q) {
  const int64_t row = g.wx / 2 - k;
  return cat("const int ly = ", k, " + n / ", row, ", gy = y0 - H + ly; const int lx = ", k,
             " + 2 * (n % ", row, ") + ((x0 - H + ", k, " + gy + (", q, ") + RED_PARITY + ", k - 1,
             ") & 1); const int gx = x0 - H + lx;");
}

// f at stage k's points on plane `q` into the registers `into` (a work-item's point n = t +
// r GROUP into [r]); 0 outside the grid. Each work-item reads the values it computes with, so f
// needs no local memory.
std::string load_f(const Geometry& g, int k, const std::string& into, const std::string& q) {
  return cat("    #pragma unroll\n    for (int r = 0; r < ", g.iterations(k),
             "; ++r) {\n      const int n = t + r * GROUP; ", stage_point(g, k, q), "\n      ",
             into, "[r] = n < ", g.points(k), " && (", q, ") >= 0 && (", q,
             ") < NZ && gx >= 0 && gx < NX && gy >= 0 && gy < NY ? f[gx + NX * (gy + NY * (", q,
             "))] : 0;\n    }\n");
}

// Stage k < H of iteration p: the points of its colour on plane p - k + 1 in its region (the
// tile and a ring H - k wide, in x-y and along the marched axis), from u's planes or the
// previous stages' in local memory; then a barrier.
std::string inner_stage(const Geometry& g, int k) {
  const int ring = g.h - k;
  return cat("    {\n      const int q = p - ", k - 1, ";\n      if (q >= max(0, z0 - ", ring,
             ") && q < min(NZ, z1 + ", ring,
             ")) {\n        #pragma unroll\n        for (int r = 0; r < ", g.iterations(k),
             "; ++r) {\n          const int n = t + r * GROUP; ", stage_point(g, k, "q"),
             " const int gz = q;\n          if (n >= ", g.points(k),
             " || gx < 0 || gx >= NX || gy < 0 || gy >= NY) continue;\n          ",
             update(k, cat(stage_array(k), "(q, ly, lx)"), cat("F", k, "[r]")),
             "\n        }\n      }\n    }\n    barrier(CLK_LOCAL_MEM_FENCE);\n");
}

// The last stage of iteration p: the tile's plane p - H + 1, each work-item ROWS points of it;
// the points of the last half-sweep's colour computed, the others' latest values (stage H - 1)
// copied.
std::string last_stage(int half_sweeps) {
  const int h = half_sweeps;
  return cat("    {\n      const int q = p - ", h - 1,
             ";\n"
             "      #pragma unroll\n"
             "      for (int row = 0; row < ROWS; ++row) {\n"
             "        const int i = get_local_id(0), j = get_local_id(1) + row * (TY / ROWS);\n"
             "        const int lx = H + i, ly = H + j, gx = x0 + i, gy = y0 + j, gz = q;\n"
             "        if (q >= z0 && q < z1 && gx < NX && gy < NY) {\n"
             "          if (((gx + gy + gz + RED_PARITY + ",
             h - 1,
             ") & 1) != 0)\n            out[gx + NX * (gy + NY * gz)] = ", stage_array(h - 1),
             "(q, ly, lx);\n          else ", update(h, "out[gx + NX * (gy + NY * gz)]", "FL[row]"),
             "\n        }\n      }\n    }\n");
}

// f's registers of iteration p, loaded at its start: the first stage's loaded an iteration ahead
// (it runs first), the later stages' for this iteration (they run after the first).
std::string load_stage_f(const Geometry& g) {
  std::string text = load_f(g, 1, "F1_next", "p + 1");
  for (int k = 2; k < g.h; ++k)
    text += load_f(g, k, cat("F", k), cat("p - ", k - 1));
  return text + cat("    #pragma unroll\n    for (int row = 0; row < ROWS; ++row) {\n"
                    "      const int gx = x0 + get_local_id(0), gy = y0 + get_local_id(1) + row * "
                    "(TY / ROWS), q = p - ",
                    g.h - 1,
                    ";\n      FL[row] = q >= 0 && q < NZ && gx < NX && gy < NY ? f[gx + NX * (gy + "
                    "NY * q)] : 0;\n    }\n");
}

// The registers of f: each stage's values of an iteration, the first stage's next ones.
std::string f_registers(const Geometry& g) {
  std::string text = cat("  T F1[", g.iterations(1), "], F1_next[", g.iterations(1), "];\n");
  for (int k = 2; k < g.h; ++k)
    text += cat("  T F", k, "[", g.iterations(k), "];\n");
  return text + "  T FL[ROWS];\n";
}

// The local arrays of stages 1 .. H - 1: three planes each of its region's rows, its colour's
// points alone (lx / 2 tells them apart in a row).
std::string stage_arrays(int half_sweeps) {
  std::string text;
  for (int k = 1; k < half_sweeps; ++k)
    text += cat("  __local T S", k, "_[3][WY - ", 2 * k, "][WX / 2];\n");
  return text;
}

// Each stage's array as a macro of (plane, ly, lx): u's four planes of the whole window, a
// stage's three planes of its rows.
std::string stage_macros(int half_sweeps) {
  std::string text = "#define SU(q, ly, lx) U[UP(q)][ly][lx]\n";
  for (int k = 1; k < half_sweeps; ++k)
    text += cat("#define S", k, "(q, ly, lx) S", k, "_[RP(q)][(ly) - ", k, "][(lx) >> 1]\n");
  return text;
}

// The kernel's body: the prologue loads u's planes z0 - H .. z0 - H + 2 and the first stage's f
// of plane z0 - H + 1; iteration p prefetches u's plane p + 2, loads f (load_stage_f), runs stage
// k on plane p - k + 1 for k = 1 .. H, and stores the prefetched plane.
std::string body(const Geometry& g) {
  std::string stages;
  for (int k = 1; k < g.h; ++k)
    stages += inner_stage(g, k);
  stages += last_stage(g.h);
  return cat("  __local T U[4][WY][WX];\n", stage_arrays(g.h), f_registers(g),
             "  const int t = get_local_id(0) + TX * get_local_id(1);\n"
             "  const int x0 = (int)get_group_id(0) * TX, y0 = (int)get_group_id(1) * TY;\n"
             "  const int z0 = (int)get_group_id(2) * TZ, z1 = min(z0 + TZ, NZ);\n"
             "  T next[PREFETCH];\n"
             "  for (int q = z0 - H; q <= z0 - H + 2; ++q) {\n"
             "    LOAD(q);\n"
             "    for (int n = 0; n < PREFETCH; ++n) STORE(q, n);\n"
             "  }\n",
             load_f(g, 1, "F1", "z0 - H + 1"),
             "  barrier(CLK_LOCAL_MEM_FENCE);\n"
             "  for (int p = z0 - H + 1; p <= z1 + H - 2; ++p) {\n"
             "    LOAD(p + 2);\n",
             load_stage_f(g), stages, "    for (int n = 0; n < PREFETCH; ++n) STORE(p + 2, n);\n",
             cat("    #pragma unroll\n    for (int r = 0; r < ", g.iterations(1),
                 "; ++r) F1[r] = F1_next[r];\n"),
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "  }\n");
}

} // namespace

WavefrontShape wavefront_shape(const runtime::Device& device, const std::vector<int64_t>& sizes,
                               int steps) {
  if (steps < 1)
    internal_error(cat("a wavefront of ", steps, " red-black steps a pass"));
  const int64_t nx = sizes[2], ny = sizes[1], nz = sizes[0];
  const bool gpu = device.type == "GPU";
  WavefrontShape s;
  s.steps = steps;
  // On an H200 a 32x16 tile of 4 rows a work-item (work-groups of 32x4) was the fastest of 8
  // shapes at 128^3-512^3 in f64 and within 3% of the fastest in f32, 1.13-1.43x the 32x8 tile
  // of 4 rows (BENCHMARKS.md); 8 rows ran slower. The tile is as wide as the grid where that is
  // narrower, rounded up to even; its rows a work-item divide its height.
  s.tile_x = std::min<int64_t>(gpu ? 32 : 16, nx + nx % 2);
  s.tile_y = std::min<int64_t>(gpu ? 16 : 4, ny);
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
  // At most one wave of work-groups (a GPU's compute unit holds about 4 of these at once at 146
  // registers a work-item; a CPU core runs one at a time), as many as fill it: a second, partial
  // wave idles most of the device through its tail, and every segment more recomputes 2 (H - 1)
  // planes and fills its pipeline again. On an H200 at 256^3 (128 tiles), 4 segments ran 1.53x
  // the half-sweeps, 5 ran 1.17x, 8 1.47x and 32 1.24x; at 128^3 (32 tiles) 16 segments 1.41x,
  // 5 0.77x and 32 1.15x (BENCHMARKS.md). More steps a pass want longer segments.
  s.segments = wave_segments(device, tiles, nz, kWavefrontMinSegment * steps);
  return s;
}

int64_t wave_segments(const runtime::Device& device, int64_t tiles, int64_t planes,
                      int64_t min_planes) {
  const int64_t wave = std::max<int64_t>(1, device.compute_units) * 4;
  const int64_t most = std::max<int64_t>(1, planes / min_planes);
  const int64_t segment = div_up(planes, std::clamp<int64_t>(wave / tiles, 1, most));
  return div_up(planes, segment); // every segment holds planes
}

int64_t wavefront_local_bytes(const WavefrontShape& shape, ScalarKind kind) {
  const int64_t h = 2 * shape.steps, wx = shape.tile_x + 2 * h, wy = shape.tile_y + 2 * h;
  int64_t values = 4 * wx * wy; // u's planes
  for (int64_t k = 1; k < h; ++k)
    values += 3 * (wy - 2 * k) * (wx / 2);
  return values * (kind == ScalarKind::F64 ? 8 : 4);
}

bool wavefront_fits(const runtime::Device& device, const WavefrontShape& shape, ScalarKind kind) {
  return wavefront_local_bytes(shape, kind) <= static_cast<int64_t>(device.local_mem_size);
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
  if (shape.steps < 1)
    internal_error(cat("a wavefront of ", shape.steps, " red-black steps a pass"));
  const int64_t group = shape.tile_x * shape.tile_y / shape.rows;
  PointFunctions functions;
  functions.add(&red, red); // its helpers hold gsrb, the update; the point function is not called
  const std::string helpers = functions.helpers();
  if (helpers.find(" gsrb(") == std::string::npos)
    internal_error("the red half-sweep's kernel defines no update gsrb");
  const auto sizes = level.sizes();
  const int half_sweeps = 2 * shape.steps;
  const int64_t wx = shape.tile_x + 2 * half_sweeps, wy = shape.tile_y + 2 * half_sweeps;
  const std::string type = codegen::scalar_c_type(level.kind);
  std::ostringstream src;
  src << "// Generated by tessera: Poisson's red-black steps as one wavefront, planes in local "
         "memory.\n"
      << codegen::portability_preamble();
  if (level.kind == ScalarKind::F64)
    src << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  src << helpers << "\ntypedef " << type << " T;\n#define NX " << sizes[2] << "\n#define NY "
      << sizes[1] << "\n#define NZ " << sizes[0] << "\n#define TX " << shape.tile_x
      << "\n#define TY " << shape.tile_y << "\n#define TZ " << div_up(sizes[0], shape.segments)
      << "\n#define H " << half_sweeps << "\n#define WX " << wx << "\n#define WY " << wy
      << "\n#define ROWS " << shape.rows << "\n#define GROUP " << group << "\n#define PREFETCH "
      << div_up(wx * wy, group) << "\n#define RED_PARITY " << red_parity % 2 << "\n#define GHOST "
      << ghost(bc, level.kind) << "\n#define UP(q) ((q) & 3)\n#define RP(q) ((((q) % 3) + 3) % 3)\n"
      << stage_macros(half_sweeps)
      << "/* plane q of u (tile and a ring of H) into registers; register n into local memory "
         "*/\n"
         "#define LOAD(q) for (int n = 0; n < PREFETCH; ++n) { \\\n"
         "    const int k = t + n * GROUP, gx = x0 - H + k % WX, gy = y0 - H + k / WX; \\\n"
         "    next[n] = k < WX * WY && (q) >= 0 && (q) < NZ && gx >= 0 && gx < NX && gy >= 0 && "
         "\\\n"
         "        gy < NY ? u[gx + NX * (gy + NY * (q))] : 0; }\n"
         "#define STORE(q, n) if (t + (n) * GROUP < WX * WY) \\\n"
         "    U[UP(q)][(t + (n) * GROUP) / WX][(t + (n) * GROUP) % WX] = next[n]\n"
      << "\n__kernel __attribute__((reqd_work_group_size(TX, TY / ROWS, 1)))\nvoid " << name
      << "(const __global T* restrict u, const __global T* restrict f, __global T* restrict out) "
         "{\n"
      << body(Geometry{half_sweeps, wx, wy, group}) << "}\n";
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
                     shape.segments, " segments, ", shape.rows, " rows a work-item",
                     shape.steps > 1 ? cat(", ", shape.steps, " steps a pass") : ""));
}

} // namespace tessera::multigrid
