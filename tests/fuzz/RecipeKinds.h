// The recipe's layout and result families, shared by the recipe (Recipe.cpp: drawing, naming,
// shrinking) and the builder (FuzzProgram.cpp).
#pragma once

namespace tessera::fuzz {

// Layouts before the stencil (Recipe::prep).
enum Prep {
  PrepNone,
  PrepSplitJoin,      // Join o Split(k) on the outer level
  PrepTransposeTwice, // Transpose o Transpose (2-D and 3-D)
  PrepTranspose,      // Transpose (2-D and 3-D: the result is transposed too)
  PrepDropPad,        // PadND(1, 1, b') o DropND(1, 1)
  PrepPadDrop,        // DropND(1, 2) o PadND(2, 1, b')
  PrepIterateLayout,  // Iterate(2, Transpose) of a square grid, or Iterate(2, shift)
  PrepMap,            // MapND(g): a computing map before the stencil
  PrepIterateShift,   // Iterate(2, DropND(0, 1) o PadND(1, 0, b'))
  PrepCount
};

// What happens to the result (Recipe::post).
enum Post {
  PostNone,
  PostMap,            // MapND(g)
  PostTranspose,      // Transpose (2-D and 3-D)
  PostSplitJoin,      // Join o Split(k)
  PostIterate,        // Iterate(k, MapND(step))
  PostDrop,           // DropND(1, 0) of the result
  PostReshape,        // Join (2-D, 3-D) or Split(k) (1-D) of the result
  PostSteps,          // 2-3 more stencil steps MapND(f) o SlideND(2r+1, 1) o PadND(r, r, b), the
                      // same f each time (what the temporal-tiling rule fuses)
  PostIterateStencil, // Iterate(k, MapND(f) o SlideND(2r+1, 1) o PadND(r, r, b)): an iterated
                      // stencil, one launch per step by default (a program of kernels)
  PostCount
};

// Neighbourhood functions (Recipe::window_fn): the first 11 (reductions, folds, user
// functions) keep their meaning in saved recipes; then inline arithmetic on the points
// (dsl/ValArith.h), weighted_sum with constant weights, weighted_sum with the weights an input.
constexpr int kClassicWindowFunctions = 11;
enum WindowFunction { WindowInline = 11, WindowWeightedConstant, WindowWeightedInput };
constexpr int kWindowFunctions = 14;

} // namespace tessera::fuzz
