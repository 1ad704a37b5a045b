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

// Its verdict reads the pod's spec.nodeName and the node's name.
bool NodeName::append_node_static_key(const PodInfo& pod, std::string& key) const {
  key.append(pod.pod.spec.node_name).push_back('\0');
  return true;
}

std::vector<ClusterEventWithHint> NodeName::events_to_register() const {
  return {{{EventResource::Node, action::kAdd, "Node"}, false}};
}

}  // namespace gpusched::plugins
