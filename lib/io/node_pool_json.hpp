#pragma once
// A scenario's `nodePools`: each `{"count": N, "node": <Node manifest>}` is N nodes made from the
// manifest (scenario-format.md, "Node pools").

#include <vector>

#include <nlohmann/json.hpp>

#include "gpusched/scenario/scenario.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// Parses and validates the pools: a Node template each, a count within limits (all pools
/// together at most kMaxPoolNodes), distinct names, node names that stay valid.
[[nodiscard]] std::vector<NodePool> parse_node_pools(const JsonNode& node);

/// Fails at the cluster object that defines a Node a pool also makes.
void check_pool_node_names(const std::vector<NodePool>& pools, const Scenario& scenario,
                           const std::vector<JsonNode>& cluster_items);

/// `clusterAutoscaler`: the flags the autoscaler model reads, upstream's defaults for the rest.
[[nodiscard]] ClusterAutoscalerSettings parse_cluster_autoscaler(const JsonNode& node);
[[nodiscard]] nlohmann::ordered_json cluster_autoscaler_json(
    const ClusterAutoscalerSettings& settings);

/// The pools as a scenario writes them.
[[nodiscard]] nlohmann::ordered_json node_pools_json(const std::vector<NodePool>& pools);

}  // namespace gpusched::io
