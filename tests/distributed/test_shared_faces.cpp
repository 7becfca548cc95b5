// Halo faces through memory the ranks of a host share (distributed/SharedFaces.h) against the
// global grid: after every exchange each halo point holds its global neighbour's value of that
// round (a torus, so that one rank has faces to itself too), for both packings, whole faces and
// one colour (even extents: a point and its periodic image have one colour), over many rounds (each
// slot reused; a stale slot shows the last round's values). The same exchanges through MPI messages
// are checked alike, so the two agree.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "distributed/ColourPacking.h"
#include "distributed/HaloExchange.h"
#include "distributed/HostWindow.h"
#include "runtime/Session.h"
#include "tests/distributed/MpiFixture.h"
#include "tests/distributed/RankSession.h"

using namespace tessera;
using namespace tessera::distributed;

namespace {

// A round's value of a global point: distinct per point and per round.
double value_at(const std::vector<int64_t>& global, int round) {
  double v = round * 1e6;
  for (int64_t i : global)
    v = v * 97 + static_cast<double>(i);
  return v;
}

struct ExchangeCase {
  BlockGrid grid;
  FaceStaging::Packing packing;
  bool shared;
  int colour; // -1: every point
};

// Calls f(own, global, parity) for every point of the extended block in row-major order: whether
// it is the block's own, its global index (wrapped: the grid is a torus) and the parity of its
// unwrapped global index (the colour the exchange gives it).
template <class F> void each_point(const Block& b, const BlockGrid& g, F f) {
  const auto e = b.extended();
  std::vector<int64_t> i(e.size(), 0), global(e.size());
  for (bool more = true; more;) {
    bool own = true;
    int64_t parity = 0;
    for (std::size_t d = 0; d < e.size(); ++d) {
      own = own && i[d] >= b.halo_lo[d] && i[d] < b.halo_lo[d] + b.extent[d];
      const int64_t unwrapped = b.offset[d] + i[d] - b.halo_lo[d];
      global[d] = (unwrapped + g.global[d]) % g.global[d];
      parity += unwrapped;
    }
    f(own, global, static_cast<int>((parity % 2 + 2) % 2));
    std::size_t d = e.size();
    while (d > 0 && ++i[d - 1] == e[d - 1])
      i[--d] = 0;
    more = d > 0;
  }
}

// The extended block's values of one round: own points from the global grid, halos -1.
std::vector<double> start_values(const Block& b, const BlockGrid& g, int round) {
  std::vector<double> v;
  each_point(b, g, [&](bool own, const std::vector<int64_t>& global, int) {
    v.push_back(own ? value_at(global, round) : -1);
  });
  return v;
}

// Counts the points whose value is not what the exchange should leave: a halo point of the
// exchanged colour (or any, colour -1) holds its global value, every other point its start.
int64_t wrong_points(const Block& b, const BlockGrid& g, int round, int colour,
                     const std::vector<double>& after) {
  int64_t wrong = 0;
  std::size_t at = 0;
  each_point(b, g, [&](bool own, const std::vector<int64_t>& global, int parity) {
    const double start = own ? value_at(global, round) : -1;
    const bool moves = !own && (colour < 0 || parity == colour);
    wrong += after.at(at++) != (moves ? value_at(global, round) : start);
  });
  return wrong;
}

void run_rounds(const ExchangeCase& c, int rounds) {
  auto world = testing::mpi_world();
  auto cart = world.cartesian(c.grid.ranks, true);
  auto& s = testing::rank_session();
  const Block b = c.grid.block(c.grid.coords_of(world.rank()));
  std::vector<std::vector<int>> neighbours;
  for (std::size_t d = 0; d < c.grid.global.size(); ++d)
    neighbours.push_back(
        {cart.neighbour(static_cast<int>(d), 0), cart.neighbour(static_cast<int>(d), 1)});
  HaloExchange exchange(halo_faces(b, c.grid.halo(), neighbours), sizeof(double), c.packing,
                        256); // pieces of 256 bytes: several per face
  ColourPacking colours(s, sizeof(double));
  if (c.colour >= 0) {
    int64_t parity = 0;
    for (std::size_t d = 0; d < b.offset.size(); ++d)
      parity += b.offset[d] - b.halo_lo[d];
    exchange.colour_packing(&colours, static_cast<int>((parity % 2 + 2) % 2));
  }
  if (c.shared)
    exchange.share_host_memory(cart);
  // Every face is shared on one host; with a host per rank, a face to the rank itself alone.
  std::size_t expected = 0;
  for (const auto& f : halo_faces(b, 1, neighbours))
    expected += c.shared && (!every_rank_a_host() || f.neighbour == cart.rank()) ? 1 : 0;
  CHECK(exchange.shared_faces() == expected);
  const std::size_t bytes = static_cast<std::size_t>(whole(b.extended()).points()) * 8;
  cl::Buffer extended(s.context(), CL_MEM_READ_WRITE, bytes);
  int64_t wrong = 0;
  for (int round = 1; round <= rounds; ++round) {
    auto v = start_values(b, c.grid, round);
    s.queue().enqueueWriteBuffer(extended, CL_TRUE, 0, bytes, v.data());
    exchange.run(cart, s.queue(), extended, c.colour);
    s.queue().enqueueReadBuffer(extended, CL_TRUE, 0, bytes, v.data());
    wrong += wrong_points(b, c.grid, round, c.colour, v);
  }
  CHECK(wrong == 0);
}

} // namespace

TEST_CASE("halo faces through shared host memory equal the global grid's, as messages do") {
  auto world = testing::mpi_world();
  const auto ranks2 = world.balanced_dims(2), ranks3 = world.balanced_dims(3);
  const std::vector<BlockGrid> grids{
      {{12 * ranks2[0], 10 * ranks2[1]}, ranks2, true, 1, 2},
      {{6 * ranks3[0], 8 * ranks3[1], 4 * ranks3[2]}, ranks3, true, 1, 1},
  };
  for (const auto& g : grids)
    for (bool shared : {true, false}) {
      CAPTURE(g.global);
      CAPTURE(shared);
      run_rounds({g, FaceStaging::Packing::Transfer, shared, -1}, 5);
      run_rounds({g, FaceStaging::Packing::OnDevice, shared, -1}, 5);
      if (g.halo() == 1) // one colour: the solver's exchanges, halo 1
        for (int colour : {0, 1})
          run_rounds({g, FaceStaging::Packing::OnDevice, shared, colour}, 3);
    }
}
