#include "core/Fields.h"

#include "core/Error.h"

namespace tessera {

namespace {

// One entry per kind of TESSERA_FOR_EACH_FUNCTION_KIND: {fixed field names}, tail[, its
// length field, its length bias, optional last fields].
// clang-format off
#define TESSERA_SIZES_Lambda {}, nullptr
#define TESSERA_SIZES_UserFun {}, nullptr
#define TESSERA_SIZES_Map {}, nullptr
#define TESSERA_SIZES_Reduce {}, nullptr
#define TESSERA_SIZES_Zip {}, nullptr
#define TESSERA_SIZES_Split {"chunk"}, nullptr
#define TESSERA_SIZES_Join {}, nullptr
#define TESSERA_SIZES_Slide {"size", "step"}, nullptr
#define TESSERA_SIZES_Pad {"left", "right"}, nullptr
#define TESSERA_SIZES_Drop {"left", "right"}, nullptr
#define TESSERA_SIZES_Transpose {}, nullptr
#define TESSERA_SIZES_Iterate {"times"}, nullptr
#define TESSERA_SIZES_At {"index"}, nullptr
#define TESSERA_SIZES_Get {"index"}, nullptr
#define TESSERA_SIZES_Generate {"length"}, nullptr
#define TESSERA_SIZES_ToMem {}, nullptr
#define TESSERA_SIZES_TileSlide {"size", "offset", "extent", "tile", "halo"}, nullptr
#define TESSERA_SIZES_Scan {}, nullptr
#define TESSERA_SIZES_TimeTile {"scheme", "dims", "radius", "steps", "band", "work_group"}, \
    "one tile width per dimension (dims)", 1, 0, 0
#define TESSERA_SIZES_StreamSteps {"dims", "steps", "radius", "segment", "phases"}, \
    "dims - 1 tile sizes, then an optional window (1: registers)", 0, -1, 1
// clang-format on

const SizeSchema kSchemas[] = {
#define TESSERA_SCHEMA(name) SizeSchema{TESSERA_SIZES_##name},
    TESSERA_FOR_EACH_FUNCTION_KIND(TESSERA_SCHEMA)
#undef TESSERA_SCHEMA
};

const std::size_t kFirstFunction = static_cast<std::size_t>(NodeKind::Lambda);

// The fixed fields of a node, after checking its kind and size count.
const std::vector<ArithExpr>& sizes_of(const Node& n, NodeKind kind) {
  if (n.kind != kind)
    internal_error(cat(kind_name(kind), " fields read from a ", kind_name(n.kind), " node"));
  check_size_count(kind, n.sizes);
  return n.sizes;
}

// A variable-length kind's length field (its value), which must be a positive constant.
int64_t length_field(NodeKind kind, const std::vector<ArithExpr>& sizes, std::size_t at) {
  const char* name = size_schema(kind).names[at];
  if (sizes.size() <= at || !sizes[at].is_constant() || sizes[at].value() < 1)
    user_error(cat(kind_name(kind), " needs a positive constant ", name, " (sizes ",
                   size_field_names(kind), "), got ",
                   sizes.size() <= at ? "none" : sizes[at].to_string()));
  return sizes[at].value();
}

} // namespace

const SizeSchema& size_schema(NodeKind kind) {
  static const SizeSchema none;
  const auto k = static_cast<std::size_t>(kind);
  return k < kFirstFunction ? none : kSchemas[k - kFirstFunction];
}

std::string size_field_names(NodeKind kind) {
  const SizeSchema& s = size_schema(kind);
  std::string out;
  for (const char* name : s.names) {
    if (!out.empty())
      out += ", ";
    out += name;
  }
  if (s.tail)
    out += cat(", then ", s.tail);
  return out;
}

void check_size_count(NodeKind kind, const std::vector<ArithExpr>& sizes) {
  const SizeSchema& s = size_schema(kind);
  std::size_t low = s.names.size();
  if (s.length_field >= 0)
    low += static_cast<std::size_t>(
        length_field(kind, sizes, static_cast<std::size_t>(s.length_field)) + s.length_bias);
  const std::size_t high = low + static_cast<std::size_t>(s.optional);
  if (sizes.size() >= low && sizes.size() <= high)
    return;
  if (s.names.empty() && !s.tail)
    user_error(cat(kind_name(kind), " takes no sizes, got ", sizes.size()));
  user_error(cat(kind_name(kind), " needs ", low, high > low ? cat(" or ", high) : "",
                 low == 1 ? " size (" : " sizes (", size_field_names(kind), "), got ",
                 sizes.size()));
}

std::string size_list(const Node& n) {
  std::string s;
  for (const ArithExpr& size : n.sizes) {
    if (!s.empty())
      s += ',';
    s += size.to_string();
  }
  return s;
}

std::string named_size_list(const Node& n) {
  const std::vector<const char*>& names = size_schema(n.kind).names;
  std::string s;
  for (std::size_t i = 0; i < n.sizes.size(); ++i) {
    if (i < names.size())
      s += cat(i ? ", " : "", names[i], " ", n.sizes[i].to_string());
    else
      s += cat(i == names.size() ? (i ? ", then " : "then ") : ",", n.sizes[i].to_string());
  }
  return s;
}

SplitFields split_fields(const Node& n) {
  const auto& s = sizes_of(n, NodeKind::Split);
  return {s[0]};
}

SlideFields slide_fields(const Node& n) {
  const auto& s = sizes_of(n, NodeKind::Slide);
  return {s[0], s[1]};
}

MarginFields pad_fields(const Node& n) {
  const auto& s = sizes_of(n, NodeKind::Pad);
  return {s[0], s[1]};
}

MarginFields drop_fields(const Node& n) {
  const auto& s = sizes_of(n, NodeKind::Drop);
  return {s[0], s[1]};
}

IterateFields iterate_fields(const Node& n) {
  const auto& s = sizes_of(n, NodeKind::Iterate);
  return {s[0]};
}

IndexFields at_fields(const Node& n) {
  const auto& s = sizes_of(n, NodeKind::At);
  return {s[0]};
}

IndexFields get_fields(const Node& n) {
  const auto& s = sizes_of(n, NodeKind::Get);
  return {s[0]};
}

int get_component(const Node& n) {
  const ArithExpr& i = get_fields(n).index;
  if (!i.is_constant())
    user_error(cat("Get needs a constant index, got ", i.to_string()));
  return static_cast<int>(i.value());
}

GenerateFields generate_fields(const Node& n) {
  const auto& s = sizes_of(n, NodeKind::Generate);
  return {s[0]};
}

TileSlideFields tile_slide_fields(const Node& n) {
  const auto& s = sizes_of(n, NodeKind::TileSlide);
  return {s[0], s[1], s[2], s[3], s[4]};
}

TimeTileFields time_tile_fields(const Node& n) {
  const auto& s = sizes_of(n, NodeKind::TimeTile);
  return {s[0], s[1], s[2], s[3], s[4], s[5], {s.begin() + 6, s.end()}};
}

StreamStepsFields stream_steps_fields(const Node& n) {
  const auto& s = sizes_of(n, NodeKind::StreamSteps);
  std::vector<int64_t> v;
  for (const ArithExpr& size : s) {
    if (!size.is_constant())
      user_error(cat("StreamSteps needs constant sizes, got ", size.to_string()));
    v.push_back(size.value());
  }
  StreamStepsFields f;
  f.dims = static_cast<int>(v[0]);
  f.steps = v[1];
  f.radius = v[2];
  f.segment = v[3];
  f.phases = v[4];
  const auto tiles_end = v.begin() + 4 + v[0];
  f.tiles.assign(v.begin() + 5, tiles_end);
  if (tiles_end != v.end() && *tiles_end != 1)
    user_error(cat("StreamSteps: the optional last size (the window) must be 1 (registers), got ",
                   *tiles_end));
  f.window = tiles_end != v.end() ? StreamWindow::Registers : StreamWindow::Local;
  return f;
}

StreamWindow stream_window(const Node& stream_steps) {
  return stream_steps_fields(stream_steps).window;
}

} // namespace tessera
