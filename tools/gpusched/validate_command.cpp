// `gpusched validate FILE...`: loads scenarios without running them.

#include <memory>
#include <string>
#include <vector>

#include "gpusched/commands.hpp"
#include "gpusched/error.hpp"
#include "gpusched/run_options.hpp"
#include "gpusched/strict.hpp"

namespace gpusched::cli {
namespace {

struct ValidateOptions {
  std::vector<std::string> files;
  bool strict = false;
};

int validate(const ValidateOptions& options, std::ostream& out, std::ostream& err) {
  // Every file is validated, so that one run lists every broken file.
  int code = 0;
  for (const std::string& file : options.files) {
    try {
      const Scenario scenario = load_scenario_reporting(file, options.strict, err);
      out << file << ": ok (" << scenario.cluster.size() << " objects, " << scenario.timeline.size()
          << " timeline actions, " << scenario.expect.size() << " expectations)\n";
    } catch (const InputError& e) {
      err << kErrorPrefix << e.message() << '\n';
      code = 2;
    }
  }
  return code;
}

}  // namespace

Command add_validate_command(CLI::App& app) {
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* command = app.add_subcommand(
      "validate", "Check scenario files without replaying them (exit 2 if one is invalid)");
  command->add_option("FILE", options->files, "Scenario files (JSON or YAML)")
      ->required()
      ->check(scenario_file_validator());
  add_strict_flag(*command, options->strict);
  return {command,
          [options](std::ostream& out, std::ostream& err) { return validate(*options, out, err); }};
}

}  // namespace gpusched::cli
