#include "plugins/node_unschedulable.hpp"

#include <algorithm>

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "plugins/helpers.hpp"

namespace gpusched::plugins {

NodeUnschedulable::NodeUnschedulable(Handle& handle) {
  StringPool& pool = handle.cluster.pool();
  // v1.TaintNodeUnschedulable with effect NoSchedule: a pod that tolerates it ignores cordons.
  unschedulable_taint_ =
      TaintInfo{pool.intern("node.kubernetes.io/unschedulable"), 0, TaintEffect::NoSchedule, 0};
  reason_ = pool.intern("node(s) were unschedulable");
}

bool NodeUnschedulable::tolerates_unschedulable(const PodInfo& pod) const {
  return std::any_of(pod.tolerations.begin(), pod.tolerations.end(),
                     [&](const TolerationInfo& t) { return t.tolerates(unschedulable_taint_); });
}

Code NodeUnschedulable::filter(const CycleState&, const PodInfo& pod, const NodeInfo& node,
                               Reasons& reasons) const {
  if (!node.unschedulable || tolerates_unschedulable(pod)) return Code::Success;
  reasons.push_back(reason_);
  return Code::UnschedulableAndUnresolvable;
}

// Its verdict reads the pod's tolerations and the node's spec.unschedulable.
bool NodeUnschedulable::append_node_static_key(const PodInfo& pod, std::string& key) const {
  append_tolerations_key(pod, key);
  return true;
}

std::vector<ClusterEventWithHint> NodeUnschedulable::events_to_register() const {
  return {{{EventResource::Node, action::kAdd | action::kUpdateNodeTaint, "Node"}, true},
          {{EventResource::Pod, action::kUpdatePodToleration, "Pod"}, true}};
}

// isSchedulableAfterNodeChange / isSchedulableAfterPodTolerationChange.
QueueingHint NodeUnschedulable::queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                              const EventObjects& objects) const {
  if (event.resource == EventResource::Pod) {
    return objects.pod == &pod && tolerates_unschedulable(pod) ? QueueingHint::Queue
                                                               : QueueingHint::QueueSkip;
  }
  if (objects.node == nullptr) return QueueingHint::QueueSkip;
  const bool now_schedulable = !objects.node->node.unschedulable;
  if (objects.old_node == nullptr)
    return now_schedulable ? QueueingHint::Queue : QueueingHint::QueueSkip;
  return objects.old_node->unschedulable && now_schedulable ? QueueingHint::Queue
                                                            : QueueingHint::QueueSkip;
}

}  // namespace gpusched::plugins
