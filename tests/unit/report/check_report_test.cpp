// JUnit XML and GitHub Actions annotations of check results: structure, counts and escaping.
#include "gpusched/report/check_report.hpp"

#include <catch2/catch.hpp>

#include <sstream>

namespace gpusched::report {
namespace {

ExpectationResult expectation(std::size_t index, bool ok, const std::string& message, int line) {
  ExpectationResult e;
  e.index = index;
  e.pointer = "/expect/" + std::to_string(index);
  e.line = line;
  e.at = "1m";
  e.ok = ok;
  e.message = message;
  return e;
}

std::vector<CheckedScenario> sample() {
  CheckedScenario passed{"s/a.json", "a", std::nullopt, {expectation(0, true, "pod x", 7)}};
  CheckedScenario failed{
      "s/b.json",
      "b & <c>",
      std::nullopt,
      {expectation(0, true, "ok", 3),
       expectation(1, false, "pod \"p\" phase: expected Running\n  got Pending", 9)}};
  CheckedScenario broken{
      "s/c.yaml", "", CheckedScenario::Error{"unknown key \"x\"", "/cluster/0", 4}, {}};
  CheckedScenario empty{"s/d.json", "d", std::nullopt, {}};
  return {passed, failed, broken, empty};
}

TEST_CASE("a check passes with expectations that all hold", "[report][check]") {
  const std::vector<CheckedScenario> checked = sample();
  CHECK(checked[0].passed());
  CHECK_FALSE(checked[1].passed());
  CHECK_FALSE(checked[2].passed());
  CHECK_FALSE(checked[3].passed());  // no expectations prove nothing
}

TEST_CASE("JUnit XML has a suite per scenario and a case per expectation", "[report][check]") {
  std::ostringstream out;
  write_junit(out, sample());
  const std::string xml = out.str();
  CHECK(
      xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<testsuites name=\"gpusched check\" tests=\"5\" failures=\"2\" "
                      "errors=\"1\">\n"));
  CHECK_THAT(xml,
             Catch::Contains(
                 R"(<testcase classname="a" name="/expect/0 at 1m" file="s/a.json" line="7"/>)"));
  // Markup in names is escaped; the failure's message is its first line, its text all of it.
  CHECK_THAT(
      xml,
      Catch::Contains(
          R"(<testsuite name="b &amp; &lt;c&gt;" file="s/b.json" tests="2" failures="1" errors="0">)"));
  CHECK_THAT(xml,
             Catch::Contains("<failure message=\"pod &quot;p&quot; phase: expected Running\" "
                             "type=\"ExpectationFailed\">pod \"p\" phase: expected Running\n  got "
                             "Pending</failure>"));
  // An unreadable file: one errored case named after the file, at the error's line.
  CHECK_THAT(xml,
             Catch::Contains("<testcase classname=\"s/c.yaml\" name=\"replay\" file=\"s/c.yaml\" "
                             "line=\"4\">\n      <error message=\"unknown key &quot;x&quot;\" "
                             "type=\"InputError\">/cluster/0: unknown key \"x\"</error>"));
  CHECK_THAT(xml, Catch::Contains("name=\"expectations\" file=\"s/d.json\">\n      <failure "
                                  "message=\"no expectations"));
  CHECK(xml.ends_with("</testsuites>\n"));
  // Same input, same bytes.
  std::ostringstream again;
  write_junit(again, sample());
  CHECK(again.str() == xml);
}

TEST_CASE("control characters never reach the XML", "[report][check]") {
  CheckedScenario odd{"f.json",
                      std::string("x\x01y"),
                      std::nullopt,
                      {expectation(0, false, std::string("a\x02\tb\r"), 0)}};
  std::ostringstream out;
  write_junit(out, {odd});
  CHECK(out.str().find('\x01') == std::string::npos);
  CHECK(out.str().find('\x02') == std::string::npos);
  CHECK_THAT(out.str(), Catch::Contains("name=\"x\xEF\xBF\xBDy\""));
  CHECK_THAT(out.str(), Catch::Contains("message=\"a\xEF\xBF\xBD&#9;b&#13;\""));
  CHECK_THAT(out.str(), Catch::Contains("name=\"/expect/0 at 1m\" file=\"f.json\">"));  // no line
}

TEST_CASE("JUnit XML carries no character XML 1.0 forbids", "[report][check]") {
  struct Row {
    const char* name;
    std::string text;
    std::string escaped;
  };
  const std::vector<Row> rows = {
      {"U+FFFE",
       "a\xEF\xBF\xBE"
       "b",
       "a\xEF\xBF\xBD"
       "b"},
      {"U+FFFF",
       "a\xEF\xBF\xBF"
       "b",
       "a\xEF\xBF\xBD"
       "b"},
      {"NUL", std::string("a\0b", 3),
       "a\xEF\xBF\xBD"
       "b"},
      {"ESC", "a\x1b[31mb", "a\xEF\xBF\xBD[31mb"},
      {"DEL",
       "a\x7F"
       "b",
       "a\xEF\xBF\xBD"
       "b"},
      {"C1 CSI",
       "a\xC2\x9B"
       "b",
       "a\xEF\xBF\xBD"
       "b"},
      {"a byte that is not UTF-8",
       "a\xFF"
       "b",
       "a\xEF\xBF\xBD"
       "b"},
      {"a sequence cut short", "a\xE2\x82", "a\xEF\xBF\xBD\xEF\xBF\xBD"},
      {"an overlong slash",
       "a\xC0\xAF"
       "b",
       "a\xEF\xBF\xBD\xEF\xBF\xBD"
       "b"},
      {"a surrogate",
       "a\xED\xA0\x80"
       "b",
       "a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
       "b"},
      {"other UTF-8 kept", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x99\x82",
       "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x99\x82"},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      CheckedScenario odd{row.text, row.text, std::nullopt, {expectation(0, false, row.text, 0)}};
      std::ostringstream out;
      write_junit(out, {odd});
      CHECK_THAT(out.str(), Catch::Contains("<testsuite name=\"" + row.escaped + "\""));
      CHECK_THAT(out.str(), Catch::Contains("file=\"" + row.escaped + "\""));
      CHECK_THAT(out.str(), Catch::Contains("message=\"" + row.escaped + "\""));
    }
  }
}

TEST_CASE("GitHub annotations point at the failing lines", "[report][check]") {
  std::ostringstream out;
  write_github_annotations(out, sample());
  CHECK(out.str() ==
        "::error file=s/b.json,line=9,title=gpusched check%3A b & <c> /expect/1 at 1m::pod "
        "\"p\" phase: expected Running%0A  got Pending\n"
        "::error file=s/c.yaml,line=4,title=gpusched check%3A s/c.yaml cannot be "
        "replayed::/cluster/0: unknown key \"x\"\n"
        "::error file=s/d.json,title=gpusched check%3A d::no expectations\n");
  CheckedScenario percent{"a,b.json", "p", std::nullopt, {expectation(0, false, "100% off", 2)}};
  std::ostringstream escaped;
  write_github_annotations(escaped, {percent});
  CHECK(escaped.str() ==
        "::error file=a%2Cb.json,line=2,title=gpusched check%3A p /expect/0 at 1m::100%25 off\n");
}

}  // namespace
}  // namespace gpusched::report
