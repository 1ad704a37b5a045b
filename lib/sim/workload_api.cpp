#include "sim/workload_api.hpp"

#include <type_traits>

#include "gpusched/config/feature_gates.hpp"

namespace gpusched::sim {
namespace {

constexpr int kWorkloadApiMinor = 35;  // scheduling.k8s.io/v1alpha1 Workload, spec.workloadRef
constexpr int kPodGroupApiMinor = 36;  // scheduling.k8s.io/v1alpha2, spec.schedulingGroup

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

/// kubectl's answer when the API server does not serve the kind (RESTMapper NoKindMatchError).
std::string no_match(std::string_view kind, std::string_view api_version) {
  return "no matches for kind \"" + std::string(kind) + "\" in version \"" +
         std::string(api_version) + "\"";
}

/// A 1.36 object (v1alpha2 Workload, PodGroup): served from 1.36 with GenericWorkload on.
std::optional<std::string> unserved_v1alpha2(std::string_view kind, const SchedulerConfig& config,
                                             const std::string& release) {
  const KubernetesVersion& version = config.kubernetes_version;
  const std::string error = no_match(kind, "scheduling.k8s.io/v1alpha2");
  if (version.minor < kPodGroupApiMinor) {
    return error + " (" + release +
           " does not have it: 1.36 added scheduling.k8s.io/v1alpha2 Workload and PodGroup" +
           (version.minor == kWorkloadApiMinor ? "; 1.35 serves scheduling.k8s.io/v1alpha1 "
                                                 "Workload, which pods join with spec.workloadRef"
                                               : "") +
           ")";
  }
  if (!config.feature_gates.enabled(FeatureGate::GenericWorkload, version))
    return error + " (" + release + " serves it only with the feature gate GenericWorkload)";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> unserved_workload_api(const Object& object,
                                                 const SchedulerConfig& config) {
  const KubernetesVersion& version = config.kubernetes_version;
  const std::string release = "Kubernetes " + version.to_string();
  if (const auto* workload = std::get_if<SchedulingWorkload>(&object)) {
    if (workload->v1alpha2) return unserved_v1alpha2("Workload", config, release);
    const std::string error = no_match("Workload", "scheduling.k8s.io/v1alpha1");
    if (version.minor < kWorkloadApiMinor)
      return error + " (" + release + " does not have the Workload API; 1.35 added it)";
    if (version.minor > kWorkloadApiMinor) {
      return error + " (" + release +
             " serves the Workload API as scheduling.k8s.io/v1alpha2, with spec.podGroupTemplates "
             "and PodGroup objects; v1alpha1 is 1.35's)";
    }
    if (!config.feature_gates.enabled(FeatureGate::GenericWorkload, version))
      return error + " (" + release + " serves it only with the feature gate GenericWorkload)";
    return std::nullopt;
  }
  if (std::holds_alternative<PodGroup>(object))
    return unserved_v1alpha2("PodGroup", config, release);
  const PodSpec* spec = pod_spec_of(object);
  if (spec == nullptr) return std::nullopt;
  if (spec->workload_ref && version.minor < kWorkloadApiMinor) {
    return "spec.workloadRef: " + release +
           " has no such pod field (1.35 added it, with the feature gate GenericWorkload)";
  }
  if (spec->workload_ref && version.minor > kWorkloadApiMinor) {
    return "spec.workloadRef: " + release +
           " has no such pod field (1.36 names a pod's PodGroup with "
           "spec.schedulingGroup.podGroupName)";
  }
  if (spec->scheduling_group && version.minor < kPodGroupApiMinor) {
    return "spec.schedulingGroup: " + release +
           " has no such pod field (1.36 added it, with the feature gate GenericWorkload" +
           (version.minor == kWorkloadApiMinor ? "; 1.35 names a pod's group with spec.workloadRef"
                                               : "") +
           ")";
  }
  return std::nullopt;
}

}  // namespace gpusched::sim
