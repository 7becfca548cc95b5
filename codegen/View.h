// Views: lazy index transformations (Lift's view system).
//
// Data-layout primitives allocate no memory. Applied to a view they return a new view; an
// access through a stack of views is resolved into one index expression over the underlying
// memory. Each view kind is one equation over the access path (outermost index first):
//
//   Split(m)      [i, j, ...]   -> child [i*m + j, ...]
//   Join(m)       [k, ...]      -> child [k / m, k % m, ...]
//   Slide(step)   [w, e, ...]   -> child [w*step + e, ...]
//   Pad(l, n, b)  [i, ...]      -> child [boundary(b, i - l, n), ...]   (constant: guarded;
//                                  antisymmetric: guarded, the mirror's element negated outside)
//   Drop(l)       [i, ...]      -> child [i + l, ...]
//   Crop(l, n)    [i, ...]      -> child [i - l, ...] where l <= i < l + n   (writes only: a
//                                  Drop on the way out; a write elsewhere is skipped)
//   Transpose     [i, j, ...]   -> child [j, i, ...]
//   Zip           [i, .k, ...]  -> child_k [i, ...]          (.k is a tuple component)
//   Component(k)  [...]         -> child [.k, ...]           (Get(k))
//   Index(i)      [...]         -> child [i, ...]            (At(i), and a Map's element)
//   MapView(v, b) [i, ...]      -> b [...] with v := i       (Map of a layout-only function)
//   Memory        [i0, i1, ...] -> buffer[sum_k i_k * stride_k]
//   Scalar        []            -> a C expression (a private variable or literal)
//   Integer       []            -> an index value used as data
//   Call(f)       []            -> f(arg_0[], arg_1[], ...)
//   Generate(f)   [i, ...]      -> f(i) [...]
//
// The same views describe where results are written: writing the argument of a Join into a
// destination d goes through Split(m) over d, and so on.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/Expr.h"
#include "core/Type.h"
#include "core/arith/ArithExpr.h"

namespace tessera::codegen {

// One step of an access path: an array index or a tuple component.
struct Step {
  bool is_component = false;
  ArithExpr index;
  int component = 0;
  static Step at(ArithExpr i) { return {false, std::move(i), 0}; }
  static Step member(int k) { return {true, 0, k}; }
};
using Path = std::vector<Step>;

// A memory region: a kernel argument, a local or private array, or a private scalar.
struct Memory {
  std::string name;
  AddressSpace space = AddressSpace::Global;
  ScalarKind element = ScalarKind::F32;
  Type type = f32();          // what the region holds (row-major layout)
  bool is_scalar_var = false; // a private scalar variable, accessed by name
};

// The result of resolving a full path: a scalar value as data, printed to C by the emitter.
//   MemoryRead  memory[index]
//   Text        fixed C text (a literal, a private variable)
//   Integer     an index value used as data (Generate's argument)
//   Call        function(args...) of a user function
//   Signed      sign * args[0], sign an index expression of value 1 or -1 (antisymmetric
//               padding: -1 outside the array; nested pads multiply their signs)
//   Guarded     condition ? inside : outside    (constant padding); without `outside`, a
//               write that lands in `inside` only where the condition holds (Crop)
//   ImageRead   read_imagef(memory, sampler, coordinates), args the coordinates as Integer
//               accesses, x (the innermost index) first (codegen/Image.h)
struct Access {
  enum Kind { MemoryRead, Text, Integer, Call, Signed, Guarded, ImageRead } kind = Text;
  std::shared_ptr<const Memory> memory;  // MemoryRead
  ArithExpr index;                       // MemoryRead: flat index; Integer: the value; Signed: sign
  std::string text;                      // Text; Call: the function name
  std::vector<Access> args;              // Call; Signed: its operand; ImageRead: coordinates
  ArithExpr condition;                   // Guarded
  std::shared_ptr<const Access> inside;  // Guarded
  std::shared_ptr<const Access> outside; // Guarded; null: a write skipped outside

  static Access read(std::shared_ptr<const Memory> m, ArithExpr index);
  static Access literal(std::string text);
  static Access integer(ArithExpr value);
  static Access call(std::string function, std::vector<Access> args);
  // sign * operand; the signs of nested Signed accesses are multiplied into one.
  static Access signed_by(ArithExpr sign, Access operand);
  // condition ? inside : outside, or one of them when the condition is a constant.
  static Access guarded(ArithExpr condition, Access inside, Access outside);
  // The write `target` where the condition holds (nested ones joined), `target` itself when the
  // condition is provably true.
  static Access write_if(ArithExpr condition, Access target);
};

enum class ViewKind {
  Memory,
  Scalar,
  Integer,
  Call,
  Split,
  Join,
  Slide,
  Pad,
  Drop,
  Crop,
  Transpose,
  Zip,
  Component,
  Index,
  MapView,
  Generate,
  TileSlide
};

struct ViewNode;
using View = std::shared_ptr<const ViewNode>;

// Applies a Generate's function to an element's index: the view of f(index). The emitter, which
// can compute functions, lends itself to a resolution; views only hold the function.
class Generator {
public:
  virtual View element(const Expr& f, const ArithExpr& index) = 0;

protected:
  ~Generator() = default;
};

struct ViewNode {
  ViewKind kind;
  std::vector<View> children;
  ArithExpr a, b;                       // Split/Join: m; Slide: step; Pad: l, n; Drop: l; Index: i;
                                        // Component: k (as constant)
  Boundary boundary;                    // Pad
  std::shared_ptr<const Memory> memory; // Memory
  std::string expression;               // Scalar
  std::string var;                      // MapView: the element index variable
  Expr generate;                        // Generate: the function of the index
  std::shared_ptr<const Node> primitive; // TileSlide: its node (parameters and boundary)
  // Whether resolving may reach an image (codegen/Image.h), or a Generate (whose callback may
  // emit code, so its index must not be a placeholder).
  bool reaches_image = false, reaches_generate = false;
};

View memory_view(std::shared_ptr<const Memory> memory);
View scalar_view(std::string c_expression);
View integer_view(ArithExpr value);
// A user function applied to scalar views: resolves to function(args...).
View call_view(std::string function, std::vector<View> args);
View split_view(View child, ArithExpr m);
View join_view(View child, ArithExpr m);
View slide_view(View child, ArithExpr step);
View pad_view(View child, ArithExpr left, ArithExpr length, Boundary boundary);
View drop_view(View child, ArithExpr left);
// The destination of a Drop(left, ...)'s argument whose result is `child`, of `length` elements.
View crop_view(View child, ArithExpr left, ArithExpr length);
View transpose_view(View child);
View zip_view(std::vector<View> children);
View component_view(View child, int k);
View index_view(View child, ArithExpr i);
View map_view(View body, std::string var);
View generate_view(Expr f); // element i is f(i), f applied by the resolution's Generator
// TileSlide over `tile`, tile index from `tile_index` (which must resolve to an integer, e.g. a
// Generate's index): [q, m] -> tile[tile_slide_index(t, q, m)].
View tile_slide_view(View tile, View tile_index, std::shared_ptr<const Node> primitive);

// Resolves a full path (down to a scalar) into an access; a Generate view on the way needs a
// generator.
Access resolve(const View& view, const Path& path, Generator* generator = nullptr);
// Applies a substitution to all index expressions of an access.
Access substitute(const Access& access, const std::map<std::string, ArithExpr>& replacement);

} // namespace tessera::codegen
