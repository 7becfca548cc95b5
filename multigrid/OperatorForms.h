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

// Where the operator has an interior form (`has_form`), that form (`form`, exact `margin` or
// more from every edge) for a kernel on the interior (OperatorSpec::interior_build).
OperatorSpec with_interior(OperatorSpec spec, const Level& level, bool has_form,
                           std::function<Expr(const Level&)> form, int64_t margin);

// The 4th-order operator's interior form and its slabs' forms, `form(level, region)`, where the
// level runs it (`on`): exact `margin` or more from every edge, or on a split launch's slab.
OperatorSpec with_fv4_forms(OperatorSpec spec, const Level& level, bool on,
                            std::function<Expr(const Level&, Fv4Region)> form, int64_t margin);

// Whether the level runs HPGMG-FV's 4th-order operators (a whole grid; HelmholtzFv4.h), which
// have interior and slab forms.
bool fv4_on(const Level& level, const std::optional<HelmholtzCoefficients>& helmholtz);

} // namespace tessera::multigrid::detail
