#pragma once
/// scheduling.k8s.io/v1alpha2 PodGroup (Kubernetes 1.36, GenericWorkload): a runtime instance of
/// pods grouped together, which pods join through spec.schedulingGroup.podGroupName and which
/// the scheduler schedules by its policy (KEP-4671 / KEP-5832;
/// staging/src/k8s.io/api/scheduling/v1alpha2/types.go, release-1.36).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/condition.hpp"
#include "gpusched/model/object_meta.hpp"

namespace gpusched {

/// spec.podGroupTemplateRef.workload: the Workload template the PodGroup was made from; the
/// scheduler does not read it.
struct PodGroupTemplateRef {
  std::string workload_name;
  std::string pod_group_template_name;
  friend bool operator==(const PodGroupTemplateRef&, const PodGroupTemplateRef&) = default;
};

struct PodGroup {
  ObjectMeta metadata;
  std::optional<PodGroupTemplateRef> template_ref;
  /// spec.schedulingPolicy.gang.minCount; nullopt for schedulingPolicy.basic. Immutable.
  std::optional<std::int32_t> gang_min_count;
  /// status.conditions: the scheduler's PodGroupScheduled (schedule_one_podgroup.go
  /// updatePodGroupCondition). Its spec is immutable, so its generation stays 1.
  std::vector<Condition> conditions;
  friend bool operator==(const PodGroup&, const PodGroup&) = default;
};

}  // namespace gpusched
