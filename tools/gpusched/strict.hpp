#pragma once
// The input's warnings: what gpusched does not model (always; errors under --strict), and under
// --strict the unknown fields of its Kubernetes objects, which the loader ignores as the API
// server does (`kubectl apply --validate=strict` reports them).
// Also a replay's notices, which are printed always.

#include <CLI/CLI.hpp>

#include <ostream>

#include "gpusched/scenario/scenario.hpp"
#include "gpusched/sim/result.hpp"

namespace gpusched::cli {

/// Registers --strict on `command`.
void add_strict_flag(CLI::App& command, bool& strict);

/// One `gpusched: warning: <file>:<line>: <pointer>: <what>` line, on `err`, per unknown field
/// of `scenario` when `strict`, then per unmodelled input (Scenario::unmodelled); under
/// `strict`, unmodelled inputs then throw an InputError (exit code 2).
void print_warnings(const Scenario& scenario, bool strict, std::ostream& err);

/// One `gpusched: notice: <source>: <what>` line per notice of `result`, on `err`.
void print_notices(const SimulationResult& result, std::ostream& err);

}  // namespace gpusched::cli
