#pragma once
/// scheduling.k8s.io/v1alpha1 Workload (Kubernetes 1.35, GenericWorkload): the pod groups a
/// workload's pods join through spec.workloadRef, each scheduled by its policy (the Workload
/// API, KEP-4671; staging/src/k8s.io/api/scheduling/v1alpha1/types.go). Kubernetes 1.36's
/// scheduling.k8s.io/v1alpha2 Workload has the same shape under another name: its
/// spec.podGroupTemplates, from which PodGroup objects are made (v1alpha2/types.go).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/object_meta.hpp"

namespace gpusched {

/// A WorkloadSpec.podGroups entry (v1alpha1) or podGroupTemplates entry (v1alpha2): its name and
/// policy (v1alpha2: schedulingPolicy), `basic: {}` (nullopt) or `gang: {minCount}`.
struct WorkloadPodGroup {
  std::string name;
  /// policy.gang.minCount; nullopt for policy.basic.
  std::optional<std::int32_t> gang_min_count;
  friend bool operator==(const WorkloadPodGroup&, const WorkloadPodGroup&) = default;
};

/// spec.controllerRef (TypedLocalObjectReference): the object the Workload stands for; the
/// scheduler does not read it.
struct WorkloadControllerRef {
  std::string api_group;
  std::string kind;
  std::string name;
  friend bool operator==(const WorkloadControllerRef&, const WorkloadControllerRef&) = default;
};

/// The C++ name says which Workload: Kueue has a kind of the same name (kueue.x-k8s.io).
struct SchedulingWorkload {
  ObjectMeta metadata;
  std::optional<WorkloadControllerRef> controller_ref;
  std::vector<WorkloadPodGroup> pod_groups;
  /// scheduling.k8s.io/v1alpha2 (1.36): pod_groups are spec.podGroupTemplates.
  bool v1alpha2 = false;
  friend bool operator==(const SchedulingWorkload&, const SchedulingWorkload&) = default;

  /// The pod group named `name`, or nullptr (gangscheduling.go podGroupPolicy).
  [[nodiscard]] const WorkloadPodGroup* pod_group(std::string_view name) const noexcept {
    for (const WorkloadPodGroup& group : pod_groups) {
      if (group.name == name) return &group;
    }
    return nullptr;
  }
};

}  // namespace gpusched
