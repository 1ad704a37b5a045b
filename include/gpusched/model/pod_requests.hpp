#pragma once
/// What a pod asks of a node (k8s.io/component-helpers/resource/helpers.go PodRequests).

#include "gpusched/model/pod.hpp"
#include "gpusched/model/resource_list.hpp"

namespace gpusched {

/// The effective request: regular containers summed; init containers in order, a restartable
/// (sidecar) init container added to the sum and to the running sidecar total, a regular one
/// needing its own request plus the sidecars started before it; the max of the two per
/// resource; then spec.overhead added.
[[nodiscard]] ResourceList pod_requests(const PodSpec& spec);

/// Limits aggregated the same way (PodLimits), for reports.
[[nodiscard]] ResourceList pod_limits(const PodSpec& spec);

/// Applies SetDefaults_Pod's resource rule: a limit without a request sets the request, per
/// container and init container.
void default_requests_from_limits(PodSpec& spec);

}  // namespace gpusched
