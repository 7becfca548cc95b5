// A saved program nested `depth` levels deep, x -> Pad(1, 1, clamp) $ ... $ Pad(1, 1, clamp) $ x
// over 16 f32, for the tests of the nesting limit (core/Expr.h: kMaxExprDepth). Made as text:
// tessera's builders refuse a program deeper than the limit, and nlohmann's writer recurses.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "core/Json.h"
#include "core/Type.h"

namespace tessera::testing {

// `depth` counts the Pads (the program's nesting is about depth + 2 nodes).
inline std::string nested_pads_json(int depth) {
  Expr x = make_param("x", Type::array(Type::scalar(ScalarKind::F32), 16));
  Expr one = make_lambda({x}, make_call(make_pad(1, 1, Boundary::clamp()), {x}));
  nlohmann::json document = expr_to_json(one);
  nlohmann::json& body = document["expr"]["children"][1];
  const std::string pad = body["children"][0].dump();
  const std::string reference = body["children"][1].dump();
  const std::string open = R"({"children":[)" + pad + ",";
  const std::string close = R"(],"kind":"Call"})";
  if (body.dump() != open + reference + close)
    throw std::logic_error("nested_pads_json: a call is saved as " + body.dump());
  std::string nested;
  nested.reserve((open.size() + close.size()) * static_cast<std::size_t>(depth) + 64);
  for (int i = 0; i < depth; ++i)
    nested += open;
  nested += reference;
  for (int i = 0; i < depth; ++i)
    nested += close;
  body = "@body@";
  std::string text = document.dump();
  return text.replace(text.find("\"@body@\""), 8, nested);
}

} // namespace tessera::testing
