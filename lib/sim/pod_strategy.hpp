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

/// PrepareForCreate: dropDisabledPodFields clears the fields whose feature gate is off (by
/// default before 1.34: PodLevelResources' spec.resources, DynamicResourceAllocation's claims),
/// and applySchedulingGatedCondition gives a gated pod PodScheduled=False/SchedulingGated.
void prepare_pod_for_create(Pod& pod, const SchedulerConfig& config, TimeMs now);

/// validateOnlyDeletedSchedulingGates: an update may remove scheduling gates, never add one.
/// The API server's error (`Pod "name" is invalid: …`), or nullopt.
[[nodiscard]] std::optional<std::string> validate_pod_update(const Pod& old_pod, const Pod& pod);

}  // namespace gpusched::sim
