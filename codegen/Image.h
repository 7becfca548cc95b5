// Program inputs read as OpenCL images (AddressSpace::Image*, the place-image rule): the kernel
// declares `__read_only image2d_t x` (or image3d_t) and a program-scope sampler with
// unnormalised coordinates, CLK_FILTER_NEAREST and the addressing mode of the placement; an
// element [i0, i1, i2] of the row-major array is read_imagef(x, x_sampler, (int4)(i2, i1, i0,
// 0)).x.
//
// A Pad view directly over an image coordinate (the coordinate is the padded index itself and
// the Pad's length is the image's extent) leaves the boundary to the sampler when its addressing
// does exactly that boundary: CLK_ADDRESS_CLAMP_TO_EDGE clamp, CLK_ADDRESS_CLAMP constant 0.0f
// (its border colour). Every other Pad keeps its own index logic and reads in bounds.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "codegen/View.h"

namespace tessera::codegen {

// The read of an image element at a full path (outermost index first).
Access image_read(std::shared_ptr<const Memory> memory, const Path& path);
// The read through a Pad of boundary `b`, length `n`, padded index `i`, when the sampler does
// the boundary: `child` is the Pad's child resolved with the variable `var` as the index.
std::optional<Access> sampled_pad(const Access& child, const std::string& var, const ArithExpr& i,
                                  const ArithExpr& n, const Boundary& b);

// "__read_only image3d_t x"
std::string image_parameter(const std::string& name, const Type& type);
// The program-scope sampler declaration of image `name` placed in `space`.
std::string image_sampler(const std::string& name, AddressSpace space);
// read_imagef(...).x of an image read whose coordinates are printed as `coordinates`.
std::string image_read_text(const std::string& name, const std::vector<std::string>& coordinates);

} // namespace tessera::codegen
