// Deterministic random inputs for a program: values uniform in [-1, 1) of each input's type
// (never all zeros). Used to check kernels against the interpreter and by the CLI.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Data.h"
#include "core/Expr.h"

namespace tessera {

// `count` values of `kind` from uniform [-1, 1) with `seed`: f32 values rounded to float, i32
// integers in [-100, 100), u8 in [0, 254], booleans true for positive draws. The one generator
// of the interpreter's inputs (below) and the explorer's flat ones (compile/Workload.h).
std::vector<double> random_scalars(ScalarKind kind, std::size_t count, uint32_t seed);
// The seed of a program's input number k, for a run seeded with `seed`.
uint32_t input_seed(uint32_t seed, uint32_t k);

Data random_value(const Type& type, uint32_t seed);
// One value per program input; every length must be a constant (bake symbolic sizes first).
std::vector<Data> random_inputs(const Expr& program, uint32_t seed);

} // namespace tessera
