#include "core/Expr.h"

#include <algorithm>
#include <cstring>

#include <cctype>
#include <functional>
#include <map>

#include "core/Error.h"
#include "core/StarStencil.h"

namespace tessera {

const char* kind_name(NodeKind kind) {
  switch (kind) {
  case NodeKind::Param:
    return "Param";
  case NodeKind::Literal:
    return "Literal";
  case NodeKind::Call:
    return "Call";
#define TESSERA_KIND_NAME(name)                                                                    \
  case NodeKind::name:                                                                             \
    return #name;
    TESSERA_FOR_EACH_FUNCTION_KIND(TESSERA_KIND_NAME)
#undef TESSERA_KIND_NAME
  }
  return "?";
}

const char* map_kind_name(MapKind kind) {
  switch (kind) {
  case MapKind::Map:
    return "Map";
  case MapKind::Glb:
    return "MapGlb";
  case MapKind::Wrg:
    return "MapWrg";
  case MapKind::Lcl:
    return "MapLcl";
  case MapKind::Seq:
    return "MapSeq";
  case MapKind::SeqUnroll:
    return "MapSeqUnroll";
  }
  return "?";
}

const char* reduce_kind_name(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Reduce:
    return "Reduce";
  case ReduceKind::Seq:
    return "ReduceSeq";
  case ReduceKind::SeqUnroll:
    return "ReduceSeqUnroll";
  }
  return "?";
}

const char* address_space_name(AddressSpace s) {
  switch (s) {
  case AddressSpace::Global:
    return "Global";
  case AddressSpace::Local:
    return "Local";
  case AddressSpace::Private:
    return "Private";
  case AddressSpace::Constant:
    return "Constant";
  case AddressSpace::Image:
    return "Image";
  case AddressSpace::ImageClampToEdge:
    return "ImageClampToEdge";
  case AddressSpace::ImageClamp:
    return "ImageClamp";
  }
  return "?";
}

std::optional<AddressSpace> sampler_space(const Boundary& b) {
  if (b.kind == Boundary::Clamp)
    return AddressSpace::ImageClampToEdge;
  if (b.kind != Boundary::Constant || b.value.kind != ScalarKind::F32)
    return std::nullopt;
  // The border colour is +0.0f: -0.0f differs in its sign bit.
  float v = static_cast<float>(b.value.as_double());
  uint32_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  if (bits != 0)
    return std::nullopt;
  return AddressSpace::ImageClamp;
}

bool is_image(AddressSpace s) {
  return s == AddressSpace::Image || s == AddressSpace::ImageClampToEdge ||
         s == AddressSpace::ImageClamp;
}

std::string Boundary::to_string() const {
  switch (kind) {
  case Clamp:
    return "clamp";
  case Mirror:
    return "mirror";
  case Wrap:
    return "wrap";
  case Antisymmetric:
    return "antisymmetric";
  case Constant:
    return "constant(" + value.to_string() + ")";
  case Fixed:
    return "fixed";
  }
  return "?";
}

ArithExpr boundary_index(const Boundary& b, const ArithExpr& i, const ArithExpr& n) {
  // Pad allows at most n padded elements per side for mirror and wrap, so i is in [-n, 2n):
  // one reflection or one wrap suffices, written with comparisons that the simplifier removes
  // wherever the index provably stays inside the array.
  switch (b.kind) {
  case Boundary::Clamp:
    return min(max(i, 0), n - 1);
  case Boundary::Mirror:
  case Boundary::Antisymmetric:
    return select(lt(i, 0), -1 - i, select(lt(i, n), i, 2 * n - 1 - i));
  case Boundary::Wrap:
    return select(lt(i, 0), i + n, select(lt(i, n), i, i - n));
  case Boundary::Constant:
    return i;
  case Boundary::Fixed:
    break; // no node holds it (require_pad_boundary)
  }
  internal_error("unknown boundary kind");
}

void require_pad_boundary(const Boundary& b, const char* primitive) {
  if (b.kind == Boundary::Fixed)
    user_error(cat(primitive, ": fixed is not a boundary of values outside the array but of a "
                              "stencil step (the cells within its radius of the edge keep their "
                              "value): build the step with fixed_halo(d, r, f) (dsl/FixedHalo.h) "
                              "or stencils::with_boundary(step, Boundary::fixed()); a Pad takes "
                              "clamp, mirror, wrap, antisymmetric or constant"));
}

bool negates_outside(const Boundary& b) {
  return b.kind == Boundary::Antisymmetric;
}

Expr make_node(Node node) {
  int height = 0;
  for (const auto& c : node.children)
    height = std::max(height, c->height);
  node.height = height + 1;
  if (node.height > kMaxExprDepth)
    user_error(cat("the program is nested deeper than ", kMaxExprDepth,
                   " levels, the most tessera builds (its passes recurse over the nesting)"));
  return Expr(std::make_shared<const Node>(std::move(node)));
}

namespace {

Node function_node(NodeKind kind) {
  Node n{};
  n.kind = kind;
  return n;
}

void require_function(const Expr& f, const char* primitive) {
  if (!f || !f->is_function())
    user_error(
        cat(primitive, " expects a function argument, got ", f ? kind_name(f->kind) : "nothing"));
}

void require_non_negative(const ArithExpr& e, const char* primitive, const char* what) {
  if (auto c = e.as_constant(); c && *c < 0)
    user_error(cat(primitive, ": ", what, " must not be negative, got ", *c));
}

void require_positive(const ArithExpr& e, const char* primitive, const char* what) {
  if (auto c = e.as_constant(); c && *c <= 0)
    user_error(cat(primitive, ": ", what, " must be positive, got ", *c));
}

} // namespace

Expr make_param(std::string name, std::optional<Type> type) {
  Node n{};
  n.kind = NodeKind::Param;
  n.name = std::move(name);
  n.declared_type = std::move(type);
  return make_node(std::move(n));
}

Expr make_placed_input(const Expr& param, AddressSpace space) {
  if (!param || param->kind != NodeKind::Param || !param->declared_type ||
      !param->declared_type->is_array())
    user_error("only a program input of array type can be placed in another address space");
  if (space != AddressSpace::Global && space != AddressSpace::Constant && !is_image(space))
    user_error(cat("a program input lives in Global or Constant memory or in an image, not ",
                   address_space_name(space)));
  const Type& t = *param->declared_type;
  if (is_image(space) &&
      (t.innermost() != f32() || t.rank() < 2 || t.rank() > 3 || !t.scalar_count().as_constant()))
    user_error(cat("only a 2-D or 3-D f32 array of constant extents can be read as an image, not ",
                   t.to_string()));
  Node n = *param;
  n.space = space;
  return make_node(std::move(n));
}

Expr make_literal(ScalarValue value) {
  Node n{};
  n.kind = NodeKind::Literal;
  n.literal = value;
  return make_node(std::move(n));
}

Expr make_call(Expr function, std::vector<Expr> args) {
  if (!function || !function->is_function())
    user_error(cat("only functions can be applied, got ",
                   function ? kind_name(function->kind) : "nothing"));
  for (const auto& a : args)
    if (!a || a->is_function())
      user_error(cat(kind_name(function->kind), " must be applied to values, got a function (",
                     a ? kind_name(a->kind) : "nothing", ")"));
  Node n{};
  n.kind = NodeKind::Call;
  n.children.push_back(std::move(function));
  for (auto& a : args)
    n.children.push_back(std::move(a));
  return make_node(std::move(n));
}

Expr make_lambda(std::vector<Expr> params, Expr body) {
  if (params.empty())
    user_error("a lambda needs at least one parameter");
  for (const auto& p : params)
    if (!p || p->kind != NodeKind::Param)
      user_error("lambda parameters must be Params");
  if (!body || body->is_function())
    user_error("a lambda body must be a value expression");
  Node n = function_node(NodeKind::Lambda);
  n.children = std::move(params);
  n.children.push_back(std::move(body));
  return make_node(std::move(n));
}

Expr make_user_fun(std::shared_ptr<const UserFunDef> def) {
  if (!def)
    user_error("UserFun needs a definition");
  if (def->name.empty())
    user_error("UserFun needs a name");
  if (def->body.max_param_index() >= def->arity)
    user_error(cat("UserFun '", def->name, "' uses parameter ", def->body.max_param_index(),
                   " but has arity ", def->arity));
  if (!def->signature.empty() && static_cast<int>(def->signature.size()) != def->arity)
    user_error(cat("UserFun '", def->name, "': signature has ", def->signature.size(),
                   " types for ", def->arity, " parameters"));
  if (!def->param_names.empty() && static_cast<int>(def->param_names.size()) != def->arity)
    user_error(cat("UserFun '", def->name, "': ", def->param_names.size(), " parameter names for ",
                   def->arity, " parameters"));
  for (const auto& p : def->param_names) {
    bool identifier = !p.empty() && !std::isdigit(static_cast<unsigned char>(p[0]));
    for (char c : p)
      identifier &= std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    if (!identifier)
      user_error(cat("UserFun '", def->name, "': parameter name '", p,
                     "' is not an identifier (letters, digits and '_', not starting with a "
                     "digit)"));
  }
  Node n = function_node(NodeKind::UserFun);
  n.user_fun = std::move(def);
  return make_node(std::move(n));
}

Expr make_map(MapKind kind, int dim, Expr f) {
  require_function(f, map_kind_name(kind));
  if (dim < 0 || dim > 2)
    user_error(cat(map_kind_name(kind), ": dimension must be 0, 1 or 2, got ", dim));
  Node n = function_node(NodeKind::Map);
  n.map_kind = kind;
  n.dim = dim;
  n.children = {std::move(f)};
  return make_node(std::move(n));
}

Expr make_reduce(ReduceKind kind, Expr f, Expr init) {
  require_function(f, reduce_kind_name(kind));
  if (!init || init->is_function())
    user_error(cat(reduce_kind_name(kind), " expects a value as initial element"));
  Node n = function_node(NodeKind::Reduce);
  n.reduce_kind = kind;
  n.children = {std::move(f), std::move(init)};
  return make_node(std::move(n));
}

Expr make_scan(Expr f, Expr init, bool backward) {
  const char* name = backward ? "ScanBackward" : "Scan";
  require_function(f, name);
  if (!init || init->is_function())
    user_error(cat(name, " expects a value as initial state"));
  Node n = function_node(NodeKind::Scan);
  n.backward = backward;
  n.children = {std::move(f), std::move(init)};
  return make_node(std::move(n));
}

Expr make_zip() {
  return make_node(function_node(NodeKind::Zip));
}

Expr make_split(ArithExpr chunk) {
  require_positive(chunk, "Split", "chunk size");
  Node n = function_node(NodeKind::Split);
  n.sizes = {std::move(chunk)};
  return make_node(std::move(n));
}

Expr make_join() {
  return make_node(function_node(NodeKind::Join));
}

Expr make_slide(ArithExpr size, ArithExpr step) {
  require_positive(size, "Slide", "window size");
  require_positive(step, "Slide", "step");
  Node n = function_node(NodeKind::Slide);
  n.sizes = {std::move(size), std::move(step)};
  return make_node(std::move(n));
}

Expr make_pad(ArithExpr left, ArithExpr right, Boundary boundary) {
  require_non_negative(left, "Pad", "left padding");
  require_non_negative(right, "Pad", "right padding");
  require_pad_boundary(boundary, "Pad");
  Node n = function_node(NodeKind::Pad);
  n.sizes = {std::move(left), std::move(right)};
  n.boundary = boundary;
  return make_node(std::move(n));
}

Expr make_drop(ArithExpr left, ArithExpr right) {
  require_non_negative(left, "Drop", "left count");
  require_non_negative(right, "Drop", "right count");
  Node n = function_node(NodeKind::Drop);
  n.sizes = {std::move(left), std::move(right)};
  return make_node(std::move(n));
}

Expr make_transpose() {
  return make_node(function_node(NodeKind::Transpose));
}

Expr make_iterate(ArithExpr times, Expr f) {
  require_function(f, "Iterate");
  require_non_negative(times, "Iterate", "iteration count");
  if (!times.is_constant())
    user_error("Iterate: the iteration count must be a constant");
  Node n = function_node(NodeKind::Iterate);
  n.sizes = {std::move(times)};
  n.children = {std::move(f)};
  return make_node(std::move(n));
}

Expr make_at(ArithExpr index) {
  require_non_negative(index, "At", "index");
  Node n = function_node(NodeKind::At);
  n.sizes = {std::move(index)};
  return make_node(std::move(n));
}

Expr make_get(int index) {
  if (index < 0)
    user_error(cat("Get: tuple index must not be negative, got ", index));
  Node n = function_node(NodeKind::Get);
  n.sizes = {ArithExpr(index)};
  return make_node(std::move(n));
}

Expr make_tile_slide(ArithExpr n, ArithExpr l, ArithExpr N, ArithExpr T, ArithExpr h,
                     Boundary boundary) {
  require_positive(n, "TileSlide", "window size");
  require_non_negative(l, "TileSlide", "centre offset");
  require_positive(N, "TileSlide", "grid extent");
  require_positive(T, "TileSlide", "tile size");
  require_non_negative(h, "TileSlide", "halo");
  if (boundary.kind != Boundary::Clamp && boundary.kind != Boundary::Mirror)
    user_error(cat("TileSlide: the boundary must be clamp or mirror (a position inside the "
                   "grid), got ",
                   boundary.to_string()));
  if (auto ln = l.as_constant(), nn = n.as_constant(); ln && nn && *ln >= *nn)
    user_error(cat("TileSlide: the centre offset ", *ln, " must be inside the window of ", *nn));
  Node node = function_node(NodeKind::TileSlide);
  node.sizes = {std::move(n), std::move(l), std::move(N), std::move(T), std::move(h)};
  node.boundary = boundary;
  return make_node(std::move(node));
}

Expr make_stream_steps(int d, int64_t k, int64_t r, Boundary boundary,
                       const std::vector<int64_t>& tiles, int64_t segment, int64_t phases, Expr f,
                       StreamWindow window) {
  require_function(f, "StreamSteps");
  require_pad_boundary(boundary, "StreamSteps");
  if (d < 2 || d > 3)
    user_error(cat("StreamSteps: 2-D or 3-D grids are streamed, got ", d, " dimensions"));
  if (k < 1 || r < 1)
    user_error(cat("StreamSteps: needs at least one step of radius at least 1, got k = ", k,
                   " and r = ", r));
  if (static_cast<int>(tiles.size()) != d - 1)
    user_error(
        cat("StreamSteps: ", d, "-D grids need ", d - 1, " tile size(s), got ", tiles.size()));
  for (int64_t t : tiles)
    if (t < 1)
      user_error(cat("StreamSteps: tile sizes must be positive, got ", t));
  if (segment < 0)
    user_error(
        cat("StreamSteps: the segment length must be positive (or 0: whole), got ", segment));
  if (phases < 1)
    user_error(cat("StreamSteps: the constant inputs come in at least one group, got ", phases));
  Node n = function_node(NodeKind::StreamSteps);
  n.sizes = {ArithExpr(d), ArithExpr(k), ArithExpr(r), ArithExpr(segment), ArithExpr(phases)};
  for (int64_t t : tiles)
    n.sizes.push_back(ArithExpr(t));
  if (window == StreamWindow::Registers) {
    if (!star_shaped(f, d, r))
      user_error("StreamSteps: the register window needs a star-shaped stencil (every point off "
                 "the centre plane on the column through the centre); use the local window");
    n.sizes.push_back(ArithExpr(1));
  }
  n.boundary = std::move(boundary);
  n.children = {std::move(f)};
  return make_node(std::move(n));
}

bool stream_steps_double_buffered(int64_t k, int64_t plane, int64_t element_bytes,
                                  int64_t local_bytes) {
  return 2 * k * plane * element_bytes <= local_bytes;
}

int64_t stream_steps_work_group(const std::vector<int64_t>& tiles) {
  int64_t points = 1;
  for (int64_t t : tiles)
    points *= t;
  return std::min<int64_t>(256, (points + 31) / 32 * 32);
}

int64_t stream_steps_work_group(const std::vector<int64_t>& tiles, StreamWindow window,
                                int64_t kr) {
  if (window == StreamWindow::Local)
    return stream_steps_work_group(tiles);
  int64_t region = 1;
  for (int64_t t : tiles)
    region *= t + 2 * kr;
  const int64_t owned = (region + 1023) / 1024;
  return ((region + owned - 1) / owned + 31) / 32 * 32;
}

Expr make_generate(ArithExpr length, Expr f) {
  require_function(f, "Generate");
  require_non_negative(length, "Generate", "length");
  Node n = function_node(NodeKind::Generate);
  n.sizes = {std::move(length)};
  n.children = {std::move(f)};
  return make_node(std::move(n));
}

Expr make_to_mem(AddressSpace space, Expr f) {
  require_function(f, "toMem");
  if (space == AddressSpace::Constant || is_image(space))
    user_error(cat("a computed result cannot be stored in ", address_space_name(space),
                   " memory (read-only for kernels): it holds program inputs (the place-constant "
                   "and place-image rules)"));
  Node n = function_node(NodeKind::ToMem);
  n.space = space;
  n.children = {std::move(f)};
  return make_node(std::move(n));
}

Expr with_children(const Expr& node, std::vector<Expr> children) {
  Node n = *node;
  n.children = std::move(children);
  return make_node(std::move(n));
}

Expr compose(const std::vector<Expr>& functions) {
  if (functions.empty())
    user_error("compose needs at least one function");
  if (functions.size() == 1)
    return functions.front();
  Expr x = make_param();
  Expr body = x;
  for (const auto& f : functions)
    body = make_call(f, {body});
  return make_lambda({x}, body);
}

std::vector<Type> input_types(const Expr& program) {
  if (program->kind != NodeKind::Lambda)
    user_error(cat("a program is a lambda over its inputs, got a ", kind_name(program->kind)));
  std::vector<Type> types;
  for (const auto& p : program->params()) {
    if (!p->declared_type)
      user_error(cat("program input '", p->name, "' has no declared type"));
    types.push_back(*p->declared_type);
  }
  return types;
}

} // namespace tessera
