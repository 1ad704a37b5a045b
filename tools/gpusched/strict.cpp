#include "gpusched/strict.hpp"

namespace gpusched::cli {

void add_strict_flag(CLI::App& command, bool& strict) {
  command.add_flag("--strict", strict,
                   "Warn about fields that the Kubernetes objects' API types do not have "
                   "(typos such as nodeSelecter), which are otherwise ignored, and refuse a "
                   "feature gate set to a value gpusched does not model");
}

void print_warnings(const Scenario& scenario, bool strict, std::ostream& err) {
  // Each warning names its own file and line: an included manifest or an added one is not
  // the scenario's source.
  for (const std::string& warning : scenario.not_modelled)
    err << "gpusched: warning: " << warning << '\n';
  if (!strict) return;
  for (const std::string& warning : scenario.warnings)
    err << "gpusched: warning: " << warning << '\n';
}

}  // namespace gpusched::cli
