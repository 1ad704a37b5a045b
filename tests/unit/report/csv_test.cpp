// CSV as RFC 4180 has it: quoting on write, and the reader that merge uses.
#include "report/csv.hpp"

#include <catch2/catch.hpp>

#include "gpusched/error.hpp"
#include "gpusched/report/metrics.hpp"

namespace gpusched::report {
namespace {

TEST_CASE("fields are quoted only when they need it", "[report][csv]") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
  CHECK(csv_row({"", "x", ""}) == ",x,\n");
}

TEST_CASE("a field a spreadsheet would run as a formula is written as text", "[report][csv]") {
  struct Row {
    const char* name;
    std::string value;
    std::string written;
  };
  const std::vector<Row> rows = {
      {"=", "=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\""},
      {"+", "+1+2", "'+1+2"},
      {"-", "-cmd|' /C calc'!A0", "'-cmd|' /C calc'!A0"},
      {"@", "@SUM(A1)", "'@SUM(A1)"},
      {"tab", "\t=1", "'\t=1"},
      {"CR", "\r=1", "\"'\r=1\""},
      {"a negative integer", "-1", "-1"},
      {"a negative decimal", "-0.5", "-0.5"},
      {"a minus alone", "-", "'-"},
      {"a number with a sign and text", "-1e3", "'-1e3"},
      {"a name with = inside", "a=b", "a=b"},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      CHECK(csv_field(row.value) == row.written);
      // Read back, the field keeps its quote, and writing it again changes nothing (merge).
      const std::vector<CsvLine> lines = read_csv(csv_row({row.value}), "t.csv");
      REQUIRE(lines.size() == 1);
      CHECK(csv_row(lines[0].fields) == csv_row({row.value}));
    }
  }
}

TEST_CASE("what csv_row writes, read_csv reads back", "[report][csv]") {
  const std::vector<std::string> fields{"", "a,b", "say \"hi\"", "two\r\nlines", "end"};
  const std::string text = "h1,h2\r\n\n" + csv_row(fields) + "last,line";
  const std::vector<CsvLine> lines = read_csv(text, "t.csv");
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].number == 1);
  CHECK(lines[0].fields == std::vector<std::string>{"h1", "h2"});
  CHECK(lines[1].number == 3);
  CHECK(lines[1].fields == fields);
  CHECK(lines[2].number == 5);
  CHECK(lines[2].fields == std::vector<std::string>{"last", "line"});
  CHECK_THROWS_WITH(read_csv("a,\"b\"c\n", "t.csv"), "t.csv:1: text after a closing quote");
}

TEST_CASE("runs tables put the metric columns in name order", "[report][csv]") {
  std::ostringstream out;
  write_runs_csv(out, {"size"},
                 {RunRow{{"1"}, {{"pending", 2, MetricUnit::Count}}},
                  RunRow{{"2"},
                         {{"wait.p95", 1500, MetricUnit::Duration},
                          {"allocation.cpu", 0.5, MetricUnit::Ratio}}}});
  CHECK(out.str() == "size,allocation.cpu,pending,wait.p95\n1,,2,\n2,0.5000,,1500\n");
}

}  // namespace
}  // namespace gpusched::report
