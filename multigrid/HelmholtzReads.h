// Where the values that one application of the variable-coefficient Helmholtz operator reads at a
// point sit among a formula's parameters (internal to multigrid/; the point smoothers and the
// line relaxation build their formulas over the same reads):
//   [0] u, [1 + 2k] u at -e_k, [2 + 2k] u at +e_k, then f, alpha, and per dimension k the face
//   coefficients beta_k[p] and beta_k[p + e_k]; whatever an operator reads besides follows.
#pragma once

namespace tessera::multigrid::detail {

struct HelmholtzReads {
  int d;
  int f() const { return 2 * d + 1; }
  int alpha() const { return 2 * d + 2; }
  int beta_low(int k) const { return 2 * d + 3 + 2 * k; }
  int beta_high(int k) const { return 2 * d + 4 + 2 * k; }
  int count() const { return 4 * d + 3; }
};

} // namespace tessera::multigrid::detail
