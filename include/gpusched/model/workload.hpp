#pragma once
/// Controllers' objects: Deployment, ReplicaSet, DaemonSet, Job (apps/v1, batch/v1).

#include <cstdint>
#include <optional>

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

struct Job {
  ObjectMeta metadata;
  std::int32_t parallelism = 1;
  std::optional<std::int32_t> completions;  ///< nullopt: done when any pod succeeds
  std::int32_t backoff_limit = 6;  ///< spec.backoffLimit: failed pods tolerated before the Job fails
  PodTemplateSpec template_;
  friend bool operator==(const Job&, const Job&) = default;
};

}  // namespace gpusched
