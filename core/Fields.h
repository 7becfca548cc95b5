// Each primitive's size parameters by name.
//
// A node keeps its sizes in one array (Node::sizes), so that the generic passes (equality,
// hashing, substitution of sizes, the JSON file) treat every kind alike. This header is the one
// place that says which position is which: a table, one entry per kind of
// TESSERA_FOR_EACH_FUNCTION_KIND (a kind without an entry does not compile), names the fields,
// and an accessor per kind returns them by name. Only the builders (core/Expr.cpp,
// core/TimeTile.cpp) and core/Fields.cpp touch the positions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/Expr.h"

namespace tessera {

// The size fields of one kind: the names of its fixed fields in order, and for the
// variable-length kinds (TimeTile, StreamSteps) what follows them: `tail` says what, the
// fixed field `length_field` (a positive constant) plus `length_bias` how many, and up to
// `optional` more may end the list.
struct SizeSchema {
  std::vector<const char*> names;
  const char* tail = nullptr;
  int length_field = -1;
  int length_bias = 0;
  int optional = 0;
};
// Every kind has one; Param, Literal and Call have no sizes.
const SizeSchema& size_schema(NodeKind kind);
// "size, step", or for a variable-length kind "d, k, r, segment, phases, then ...".
std::string size_field_names(NodeKind kind);
// Throws a tessera::Error when `sizes` is not a valid count for the kind, e.g.
// "Slide needs 2 sizes (size, step), got 1". The variable-length kinds read their length
// field (TimeTile's dims, StreamSteps' d), which must then be a constant.
void check_size_count(NodeKind kind, const std::vector<ArithExpr>& sizes);
// The sizes as the printer writes them, in the DSL's call notation: "3,1".
std::string size_list(const Node& n);
// By name, for messages about the kinds that rules make (TileSlide, TimeTile, StreamSteps):
// "size 3, step 1"; a variable-length tail follows as "then 8,4".
std::string named_size_list(const Node& n);

// ---- Accessors. Each checks the node's kind (a wrong kind is a bug in tessera). Their
// references point into the node, which must outlive them. ----
struct SplitFields {
  const ArithExpr& chunk;
};
SplitFields split_fields(const Node& split);

struct SlideFields {
  const ArithExpr& size;
  const ArithExpr& step;
};
SlideFields slide_fields(const Node& slide);

// Pad and Drop: elements added (Pad) or removed (Drop) on the left and on the right.
struct MarginFields {
  const ArithExpr& left;
  const ArithExpr& right;
};
MarginFields pad_fields(const Node& pad);
MarginFields drop_fields(const Node& drop);

struct IterateFields {
  const ArithExpr& times;
};
IterateFields iterate_fields(const Node& iterate);

// At: the element index; Get: the tuple component (a constant).
struct IndexFields {
  const ArithExpr& index;
};
IndexFields at_fields(const Node& at);
IndexFields get_fields(const Node& get);
int get_component(const Node& get); // Get's index as an int

struct GenerateFields {
  const ArithExpr& length;
};
GenerateFields generate_fields(const Node& generate);

// TileSlide: window size n, centre offset l, grid extent N, tile T, halo h.
struct TileSlideFields {
  const ArithExpr& size;
  const ArithExpr& offset;
  const ArithExpr& extent;
  const ArithExpr& tile;
  const ArithExpr& halo;
};
TileSlideFields tile_slide_fields(const Node& tile_slide);

// TimeTile: core/TimeTile.h reads these into a TimeTiling (with their constraints).
struct TimeTileFields {
  const ArithExpr& scheme;
  const ArithExpr& dims;
  const ArithExpr& radius;
  const ArithExpr& steps;
  const ArithExpr& band;
  const ArithExpr& work_group;
  std::vector<ArithExpr> tiles; // one width per dimension
};
TimeTileFields time_tile_fields(const Node& time_tile);

// StreamSteps: all constants (make_stream_steps takes integers).
struct StreamStepsFields {
  int dims = 0;      // d
  int64_t steps = 0; // k
  int64_t radius = 0;
  int64_t segment = 0; // 0: the whole extent
  int64_t phases = 1;
  std::vector<int64_t> tiles; // d - 1, outermost first
  StreamWindow window = StreamWindow::Local;
};
// A user error when a size is not a constant (a node read from a file).
StreamStepsFields stream_steps_fields(const Node& stream_steps);

} // namespace tessera
