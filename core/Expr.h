// The expression IR.
//
// Every node is immutable and shared through the `Expr` handle. There are three kinds of value
// expressions (Param, Literal, Call) and a set of function nodes (Lambda, UserFun and the
// primitives). A function is used by a Call:
//
//   Map(f) o Slide(3,1) $ x   ==   Call(Map(f), [Call(Slide(3,1), [x])])
//
// Function nodes carry their parameters as data (sizes as ArithExpr, boundary kinds, mapping
// dimensions), never closures, so every node can be printed, hashed, compared and saved.
// Types live outside the nodes (see TypeCheck.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Scalar.h"
#include "core/Type.h"
#include "core/arith/ArithExpr.h"

namespace tessera {

// One list of node kinds; exhaustive switches over it have no `default:`, so that -Wswitch
// points at every pass that must learn about a new primitive.
// (clang-format 14 does not settle on one layout of this list)
// clang-format off
#define TESSERA_FOR_EACH_FUNCTION_KIND(X) \
  X(Lambda) X(UserFun) X(Map) X(Reduce) X(Zip) X(Split) X(Join) X(Slide) X(Pad) X(Drop) \
  X(Transpose) X(Iterate) X(At) X(Get) X(Generate) X(ToMem) X(TileSlide) X(Scan) X(TimeTile) \
  X(StreamSteps)
// clang-format on

enum class NodeKind {
  Param,
  Literal,
  Call,
#define TESSERA_KIND_ENUM(name) name,
  TESSERA_FOR_EACH_FUNCTION_KIND(TESSERA_KIND_ENUM)
#undef TESSERA_KIND_ENUM
};

const char* kind_name(NodeKind kind);

// How a Map is executed: the high-level Map or one of the OpenCL mappings.
enum class MapKind { Map, Glb, Wrg, Lcl, Seq, SeqUnroll };
// How a Reduce is executed.
enum class ReduceKind { Reduce, Seq, SeqUnroll };
// Constant: __constant memory, for program inputs only (place-constant,
// rewrite/rules/Placement.cpp). Image*: a 2-D or 3-D f32 program input read as an OpenCL image
// through a sampler whose addressing mode is CLK_ADDRESS_NONE (Image: every read in bounds),
// CLK_ADDRESS_CLAMP_TO_EDGE (ImageClampToEdge: does clamp padding) or CLK_ADDRESS_CLAMP
// (ImageClamp: does constant-0 padding) (place-image, rewrite/rules/ImagePlacement.cpp).
enum class AddressSpace { Global, Local, Private, Constant, Image, ImageClampToEdge, ImageClamp };
bool is_image(AddressSpace s);

const char* map_kind_name(MapKind kind);        // "Map", "MapGlb", ...
const char* reduce_kind_name(ReduceKind kind);  // "Reduce", "ReduceSeq", ...
const char* address_space_name(AddressSpace s); // "Global", "Local", "Private"

// Pad boundary handling. For an index i outside [0, n):
//   clamp:       min(max(i, 0), n-1)
//   mirror:      symmetric reflection: -1 -> 0, -2 -> 1, n -> n-1, n+1 -> n-2
//   wrap:        i mod n
//   antisymmetric: mirror's element negated: -1 -> -x[0], n -> -x[n-1] (the ghost value of a
//                cell-centred grid with a homogeneous Dirichlet boundary)
// Mirror, antisymmetric and wrap pad at most n elements on each side (one reflection or wrap).
//   constant(c): the value c instead of an element
// fixed is no Pad boundary but a stencil step's (the benchmarks' fixed halo: the cells within the
// radius of the edge keep their initial value): stencils::with_boundary and the catalog's
// builders build it as the step dsl/FixedHalo.h writes, from the primitives; a node that pads
// (make_pad, make_tile_slide, make_time_tile, make_stream_steps) refuses it (require_pad_boundary).
struct Boundary {
  enum Kind { Clamp, Mirror, Wrap, Constant, Antisymmetric, Fixed } kind = Clamp;
  ScalarValue value; // Constant only
  static Boundary clamp() { return {Clamp, {}}; }
  static Boundary mirror() { return {Mirror, {}}; }
  static Boundary antisymmetric() { return {Antisymmetric, {}}; }
  static Boundary wrap() { return {Wrap, {}}; }
  static Boundary constant(ScalarValue v) { return {Constant, v}; }
  static Boundary fixed() { return {Fixed, {}}; }
  std::string to_string() const; // "clamp", "constant(0.0f)"
  bool operator==(const Boundary& o) const { return kind == o.kind && value == o.value; }
};
// The source index of padded index i (in [-n, 2n)) in an array of length n for the
// index-remapping boundaries (clamp, mirror, antisymmetric, wrap); for constant it is i itself
// (callers test the range first).
ArithExpr boundary_index(const Boundary& b, const ArithExpr& i, const ArithExpr& n);
// Whether the boundary negates the element it reads outside the array (antisymmetric).
bool negates_outside(const Boundary& b);
// Error, naming `primitive`, for the fixed boundary: it is a step's, not a padding's.
void require_pad_boundary(const Boundary& b, const char* primitive);
// The image placement whose sampler does the boundary b exactly: clamp -> ImageClampToEdge
// (CLK_ADDRESS_CLAMP_TO_EDGE), constant +0.0f -> ImageClamp (CLK_ADDRESS_CLAMP, border colour
// 0); none for every other boundary (mirror and wrap addressing need normalised coordinates).
std::optional<AddressSpace> sampler_space(const Boundary& b);

struct Node;

class Expr {
public:
  Expr() = default;
  explicit Expr(std::shared_ptr<const Node> node) : node_(std::move(node)) {}

  const Node& operator*() const { return *node_; }
  const Node* operator->() const { return node_.get(); }
  const Node* get() const { return node_.get(); }
  explicit operator bool() const { return node_ != nullptr; }
  bool same_as(const Expr& other) const { return node_ == other.node_; }

private:
  std::shared_ptr<const Node> node_;
};

struct Node {
  NodeKind kind;
  // Call: [function, arg...]; Lambda: [param..., body]; Map/Iterate/ToMem/Generate: [f];
  // Reduce, Scan: [f, init].
  std::vector<Expr> children;
  // The primitive's size parameters. Which position is which is defined once, in
  // core/Fields.h (a table over the node kinds, an accessor per kind); read them through
  // the accessors (slide_fields(n).step), not by position.
  std::vector<ArithExpr> sizes;
  MapKind map_kind = MapKind::Map;
  int dim = 0; // MapGlb/MapWrg/MapLcl dimension
  ReduceKind reduce_kind = ReduceKind::Reduce;
  AddressSpace space = AddressSpace::Global;
  Boundary boundary;                          // Pad, TileSlide, TimeTile, StreamSteps
  bool backward = false;                      // Scan: from the last element to the first
  ScalarValue literal;                        // Literal
  std::string name;                           // Param: optional user name
  std::optional<Type> declared_type;          // Param: type of a program input
  std::shared_ptr<const UserFunDef> user_fun; // UserFun
  // The nodes on the longest path from this one down to a leaf (itself included), set by
  // make_node: at most kMaxExprDepth.
  int height = 1;

  bool is_function() const { return kind > NodeKind::Call; }
  // Call accessors.
  const Expr& callee() const { return children.front(); }
  std::vector<Expr> call_args() const { return {children.begin() + 1, children.end()}; }
  // Lambda accessors.
  std::vector<Expr> params() const { return {children.begin(), children.end() - 1}; }
  const Expr& body() const { return children.back(); }
};

// The deepest nesting of nodes tessera builds and loads. Its passes (printer, type checker,
// lowering, code generator, hashing) recurse over the nesting; to this depth they stay far from
// the stack's end (2000 levels loaded, printed and type-checked in 1 to 2 MiB of stack in a
// release build; sanitizers take a few times more of the 8 MiB), and a deeper program is
// refused where it is built (make_node) or loaded (core/Json.h) with an Error that says "nested
// deeper than ...". Real programs are far below it: 64 fused steps of a 3-D stencil, the most
// the command line builds, are 209 deep, lowered too (tests/tessera/test_limits.cpp).
constexpr int kMaxExprDepth = 1000;

// Every node is made here: sets its height and refuses one deeper than kMaxExprDepth.
Expr make_node(Node node);

// ---- Constructors. They validate parameters (non-negative sizes, arity); type errors are
// reported by the type checker when the function is applied. ----
Expr make_param(std::string name = "", std::optional<Type> type = std::nullopt);
Expr make_literal(ScalarValue value);
Expr make_call(Expr function, std::vector<Expr> args);
Expr make_lambda(std::vector<Expr> params, Expr body);
Expr make_user_fun(std::shared_ptr<const UserFunDef> def);
Expr make_map(MapKind kind, int dim, Expr f);
Expr make_reduce(ReduceKind kind, Expr f, Expr init);
// A sequential recurrence (primitives/Scan.cpp): state s = init, then per element
// s = f(s, x[i]) and out[i] = s, from the first element to the last or (backward) the reverse.
Expr make_scan(Expr f, Expr init, bool backward);
Expr make_zip();
Expr make_split(ArithExpr chunk);
Expr make_join();
Expr make_slide(ArithExpr size, ArithExpr step);
Expr make_pad(ArithExpr left, ArithExpr right, Boundary boundary);
Expr make_drop(ArithExpr left, ArithExpr right);
Expr make_transpose();
Expr make_iterate(ArithExpr times, Expr f);
Expr make_at(ArithExpr index);
Expr make_get(int index);
Expr make_generate(ArithExpr length, Expr f);
Expr make_to_mem(AddressSpace space, Expr f);
// A program input (a typed Param) read from another address space: Global (the default),
// Constant or an image (a 2-D or 3-D f32 array); a new Param, to be substituted for the old one.
Expr make_placed_input(const Expr& param, AddressSpace space);
// The windows of one tile of a grid with the grid's boundary applied per window centre
// (primitives/TileSlide.cpp): window size n, centre offset l, grid extent N, tile T, halo h.
Expr make_tile_slide(ArithExpr n, ArithExpr l, ArithExpr N, ArithExpr T, ArithExpr h,
                     Boundary boundary);

// k steps of the stencil Map^d(f) $ ZipND(SlideND(2r+1, 1) $ PadND(r, r, b) $ a, consts..)
// fused by 2.5-D blocking (primitives/StreamSteps.cpp): tiles of `tiles` (one per dimension
// but the outermost, outermost first) march along dimension 0 in segments of `segment` (0: the
// whole extent). Applied to (x, consts..): the constants come in `phases` groups of equal size,
// step t (from 0) reading group t % phases (red-black Gauss-Seidel: a mask per colour).
// `window` says where a time level's planes live (codegen/StreamSteps.cpp): 2r+1 planes in
// local memory, or, for a star-shaped f only (core/StarStencil.h), each work-item's own column
// in registers and only the centre plane in local memory.
enum class StreamWindow { Local, Registers };
Expr make_stream_steps(int d, int64_t k, int64_t r, Boundary boundary,
                       const std::vector<int64_t>& tiles, int64_t segment, int64_t phases, Expr f,
                       StreamWindow window = StreamWindow::Local);
// The work-group size StreamSteps takes unless the launch says otherwise: one work-item per
// tile point, rounded up to 32, at most 256 (the local window).
int64_t stream_steps_work_group(const std::vector<int64_t>& tiles);
// With the register window: one work-item per column of level 0's region (the tile plus a
// halo of kr), in as few groups of at most 1024 as fit (AN5D's layout).
int64_t stream_steps_work_group(const std::vector<int64_t>& tiles, StreamWindow window, int64_t kr);
// The window form of a StreamSteps node (its optional last size: 1 for registers).
StreamWindow stream_window(const Node& stream_steps);
// With the register window, the time levels' centre planes (k planes of `plane` elements of
// `element_bytes`) are double-buffered, one half per plane parity, where both halves fit in
// `local_bytes` (the target's stream_local_bytes, core/Target.h): the march then needs one
// barrier per plane instead of two.
bool stream_steps_double_buffered(int64_t k, int64_t plane, int64_t element_bytes,
                                  int64_t local_bytes);

// A copy of `node` with other children (used by rewriting and by the JSON loader).
Expr with_children(const Expr& node, std::vector<Expr> children);

// Composition in data-flow order: compose({f, g}) is the lambda x => g(f(x)).
Expr compose(const std::vector<Expr>& functions_in_data_flow_order);

// Structural equality up to renaming of parameters, and a matching hash.
bool structurally_equal(const Expr& a, const Expr& b);
std::size_t structural_hash(const Expr& e);

// The declared types of a program's inputs (a program is a lambda over them).
std::vector<Type> input_types(const Expr& program);

} // namespace tessera
