#include "io/json_source.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace gpusched {
namespace {

TEST_CASE("JsonSource::line_of walks the raw text along a pointer", "[io]") {
  const std::string text = R"({
  "a": {"skip": [1, {"x": "}]"}], "b~c/d": 2},
  "list": [
    "zero",
    {"key \"quoted\"": [true,
      null]},
    {"\u00e9": 3}
  ]
})";
  const io::JsonSource source("f.json", text);
  struct Row {
    const char* pointer;
    int line;
  };
  const std::vector<Row> rows = {
      {"", 1},
      {"/a", 2},
      {"/a/b~0c~1d", 2},
      {"/list", 3},
      {"/list/0", 4},
      {"/list/1", 5},
      {"/list/1/key \"quoted\"/1", 6},
      {"/list/2/\xc3\xa9", 7},
      {"/list/9", 3},                        // out of range: the deepest value on the way
      {"/list/99999999999999999999999", 3},  // beyond std::size_t: no such element either
      {"/list/1/missing", 5},                // absent member
      {"/a/skip/1/x/deeper", 2},
  };
  for (const Row& row : rows) {
    INFO(row.pointer);
    CHECK(source.line_of(row.pointer) == row.line);
  }
  // Each walk resumes from the previous one: every order gives the same lines.
  const io::JsonSource backwards("f.json", text);
  for (auto row = rows.rbegin(); row != rows.rend(); ++row) {
    INFO(row->pointer);
    CHECK(backwards.line_of(row->pointer) == row->line);
  }
  const io::JsonSource alternating("f.json", text);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i % 2 == 0 ? i / 2 : rows.size() - 1 - i / 2];
    INFO(row.pointer);
    CHECK(alternating.line_of(row.pointer) == row.line);
  }
  CHECK(io::JsonSource("f.json", {}).line_of("/a") == 0);
}

TEST_CASE("JsonSource::parse accepts 64 levels of nesting and no more", "[io]") {
  auto nested = [](std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  const std::string ok = nested(io::kMaxJsonDepth);
  CHECK(io::JsonSource("f.json", ok).parse().is_array());
  const std::string deep = nested(io::kMaxJsonDepth + 1);
  CHECK_THROWS_WITH(io::JsonSource("f.json", deep).parse(),
                    "f.json:1: nesting deeper than 64 levels");
  // Objects count as arrays do, and the line is the first level too deep.
  std::string objects = "{\"a\":\n";
  for (int i = 1; i < io::kMaxJsonDepth; ++i) objects += "{\"a\":";
  objects += "\n[1]" + std::string(io::kMaxJsonDepth, '}');
  CHECK_THROWS_WITH(io::JsonSource("f.json", objects).parse(),
                    "f.json:3: nesting deeper than 64 levels");
  objects.replace(objects.find("[1]"), 3, "1");
  CHECK(io::JsonSource("f.json", objects).parse().is_object());
}

// The text is walked for binary data and depth only when parsing fails (JsonSource::parse):
// the first of them in the text is named before the parser's own error, wherever that is.
TEST_CASE("JsonSource::parse names binary data and depth before the parser's error", "[io]") {
  struct Row {
    const char* name;
    std::string text;
    const char* error;
  };
  const std::vector<Row> rows = {
      {"a control byte in a string", "{\"a\":\n\"x\x01y\"}",
       "f.json:2: binary data, not JSON text (byte 0x01)"},
      {"a control byte outside strings", "[1,\n\x02]",
       "f.json:2: binary data, not JSON text (byte 0x02)"},
      {"a syntax error before a control byte", "[1,,\n\"\x1f\"]",
       "f.json:2: binary data, not JSON text (byte 0x1f)"},
      {"a syntax error before too deep a value",
       "[1,,\n" + std::string(70, '[') + std::string(70, ']') + "]",
       "f.json:2: nesting deeper than 64 levels"},
      {"too deep after a control byte",
       "[\"\x03\",\n" + std::string(70, '[') + std::string(70, ']') + "]",
       "f.json:1: binary data, not JSON text (byte 0x03)"},
      {"a tab inside a string (not binary)", "[\"a\tb\"]",
       "f.json:1: invalid JSON at column 4: invalid string: control character U+0009 (HT) must "
       "be escaped to \\u0009 or \\t"},
  };
  for (const Row& row : rows) {
    INFO(row.name);
    CHECK_THROWS_WITH(io::JsonSource("f.json", row.text).parse(), row.error);
  }
}

}  // namespace
}  // namespace gpusched
