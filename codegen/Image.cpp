#include "codegen/Image.h"

#include <algorithm>

#include "core/Error.h"

namespace tessera::codegen {

Access image_read(std::shared_ptr<const Memory> memory, const Path& path) {
  if (static_cast<int>(path.size()) != memory->type.rank())
    internal_error(cat("image ", memory->name, " read with ", path.size(), " indices"));
  Access a;
  a.kind = Access::ImageRead;
  a.memory = std::move(memory);
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    if (it->is_component)
      internal_error("an image read's path has a tuple component");
    a.args.push_back(Access::integer(it->index));
  }
  return a;
}

std::optional<Access> sampled_pad(const Access& child, const std::string& var, const ArithExpr& i,
                                  const ArithExpr& n, const Boundary& b) {
  if (child.kind != Access::ImageRead || sampler_space(b) != child.memory->space)
    return std::nullopt;
  auto shape = child.memory->type.shape();
  int found = -1;
  for (std::size_t k = 0; k < child.args.size(); ++k) {
    const ArithExpr& c = child.args[k].index;
    bool is_var = c.kind() == ArithKind::Var && c.name() == var;
    auto used = c.variables();
    if (!is_var && std::find(used.begin(), used.end(), var) != used.end())
      return std::nullopt; // the padded index is transformed on its way to the image
    if (is_var) {
      if (found >= 0)
        return std::nullopt;
      found = static_cast<int>(k);
    }
  }
  if (found < 0)
    return std::nullopt;
  auto extent = (shape[shape.size() - 1 - static_cast<std::size_t>(found)] - n).as_constant();
  if (!extent || *extent != 0)
    return std::nullopt; // the Pad's length is not the image's extent
  return substitute(child, {{var, i}});
}

std::string image_parameter(const std::string& name, const Type& type) {
  return cat("__read_only image", type.rank(), "d_t ", name);
}

std::string image_sampler(const std::string& name, AddressSpace space) {
  const char* addressing = space == AddressSpace::ImageClampToEdge ? "CLK_ADDRESS_CLAMP_TO_EDGE"
                           : space == AddressSpace::ImageClamp     ? "CLK_ADDRESS_CLAMP"
                                                                   : "CLK_ADDRESS_NONE";
  return cat("__constant sampler_t ", name, "_sampler = CLK_NORMALIZED_COORDS_FALSE | ", addressing,
             " | CLK_FILTER_NEAREST;\n");
}

std::string image_read_text(const std::string& name, const std::vector<std::string>& coordinates) {
  std::string c = coordinates.size() == 2 ? "(int2)(" : "(int4)(";
  for (std::size_t k = 0; k < coordinates.size(); ++k)
    c += (k ? ", " : "") + coordinates[k];
  if (coordinates.size() == 3)
    c += ", 0";
  return cat("read_imagef(", name, ", ", name, "_sampler, ", c, ")).x");
}

} // namespace tessera::codegen
