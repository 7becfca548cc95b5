// The solver's operators as specifications for the tuner (OperatorSpec, Tuning.h), with the
// forms of their interiors and slabs where they have them (internal to multigrid/).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "multigrid/HelmholtzFv4.h"
#include "multigrid/Tuning.h"

namespace tessera::multigrid::detail {

// `level` at other extents: a cube of that side or (a rank's box) that box.
Level level_at(const Level& level, const std::vector<int64_t>& extents);

// The operator on `level`'s grid, and at other extents on level_at's.
OperatorSpec spec(const std::string& name, const Level& level,
                  std::function<Expr(const Level&)> build);

// The operator's interior form and its slabs' forms, `form(level, region)`, where the level
// runs them (`on`): exact `margin` or more from every edge (OperatorSpec::interior_build), or on
// a split launch's slab (slab_build). HPGMG-FV's 4th-order operators and its interpolations.
OperatorSpec with_fv4_forms(OperatorSpec spec, const Level& level, bool on,
                            std::function<Expr(const Level&, Fv4Region)> form, int64_t margin);

// Whether the level runs HPGMG-FV's 4th-order operators (a whole grid; HelmholtzFv4.h), which
// have interior and slab forms.
bool fv4_on(const Level& level, const std::optional<HelmholtzCoefficients>& helmholtz);

} // namespace tessera::multigrid::detail
