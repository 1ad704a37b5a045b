// Text made safe for a terminal: control characters and bytes that are not UTF-8 escaped, the
// rest (other UTF-8, tabs, line feeds) as it is, and JSON still JSON.
#include "gpusched/report/terminal_text.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gpusched::report {
namespace {

TEST_CASE("terminal text escapes what a terminal would obey", "[report][terminal]") {
  struct Row {
    const char* name;
    std::string text;
    std::string shown;
  };
  const std::vector<Row> rows = {
      {"plain ASCII", "web-1\tRunning\n", "web-1\tRunning\n"},
      {"ESC of a colour sequence", "\x1b[31mred", "\\u001b[31mred"},
      {"NUL", std::string("a\0b", 3), "a\\u0000b"},
      {"CR, which rewrites the line", "ok\rFAIL", "ok\\u000dFAIL"},
      {"BEL", "a\x07", "a\\u0007"},
      {"DEL", "a\x7f", "a\\u007f"},
      {"C1 CSI as UTF-8",
       "a\xC2\x9B"
       "31m",
       "a\\u009b31m"},
      {"a raw C1 byte, not UTF-8",
       "a\x9B"
       "31m",
       "a\\x9b"
       "31m"},
      {"invalid UTF-8", "a\xFF\xFE", "a\\xff\\xfe"},
      {"a sequence cut short at the end", "a\xE2\x82", "a\\xe2\\x82"},
      {"other UTF-8", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x99\x82",
       "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x99\x82"},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      CHECK(terminal_text(row.text) == row.shown);
    }
  }
}

TEST_CASE("terminal text finds what it escapes at any place in a run", "[report][terminal]") {
  // Plain runs are scanned eight bytes at a time: each byte that ends one, and each that does
  // not, at every offset around two words' boundaries.
  struct Row {
    std::string byte;
    std::string shown;
  };
  const std::vector<Row> rows = {
      {std::string(1, '\0'), "\\u0000"},
      {"\x01", "\\u0001"},
      {"\x1b", "\\u001b"},
      {"\x1f", "\\u001f"},
      {"\x7f", "\\u007f"},
      {"\x80", "\\x80"},
      {"\xff", "\\xff"},
      {"\xC2\x9B", "\\u009b"},
      {"\xC3\xA9", "\xC3\xA9"},
      {"\t", "\t"},
      {"\n", "\n"},
      {" ", " "},
      {"~", "~"},
  };
  for (const Row& row : rows) {
    for (std::size_t before = 0; before <= 17; ++before) {
      for (const std::size_t after : {0, 1, 7, 8, 9, 20}) {
        const std::string text = std::string(before, 'a') + row.byte + std::string(after, 'z');
        INFO(before << " bytes, " << row.shown << ", " << after << " bytes");
        CHECK(terminal_text(text) ==
              std::string(before, 'a') + row.shown + std::string(after, 'z'));
      }
    }
  }
}

TEST_CASE("terminal text waits for the rest of a character given in pieces", "[report][terminal]") {
  std::string out;
  const std::string euro = "\xE2\x82\xAC";
  CHECK(append_terminal_text(out, "x" + euro.substr(0, 2), true) == 1);
  CHECK(out == "x");
  CHECK(append_terminal_text(out, euro + "y", true) == 4);
  CHECK(out == "x" + euro + "y");
  // Nothing follows: the piece is not UTF-8.
  out.clear();
  CHECK(append_terminal_text(out, euro.substr(0, 2), false) == 2);
  CHECK(out == "\\xe2\\x82");
}

TEST_CASE("JSON through terminal text is the same JSON", "[report][terminal]") {
  const nlohmann::json doc = {{"name",
                               "a\x7f"
                               "b\xC2\x9B"
                               "c\x1b"},
                              {"n", -1}};
  const std::string dumped = doc.dump(2);
  const std::string shown = terminal_text(dumped);
  CHECK(shown != dumped);  // DEL and C1 are raw in nlohmann's output
  CHECK(nlohmann::json::parse(shown) == doc);
}

}  // namespace
}  // namespace gpusched::report
