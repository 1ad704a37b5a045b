#pragma once
/// Printing a SimulationResult: a kubectl-like report for people, JSON for machines.

#include <ostream>

#include "gpusched/report/result.hpp"

namespace gpusched::report {

/// Pods like `kubectl get pods -o wide`, each pod's events, each node's allocated resources
/// like `kubectl describe node`, then the expectations with expected vs actual on failure.
void write_table(std::ostream& out, const SimulationResult& result);

/// The JSON object of scenario-format.md §2 (indented, keys in contract order).
void write_json(std::ostream& out, const SimulationResult& result);

}  // namespace gpusched::report
