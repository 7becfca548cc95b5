// The kernel IR (codegen/KernelIR.h): its printer, and the passes that drop unused user
// functions, choose the work-group size a program leaves open (the whole kernel:
// tests/codegen/test_codegen_basic.cpp, "tiles with MapWrg and MapLcl") and specialise a copy
// of a body to the interior (whole kernels: test_codegen_vector.cpp, test_interior*.cpp).
#include <doctest/doctest.h>

#include "codegen/KernelIR.h"
#include "codegen/UserFunctions.h"

using namespace tessera;
using namespace tessera::codegen;

TEST_CASE("the printer nests blocks and prints the interior split as if/else") {
  Block loop{Stmt::line("acc += x[i];")};
  Block body{Stmt::line("float acc = 0.0f;"), Stmt::nest("for (int i = 0; i < 4; ++i)", loop),
             Stmt::if_else("gid0 >= 1", {Stmt::line("out[gid0] = acc;")},
                           {Stmt::line("out[gid0] = 0.0f;")})};
  CHECK(print_opencl(body, 1) == "  float acc = 0.0f;\n"
                                 "  for (int i = 0; i < 4; ++i) {\n"
                                 "    acc += x[i];\n"
                                 "  }\n"
                                 "  if (gid0 >= 1) {\n"
                                 "    out[gid0] = acc;\n"
                                 "  } else {\n"
                                 "    out[gid0] = 0.0f;\n"
                                 "  }\n");
}

TEST_CASE("the printer prints an else-if branch and a bare block (the time-tiled kernels)") {
  Block body{Stmt::if_else(
      "t == 1", {Stmt::line("a = 1;")},
      {Stmt::nest("", {Stmt::line("const int e0 = 2;"), Stmt::line("b = e0;")})}, "phase != 0")};
  CHECK(print_opencl(body, 1) == "  if (t == 1) {\n"
                                 "    a = 1;\n"
                                 "  } else if (phase != 0) {\n"
                                 "    {\n"
                                 "      const int e0 = 2;\n"
                                 "      b = e0;\n"
                                 "    }\n"
                                 "  }\n");
}

TEST_CASE("called functions: the calls of every statement, closed over the functions' calls") {
  Block body{Stmt::nest("for (int i = 0; i < 4; ++i)", {Stmt::line("a = f_v4(b);", {"f_v4"})}),
             Stmt::if_else("c", {}, {Stmt::line("d = g(e);", {"g"})})};
  std::map<std::string, std::set<std::string>> calls_of{
      {"f_v4", {"f"}}, {"f", {}}, {"g", {}}, {"unused", {"g"}}, {"h_v4", {"h"}}};
  CHECK(called_functions(body, calls_of) == std::set<std::string>{"f", "f_v4", "g"});
  CHECK(called_functions({}, calls_of).empty());
}

TEST_CASE("a MapLcl guard is dropped where the work-group is its extent, kept where wider") {
  Block body{Stmt::nest("if (wg0 < 3)", {Stmt::local_guard(0, 8, {Stmt::line("a = 1;")}),
                                         Stmt::local_guard(0, 6, {Stmt::line("b = 2;")})})};
  CHECK(print_opencl(resolve_local_guards(body, {8, 1, 1}), 0) == "if (wg0 < 3) {\n"
                                                                  "  a = 1;\n"
                                                                  "  if (lid0 < 6) {\n"
                                                                  "    b = 2;\n"
                                                                  "  }\n"
                                                                  "}\n");
  CHECK_THROWS(resolve_local_guards(body, {4, 1, 1}));
  CHECK_THROWS(print_opencl(body, 0)); // a guard must be resolved before printing
}

namespace {

std::shared_ptr<const Memory> buffer(const std::string& name) {
  auto m = std::make_shared<Memory>();
  m->name = name;
  m->type = Type::array(f32(), 64);
  return m;
}

// out[gid0] = x[max(0, gid0 - 1)] and, in lane mode, the 4 lanes' x[min(63, 4*gid0 + lane + 1)]
Block clamped_reads(const ArithExpr& gid) {
  auto x = buffer("x"), out = buffer("out");
  auto lanes = std::make_shared<LaneMode>(LaneMode{"lane$", 4, {}});
  ArithExpr lane = ArithExpr::var("lane$", 0, 3);
  Access left = Access::read(x, max(ArithExpr(0), gid - 1));
  Access right = Access::read(x, min(ArithExpr(63), 4 * gid + lane + 1));
  return {Stmt::line({Piece::scalar(Access::read(out, gid)), Piece::literal(" = "),
                      Piece::scalar(left), Piece::literal(";")}),
          Stmt::line({Piece::literal("vstore4("), Piece::vector(right, ScalarKind::F32, lanes),
                      Piece::literal(", 0, "), Piece::address(Access::read(out, 4 * gid)),
                      Piece::literal(");")})};
}

std::string printed(Block block) {
  CPrinter printer;
  UserFunctions functions;
  print_expressions(block, printer, functions);
  return print_opencl(block, 0);
}

} // namespace

TEST_CASE("the interior copy: accesses specialised to narrower ranges print without guards, and "
          "lane vectors that stay in range are read with vload") {
  ArithExpr gid = ArithExpr::var("gid0", 0, 15);
  UserFunctions functions; // none called
  Block full = clamped_reads(gid);
  CHECK_THROWS(print_opencl(full, 0));                   // expressions are printed first
  CHECK(count_guards(full, CPrinter(), functions) == 2); // the max, and the min of the last lane
  CHECK(printed(full) == "out[gid0] = x[max(0, gid0 - 1)];\n"
                         "vstore4((float4)(x[4 * gid0 + 1], x[4 * gid0 + 2], x[4 * gid0 + 3], "
                         "x[min(63, 4 * gid0 + 4)]), 0, out + (4 * gid0));\n");
  Block interior = specialise(full, {{"gid0", ArithExpr::var("gid0", 1, 14)}});
  CHECK(count_guards(interior, CPrinter(), functions) == 0);
  CHECK(printed(interior) == "out[gid0] = x[gid0 - 1];\n"
                             "vstore4(vload4(0, x + (4 * gid0 + 1)), 0, out + (4 * gid0));\n");
  CHECK(count_guards(full, CPrinter(), functions) == 2); // the body itself is unchanged
}
