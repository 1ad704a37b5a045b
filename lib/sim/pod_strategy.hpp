#pragma once
// What the API server does to a pod on create and update beyond validating its fields
// (pkg/registry/core/pod/strategy.go, pkg/api/pod/util.go, and ValidatePodUpdate's rules in
// pkg/apis/core/validation/validation.go).

#include <optional>
#include <string>

#include "gpusched/config/scheduler_config.hpp"
#include "gpusched/model/pod.hpp"
#include "gpusched/model/time.hpp"

namespace gpusched::sim {

/// The PodScheduled condition's message on a pod created with scheduling gates.
inline constexpr std::string_view kSchedulingGatedMessage =
    "Scheduling is blocked due to non-empty scheduling gates";

/// dropDisabledPodFields, on create and update: clears the fields whose feature gate is off (by
/// default before 1.34: PodLevelResources' spec.resources, DynamicResourceAllocation's claims).
void drop_disabled_pod_fields(Pod& pod, const SchedulerConfig& config);

/// PrepareForCreate: drop_disabled_pod_fields, and applySchedulingGatedCondition gives a gated
/// pod PodScheduled=False/SchedulingGated.
void prepare_pod_for_create(Pod& pod, const SchedulerConfig& config, TimeMs now);

/// What an update keeps of the stored pod when the new manifest leaves a field out, as `kubectl
/// apply` keeps the fields it never set: spec.nodeName (the binding), and what the Priority
/// admission plugin filled in (its Update branch keeps spec.priority and
/// spec.preemptionPolicy; an empty priorityClassName is read as not given).
void keep_server_set_fields(const Pod& old_pod, Pod& pod);

/// ValidatePodUpdate (pkg/apis/core/validation/validation.go): a pod's spec is immutable but for
/// what upstream lists (container images, activeDeadlineSeconds, added tolerations, removed
/// scheduling gates, terminationGracePeriodSeconds from negative to 1, and a gated pod's added
/// nodeSelector entries and narrowed required node affinity). Resources change only through the
/// resize subresource, which no scenario action reaches. The API server's error (`Pod "name" is
/// invalid: …`, several joined as `[a, b]`), or nullopt.
[[nodiscard]] std::optional<std::string> validate_pod_update(const Pod& old_pod, const Pod& pod);

}  // namespace gpusched::sim
