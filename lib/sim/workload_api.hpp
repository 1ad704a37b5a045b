#pragma once
// What the API server of the scenario's release serves of the Workload API (KEP-4671): Kubernetes
// 1.35 serves scheduling.k8s.io/v1alpha1 Workload and keeps pods' spec.workloadRef only with the
// GenericWorkload feature gate on; earlier releases have neither. 1.36 changed the API's shape
// (scheduling.k8s.io/v1alpha2 Workload and PodGroup, pod spec.schedulingGroup), which gpusched
// does not model yet: it refuses 1.35's shape there rather than guess.

#include <optional>
#include <string>

#include "gpusched/config/scheduler_config.hpp"
#include "gpusched/model/object.hpp"

namespace gpusched::sim {

/// Why the release cannot take `object` (a Workload it does not serve, a pod or pod template
/// with a spec.workloadRef its pods do not have), or nullopt. A workloadRef on 1.35 with
/// GenericWorkload off is no error: the API server drops it (drop_disabled_pod_fields).
[[nodiscard]] std::optional<std::string> unserved_workload_api(const Object& object,
                                                               const SchedulerConfig& config);

}  // namespace gpusched::sim
