#include "gpusched/strict.hpp"

namespace gpusched::cli {

void add_strict_flag(CLI::App& command, bool& strict) {
  command.add_flag("--strict", strict,
                   "Warn about fields that the Kubernetes objects' API types do not have "
                   "(typos such as nodeSelecter), which are otherwise ignored");
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

}  // namespace gpusched::cli
