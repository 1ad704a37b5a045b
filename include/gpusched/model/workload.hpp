#pragma once
/// Controllers' objects: Deployment, ReplicaSet, DaemonSet, StatefulSet, Job (apps/v1, batch/v1).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/object_meta.hpp"
#include "gpusched/model/pod.hpp"
#include "gpusched/model/selector.hpp"

namespace gpusched {

struct PodTemplateSpec {
  ObjectMeta metadata;  ///< labels and annotations copied onto each pod
  PodSpec spec;
  friend bool operator==(const PodTemplateSpec&, const PodTemplateSpec&) = default;
};

struct Deployment {
  ObjectMeta metadata;
  std::int32_t replicas = 1;
  LabelSelector selector;  ///< defaults to the template labels
  PodTemplateSpec template_;
  friend bool operator==(const Deployment&, const Deployment&) = default;
};

struct ReplicaSet {
  ObjectMeta metadata;
  std::int32_t replicas = 1;
  LabelSelector selector;
  PodTemplateSpec template_;
  friend bool operator==(const ReplicaSet&, const ReplicaSet&) = default;
};

/// apps/v1 DaemonSet: one pod per node that the template's node selector, required node
/// affinity and tolerations admit (pkg/controller/daemon).
struct DaemonSet {
  ObjectMeta metadata;
  LabelSelector selector;  ///< required, non-empty, and matching the template labels
  PodTemplateSpec template_;
  friend bool operator==(const DaemonSet&, const DaemonSet&) = default;
};

/// apps/v1 StatefulSet: pods `<name>-<ordinal>` for the ordinals spec.ordinals.start to start +
/// replicas - 1, created in order and each waiting for its predecessors to run (OrderedReady) or
/// all at once (Parallel), as pkg/controller/statefulset does.
struct StatefulSet {
  ObjectMeta metadata;
  std::int32_t replicas = 1;
  LabelSelector selector;  ///< required, non-empty, and matching the template labels
  PodTemplateSpec template_;
  /// spec.podManagementPolicy: "OrderedReady" (the default) or "Parallel".
  std::string pod_management_policy = "OrderedReady";
  std::int32_t ordinals_start = 0;     ///< spec.ordinals.start
  std::int32_t min_ready_seconds = 0;  ///< spec.minReadySeconds
  /// The names of spec.volumeClaimTemplates: the claims are not modelled (volume binding is not),
  /// only kept so that the object is written back as it was read.
  std::vector<std::string> volume_claim_templates;
  friend bool operator==(const StatefulSet&, const StatefulSet&) = default;
};

struct Job {
  ObjectMeta metadata;
  std::int32_t parallelism = 1;
  std::optional<std::int32_t> completions;  ///< nullopt: done when any pod succeeds
  std::int32_t backoff_limit =
      6;  ///< spec.backoffLimit: failed pods tolerated before the Job fails
  /// spec.suspend: a suspended Job has no active pods (Kueue creates its Jobs suspended and
  /// resumes them on admission).
  bool suspend = false;
  PodTemplateSpec template_;
  friend bool operator==(const Job&, const Job&) = default;
};

}  // namespace gpusched
