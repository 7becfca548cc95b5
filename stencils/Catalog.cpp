#include "stencils/Catalog.h"
#include "stencils/StarBox.h"

#include <set>

#include "core/Error.h"
#include "stencils/Neighbourhood.h"

namespace tessera::stencils {

const std::vector<StencilInfo>& catalog() {
  static const std::vector<StencilInfo> entries = [] {
    std::vector<StencilInfo> all;
    std::set<std::string> names;
    for (auto group : {suite_1d, suite_2d, suite_3d, life_entries, multigrid_entries})
      for (StencilInfo& s : group()) {
        if (!names.insert(s.name).second)
          internal_error("two catalog entries named " + s.name);
        all.push_back(std::move(s));
      }
    return all;
  }();
  return entries;
}

const StencilInfo& find_stencil(const std::string& name) {
  std::string names;
  for (const auto& s : catalog()) {
    if (s.name == name)
      return s;
    names += (names.empty() ? "" : ", ") + s.name;
  }
  if (const StencilInfo* family = star_box_info(name))
    return *family;
  user_error(
      cat("unknown stencil '", name, "': the catalog has ", names,
          ", the star and box stencils star2d1r .. box3d4r ((star|box)(1|2|3)d(1-9)r) and the "
          "separable boxes sepbox2d1r .. sepbox3d9r"));
}

} // namespace tessera::stencils
