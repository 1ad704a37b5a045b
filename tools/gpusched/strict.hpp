#pragma once
// --strict: list the unknown fields of the input's Kubernetes objects, which the loader
// ignores as the API server does, as warnings (`kubectl apply --validate=strict` reports them),
// and refuse settings gpusched does not model, which are otherwise warnings.

#include <CLI/CLI.hpp>

#include <ostream>

#include "gpusched/scenario/scenario.hpp"

namespace gpusched::cli {

/// Registers --strict on `command`.
void add_strict_flag(CLI::App& command, bool& strict);

/// One `gpusched: warning: <file>:<line>: <pointer>: <what>` line, on `err`, per setting of
/// `scenario` that gpusched does not model and, when `strict`, per unknown field.
void print_warnings(const Scenario& scenario, bool strict, std::ostream& err);

}  // namespace gpusched::cli
