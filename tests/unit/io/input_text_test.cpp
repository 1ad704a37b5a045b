// Text in the wrong encoding is named, with what to do about it, where the parsers would call it
// binary data.
#include "io/input_text.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpusched/error.hpp"

namespace gpusched {
namespace {

using namespace std::string_literals;

TEST_CASE("UTF-16 and UTF-32 input is refused with a hint to re-save it as UTF-8", "[io]") {
  struct Row {
    const char* name;
    std::string text;
    const char* encoding;
  };
  const std::vector<Row> rows = {
      {"UTF-16LE with a byte-order mark", "\xff\xfe{\0\"\0"s, "UTF-16"},
      {"UTF-16BE with a byte-order mark", "\xfe\xff\0{\0\""s, "UTF-16"},
      {"UTF-16LE without one", "n\0a\0m\0e\0"s, "UTF-16"},
      {"UTF-16BE without one", "\0n\0a\0m\0e"s, "UTF-16"},
      {"UTF-32LE", "\xff\xfe\0\0{\0\0\0"s, "UTF-32"},
  };
  for (const Row& row : rows) {
    for (const char* file : {"s.json", "s.yaml"}) {
      INFO(row.name << " in " << file);
      try {
        const io::ParsedText parsed(file, row.text);
        FAIL("parsed");
      } catch (const InputError& e) {
        CHECK(e.file() == file);
        CHECK(e.line() == 1);
        CHECK(e.reason() == "the file is "s + row.encoding +
                                " text; gpusched reads UTF-8: re-save it as UTF-8 (for example "
                                "`iconv -f " +
                                row.encoding + " -t UTF-8`)");
      }
    }
  }
}

TEST_CASE("UTF-8, with or without a byte-order mark, reads as before", "[io]") {
  for (const std::string& text : {R"({"name": "x"})"s, "\xef\xbb\xbf{\"name\": \"x\"}"s}) {
    const io::ParsedText parsed("s.json", text);
    CHECK(parsed.root().json().at("name") == "x");
  }
}

}  // namespace
}  // namespace gpusched
