#include "plugins/scheduling_gates.hpp"

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "model/go_text.hpp"

namespace gpusched::plugins {

SchedulingGates::SchedulingGates(Handle& handle) : pool_(handle.cluster.pool()) {}

Status SchedulingGates::pre_enqueue(const PodInfo& pod) const {
  const std::vector<std::string>& gates = pod.pod.spec.scheduling_gates;
  if (gates.empty()) return Code::Success;
  // fmt.Sprintf("%v", []string): the names in brackets, separated by spaces.
  const std::string message = "waiting for scheduling gates: [" + joined(gates, " ") + "]";
  return Status{Code::UnschedulableAndUnresolvable, kName, {pool_.intern(message)}};
}

std::vector<ClusterEventWithHint> SchedulingGates::events_to_register() const {
  return {{{EventResource::Pod, action::kUpdatePodSchedulingGatesEliminated, "Pod"}, true}};
}

QueueingHint SchedulingGates::queueing_hint(const ClusterEvent&, const PodInfo& pod,
                                            const EventObjects& objects) const {
  return objects.pod == &pod ? QueueingHint::Queue : QueueingHint::QueueSkip;
}

}  // namespace gpusched::plugins
