#include "gpusched/strict.hpp"

#include <string>

#include "gpusched/error.hpp"

namespace gpusched::cli {

void add_strict_flag(CLI::App& command, bool& strict) {
  command.add_flag("--strict", strict,
                   "Warn about fields that the Kubernetes objects' API types do not have "
                   "(typos such as nodeSelecter), which are otherwise ignored");
}

void print_warnings(const Scenario& scenario, bool strict, std::ostream& err) {
  // Each warning names its own file and line: an included manifest or an added one is not
  // the scenario's source.
  if (strict) {
    for (const std::string& warning : scenario.warnings)
      err << "gpusched: warning: " << warning << '\n';
  }
  for (const std::string& warning : scenario.unmodelled)
    err << "gpusched: warning: " << warning << '\n';
  if (strict && !scenario.unmodelled.empty()) {
    const std::size_t n = scenario.unmodelled.size();
    throw InputError(scenario.source, "",
                     "--strict: " + std::to_string(n) + (n == 1 ? " input" : " inputs") +
                         " above can change placement but gpusched does not model " +
                         (n == 1 ? "it" : "them"));
  }
}

void print_notices(const SimulationResult& result, std::ostream& err) {
  for (const std::string& notice : result.notices)
    err << "gpusched: notice: " << result.source << ": " << notice << '\n';
}

}  // namespace gpusched::cli
