#pragma once
// The API server's update rules for the controllers' objects the model reads: the fields an
// update may not change (pkg/apis/apps/validation and pkg/apis/batch/validation).

#include <optional>
#include <string>

#include "gpusched/model/workload.hpp"

namespace gpusched::sim {

/// ValidateDeploymentUpdate (apps/v1): spec.selector is immutable. The API server's error, or
/// nullopt.
[[nodiscard]] std::optional<std::string> validate_update(const Deployment& old_object,
                                                         const Deployment& object);
/// ValidateReplicaSetUpdate (apps/v1): spec.selector is immutable.
[[nodiscard]] std::optional<std::string> validate_update(const ReplicaSet& old_object,
                                                         const ReplicaSet& object);
/// ValidateDaemonSetUpdate: spec.selector is immutable.
[[nodiscard]] std::optional<std::string> validate_update(const DaemonSet& old_object,
                                                         const DaemonSet& object);
/// ValidateStatefulSetUpdate: only replicas, ordinals, template, updateStrategy,
/// revisionHistoryLimit, persistentVolumeClaimRetentionPolicy and minReadySeconds may change.
[[nodiscard]] std::optional<std::string> validate_update(const StatefulSet& old_object,
                                                         const StatefulSet& object);
/// ValidateJobSpecUpdate: spec.completions (of a NonIndexed Job) and spec.template are
/// immutable.
/// `started`: the Job has a status.startTime (it ran unsuspended at some point).
[[nodiscard]] std::optional<std::string> validate_update(const Job& old_object, const Job& object,
                                                         bool started);

}  // namespace gpusched::sim
