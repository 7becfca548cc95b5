// multigrid::Level::length: the side of the domain sets the mesh width, coarsening keeps it, and
// a small grid with a large grid's mesh width gets that grid's coefficients.
#include <doctest/doctest.h>

#include "core/Data.h"
#include "multigrid/Operators.h"
#include "primitives/Interpreter.h"

using namespace tessera;
using namespace tessera::multigrid;

TEST_CASE("level length: the mesh width follows the domain's side") {
  Level cell{2, 16, ScalarKind::F64, Centring::Cell};
  CHECK(cell.h() == doctest::Approx(1.0 / 16));
  cell.length = 4.0;
  CHECK(cell.h() == doctest::Approx(4.0 / 16));
  CHECK(cell.coarser().h() == doctest::Approx(4.0 / 8));
  Level vertex{2, 15, ScalarKind::F64, Centring::Vertex};
  vertex.length = 2.0;
  CHECK(vertex.h() == doctest::Approx(2.0 / 16));
}

TEST_CASE("level length: the residual of a small grid with a large grid's mesh width") {
  // -lap(u) of u = 1 at one interior point: (2d / h^2) there, with h the large grid's.
  Level small{2, 8, ScalarKind::F64, Centring::Cell};
  small.length = 8.0 / 256; // h = 1/256
  std::vector<double> u(64, 0.0), f(64, 0.0);
  u[3 * 8 + 4] = 1.0;
  auto r = evaluate(residual(small, Boundary::antisymmetric()),
                    {Data::from_flat(ScalarKind::F64, {8, 8}, u),
                     Data::from_flat(ScalarKind::F64, {8, 8}, f)})
               .flatten();
  CHECK(r[3 * 8 + 4] == doctest::Approx(-4.0 * 256 * 256));
  CHECK(r[3 * 8 + 5] == doctest::Approx(256.0 * 256));
  CHECK(r[0] == 0.0);
}
