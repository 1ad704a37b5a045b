#pragma once
// What the loader left out, on the error stream: the kinds of objects it skipped or ignored
// (always), and with --strict the unknown fields of the input's Kubernetes objects, which the
// loader ignores as the API server does (`kubectl apply --validate=strict` reports them); under
// --strict, an object that would change placement but is not modelled is an input error.
// Also a replay's notices, which are printed always.

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>

#include "gpusched/scenario/scenario.hpp"
#include "gpusched/sim/result.hpp"

namespace gpusched::cli {

/// Registers --strict on `command`.
void add_strict_flag(CLI::App& command, bool& strict);

/// One `gpusched: warning: <file>:<line>: <pointer>: <what>` line per warning of `scenario`, on
/// `err`.
void print_warnings(const Scenario& scenario, std::ostream& err);

/// One `gpusched: notice: <source>: <what>` line per notice of `result`, on `err`.
void print_notices(const SimulationResult& result, std::ostream& err);

/// The same for Scenario::notes, which every command prints.
void print_notes(const Scenario& scenario, std::ostream& err);

/// io::load_scenario with `strict` as LoadOptions::strict, then its notes and, with `strict`,
/// its warnings on `err`.
[[nodiscard]] Scenario load_scenario_reporting(const std::string& file, bool strict,
                                               std::ostream& err);

}  // namespace gpusched::cli
