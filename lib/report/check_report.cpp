#include "gpusched/report/check_report.hpp"

#include <algorithm>
#include <string_view>

#include "report/xml_text.hpp"

namespace gpusched::report {
namespace {

std::string attr(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + xml_escaped(value, true) + "\"";
}

std::string first_line(std::string_view text) {
  return std::string(text.substr(0, text.find('\n')));
}

// A workflow command's message (`%`, CR and LF escaped) and property values (also `:` and `,`),
// as @actions/core's command.ts escapes them.
std::string command_data(std::string_view text, bool property) {
  std::string out;
  for (const char c : text) {
    if (c == '%') {
      out += "%25";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else if (property && c == ':') {
      out += "%3A";
    } else if (property && c == ',') {
      out += "%2C";
    } else {
      out += c;
    }
  }
  return out;
}

void annotate(std::ostream& out, const std::string& file, int line, const std::string& title,
              const std::string& message) {
  out << "::error file=" << command_data(file, true);
  if (line > 0) out << ",line=" << line;
  out << ",title=" << command_data(title, true) << "::" << command_data(message, false) << '\n';
}

}  // namespace

bool CheckedScenario::passed() const {
  return !error && !expectations.empty() &&
         std::all_of(expectations.begin(), expectations.end(),
                     [](const ExpectationResult& e) { return e.ok; });
}

void write_junit(std::ostream& out, const std::vector<CheckedScenario>& checked) {
  std::size_t tests = 0, failures = 0, errors = 0;
  std::string suites;
  for (const CheckedScenario& c : checked) {
    const std::string name = c.scenario.empty() ? c.file : c.scenario;
    std::string cases;
    std::size_t suite_tests = 0, suite_failures = 0, suite_errors = 0;
    if (c.error) {
      suite_tests = suite_errors = 1;
      cases +=
          "    <testcase" + attr("classname", name) + attr("name", "replay") +
          attr("file", c.file) +
          (c.error->line > 0 ? attr("line", std::to_string(c.error->line)) : "") +
          ">\n      <error" + attr("message", first_line(c.error->reason)) +
          attr("type", "InputError") + ">" +
          xml_escaped((c.error->pointer.empty() ? "" : c.error->pointer + ": ") + c.error->reason,
                      false) +
          "</error>\n    </testcase>\n";
    } else if (c.expectations.empty()) {
      suite_tests = suite_failures = 1;
      cases += "    <testcase" + attr("classname", name) + attr("name", "expectations") +
               attr("file", c.file) + ">\n      <failure" +
               attr("message", "no expectations: a scenario in CI must assert something") +
               attr("type", "NoExpectations") + "/>\n    </testcase>\n";
    }
    for (const ExpectationResult& e : c.expectations) {
      ++suite_tests;
      cases += "    <testcase" + attr("classname", name) + attr("name", e.pointer + " at " + e.at) +
               attr("file", c.file) + (e.line > 0 ? attr("line", std::to_string(e.line)) : "");
      if (e.ok) {
        cases += "/>\n";
        continue;
      }
      ++suite_failures;
      cases += ">\n      <failure" + attr("message", first_line(e.message)) +
               attr("type", "ExpectationFailed") + ">" + xml_escaped(e.message, false) +
               "</failure>\n    </testcase>\n";
    }
    tests += suite_tests;
    failures += suite_failures;
    errors += suite_errors;
    suites += "  <testsuite" + attr("name", name) + attr("file", c.file) +
              attr("tests", std::to_string(suite_tests)) +
              attr("failures", std::to_string(suite_failures)) +
              attr("errors", std::to_string(suite_errors)) + ">\n" + cases + "  </testsuite>\n";
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" << attr("name", "gpusched check")
      << attr("tests", std::to_string(tests)) << attr("failures", std::to_string(failures))
      << attr("errors", std::to_string(errors)) << ">\n"
      << suites << "</testsuites>\n";
}

void write_github_annotations(std::ostream& out, const std::vector<CheckedScenario>& checked) {
  for (const CheckedScenario& c : checked) {
    const std::string name = c.scenario.empty() ? c.file : c.scenario;
    if (c.error) {
      annotate(out, c.file, c.error->line, "gpusched check: " + name + " cannot be replayed",
               (c.error->pointer.empty() ? "" : c.error->pointer + ": ") + c.error->reason);
    } else if (c.expectations.empty()) {
      annotate(out, c.file, 0, "gpusched check: " + name, "no expectations");
    }
    for (const ExpectationResult& e : c.expectations) {
      if (e.ok) continue;
      annotate(out, c.file, e.line, "gpusched check: " + name + " " + e.pointer + " at " + e.at,
               e.message);
    }
  }
}

}  // namespace gpusched::report
