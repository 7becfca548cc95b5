// The kernel IR (codegen/KernelIR.h): its printer, and the passes that drop unused user
// functions and choose the work-group size a program leaves open (the whole kernel:
// tests/codegen/test_codegen_basic.cpp, "tiles with MapWrg and MapLcl").
#include <doctest/doctest.h>

#include "codegen/KernelIR.h"

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
