// A first tessera program: a 3-point Jacobi step on a 1-D array with clamped boundaries,
// iterated twice, printed in Lift notation and run on random data with the interpreter.
//
// Build: cmake --build build --target example_jacobi1d && ./build/examples/example_jacobi1d
#include <iostream>
#include <random>

#include "dsl/Dsl.h"

using namespace tessera;

int main() try {
  // The input: an array of N floats, N symbolic.
  ArithExpr N = size("N");
  Val x = input("x", Type::array(f32(), N));

  // One Jacobi step in data-flow order: pad, build 3-neighbourhoods, average each one. The
  // arithmetic on the values becomes one user function "average3" (docs/language.md).
  Fun step = pad(1, 1, clamp) >> slide(3, 1) >> map([](Val nbh) {
               return ((nbh.at(0) + nbh.at(1) + nbh.at(2)) / 3.0).named("average3");
             });
  Expr prog = program({x}, x | iterate(2, step));

  std::cout << "program:  " << print(prog) << "\n";
  std::cout << "type:     " << infer_type(prog) << "\n";

  std::mt19937 rng(42);
  std::uniform_real_distribution<double> dist(0.0, 1.0);
  std::vector<double> values(8);
  for (auto& v : values)
    v = dist(rng);
  Data in = Data::from_flat(ScalarKind::F32, {8}, values);
  std::cout << "input:    " << in << "\n";
  std::cout << "output:   " << evaluate(prog, {in}) << "\n";
  std::cout << "as JSON:  " << save_expr(prog).size() << " bytes\n";
  return 0;
} catch (const tessera::Error& e) {
  std::cerr << "error: " << e.what() << "\n";
  return 1;
}
