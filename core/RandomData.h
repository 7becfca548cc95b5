// Deterministic random inputs for a program: values uniform in [-1, 1) of each input's type
// (never all zeros). Used to check kernels against the interpreter and by the CLI.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Data.h"
#include "core/Expr.h"

namespace tessera {

Data random_value(const Type& type, uint32_t seed);
// One value per program input; every length must be a constant (bake symbolic sizes first).
std::vector<Data> random_inputs(const Expr& program, uint32_t seed);

} // namespace tessera
