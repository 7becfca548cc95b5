// How a lowered variant's computation is mapped to OpenCL work-items: the strategy that made a
// high-level variant executable (rewrite/Variants.h), recorded as data beside its rewrite steps.
//
//   global          every map to global work-items (the default lowering)
//   work-groups     the tiles of `dims` tiled dimensions to work-groups, their cells to work-items
//   local-memory    the same, each work-group's input tile first copied to local memory
//   coarsened-tiles the tiles to global work-items, each computing its whole tile sequentially
//   streaming       a grid of work-items marching along one dimension (stream-nd's shape:
//                   `dims`, `segment`, `factor` unrolled steps)
//   vectorized      `factor` neighbouring results per work-item in vector registers
//   coarsened       `factor` results along dimension `dim` per work-item (`interleaved`: strided)
//   constant-input  the default lowering with input `input` in __constant memory
//   image-input     the default lowering with input `input` read as an image (`space`: addressing)
//   split-launch    the default lowering, its interior a kernel of its own without the boundary
//                   conditionals, the whole kernel on the slabs around it (codegen/SplitLaunch.h;
//                   a CPU's explorer measures it first: the branch blocks vectorisation there)
//
// Reports store it as its own JSON object ({"kind": "coarsened", "factor": 2, "dim": 0, ...});
// version-1 reports had it as a history step "mapping: <describe(mapping)>", which
// mapping_from_v1_step reads back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/Expr.h"

namespace tessera::rewrite {

enum class MappingKind {
  Global,
  WorkGroups,
  LocalMemory,
  CoarsenedTiles,
  Streaming,
  Vectorized,
  Coarsened,
  ConstantInput,
  ImageInput,
  SplitLaunch,
};

struct Mapping {
  MappingKind kind = MappingKind::Global;
  // work-groups, local-memory, coarsened-tiles: the tiled dimensions (0: not recorded, as in a
  // version-1 report); streaming: 2 or 3 (0: not recorded).
  int dims = 0;
  int64_t segment = 0; // streaming: the segment length along the marching dimension (0: none)
  int64_t factor = 0;  // coarsened, vectorized: results per work-item; streaming: unrolled steps
  int dim = 0;         // coarsened: the dimension
  bool interleaved = false;                 // coarsened: the results are a stride apart
  int input = 0;                            // constant-input, image-input: the program's input
  AddressSpace space = AddressSpace::Image; // image-input: the sampler's addressing
  bool operator==(const Mapping&) const = default;
};

// "work-groups", "local-memory", ...: the JSON "kind".
const char* mapping_kind_name(MappingKind kind);
// The mapping in words, as version-1 histories wrote it after "mapping: ": "work-groups, local
// memory", "coarsened 2x along dimension 0", "input 1 as an image (clamp to edge)".
std::string describe(const Mapping& mapping);

nlohmann::json mapping_to_json(const Mapping& mapping);
// Throws Error naming `where` and what is wrong.
Mapping mapping_from_json(const nlohmann::json& json, const std::string& where);

// A version-1 history step "mapping: <text>" as a Mapping; nullopt for any other step. Error,
// naming `where`, for a "mapping: " step whose text names no mapping.
std::optional<Mapping> mapping_from_v1_step(const std::string& step, const std::string& where);

// "clamp to edge", "clamp (0)" or "in bounds": what an image placement's sampler does.
std::string image_addressing_name(AddressSpace space);

} // namespace tessera::rewrite
