// The kernel IR (codegen/KernelIR.h): its printer, and the passes that drop unused user
// functions and choose the work-group size a program leaves open.
#include <doctest/doctest.h>

#include "codegen/KernelIR.h"
#include "dsl/Dsl.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using namespace tessera::codegen;
using tessera::testing::check_kernel;
using tessera::testing::random_f32;

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

TEST_CASE("one emission chooses the work-group of the widest MapLcl and guards the narrower") {
  const int64_t n = 24;
  Val x = input("x", Type::array(f32(), n));
  // Tiles of 8 inputs staged by a MapLcl over 8, then a MapLcl over the 6 outputs.
  Expr p = program(
      {x}, x | pad(1, 1, clamp) | slide(8, 6) | map_wrg(0, [](Val tile) {
             return tile | to_local(map_lcl(0, id_fun())) | slide(3, 1) | map_lcl(0, [](Val nbh) {
                      return nbh | reduce_seq(add_fun(), 0.0f) | map_seq(to_global(id_fun()));
                    });
           }) | join());
  auto k = check_kernel(p, {random_f32({n}, 5)});
  CHECK(k.launch.local[0] == 8);
  CHECK(k.launch.global[0] == ArithExpr(4 * 8));
  CHECK(k.source.find("if (lid0 < 6) {") != std::string::npos);
  CHECK(k.source.find("if (lid0 < 8)") == std::string::npos);
  // An explicit work-group size keeps its own loops.
  CodegenOptions four;
  four.local_size = {4, 0, 0};
  auto k4 = check_kernel(p, {random_f32({n}, 6)}, four);
  CHECK(k4.launch.local[0] == 4);
  CHECK(k4.source.find("+= 4)") != std::string::npos);
}
