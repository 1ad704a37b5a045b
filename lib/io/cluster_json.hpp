#pragma once
/// A scenario's starting cluster from JSON nodes, wherever they were read: the scenario's own
/// `cluster` entries, included manifests, a live-cluster snapshot or `whatif --add` files.

#include <cstddef>
#include <string>
#include <vector>

#include "gpusched/scenario/scenario.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// Most objects a starting cluster may hold.
inline constexpr std::size_t kMaxClusterObjects = 100'000;

/// Where an object is, for messages: its pointer within `scenario_file`, or `file:line: pointer`
/// for an object read from another file.
[[nodiscard]] std::string place_of(const JsonNode& item, const std::string& scenario_file);

/// Parses `items` (objects, in order) into scenario.cluster and cluster_pointers, reading their
/// times when the scenario has a startTime. Refuses a duplicate object (naming where the first
/// one is), a second globalDefault PriorityClass, and more objects than the limit (blaming
/// `where`).
void parse_cluster(const std::vector<JsonNode>& items, const JsonNode& where, Scenario& scenario);

}  // namespace gpusched::io
