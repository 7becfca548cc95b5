#include "core/Error.h"
#include "multigrid/Operators.h"

namespace tessera::multigrid {

double Level::h() const {
  return centring == Centring::Cell ? length / static_cast<double>(n)
                                    : length / static_cast<double>(n + 1);
}

int64_t Level::points() const {
  int64_t p = 1;
  for (int d = 0; d < dims; ++d)
    p *= n;
  return p;
}

std::vector<ArithExpr> Level::extents() const {
  return std::vector<ArithExpr>(dims, ArithExpr(n));
}

bool Level::can_coarsen() const {
  return centring == Centring::Cell ? n >= 2 && n % 2 == 0 : n >= 3 && n % 2 == 1;
}

Level Level::coarser() const {
  if (!can_coarsen())
    user_error(cat("the grid ", describe(), " does not coarsen: ",
                   centring == Centring::Cell ? "a cell-centred grid needs an even cell count"
                                              : "a vertex-centred grid needs 2m+1 vertices",
                   " (sizes that coarsen to a small grid are powers of two",
                   centring == Centring::Vertex ? " minus one" : "", ")"));
  Level c = *this;
  c.n = centring == Centring::Cell ? n / 2 : (n - 1) / 2;
  return c;
}

std::string Level::describe() const {
  std::string shape = std::to_string(n);
  if (dims > 1)
    shape += "^" + std::to_string(dims);
  return cat(shape, " ", to_string(kind), " ",
             centring == Centring::Cell ? "cell-centred" : "vertex-centred");
}

} // namespace tessera::multigrid
