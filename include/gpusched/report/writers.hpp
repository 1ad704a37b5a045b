#pragma once
/// Printing a SimulationResult: a kubectl-like report for people, JSON and CSV for machines.

#include <ostream>

#include "gpusched/sim/result.hpp"

namespace gpusched::report {

/// Pods like `kubectl get pods -o wide`, each pod's events, each node's allocated resources
/// like `kubectl describe node`, then the expectations with expected vs actual on failure.
void write_table(std::ostream& out, const SimulationResult& result);

/// The JSON object of scenario-format.md §2 (indented, keys in contract order).
void write_json(std::ostream& out, const SimulationResult& result);

/// A CSV line per pod, in the result's order: namespace, name, phase, node, priority, the
/// requests (cpu in millicores, memory in bytes, whole GPUs, then all of them as
/// `name=quantity;...`), created/scheduled/wait/finished in milliseconds (empty when not
/// reached), the preemptions it made, who preempted it, and its reason and message.
void write_pods_csv(std::ostream& out, const SimulationResult& result);

/// A CSV line per step of each node's GPUs (NodeUsage::gpu_steps), by node then time: node,
/// pool, GPU model, the step's start and end in milliseconds, allocatable, allocated and
/// schedulable (true/false) GPUs.
void write_gpu_steps_csv(std::ostream& out, const SimulationResult& result);

}  // namespace gpusched::report
