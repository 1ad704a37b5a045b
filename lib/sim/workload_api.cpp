#include "sim/workload_api.hpp"

#include <type_traits>

#include "gpusched/config/feature_gates.hpp"

namespace gpusched::sim {
namespace {

constexpr int kWorkloadApiMinor = 35;  // the release whose Workload API gpusched models

/// The pod spec an object carries: its own (Pod) or its template's.
const PodSpec* pod_spec_of(const Object& object) {
  return std::visit(
      [](const auto& o) -> const PodSpec* {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, Pod>) {
          return &o.spec;
        } else if constexpr (requires { o.template_.spec; }) {
          return &o.template_.spec;
        } else {
          return nullptr;
        }
      },
      object);
}

}  // namespace

std::optional<std::string> unserved_workload_api(const Object& object,
                                                 const SchedulerConfig& config) {
  const KubernetesVersion& version = config.kubernetes_version;
  const std::string release = "Kubernetes " + version.to_string();
  if (std::holds_alternative<SchedulingWorkload>(object)) {
    // kubectl's answer when the API server does not serve the kind (RESTMapper NoKindMatchError).
    const std::string no_match =
        R"(no matches for kind "Workload" in version "scheduling.k8s.io/v1alpha1")";
    if (version.minor < kWorkloadApiMinor)
      return no_match + " (" + release + " does not have the Workload API; 1.35 added it)";
    if (version.minor > kWorkloadApiMinor) {
      return no_match + " (gpusched models the Workload API of Kubernetes 1.35; " + release +
             "'s, with scheduling.k8s.io/v1alpha2 Workload and PodGroup objects and pods' "
             "spec.schedulingGroup, is not modelled yet)";
    }
    if (!config.feature_gates.enabled(FeatureGate::GenericWorkload, version))
      return no_match + " (" + release + " serves it only with the feature gate GenericWorkload)";
    return std::nullopt;
  }
  const PodSpec* spec = pod_spec_of(object);
  if (spec == nullptr || !spec->workload_ref || version.minor == kWorkloadApiMinor)
    return std::nullopt;
  if (version.minor < kWorkloadApiMinor) {
    return "spec.workloadRef: " + release +
           " has no such pod field (1.35 added it, with the feature gate GenericWorkload)";
  }
  return "spec.workloadRef: " + release +
         " has no such pod field (it names a pod's group with spec.schedulingGroup, which "
         "gpusched does not model yet)";
}

}  // namespace gpusched::sim
