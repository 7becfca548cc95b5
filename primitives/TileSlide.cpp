// TileSlide(n, l, N, T, h, b) : ([E]_{T+2h}, i32) -> [[E]_n]_{T+2h-n+1}
//
// The windows Slide(n, 1) o Pad(l, n-1-l, b) of a grid G of extent N, computed for one tile
// from the tile's own elements. The tile is tile t of Slide(T + 2h, T) o Pad(h, h, b) $ G, so
// element i of the tile is G at the global position b(o + i), o = t*T - h. Window q is centred
// (at offset l) on position p = o + l + q and holds G at b(b(p) - l + m), m in [0, n): the
// boundary is applied to the window's centre first, exactly as a per-step Pad of the grid does.
// That is what overlapped temporal tiling needs to recompute an intermediate time step inside a
// tile: window q of a tile is tile[b(p) - l - o + m], which only differs from Slide(n, 1) in
// the tiles that touch the grid's boundary. Boundaries: clamp and mirror (wrap tiles would need
// elements of the opposite tile; a constant boundary is a value, not a position). Every read
// must stay inside the tile (T >= h suffices); otherwise evaluation is an error.
#include "core/Error.h"
#include "core/Fields.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

namespace {

// The tile index read by element m of window q of tile t (an ArithExpr, so that the same
// formula serves constants here and symbols in the code generator).
ArithExpr source_index(const Node& f, const ArithExpr& t, const ArithExpr& q, const ArithExpr& m) {
  const TileSlideFields s = tile_slide_fields(f);
  ArithExpr origin = t * s.tile - s.halo;
  return boundary_index(f.boundary, origin + s.offset + q, s.extent) - s.offset - origin + m;
}

} // namespace

ArithExpr tile_slide_index(const Node& f, const ArithExpr& t, const ArithExpr& q,
                           const ArithExpr& m) {
  return source_index(f, t, q, m);
}

Type tile_slide_type(TypeChecker& checker, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 2);
  const Type& tile = require_array(name.c_str(), args[0], "a tile (an array)");
  const TileSlideFields fields = tile_slide_fields(f);
  const ArithExpr &n = fields.size, &T = fields.tile, &h = fields.halo;
  if (!args[1].is_scalar() || args[1].scalar_kind() != ScalarKind::I32)
    user_error(cat(name, " expects the tile index (i32) as its second argument, got ", args[1]));
  if (prove_eq(tile.length(), T + 2 * h) != Truth::Yes)
    user_error(cat(name, " expects a tile of T + 2h = ", (T + 2 * h).to_string(), " elements, got ",
                   tile));
  require_le(checker, n, tile.length(),
             cat(name, ": windows of ", n.to_string(), " do not fit into ", tile));
  return Type::array(Type::array(tile.element(), n), tile.length() - n + 1);
}

Data tile_slide_eval(Interpreter& interp, const Node& f, const Values& args) {
  const Data& tile = args.at(0);
  int64_t t = static_cast<int64_t>(args.at(1).number());
  int64_t n = interp.size_value(tile_slide_fields(f).size);
  auto length = static_cast<int64_t>(tile.size());
  std::vector<Data> windows;
  for (int64_t q = 0; q + n <= length; ++q) {
    std::vector<Data> window;
    for (int64_t m = 0; m < n; ++m) {
      int64_t i = interp.size_value(source_index(f, t, q, m));
      if (i < 0 || i >= length)
        user_error(cat(describe(f), ": window ", q, " of tile ", t, " needs element ", i,
                       " of a tile of ", length,
                       ": the tiles are too small for the boundary (T >= h is needed)"));
      window.push_back(tile[static_cast<std::size_t>(i)]);
    }
    windows.push_back(Data::array(std::move(window)));
  }
  return Data::array(std::move(windows));
}

} // namespace tessera::primitives
