#pragma once
// --strict: list what the loader ignored (unknown fields, objects left out) as warnings.

#include <CLI/CLI.hpp>

#include <ostream>

#include "gpusched/sim/scenario.hpp"

namespace gpusched::cli {

/// Registers --strict on `command`.
void add_strict_flag(CLI::App& command, bool& strict);

/// One `gpusched: warning: ` line per warning of `scenario`, on `err`.
void print_warnings(const Scenario& scenario, std::ostream& err);

}  // namespace gpusched::cli
