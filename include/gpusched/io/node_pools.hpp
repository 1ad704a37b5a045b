#pragma once
/// Turning a scenario's identical nodes into node pools, so that a planner can resize each node
/// type (`gpusched import openb --pools`, `gpusched plan`).

#include "gpusched/scenario/scenario.hpp"

namespace gpusched::io {

/// Moves the `cluster` Nodes that differ only in their name (and their kubernetes.io/hostname
/// label, which names them) into node pools, one per shape, in order of first appearance. A
/// pool is named after its GPU model label (nvidia.com/gpu.product), or `cpu`, lowercased to a
/// DNS label, with a number: `v100m16-0`, `cpu-0`; its nodes are renamed `<pool>-<i>`. Nodes
/// the scenario names elsewhere (a pod's spec.nodeName, a timeline action, an assertion) and
/// nodes already made by pools stay as they are. Returns how many nodes became pool nodes.
std::size_t group_nodes_into_pools(Scenario& scenario);

}  // namespace gpusched::io
