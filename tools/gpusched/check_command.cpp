// `gpusched check PATH... [--junit FILE]`: replays every scenario under the paths, one line each,
// for CI; JUnit XML and, under GitHub Actions, annotations on the failing lines.

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "gpusched/commands.hpp"
#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/output_file.hpp"
#include "gpusched/report/check_report.hpp"
#include "gpusched/sim/simulator.hpp"
#include "gpusched/strict.hpp"

namespace gpusched::cli {
namespace {

namespace fs = std::filesystem;

struct CheckOptions {
  std::vector<std::string> paths;
  bool strict = false;
  std::string junit;
};

/// Appends the scenario files a PATH names: the file itself, or every *.json, *.yaml and *.yml
/// below a directory except Kubernetes manifests and files that are no scenario (with a notice;
/// io::input_kind), sorted so that the output does not depend on directory order. Returns false,
/// having said why on `err`, when a directory cannot be read or holds no scenario.
bool collect_scenarios(const fs::path& path, std::vector<fs::path>& files, std::ostream& err) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) {
    files.push_back(path);
    return true;
  }
  std::vector<fs::path> found;
  for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const fs::path ext = it->path().extension();
    if (ext != ".json" && ext != ".yaml" && ext != ".yml") continue;
    const io::InputKind kind = io::input_kind(it->path());
    // Manifests that scenarios include may sit among them: they are not scenarios.
    if (kind == io::InputKind::Manifest) continue;
    // Nor is another tool's file (a mig-parted configuration): said, so nothing goes unnoticed.
    if (kind == io::InputKind::Other) {
      err << "gpusched: notice: " << it->path().generic_string()
          << " skipped: not a scenario (none of a scenario's keys)\n";
      continue;
    }
    found.push_back(it->path());
  }
  if (ec) {
    err << kErrorPrefix << "cannot read " << path.generic_string() << ": " << ec.message() << '\n';
    return false;
  }
  if (found.empty()) {
    err << kErrorPrefix << "no scenarios found under " << path.generic_string() << '\n';
    return false;
  }
  std::sort(found.begin(), found.end());
  files.insert(files.end(), found.begin(), found.end());
  return true;
}

/// A multi-line message (expected vs actual details) indented under its failure line.
std::string indent_continuation_lines(const std::string& message) {
  std::string indented;
  for (const char c : message) {
    indented += c;
    if (c == '\n') indented += "  ";
  }
  return indented;
}

/// Replays one scenario (its notes on `err` first, and its warnings when `strict`) and prints
/// its line and its failures; adds the files it includes to `included`.
report::CheckedScenario check_one(const fs::path& file, bool strict, std::ostream& out,
                                  std::ostream& err, std::vector<std::string>& included) {
  const std::string shown = file.generic_string();
  report::CheckedScenario checked{shown, {}, std::nullopt, {}};
  SimulationResult result;
  try {
    const Scenario scenario = load_scenario_reporting(file.string(), strict, err);
    checked.scenario = scenario.name;
    included.insert(included.end(), scenario.included.begin(), scenario.included.end());
    result = simulate(scenario);
  } catch (const InputError& e) {
    checked.error = report::CheckedScenario::Error{e.reason(), e.pointer(), e.line()};
    // The message starts with the file when it is this one: name it once.
    const std::string message = e.message();
    if (e.file() == shown || e.file() == file.string()) {
      out << "ERROR " << shown << std::string_view(message).substr(e.file().size()) << '\n';
    } else {
      out << "ERROR " << shown << ": " << message << '\n';
    }
    return checked;
  }
  checked.expectations = result.expectations;
  const std::size_t total = result.expectations.size();
  const std::string label = shown + " (" + result.scenario + ")";
  // CI scenarios must assert something: a scenario without expectations proves nothing.
  if (total == 0) {
    out << "FAIL " << label << ": no expectations\n";
    return checked;
  }
  if (checked.passed()) {
    out << "PASS " << label << ": " << total << " expectations\n";
    return checked;
  }
  const auto failed = static_cast<std::size_t>(
      std::count_if(result.expectations.begin(), result.expectations.end(),
                    [](const ExpectationResult& expectation) { return !expectation.ok; }));
  out << "FAIL " << label << ": " << failed << " of " << total << " expectations failed\n";
  for (const ExpectationResult& expectation : result.expectations) {
    if (expectation.ok) continue;
    out << "  " << expectation.pointer << " at " << expectation.at << ": "
        << indent_continuation_lines(expectation.message) << '\n';
  }
  return checked;
}

int check(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  // Collect everything first so that a bad PATH fails before any scenario runs.
  std::vector<fs::path> files;
  for (const std::string& path : options.paths) {
    if (!collect_scenarios(path, files, err)) return 2;
  }
  // The report may not replace a scenario, nor (checked once they are known) a file one includes.
  std::vector<std::string> inputs;
  for (const fs::path& file : files) inputs.push_back(file.string());
  if (!options.junit.empty()) refuse_input_as_output("--junit", options.junit, inputs);
  std::vector<std::string> included;
  std::vector<report::CheckedScenario> checked;
  for (const fs::path& file : files)
    checked.push_back(check_one(file, options.strict, out, err, included));
  const auto passed = static_cast<std::size_t>(
      std::count_if(checked.begin(), checked.end(), [](const auto& c) { return c.passed(); }));
  const std::size_t failed = files.size() - passed;
  out << passed << " passed, " << failed << " failed\n";
  // GitHub Actions reads workflow commands from the output, and sets GITHUB_ACTIONS=true.
  if (const char* actions = std::getenv("GITHUB_ACTIONS");
      actions != nullptr && std::string_view(actions) == "true") {
    report::write_github_annotations(out, checked);
  }
  if (!options.junit.empty()) {
    refuse_input_as_output("--junit", options.junit, included);
    OutputFile junit("--junit", options.junit);
    report::write_junit(junit.stream(), checked);
    junit.close();
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace

Command add_check_command(CLI::App& app) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* command = app.add_subcommand(
      "check", "Replay every scenario under the paths; exit 1 unless all expectations hold");
  command
      ->add_option("PATH", options->paths,
                   "Scenario files or directories (*.json, *.yaml, *.yml, recursive)")
      ->required()
      ->check(CLI::ExistingPath);
  add_strict_flag(*command, options->strict);
  command->add_option("--junit", options->junit,
                      "Also write the results as JUnit XML to this file (a testsuite per scenario, "
                      "a testcase per expectation)");
  return {command,
          [options](std::ostream& out, std::ostream& err) { return check(*options, out, err); }};
}

}  // namespace gpusched::cli
