#include "core/Error.h"
#include "multigrid/Operators.h"

namespace tessera::multigrid {

double Level::h() const {
  return centring == Centring::Cell ? length / static_cast<double>(n)
                                    : length / static_cast<double>(n + 1);
}

int64_t Level::points() const {
  int64_t p = 1;
  for (int64_t e : sizes())
    p *= e;
  return p;
}

std::vector<int64_t> Level::sizes() const {
  if (box.empty())
    return std::vector<int64_t>(dims, n);
  if (static_cast<int>(box.size()) != dims)
    internal_error("a level's box has the wrong number of dimensions");
  return box;
}

std::vector<ArithExpr> Level::extents() const {
  auto s = sizes();
  return std::vector<ArithExpr>(s.begin(), s.end());
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
  c.box.clear();
  c.halo_lo.clear();
  c.halo_hi.clear();
  return c;
}

std::string Level::describe() const {
  std::string shape = std::to_string(n);
  if (dims > 1)
    shape += "^" + std::to_string(dims);
  if (!box.empty()) {
    shape += " (box ";
    for (int d = 0; d < dims; ++d)
      shape += (d ? "x" : "") + std::to_string(box[d]);
    shape += ")";
  }
  return cat(shape, " ", to_string(kind), " ",
             centring == Centring::Cell ? "cell-centred" : "vertex-centred");
}

} // namespace tessera::multigrid
