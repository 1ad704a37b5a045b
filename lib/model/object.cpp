// Kind names and scope as the API server registers them; references print like kubectl's
// "kind/namespace/name" keys.
#include "gpusched/model/object.hpp"

#include <initializer_list>
#include <type_traits>

namespace gpusched {

std::string ObjectRef::to_string() const {
  std::string out = kind;
  out += '/';
  if (!namespace_.empty()) {
    out += namespace_;
    out += '/';
  }
  out += name;
  return out;
}

const ObjectMeta& meta_of(const Object& object) noexcept {
  return std::visit([](const auto& o) -> const ObjectMeta& { return o.metadata; }, object);
}

ObjectMeta& meta_of(Object& object) noexcept {
  return std::visit([](auto& o) -> ObjectMeta& { return o.metadata; }, object);
}

std::string_view kind_of(const Object& object) noexcept {
  return std::visit(
      [](const auto& o) -> std::string_view {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, Node>) {
          return "Node";
        } else if constexpr (std::is_same_v<T, Pod>) {
          return "Pod";
        } else if constexpr (std::is_same_v<T, Deployment>) {
          return "Deployment";
        } else if constexpr (std::is_same_v<T, ReplicaSet>) {
          return "ReplicaSet";
        } else if constexpr (std::is_same_v<T, DaemonSet>) {
          return "DaemonSet";
        } else if constexpr (std::is_same_v<T, StatefulSet>) {
          return "StatefulSet";
        } else if constexpr (std::is_same_v<T, Job>) {
          return "Job";
        } else if constexpr (std::is_same_v<T, PriorityClass>) {
          return "PriorityClass";
        } else if constexpr (std::is_same_v<T, PodDisruptionBudget>) {
          return "PodDisruptionBudget";
        } else if constexpr (std::is_same_v<T, Service>) {
          return "Service";
        } else if constexpr (std::is_same_v<T, kueue::ResourceFlavor>) {
          return "ResourceFlavor";
        } else if constexpr (std::is_same_v<T, kueue::ClusterQueue>) {
          return "ClusterQueue";
        } else if constexpr (std::is_same_v<T, kueue::LocalQueue>) {
          return "LocalQueue";
        } else if constexpr (std::is_same_v<T, kueue::Cohort>) {
          return "Cohort";
        } else if constexpr (std::is_same_v<T, kueue::WorkloadPriorityClass>) {
          return "WorkloadPriorityClass";
        } else if constexpr (std::is_same_v<T, kueue::AdmissionCheck>) {
          return "AdmissionCheck";
        } else if constexpr (std::is_same_v<T, kueue::ProvisioningRequestConfig>) {
          return "ProvisioningRequestConfig";
        } else if constexpr (std::is_same_v<T, kueue::Workload> ||
                             std::is_same_v<T, SchedulingWorkload>) {
          return "Workload";
        } else if constexpr (std::is_same_v<T, PodGroup>) {
          return "PodGroup";
        } else if constexpr (std::is_same_v<T, dra::DeviceClass>) {
          return "DeviceClass";
        } else if constexpr (std::is_same_v<T, dra::ResourceSlice>) {
          return "ResourceSlice";
        } else if constexpr (std::is_same_v<T, dra::ResourceClaim>) {
          return "ResourceClaim";
        } else if constexpr (std::is_same_v<T, dra::ResourceClaimTemplate>) {
          return "ResourceClaimTemplate";
        } else {
          static_assert(std::is_same_v<T, Namespace>, "every Object alternative needs a kind");
          return "Namespace";
        }
      },
      object);
}

ObjectRef ref_of(const Object& object) {
  const std::string_view kind = kind_of(object);
  const ObjectMeta& meta = meta_of(object);
  return ObjectRef{std::string(kind), is_namespaced(kind) ? meta.namespace_.get() : std::string(),
                   meta.name};
}

bool is_namespaced(std::string_view kind) noexcept {
  // Of the kinds gpusched models only Node, Namespace and PriorityClass (scheduling.k8s.io/v1)
  // are cluster-scoped, Kueue's (the CRDs' scope: Cluster) but LocalQueue and Workload, and
  // resource.k8s.io's DeviceClass and ResourceSlice.
  for (std::string_view cluster_scoped :
       {"Node", "PriorityClass", "Namespace", "ResourceFlavor", "ClusterQueue", "Cohort",
        "WorkloadPriorityClass", "AdmissionCheck", "ProvisioningRequestConfig", "DeviceClass",
        "ResourceSlice"}) {
    if (kind == cluster_scoped) return false;
  }
  return true;
}

}  // namespace gpusched
