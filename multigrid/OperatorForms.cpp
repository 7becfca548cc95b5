#include "multigrid/OperatorForms.h"

namespace tessera::multigrid::detail {

Level level_at(const Level& level, const std::vector<int64_t>& extents) {
  Level at = level;
  if (level.box.empty())
    at.n = extents.at(0);
  else
    at.box = extents;
  return at;
}

OperatorSpec spec(const std::string& name, const Level& level,
                  std::function<Expr(const Level&)> build) {
  return {name, level.sizes(), [level, build](const std::vector<int64_t>& extents) {
            return build(level_at(level, extents));
          }};
}

OperatorSpec with_fv4_forms(OperatorSpec spec, const Level& level, bool on,
                            std::function<Expr(const Level&, Fv4Region)> form, int64_t margin) {
  if (!on)
    return spec;
  spec.interior_build = [level, form](const std::vector<int64_t>& extents) {
    return form(level_at(level, extents), {Fv4Region::Interior});
  };
  spec.interior_margin = margin;
  // The slabs along the outermost axis (inside along none) take a form of their own too: the
  // whole kernel is then never built, and their form, without the whole one's interior branch,
  // is the smaller build (with the whole kernel there a first 64^3 solve on PoCL built longer).
  spec.slab_build = [level, form](const std::vector<int64_t>& extents, unsigned inside) {
    return form(level_at(level, extents), {Fv4Region::Slab, inside});
  };
  // On a GPU the parts by inside mask, one launch each: a face needs its own dimension's
  // extrapolations alone, where a slab spanning the edges needs every one.
  spec.slab_regions = true;
  return spec;
}

bool fv4_on(const Level& level, const std::optional<HelmholtzCoefficients>& helmholtz) {
  return helmholtz && level.box.empty() && uses_fv4(level, *helmholtz);
}

} // namespace tessera::multigrid::detail
