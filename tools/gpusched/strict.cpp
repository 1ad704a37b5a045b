#include "gpusched/strict.hpp"

namespace gpusched::cli {

void add_strict_flag(CLI::App& command, bool& strict) {
  command.add_flag("--strict", strict,
                   "List what the input holds but gpusched ignores (unknown fields, objects "
                   "left out) as warnings");
}

void print_warnings(const Scenario& scenario, std::ostream& err) {
  for (const std::string& warning : scenario.warnings) {
    err << "gpusched: warning: " << scenario.source << ": " << warning << '\n';
  }
}

}  // namespace gpusched::cli
