// The fast JSON reader against nlohmann's parser: whatever it reads, nlohmann reads to the same
// tree, number types included; whatever nlohmann refuses, it gives up on (the loader then lets
// nlohmann name the fault). Hand-picked texts at the edges of the grammar, then thousands of
// seeded byte mutations of them.
#include "io/json_fast_reader.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

namespace gpusched::io {
namespace {

using Json = nlohmann::json;

/// The same tree, each value of the same type (nlohmann's == takes 1 and 1u and 1.0 as equal).
bool same(const Json& a, const Json& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case Json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto it = a.begin(), jt = b.begin(); it != a.end(); ++it, ++jt) {
        if (it.key() != jt.key() || !same(it.value(), jt.value())) return false;
      }
      return true;
    }
    case Json::value_t::array:
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!same(a[i], b[i])) return false;
      }
      return a.size() == b.size();
    case Json::value_t::number_float:
      // Bit for bit: -0.0 and 0.0 differ.
      return std::signbit(a.get<double>()) == std::signbit(b.get<double>()) &&
             a.get<double>() == b.get<double>();
    default:
      return a == b;
  }
}

/// Reads `text` both ways. Returns whether the fast reader read it; fails the test where it
/// read something nlohmann refuses or reads differently.
bool check(const std::string& text) {
  Json fast;
  nlohmann::detail::json_sax_dom_parser<Json> builder(fast, false);
  const bool read = JsonFastReader(text, builder).read();
  Json slow = Json::parse(text, nullptr, false);
  if (read) {
    INFO(text);
    CHECK_FALSE(slow.is_discarded());
    CHECK(same(fast, slow));
  }
  return read;
}

const std::vector<std::string> kTexts = {
    R"({"a": 1, "b": -1, "c": 0, "d": -0, "e": 1.5, "f": -0.0, "g": 1e3, "h": 1E-3,
        "i": 2.5e+2, "j": 18446744073709551615, "k": -9223372036854775808, "l": true,
        "m": false, "n": null, "o": [], "p": {}, "q": [1, [2, [3, {}]]], "r": 0.1})",
    R"(["", "plain", "esc \" \\ \/ \b \f \n \r \t", "\u0041\u00e9\u20ac\u0000", "caf\u00E9",
        "é€😀", "\u007f", "DEL "])",
    "[\"raw tab 	\"]",
    "  \r\n\t{\"spaced\" :\t[ 1 ,2 , 3 ] }\n",
    R"({"dup": 1, "dup": 2})",
    "123",
    "\"top\"",
    R"({"big": 18446744073709551616, "small": -9223372036854775809})",
    R"({"huge": 1e400, "tiny": 1e-400, "surrogate": "\ud83d\ude00"})",
    "\xEF\xBB\xBF{\"bom\": 1}",
    R"({"lone": "\udc00"})",
    "{\"bad\": \"\xC0\xAF\"}",
    "{\"bad\": \"\xED\xA0\x80\"}",
    "{\"ok\": \"\xF4\x8F\xBF\xBF\xE0\xA0\x80\xF0\x90\x80\x80\"}",
    R"({"a": 01})",
    R"({"a": 1.})",
    R"({"a": .5})",
    R"({"a": +1})",
    R"({"a": -})",
    R"({"a": 1e})",
    R"([1, 2,])",
    R"({"a": 1,})",
    R"({"a" 1})",
    R"({a: 1})",
    "[tru]",
    "[nul, 1]",
    "{\"a\": 1} x",
    "",
    "   ",
    "{\"ctl\": \"\x01\"}",
    R"(["\x"])",
    R"(["\u12"])",
    R"(["\u12G4"])",
    "[1] // comment",
};

TEST_CASE("JsonFastReader reads what nlohmann reads, as nlohmann reads it", "[io][json]") {
  std::size_t read = 0;
  for (const std::string& text : kTexts) read += check(text) ? 1 : 0;
  // Seven read fast (the numbers, the strings, the spaced text, the repeated key, the two bare
  // values, the edges of UTF-8); what is refused or left to nlohmann is not.
  CHECK(read == 7);
  CHECK(check(kTexts[0]));
  CHECK(check(kTexts[1]));
  CHECK_FALSE(check(kTexts[2]));  // a raw tab in a string: refused
  CHECK_FALSE(check(kTexts[7]));  // integers beyond 64 bits: nlohmann's doubles
  CHECK_FALSE(check(kTexts[8]));  // doubles out of range and a surrogate pair: nlohmann's
  CHECK_FALSE(check(kTexts[9]));  // a byte order mark: nlohmann skips it
}

TEST_CASE("JsonFastReader under byte mutations", "[io][json]") {
  // Each mutant either reads as nlohmann reads it or is left to nlohmann (check() fails the
  // test otherwise). Deterministic: a fixed seed.
  std::mt19937 random(20261205);
  const std::string bytes = "{}[]\":,.-+0123456789eEtrufalsn\\/ \t\n\x01\x7f\x80\xbf\xc3\xe2\xf0";
  std::size_t read = 0;
  std::size_t mutants = 0;
  for (const std::string& seed : kTexts) {
    if (seed.empty()) continue;
    for (int round = 0; round < 600; ++round) {
      std::string text = seed;
      const int edits = 1 + static_cast<int>(random() % 3);
      for (int e = 0; e < edits; ++e) {
        const std::size_t at = random() % text.size();
        const char byte = bytes[random() % bytes.size()];
        switch (random() % 3) {
          case 0:
            text[at] = byte;
            break;
          case 1:
            text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), byte);
            break;
          default:
            if (text.size() > 1) text.erase(at, 1);
            break;
        }
      }
      ++mutants;
      read += check(text) ? 1 : 0;
    }
  }
  // Both kinds occur: mutants the reader reads (checked against nlohmann) and ones it leaves.
  CHECK(read > mutants / 20);
  CHECK(read < mutants);
}

}  // namespace
}  // namespace gpusched::io
