#include "core/NdExpr.h"

namespace tessera {

Expr map_nest(int dims, Expr f, MapKind kind) {
  for (int i = 0; i < dims; ++i)
    f = make_map(kind, 0, f);
  return f;
}

Expr zip_nd_expr(int dims, const std::vector<Expr>& arrays) {
  Expr zipped = make_call(make_zip(), arrays);
  if (dims <= 1)
    return zipped;
  Expr t = make_param();
  std::vector<Expr> parts;
  for (std::size_t i = 0; i < arrays.size(); ++i)
    parts.push_back(make_call(make_get(static_cast<int>(i)), {t}));
  return make_call(make_map(MapKind::Map, 0, make_lambda({t}, zip_nd_expr(dims - 1, parts))),
                   {zipped});
}

} // namespace tessera
