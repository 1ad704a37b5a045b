// CSV tables as traces write them: header checks, line ends, field counts and integers, each
// error naming the file, the line and the column.

#include "io/csv_table.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpusched/error.hpp"

namespace gpusched::io {
namespace {

const std::vector<std::string_view> kColumns = {"name", "cpu", "memory"};

/// The reason and line of the InputError reading `text` throws.
std::pair<int, std::string> error_of(const std::string& text) {
  try {
    const CsvTable table("t.csv", text, kColumns);
    for (std::size_t row = 0; row < table.size(); ++row) {
      (void)table.integer(row, 1, 1000);
      (void)table.integer(row, 2, 1000);
    }
  } catch (const InputError& e) {
    CHECK(e.file() == "t.csv");
    CHECK(e.pointer().empty());
    return {e.line(), e.reason()};
  }
  FAIL("no error");
  return {};
}

TEST_CASE("a CSV table splits records and keeps their lines", "[io][csv]") {
  struct Row {
    const char* name;
    std::string text;
  };
  const std::vector<Row> rows = {
      {"LF, trailing newline", "name,cpu,memory\na,1,2\n\nb,,4\n"},
      {"CRLF, no trailing newline", "name,cpu,memory\r\na,1,2\r\n\r\nb,,4"},
      {"byte-order mark", "\xEF\xBB\xBFname,cpu,memory\na,1,2\n\nb,,4\n"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const CsvTable table("t.csv", row.text, kColumns);
      REQUIRE(table.size() == 2);
      CHECK(table.file() == "t.csv");
      CHECK(table.line(0) == 2);
      CHECK(table.line(1) == 4);  // the blank line 3 is skipped
      CHECK(table.field(0, 0) == "a");
      CHECK(table.integer(0, 1, 10) == 1);
      CHECK(table.field(1, 1).empty());
      CHECK(table.integer(1, 2, 10) == 4);
    }
  }
  const CsvTable header_only("t.csv", "name,cpu,memory\n", kColumns);
  CHECK(header_only.size() == 0);
}

TEST_CASE("CSV errors name the file, the line and the column", "[io][csv]") {
  struct Row {
    const char* name;
    std::string text;
    int line;
    const char* reason;
  };
  const std::string kHeader = "; the header must be \"name,cpu,memory\"";
  const std::vector<Row> rows = {
      {"empty file", "", 0, "the file is empty; expected the header \"name,cpu,memory\""},
      {"blank file", "\r\n\n", 0, "the file is empty; expected the header \"name,cpu,memory\""},
      {"missing column", "name,cpu\n", 1, "header: missing column \"memory\""},
      {"unknown column", "name,cpu,memory,disk\n", 1, "header: unknown column \"disk\""},
      {"column twice", "name,cpu,memory,cpu\n", 1, "header: column \"cpu\" appears twice"},
      {"column order", "name,memory,cpu\n", 1, "header: column 2 is \"memory\", expected \"cpu\""},
      {"too few fields", "name,cpu,memory\na,1,2\nb,1\n", 3,
       "expected 3 fields (name,cpu,memory), got 2"},
      {"too many fields", "name,cpu,memory\na,1,2,\n", 2,
       "expected 3 fields (name,cpu,memory), got 4"},
      {"empty integer", "name,cpu,memory\na,,2\n", 2, "column cpu: \"\" is not an integer"},
      {"decimal", "name,cpu,memory\na,1.5,2\n", 2, "column cpu: \"1.5\" is not an integer"},
      {"plus sign", "name,cpu,memory\na,+1,2\n", 2, "column cpu: \"+1\" is not an integer"},
      {"space", "name,cpu,memory\na,1 ,2\n", 2, "column cpu: \"1 \" is not an integer"},
      {"lone minus", "name,cpu,memory\na,-,2\n", 2, "column cpu: \"-\" is not an integer"},
      {"negative", "name,cpu,memory\na,1,-2\n", 2, "column memory: -2 is negative"},
      {"above the bound", "name,cpu,memory\na,1001,2\n", 2, "column cpu: 1001 is larger than 1000"},
      {"beyond int64", "name,cpu,memory\na,1,99999999999999999999\n", 2,
       "column memory: 99999999999999999999 is larger than 1000"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const auto [line, reason] = error_of(row.text);
      CHECK(line == row.line);
      const bool header = std::string_view(row.reason).starts_with("header:");
      CHECK(reason == std::string(row.reason) + (header ? kHeader : ""));
    }
  }
}

}  // namespace
}  // namespace gpusched::io
