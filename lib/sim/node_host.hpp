#pragma once
// What the components that bring nodes and take them away (pool provisioning, the cluster
// autoscaler) ask of the rest of the cluster.

#include <string>

#include "gpusched/framework/node_info.hpp"
#include "gpusched/model/node.hpp"

namespace gpusched::sim {

class NodeHost {
 public:
  virtual ~NodeHost() = default;
  /// Applies `node` through the API server (its device plugin publishes it); `pointer` is the
  /// place in the scenario that asked for it, for errors.
  virtual void apply_node(Node node, const std::string& pointer) = 0;
  /// The node leaves the cluster; its pods stay until the pod garbage collector deletes them.
  virtual void remove_node(NodeInfo& node) = 0;
};

}  // namespace gpusched::sim
