#pragma once
/// Any Kubernetes object gpusched models, and references to one.

#include <string>
#include <string_view>
#include <variant>

#include "gpusched/model/dra.hpp"
#include "gpusched/model/kueue.hpp"
#include "gpusched/model/node.hpp"
#include "gpusched/model/pod.hpp"
#include "gpusched/model/pod_group.hpp"
#include "gpusched/model/policy.hpp"
#include "gpusched/model/scheduling_workload.hpp"
#include "gpusched/model/workload.hpp"

namespace gpusched {

/// core/v1 Namespace: cluster-scoped; only its labels matter (pod affinity namespaceSelector).
/// The API server labels every namespace kubernetes.io/metadata.name=<name>.
struct Namespace {
  ObjectMeta metadata;
  friend bool operator==(const Namespace&, const Namespace&) = default;
};

/// core/v1 Service: only its selector matters to scheduling. The Services selecting a pod give
/// PodTopologySpread's default constraints their selector (helper.DefaultSelector).
struct Service {
  ObjectMeta metadata;
  /// spec.selector. Empty selects no pod: a Service without one (or with `{}`, which the API
  /// server stores as none) "matches nothing, not everything" (helper.GetPodServices).
  Labels selector;
  friend bool operator==(const Service&, const Service&) = default;
};

/// The label the API server sets on every namespace (v1.LabelMetadataName).
inline constexpr std::string_view kLabelMetadataName = "kubernetes.io/metadata.name";

using Object = std::variant<
    Node, Pod, Deployment, ReplicaSet, DaemonSet, StatefulSet, Job, PriorityClass,
    PodDisruptionBudget, Namespace, Service, kueue::ResourceFlavor, kueue::ClusterQueue,
    kueue::LocalQueue, kueue::Cohort, kueue::WorkloadPriorityClass, kueue::AdmissionCheck,
    kueue::ProvisioningRequestConfig, kueue::Workload, SchedulingWorkload, PodGroup,
    dra::DeviceClass, dra::ResourceSlice, dra::ResourceClaim, dra::ResourceClaimTemplate>;

/// kind / namespace / name of an object.
struct ObjectRef {
  std::string kind;
  std::string namespace_;  ///< empty for cluster-scoped kinds (Node, PriorityClass, Namespace,
                           ///< Kueue's ResourceFlavor, ClusterQueue, Cohort, ...)
  std::string name;
  friend auto operator<=>(const ObjectRef&, const ObjectRef&) = default;
  /// "Pod/default/x" or "Node/w1".
  [[nodiscard]] std::string to_string() const;
};

[[nodiscard]] const ObjectMeta& meta_of(const Object& object) noexcept;
[[nodiscard]] ObjectMeta& meta_of(Object& object) noexcept;
[[nodiscard]] std::string_view kind_of(const Object& object) noexcept;
[[nodiscard]] ObjectRef ref_of(const Object& object);
/// Whether objects of this kind live in a namespace.
[[nodiscard]] bool is_namespaced(std::string_view kind) noexcept;

}  // namespace gpusched
