#include "rewrite/Mapping.h"

#include <array>
#include <cctype>
#include <charconv>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "core/JsonInteger.h"

namespace tessera::rewrite {

namespace {

constexpr std::array kKinds{MappingKind::Global,      MappingKind::WorkGroups,
                            MappingKind::LocalMemory, MappingKind::CoarsenedTiles,
                            MappingKind::Streaming,   MappingKind::Vectorized,
                            MappingKind::Coarsened,   MappingKind::ConstantInput,
                            MappingKind::ImageInput,  MappingKind::SplitLaunch};

constexpr std::array kImageSpaces{AddressSpace::Image, AddressSpace::ImageClampToEdge,
                                  AddressSpace::ImageClamp};

bool has_dims(MappingKind k) {
  return k == MappingKind::WorkGroups || k == MappingKind::LocalMemory ||
         k == MappingKind::CoarsenedTiles || k == MappingKind::Streaming;
}

bool has_factor(MappingKind k) {
  return k == MappingKind::Streaming || k == MappingKind::Vectorized || k == MappingKind::Coarsened;
}

bool has_input(MappingKind k) {
  return k == MappingKind::ConstantInput || k == MappingKind::ImageInput;
}

// A non-negative integer field of a mapping object, or `fallback` when it is absent.
template <class T>
T field(const nlohmann::json& j, const char* key, T fallback, const std::string& where) {
  if (!j.contains(key))
    return fallback;
  auto v = json_integer<T>(j.at(key));
  if (!v || *v < 0)
    user_error(
        cat(where, ": \"", key, "\" must be a non-negative integer, got ", j.at(key).dump()));
  return *v;
}

} // namespace

const char* mapping_kind_name(MappingKind kind) {
  switch (kind) {
  case MappingKind::Global:
    return "global";
  case MappingKind::WorkGroups:
    return "work-groups";
  case MappingKind::LocalMemory:
    return "local-memory";
  case MappingKind::CoarsenedTiles:
    return "coarsened-tiles";
  case MappingKind::Streaming:
    return "streaming";
  case MappingKind::Vectorized:
    return "vectorized";
  case MappingKind::Coarsened:
    return "coarsened";
  case MappingKind::ConstantInput:
    return "constant-input";
  case MappingKind::ImageInput:
    return "image-input";
  case MappingKind::SplitLaunch:
    return "split-launch";
  }
  return "?";
}

std::string image_addressing_name(AddressSpace space) {
  switch (space) {
  case AddressSpace::ImageClampToEdge:
    return "clamp to edge";
  case AddressSpace::ImageClamp:
    return "clamp (0)";
  default:
    return "in bounds";
  }
}

std::string describe(const Mapping& m) {
  switch (m.kind) {
  case MappingKind::Global:
    return "global";
  case MappingKind::WorkGroups:
    return "work-groups";
  case MappingKind::LocalMemory:
    return "work-groups, local memory";
  case MappingKind::CoarsenedTiles:
    return "coarsened";
  case MappingKind::Streaming:
    return "streaming";
  case MappingKind::Vectorized:
    return cat("vectorized, ", m.factor, " results per work-item");
  case MappingKind::Coarsened:
    return cat("coarsened ", m.factor, "x along dimension ", m.dim,
               m.interleaved ? ", interleaved" : "");
  case MappingKind::ConstantInput:
    return cat("input ", m.input, " in constant memory");
  case MappingKind::ImageInput:
    return cat("input ", m.input, " as an image (", image_addressing_name(m.space), ")");
  case MappingKind::SplitLaunch:
    return "global, the interior launched apart without boundary conditionals";
  }
  return "?";
}

nlohmann::json mapping_to_json(const Mapping& m) {
  nlohmann::json j = {{"kind", mapping_kind_name(m.kind)}};
  if (has_dims(m.kind))
    j["dims"] = m.dims;
  if (m.kind == MappingKind::Streaming)
    j["segment"] = m.segment;
  if (has_factor(m.kind))
    j["factor"] = m.factor;
  if (m.kind == MappingKind::Coarsened) {
    j["dim"] = m.dim;
    j["interleaved"] = m.interleaved;
  }
  if (has_input(m.kind))
    j["input"] = m.input;
  if (m.kind == MappingKind::ImageInput)
    j["space"] = address_space_name(m.space);
  return j;
}

Mapping mapping_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object() || !j.contains("kind") || !j.at("kind").is_string())
    user_error(cat(where, ": a mapping is an object with a \"kind\" string, got ", j.dump()));
  const std::string kind = j.at("kind").get<std::string>();
  Mapping m;
  bool known = false;
  std::string kinds;
  for (MappingKind k : kKinds) {
    kinds += cat(kinds.empty() ? "" : ", ", mapping_kind_name(k));
    if (kind == mapping_kind_name(k))
      m.kind = k, known = true;
  }
  if (!known)
    user_error(cat(where, ": unknown mapping kind \"", kind, "\" (known: ", kinds, ")"));
  m.dims = field<int>(j, "dims", 0, where);
  m.segment = field<int64_t>(j, "segment", 0, where);
  m.factor = field<int64_t>(j, "factor", 0, where);
  m.dim = field<int>(j, "dim", 0, where);
  m.input = field<int>(j, "input", 0, where);
  if (j.contains("interleaved")) {
    if (!j.at("interleaved").is_boolean())
      user_error(cat(where, ": \"interleaved\" must be true or false"));
    m.interleaved = j.at("interleaved").get<bool>();
  }
  if (m.kind == MappingKind::ImageInput) {
    std::string space = j.value("space", "");
    bool found = false;
    for (AddressSpace s : kImageSpaces)
      if (space == address_space_name(s))
        m.space = s, found = true;
    if (!found)
      user_error(cat(where, ": an image-input mapping needs \"space\": \"Image\", ",
                     "\"ImageClampToEdge\" or \"ImageClamp\", got ", j.value("space", "nothing")));
  }
  return m;
}

namespace {

// The non-negative number that starts `text` at `at` (digits only), moving `at` past it.
template <class T> std::optional<T> number_at(const std::string& text, std::size_t& at) {
  if (at >= text.size() || !std::isdigit(static_cast<unsigned char>(text[at])))
    return std::nullopt;
  T value{};
  auto [end, error] = std::from_chars(text.data() + at, text.data() + text.size(), value);
  if (error != std::errc())
    return std::nullopt;
  at = static_cast<std::size_t>(end - text.data());
  return value;
}

// The version-1 words' candidates: each form's numbers read, the rest checked by the caller.
std::vector<Mapping> v1_candidates(const std::string& text) {
  std::vector<Mapping> out;
  for (MappingKind k : {MappingKind::Global, MappingKind::WorkGroups, MappingKind::LocalMemory,
                        MappingKind::CoarsenedTiles, MappingKind::Streaming})
    out.push_back({k});
  auto starts = [&](const std::string& prefix, std::size_t& at) {
    at = prefix.size();
    return text.rfind(prefix, 0) == 0;
  };
  std::size_t at = 0;
  if (starts("vectorized, ", at))
    if (auto n = number_at<int64_t>(text, at)) {
      Mapping m{MappingKind::Vectorized};
      m.factor = *n;
      out.push_back(m);
    }
  if (starts("coarsened ", at))
    if (auto factor = number_at<int64_t>(text, at)) {
      const std::string middle = "x along dimension ";
      at = text.compare(at, middle.size(), middle) == 0 ? at + middle.size() : text.size();
      if (auto dim = number_at<int>(text, at))
        for (bool interleaved : {false, true}) {
          Mapping m{MappingKind::Coarsened};
          m.factor = *factor, m.dim = *dim, m.interleaved = interleaved;
          out.push_back(m);
        }
    }
  if (starts("input ", at))
    if (auto input = number_at<int>(text, at)) {
      Mapping constant{MappingKind::ConstantInput};
      constant.input = *input;
      out.push_back(constant);
      for (AddressSpace s : kImageSpaces) {
        Mapping image{MappingKind::ImageInput};
        image.input = *input, image.space = s;
        out.push_back(image);
      }
    }
  return out;
}

} // namespace

std::optional<Mapping> mapping_from_v1_step(const std::string& step, const std::string& where) {
  const std::string prefix = "mapping: ";
  if (step.rfind(prefix, 0) != 0)
    return std::nullopt;
  const std::string text = step.substr(prefix.size());
  // The mapping whose words are exactly the text.
  for (const auto& m : v1_candidates(text))
    if (describe(m) == text)
      return m;
  user_error(cat(where, ": the version-1 history step \"", step, "\" names no known mapping"));
}

} // namespace tessera::rewrite
