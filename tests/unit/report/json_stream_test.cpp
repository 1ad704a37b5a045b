// JsonStream writes what nlohmann::ordered_json's dump(2, ' ', false, replace) prints for the
// same document: nesting, empty containers, escapes, invalid UTF-8, documents inside it.
#include "report/json_stream.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

namespace gpusched::report {
namespace {

using Json = nlohmann::ordered_json;

std::string dumped(const Json& json) {
  return json.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

TEST_CASE("JsonStream prints what nlohmann's dump prints", "[report][json]") {
  const std::vector<std::string> texts = {"plain",
                                          "",
                                          "quote \" and \\ backslash",
                                          "tab\tnew\nline\r\x01\x1f\x7f",
                                          "ünïcödé ✓",
                                          "bad \xff byte",
                                          "cut \xe2\x9c",
                                          "\xc0\xaf overlong"};
  Json expected;
  std::ostringstream out;
  {
    JsonStream json(out);
    json.begin_object();
    for (std::size_t i = 0; i < texts.size(); ++i) {
      const std::string key = "k" + std::to_string(i) + texts[i];
      expected[key] = texts[i];
      json.key(key).string(texts[i]);
    }
    expected["empty object"] = Json::object();
    json.key("empty object").begin_object();
    json.end_object();
    expected["empty array"] = Json::array();
    json.key("empty array").begin_array();
    json.end_array();
    expected["numbers"] = {0, -1, 9223372036854775807LL, -9223372036854775807LL - 1};
    json.key("numbers").begin_array();
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{-1}, INT64_MAX, INT64_MIN})
      json.integer(n);
    json.end_array();
    expected["mixed"] = {nullptr, true, false, "x", Json::object(), Json::array({1})};
    json.key("mixed").begin_array();
    json.null();
    json.boolean(true);
    json.boolean(false);
    json.string("x");
    json.begin_object();
    json.end_object();
    json.value(Json::array({1}));
    json.end_array();
    const Json nested = {{"a", {{"b", Json::array({1.5, "c", Json::object()})}}}, {"d", 2.25}};
    expected["nested"] = nested;
    json.key("nested").value(nested);
    expected["deep"] = {{"list", {nested, nested}}};
    json.key("deep").begin_object();
    json.key("list").begin_array();
    json.value(nested);
    json.value(nested);
    json.end_array();
    json.end_object();
    expected["null or"] = {nullptr, "s"};
    json.key("null or").begin_array();
    json.string_or_null("");
    json.string_or_null("s");
    json.end_array();
    json.end_object();
  }
  CHECK(out.str() == dumped(expected));
}

TEST_CASE("JsonStream flushes long documents in pieces, whole", "[report][json]") {
  Json expected = Json::array();
  std::ostringstream out;
  {
    JsonStream json(out);
    json.begin_array();
    for (int i = 0; i < 20000; ++i) {
      expected.push_back("item " + std::to_string(i));
      json.string("item " + std::to_string(i));
    }
    json.end_array();
  }
  CHECK(out.str() == dumped(expected));
}

}  // namespace
}  // namespace gpusched::report
