#pragma once
// What the API server of the scenario's release serves of the Workload API (KEP-4671): Kubernetes
// 1.35 serves scheduling.k8s.io/v1alpha1 Workload and keeps pods' spec.workloadRef only with the
// GenericWorkload feature gate on; 1.36 serves scheduling.k8s.io/v1alpha2 Workload and PodGroup
// and keeps pods' spec.schedulingGroup only with it (KEP-5832); earlier releases have neither,
// and neither release has the other's shape.

#include <optional>
#include <string>

#include "gpusched/config/scheduler_config.hpp"
#include "gpusched/model/object.hpp"

namespace gpusched::sim {

/// Why the release cannot take `object` (a Workload or PodGroup it does not serve, a pod or pod
/// template with a spec.workloadRef or spec.schedulingGroup its pods do not have), or nullopt.
/// A field of the release with GenericWorkload off is no error: the API server drops it
/// (drop_disabled_pod_fields).
[[nodiscard]] std::optional<std::string> unserved_workload_api(const Object& object,
                                                               const SchedulerConfig& config);

}  // namespace gpusched::sim
