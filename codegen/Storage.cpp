// Where an intermediate is stored: arrays of scalars in local or private memory, and arrays of
// tuples as a structure of arrays, one array per scalar component (a tuple never needs a
// layout of its own):
//   [[{A, [B]_p}]_m]_n   ->   a: [[A]_m]_n,  b: [[[B]_p]_m]_n
//   view [i, j, .k, ...] ->   component k [i, j, ...]
// The view is a Zip of the component arrays at the tuple's depth: Map views bind the outer
// indices, the Zip picks the component and passes the innermost index on.
#include "codegen/Emitter.h"
#include "codegen/ScalarC.h"
#include "core/Error.h"

namespace tessera::codegen {

std::shared_ptr<Memory> Emitter::allocate(const Type& type, AddressSpace space, const Type& whole) {
  const Type& inner = type.innermost();
  auto count = type.scalar_count().as_constant();
  if (!count)
    user_error(cat("the intermediate of type ", whole, " in ", address_space_name(space),
                   " memory needs a constant size, got ", type.scalar_count().to_string(),
                   " (bake the sizes, tile with constant tile sizes, or lower the computation "
                   "that produces it as a launch of its own: docs/codegen-limits.md)"));
  auto memory = std::make_shared<Memory>();
  memory->space = space;
  memory->element = inner.scalar_kind();
  memory->type = type;
  if (memory->element == ScalarKind::F64)
    uses_fp64_ = true;
  std::string ctype = scalar_c_type(memory->element);
  if (space == AddressSpace::Local) {
    memory->name = fresh("tile");
    local_decls_.push_back(cat("__local ", ctype, " ", memory->name, "[", *count, "];"));
    local_bytes_ += *count * (memory->element == ScalarKind::F64 ? 8 : 4);
  } else if (*count == 1) {
    memory->name = fresh("r");
    memory->is_scalar_var = true;
    pending_declarations_.insert(memory->name); // declared where it is first assigned
  } else {
    // The target's limit (core/Target.h), for all the arrays of one intermediate together.
    const int64_t most = options_.target.max_private_elements;
    int64_t total = whole.scalar_count().as_constant().value_or(*count);
    if (total > most)
      user_error(cat("the intermediate of type ", whole, " would need a private array of ", total,
                     " elements per work-item (at most ", most,
                     "): lower the computation that produces it as a launch of its own "
                     "(rewrite::lower_default "
                     "and codegen::generate_program), tile it smaller (tile-nd, "
                     "overlapped-tiling-nd), or stage it in local memory with the work-groups "
                     "mapping (stage-local); docs/codegen-limits.md"));
    memory->name = fresh("priv");
    declare_private(memory->element, memory->name, *count, true);
  }
  if (lane_mode_)
    lane_mode_->vectors[memory->name] = memory->element; // one value per lane
  return memory;
}

void Emitter::declare_private(ScalarKind element, const std::string& name, int64_t count,
                              bool in_lanes) {
  const int64_t lanes = in_lanes && lane_mode_ ? lane_mode_->lanes : 1;
  private_bytes_ += count * lanes * (element == ScalarKind::F64 ? 8 : 4);
  line(
      cat(in_lanes ? declared_type(element) : scalar_c_type(element), " ", name, "[", count, "];"));
}

View Emitter::storage(const std::vector<ArithExpr>& shape, const Type& element, AddressSpace space,
                      const Type& whole) {
  Type stored = element;
  for (auto it = shape.rbegin(); it != shape.rend(); ++it)
    stored = Type::array(stored, *it);
  if (stored.innermost().is_scalar())
    return memory_view(allocate(stored, space, whole));
  if (element.is_array()) { // an array of tuples: one level deeper
    std::vector<ArithExpr> deeper = shape;
    deeper.push_back(element.length());
    return storage(deeper, element.element(), space, whole);
  }
  // A tuple under `shape`: one storage per component, zipped at the tuple's depth.
  std::vector<std::string> vars;
  for (std::size_t d = 0; d + 1 < shape.size(); ++d)
    vars.push_back(fresh("t"));
  std::vector<View> components;
  for (const auto& component : element.elements()) {
    View c = storage(shape, component, space, whole);
    for (std::size_t d = 0; d < vars.size(); ++d)
      c = index_view(c, ArithExpr::var(vars[d], 0, shape[d] - 1));
    if (shape.empty())
      c = map_view(c, ""); // a lone tuple: the Zip's index (0) is not used
    components.push_back(c);
  }
  View view = zip_view(std::move(components));
  if (shape.empty())
    return index_view(view, 0);
  for (auto it = vars.rbegin(); it != vars.rend(); ++it)
    view = map_view(view, *it);
  return view;
}

} // namespace tessera::codegen
