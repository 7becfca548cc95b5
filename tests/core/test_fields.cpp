// core/Fields.h: every kind of the node-kind list has a size table entry, the accessors read
// what the builders wrote, and the JSON loader checks each kind's size count against the table.
#include <doctest/doctest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/Error.h"
#include "core/Fields.h"
#include "core/Json.h"
#include "core/TimeTile.h"
#include "primitives/Primitives.h"

using namespace tessera;
using nlohmann::json;

namespace {

Expr identity() {
  Expr p = make_param();
  return make_lambda({p}, p);
}

int64_t value(const ArithExpr& a) {
  REQUIRE(a.is_constant());
  return a.value();
}

// One node of every kind that has sizes, as its builder makes it.
std::vector<Expr> sized_nodes() {
  TimeTiling t;
  t.dims = 2;
  t.tile = {8, 4, 1};
  return {make_split(4),
          make_slide(3, 1),
          make_pad(1, 2, Boundary::clamp()),
          make_drop(2, 1),
          make_iterate(3, identity()),
          make_at(5),
          make_get(1),
          make_generate(7, identity()),
          make_tile_slide(3, 1, 64, 16, 1, Boundary::mirror()),
          make_time_tile(t, Boundary::mirror(), identity()),
          make_stream_steps(3, 2, 1, Boundary::clamp(), {8, 4}, 16, 1, identity())};
}

// The first object of kind `kind` in a JSON tree.
json* find_kind(json& j, const std::string& kind) {
  if (j.is_object() && j.contains("kind") && j["kind"] == kind)
    return &j;
  if (j.is_structured())
    for (auto& child : j)
      if (json* found = find_kind(child, kind))
        return found;
  return nullptr;
}

// The node saved, its sizes changed by `edit`, and loaded again.
Expr reload(const Expr& node, const std::function<void(json&)>& edit) {
  json doc = json::parse(save_expr(node));
  json* n = find_kind(doc, kind_name(node->kind));
  REQUIRE(n != nullptr);
  edit((*n)["sizes"]);
  return load_expr(doc.dump());
}

std::string load_error(const Expr& node, const std::function<void(json&)>& edit) {
  try {
    reload(node, edit);
  } catch (const Error& e) {
    return e.what();
  }
  FAIL("the loader accepted a wrong size count");
  return "";
}

} // namespace

TEST_CASE("every kind of the node-kind list has a size table entry") {
  int kinds = 0;
#define TESSERA_CHECK_KIND(name)                                                                   \
  {                                                                                                \
    ++kinds;                                                                                       \
    const SizeSchema& s = size_schema(NodeKind::name);                                             \
    CHECK((s.length_field < 0 || s.length_field < static_cast<int>(s.names.size())));              \
    CHECK((s.tail != nullptr) == (s.length_field >= 0));                                           \
  }
  TESSERA_FOR_EACH_FUNCTION_KIND(TESSERA_CHECK_KIND)
#undef TESSERA_CHECK_KIND
  CHECK(kinds == 20);
  CHECK(size_field_names(NodeKind::Slide) == "size, step");
  CHECK(size_field_names(NodeKind::Map).empty());
  // Every node a builder makes has a count the table accepts, and the table names them all.
  for (const Expr& e : sized_nodes()) {
    const std::string kind = kind_name(e->kind);
    CAPTURE(kind);
    CHECK_NOTHROW(check_size_count(e->kind, e->sizes));
    CHECK(size_schema(e->kind).names.size() <= e->sizes.size());
  }
  CHECK_THROWS_WITH_AS(check_size_count(NodeKind::Zip, {ArithExpr(1)}), "Zip takes no sizes, got 1",
                       Error);
}

TEST_CASE("the accessors read what the builders wrote") {
  CHECK(value(split_fields(*make_split(4)).chunk) == 4);
  Expr slide = make_slide(5, 2); // the fields refer into the node
  auto [size, step] = slide_fields(*slide);
  CHECK(value(size) == 5);
  CHECK(value(step) == 2);
  Expr pad = make_pad(1, 3, Boundary::clamp());
  CHECK(value(pad_fields(*pad).left) == 1);
  CHECK(value(pad_fields(*pad).right) == 3);
  Expr drop = make_drop(2, 0);
  CHECK(value(drop_fields(*drop).left) == 2);
  CHECK(value(drop_fields(*drop).right) == 0);
  CHECK(value(iterate_fields(*make_iterate(6, identity())).times) == 6);
  CHECK(value(at_fields(*make_at(9)).index) == 9);
  CHECK(get_component(*make_get(2)) == 2);
  CHECK(value(generate_fields(*make_generate(11, identity())).length) == 11);
  Expr ts = make_tile_slide(3, 1, 64, 16, 2, Boundary::clamp());
  TileSlideFields t = tile_slide_fields(*ts);
  CHECK(value(t.size) == 3);
  CHECK(value(t.offset) == 1);
  CHECK(value(t.extent) == 64);
  CHECK(value(t.tile) == 16);
  CHECK(value(t.halo) == 2);
  StreamStepsFields s = stream_steps_fields(
      *make_stream_steps(3, 4, 1, Boundary::clamp(), {8, 2}, 16, 2, identity()));
  CHECK(s.dims == 3);
  CHECK(s.steps == 4);
  CHECK(s.radius == 1);
  CHECK(s.segment == 16);
  CHECK(s.phases == 2);
  CHECK(s.tiles == std::vector<int64_t>{8, 2});
  CHECK(s.window == StreamWindow::Local);
  // A kind mismatch is a bug in tessera, not in the user's program.
  CHECK_THROWS_AS(slide_fields(*make_split(4)), InternalError);
}

TEST_CASE("the JSON loader refuses a wrong size count with the field names") {
  auto drop_last = [](json& sizes) { sizes.erase(sizes.size() - 1); };
  CHECK(load_error(make_slide(3, 1), drop_last).find("Slide needs 2 sizes (size, step), got 1") !=
        std::string::npos);
  for (const Expr& e : sized_nodes()) {
    const std::string kind = kind_name(e->kind);
    CAPTURE(kind);
    // The length field (TimeTile's and StreamSteps' dims) comes before the last size.
    const std::string why = load_error(e, drop_last);
    CHECK(why.find(cat(kind_name(e->kind), " needs ")) != std::string::npos);
    CHECK(why.find(size_schema(e->kind).names.front()) != std::string::npos);
    CHECK(why.find(cat("got ", e->sizes.size() - 1)) != std::string::npos);
    // One more: a wrong count, or StreamSteps' optional window, which must then be 1.
    const std::string extra = load_error(e, [](json& sizes) { sizes.push_back(json{{"cst", 7}}); });
    CHECK(extra.find(kind_name(e->kind)) != std::string::npos);
    CHECK(extra.find("got ") != std::string::npos);
    // Unchanged, it loads back to the same node.
    CHECK(structurally_equal(reload(e, [](json&) {}), e));
  }
  // A variable-length kind's length field must be a positive constant.
  Expr stream = make_stream_steps(2, 2, 1, Boundary::clamp(), {8}, 0, 1, identity());
  CHECK(load_error(stream, [](json& sizes) {
          sizes[0] = json{{"var", "D"}};
        }).find("StreamSteps needs a positive constant dims") != std::string::npos);
  CHECK(load_error(stream, [](json& sizes) {
          sizes[0] = json{{"cst", 0}};
        }).find("positive constant dims") != std::string::npos);
}

TEST_CASE("messages name the fields of the kinds that rules make") {
  // The kinds a user writes keep the DSL's call notation.
  CHECK(primitives::describe(*make_slide(3, 1)) == "Slide(3,1)");
  CHECK(primitives::describe(*make_pad(1, 2, Boundary::clamp())) == "Pad(1,2,clamp)");
  CHECK(primitives::describe(*make_tile_slide(3, 1, 64, 16, 1, Boundary::mirror())) ==
        "TileSlide(size 3, offset 1, extent 64, tile 16, halo 1, mirror)");
  CHECK(primitives::describe(
            *make_stream_steps(3, 2, 1, Boundary::clamp(), {8, 4}, 16, 1, identity())) ==
        "StreamSteps(dims 3, steps 2, radius 1, segment 16, phases 1, then 8,4, clamp)");
}
