#include "gpusched/strict.hpp"

#include "gpusched/io/scenario_loader.hpp"

namespace gpusched::cli {

void add_strict_flag(CLI::App& command, bool& strict) {
  command.add_flag("--strict", strict,
                   "Warn about fields that the Kubernetes objects' API types do not have "
                   "(typos such as nodeSelecter), which are otherwise ignored, and refuse "
                   "objects that would change placement but are not modelled");
}

void print_warnings(const Scenario& scenario, std::ostream& err) {
  // Each warning names its own file and line: an included manifest or an added one is not
  // the scenario's source.
  for (const std::string& warning : scenario.warnings)
    err << "gpusched: warning: " << warning << '\n';
}

void print_notices(const SimulationResult& result, std::ostream& err) {
  for (const std::string& notice : result.notices)
    err << "gpusched: notice: " << result.source << ": " << notice << '\n';
}

void print_notes(const Scenario& scenario, std::ostream& err) {
  for (const std::string& note : scenario.notes) err << "gpusched: warning: " << note << '\n';
}

Scenario load_scenario_reporting(const std::string& file, bool strict, std::ostream& err) {
  io::LoadOptions options;
  options.strict = strict;
  Scenario scenario = io::load_scenario(file, options);
  print_notes(scenario, err);
  if (strict) print_warnings(scenario, err);
  return scenario;
}

}  // namespace gpusched::cli
