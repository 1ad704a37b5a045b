#include "plugins/node_name.hpp"

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"

namespace gpusched::plugins {

NodeName::NodeName(Handle& handle)
    : reason_(handle.cluster.pool().intern("node(s) didn't match the requested node name")) {}

Code NodeName::filter(const CycleState&, const PodInfo& pod, const NodeInfo& node,
                      Reasons& reasons) const {
  if (pod.pod.spec.node_name.empty() || pod.pod.spec.node_name == node.node.metadata.name) {
    return Code::Success;
  }
  reasons.push_back(reason_);
  return Code::UnschedulableAndUnresolvable;
}

std::vector<ClusterEventWithHint> NodeName::events_to_register() const {
  return {{{EventResource::Node, action::kAdd, "Node"}, false}};
}

}  // namespace gpusched::plugins
