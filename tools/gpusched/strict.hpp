#pragma once
// --strict: list the unknown fields of the input's Kubernetes objects, which the loader
// ignores as the API server does, as warnings (`kubectl apply --validate=strict` reports them).
// Also a replay's notices, which are printed always.

#include <CLI/CLI.hpp>

#include <ostream>

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

}  // namespace gpusched::cli
