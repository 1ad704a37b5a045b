#pragma once
// GatherPools (k8s.io/dynamic-resource-allocation structured/internal/incubating/
// pools_incubating.go, v0.36.2): the resource pools whose slices a node can reach, newest
// generation only, each marked incomplete or invalid, sorted by (driver, pool) with the pools
// whose devices have binding conditions last.

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gpusched/model/dra.hpp"
#include "gpusched/model/node.hpp"

namespace gpusched::dra {

struct AllocatorFeatures;

/// One pool as the allocator sees it (incubating.Pool).
struct Pool {
  std::string driver;
  std::string name;
  bool incomplete = false;
  bool invalid = false;
  std::string invalid_reason;
  /// Slices with devices that target the node, sorted by name.
  std::vector<const ResourceSlice*> device_slices_targeting_node;
  /// The pool's other slices (only gathered when counters must be accounted across them).
  std::vector<const ResourceSlice*> device_slices_not_targeting_node;
  /// Counter sets by name (PartitionableDevices).
  std::map<std::string, const CounterSet*, std::less<>> counter_sets;

  /// PoolID.String: `<driver>/<pool>`.
  [[nodiscard]] std::string id() const { return driver + "/" + name; }
};

/// NodeMatches: a node name, all nodes, or a node selector (terms ORed; a term's label
/// expressions and `metadata.name` fields ANDed; an empty term matches nothing).
[[nodiscard]] bool node_matches(const Node& node, const std::optional<std::string>& node_name,
                                bool all_nodes, const std::optional<NodeSelector>& selector);

/// GatherPools. `slices_for_node` are the node-local slices followed by the shared ones;
/// `all_slices` every slice the allocator was given.
[[nodiscard]] std::vector<Pool> gather_pools(std::span<const ResourceSlice* const> slices_for_node,
                                             const Node& node, const AllocatorFeatures& features,
                                             std::span<const ResourceSlice* const> all_slices);

}  // namespace gpusched::dra
