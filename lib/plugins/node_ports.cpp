#include "plugins/node_ports.hpp"

#include <algorithm>

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"

namespace gpusched::plugins {

NodePorts::NodePorts(Handle& handle)
    : reason_(handle.cluster.pool().intern(
          "node(s) didn't have free ports for the requested pod ports")),
      wildcard_(handle.cluster.pool().intern("0.0.0.0")) {}

Status NodePorts::pre_filter(CycleState& state, const PodInfo& pod, PreFilterResult&) {
  if (pod.host_ports.empty()) {
    state.skip_filter(slot());
    return {Code::Skip};
  }
  return {};
}

bool NodePorts::conflicts(const std::vector<HostPort>& used, const HostPort& wanted,
                          StrId wildcard) {
  return std::any_of(used.begin(), used.end(), [&](const HostPort& u) {
    if (u.protocol != wanted.protocol || u.port != wanted.port) return false;
    return wanted.ip == wildcard || u.ip == wildcard || u.ip == wanted.ip;
  });
}

Code NodePorts::filter(const CycleState&, const PodInfo& pod, const NodeInfo& node,
                       Reasons& reasons) const {
  for (const HostPort& p : pod.host_ports) {
    if (conflicts(node.used_ports, p, wildcard_)) {
      reasons.push_back(reason_);
      return Code::Unschedulable;
    }
  }
  return Code::Success;
}

bool NodePorts::append_node_dynamic_key(const PodInfo& pod, std::string& key) const {
  for (const HostPort& p : pod.host_ports) {
    for (std::uint32_t part :
         {std::uint32_t{p.ip}, std::uint32_t{p.protocol}, static_cast<std::uint32_t>(p.port)})
      key.append(reinterpret_cast<const char*>(&part), sizeof part);
  }
  key.push_back('\x1f');
  return true;
}

std::vector<ClusterEventWithHint> NodePorts::events_to_register() const {
  return {{{EventResource::Pod, action::kDelete, "Pod"}, true},
          {{EventResource::Node, action::kAdd, "Node"}, false}};
}

// isSchedulableAfterPodDeleted: Queue when the deleted pod held (or was nominated for) a node and
// freed a port this pod wants.
QueueingHint NodePorts::queueing_hint(const ClusterEvent&, const PodInfo& pod,
                                      const EventObjects& objects) const {
  const PodInfo* deleted = objects.pod;
  if (deleted == nullptr) return QueueingHint::QueueSkip;
  if (deleted->pod.spec.node_name.empty() && deleted->pod.status.nominated_node_name.empty()) {
    return QueueingHint::QueueSkip;
  }
  for (const HostPort& p : pod.host_ports) {
    if (conflicts(deleted->host_ports, p, wildcard_)) return QueueingHint::Queue;
  }
  return QueueingHint::QueueSkip;
}

}  // namespace gpusched::plugins
