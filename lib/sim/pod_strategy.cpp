#include "sim/pod_strategy.hpp"

#include <algorithm>

namespace gpusched::sim {

void prepare_pod_for_create(Pod& pod, const SchedulerConfig& config, TimeMs now) {
  // dropDisabledPodLevelResourcesFields and dropDisabledDynamicResourceAllocationFields.
  const KubernetesVersion& version = config.kubernetes_version;
  if (!config.feature_gates.enabled(FeatureGate::PodLevelResources, version))
    pod.spec.resources.reset();
  if (!config.feature_gates.enabled(FeatureGate::DynamicResourceAllocation, version))
    pod.spec.resource_claims.clear();
  // applySchedulingGatedCondition: only when the pod has no PodScheduled condition yet.
  if (pod.spec.scheduling_gates.empty() || pod.status.condition("PodScheduled") != nullptr) return;
  pod.status.conditions.push_back(PodCondition{"PodScheduled", "False", "SchedulingGated",
                                               std::string(kSchedulingGatedMessage), now});
}

std::optional<std::string> validate_pod_update(const Pod& old_pod, const Pod& pod) {
  const std::vector<std::string>& before = old_pod.spec.scheduling_gates;
  const std::vector<std::string>& after = pod.spec.scheduling_gates;
  for (std::size_t i = 0; i < after.size(); ++i) {
    if (std::find(before.begin(), before.end(), after[i]) != before.end()) continue;
    // Upstream lists every added gate in map order; the first in list order is named here.
    return "Pod \"" + pod.metadata.name + "\" is invalid: spec.schedulingGates[" +
           std::to_string(i) +
           "].name: Forbidden: only deletion is allowed, but found new scheduling gate '" +
           after[i] + "'";
  }
  return std::nullopt;
}

}  // namespace gpusched::sim
