#pragma once
// The disruption controller's status computation for one PodDisruptionBudget
// (pkg/controller/disruption/disruption.go trySync: getPodsForPdb, getExpectedPodCount,
// countHealthyPods, updatePdbStatus) as a pure function.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/object_meta.hpp"
#include "gpusched/model/pod.hpp"
#include "gpusched/model/policy.hpp"

namespace gpusched {

/// The counts of policy/v1 PodDisruptionBudgetStatus.
struct PdbStatus {
  std::int32_t expected_pods = 0;        ///< status.expectedPods
  std::int32_t current_healthy = 0;      ///< status.currentHealthy
  std::int32_t desired_healthy = 0;      ///< status.desiredHealthy
  std::int32_t disruptions_allowed = 0;  ///< status.disruptionsAllowed
  /// Non-empty when the controller's sync fails (failSafe): the error it records in the
  /// DisruptionAllowed condition; disruptions_allowed is then 0.
  std::string sync_error;
  friend bool operator==(const PdbStatus&, const PdbStatus&) = default;
};

/// The scale (desired replicas) of the controller a pod's controller reference names, in the
/// pod's namespace, as the controller's finders resolve it (a ReplicaSet owned by a Deployment
/// reports the Deployment's replicas; ReplicationController, StatefulSet and anything with a
/// scale subresource their own), or nullopt when no finder knows it (a Job has no scale).
using ControllerScale = std::function<std::optional<std::int32_t>(const OwnerReference& controller,
                                                                  std::string_view namespace_)>;

/// intstr.GetScaledValueFromIntOrPercent(value, total, roundUp=true): a count as is, a
/// percentage of `total` rounded up.
[[nodiscard]] std::int32_t scaled_value(const IntOrPercent& value, std::int32_t total) noexcept;

/// Running and ready (the StatefulSet controller's isRunningAndReady; apipod.IsPodReady). gpusched
/// has no readiness probes: a Running pod is ready unless it carries a `Ready` condition whose
/// status is not "True".
[[nodiscard]] bool running_and_ready(const Pod& pod) noexcept;

/// countHealthyPods for one pod: not being deleted, running and ready.
[[nodiscard]] bool counts_as_healthy(const Pod& pod) noexcept;

/// The status the disruption controller computes for `pdb`. `pods_in_namespace` are the pods
/// of the budget's namespace (others are ignored); those the selector matches count, whatever
/// their phase (policy/v1: no selector selects none, an empty one all).
///
/// expectedPods and desiredHealthy follow getExpectedPodCount: minAvailable as a count takes
/// the number of selected pods; minAvailable as a percentage and maxUnavailable take the sum of
/// the scales of the selected pods' controllers (getExpectedScale), where pods without a
/// controller count nothing. Given `controller_scale`, that is what gpusched computes (a
/// controller it does not know fails the sync, as "found no controllers for pod"). Without it,
/// gpusched has no controllers' scales and takes the number of selected pods instead, which
/// equals upstream's figure whenever every selected pod belongs to a controller whose pods all
/// exist and are selected.
/// disruptionsAllowed = currentHealthy - desiredHealthy, and 0 when negative or when
/// expectedPods is 0 (updatePdbStatus).
[[nodiscard]] PdbStatus pdb_status(const PodDisruptionBudget& pdb,
                                   const std::vector<const Pod*>& pods_in_namespace,
                                   const ControllerScale& controller_scale = {});

}  // namespace gpusched
