// Program inputs read as OpenCL images, with the device's image support as side condition:
//
//   place-image  fun(..., x, ...) => body  ->  fun(..., x in Image(addressing), ...) => body
//
// x must be a 2-D or 3-D f32 array of constant extents within the device's largest image. The
// sampler's addressing follows the program's Pads: CLK_ADDRESS_CLAMP_TO_EDGE where it pads with
// clamp, CLK_ADDRESS_CLAMP where it pads with 0.0f (one alternative each), otherwise
// CLK_ADDRESS_NONE. The code generator leaves a Pad to the sampler only where that is exactly
// the Pad's semantics (codegen/Image.h, with the same sampler_space of core/Expr.h); every other
// read stays in bounds through the Pad's own index logic, so each alternative computes the same
// values.
#include <set>

#include "core/Error.h"
#include "rewrite/rules/Placement.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {

void collect_sampler_spaces(const Expr& e, std::set<AddressSpace>& spaces) {
  if (e->kind == NodeKind::Pad)
    if (auto space = sampler_space(e->boundary))
      spaces.insert(*space);
  for (const auto& c : e->children)
    collect_sampler_spaces(c, spaces);
}

// Why the device cannot hold `t` as an image, or "" when it can.
std::string image_unfit(const Type& t, const ImageLimits& limits) {
  if (!t.is_array() || t.innermost() != f32() || t.rank() < 2 || t.rank() > 3)
    return "not a 2-D or 3-D f32 array";
  std::vector<int64_t> extents; // width (innermost) first
  auto shape = t.shape();
  for (auto it = shape.rbegin(); it != shape.rend(); ++it) {
    auto n = it->as_constant();
    if (!n)
      return "extents not constant";
    extents.push_back(*n);
  }
  std::vector<int64_t> max =
      t.rank() == 2 ? std::vector<int64_t>{limits.width_2d, limits.height_2d}
                    : std::vector<int64_t>{limits.width_3d, limits.height_3d, limits.depth_3d};
  for (std::size_t k = 0; k < extents.size(); ++k)
    if (extents[k] > max[k])
      return cat("extent ", extents[k], " beyond the device's largest image (", max[k], ")");
  return "";
}

RuleResult place_image(const Expr& e, const RuleContext& ctx) {
  if (e->kind != NodeKind::Lambda || e->params().empty() || !e->params().front()->declared_type)
    return RuleResult::none("");
  if (!ctx.target.images.supported)
    return RuleResult::none("the device has no image support");
  std::set<AddressSpace> spaces;
  collect_sampler_spaces(e->body(), spaces);
  if (spaces.empty())
    spaces.insert(AddressSpace::Image);
  auto params = e->params();
  RuleResult r;
  std::string why = "no input is a 2-D or 3-D f32 array";
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Expr& p = params[i];
    if (p->space != AddressSpace::Global || !p->declared_type)
      continue;
    if (std::string unfit = image_unfit(*p->declared_type, ctx.target.images); !unfit.empty()) {
      why = cat("input ", i, ": ", unfit);
      continue;
    }
    for (auto space : spaces)
      r.alternatives.push_back(
          {with_input_placed(e, i, space),
           {{"input", static_cast<int64_t>(i)}, {"space", static_cast<int64_t>(space)}}});
  }
  if (r.alternatives.empty())
    r.why_not = why;
  return r;
}

} // namespace

Rule place_image_rule() {
  MappingTraits traits;
  traits.completes = [](const Params& p) {
    Mapping m{MappingKind::ImageInput};
    m.input = static_cast<int>(p.at("input"));
    m.space = static_cast<AddressSpace>(p.at("space"));
    return m;
  };
  traits.on_plain_lowering = true;
  return {"place-image",
          "fun(x) => f(x) -> fun(x as image) => f(x): a 2-D or 3-D f32 input read through a "
          "sampler that does the clamp or zero padding where it matches the Pad",
          place_image,
          traits,
          {{.name = "input", .source = ParamDomain::Source::ProgramCount},
           {.name = "space",
            .values = {static_cast<int64_t>(AddressSpace::Image),
                       static_cast<int64_t>(AddressSpace::ImageClampToEdge),
                       static_cast<int64_t>(AddressSpace::ImageClamp)}}}};
}

} // namespace tessera::rewrite
