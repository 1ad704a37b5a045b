#pragma once
// What the DaemonSet controller writes into its pods
// (pkg/controller/daemon/util/daemonset_util.go).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpusched/model/pod.hpp"
#include "gpusched/model/workload.hpp"

namespace gpusched::sim {

/// apps.DefaultDaemonSetUniqueLabelKey: the ControllerRevision hash of the pod's template.
inline constexpr std::string_view kControllerRevisionHashLabel = "controller-revision-hash";
/// extensions.DaemonSetTemplateGenerationKey: the DaemonSet's template generation.
inline constexpr std::string_view kPodTemplateGenerationLabel = "pod-template-generation";

/// AddOrUpdateDaemonPodTolerations: tolerations without tolerationSeconds for the
/// node.kubernetes.io taints not-ready and unreachable (NoExecute), and disk-pressure,
/// memory-pressure, pid-pressure and unschedulable (NoSchedule). Upstream adds network-unavailable
/// only to hostNetwork pods, which gpusched does not model. A toleration with the same key,
/// operator, value and effect is replaced in place; others are appended in this order.
void add_or_update_daemon_pod_tolerations(PodSpec& spec);

/// CreatePodTemplate: the template with the daemon tolerations and the labels
/// pod-template-generation and controller-revision-hash.
[[nodiscard]] PodTemplateSpec create_pod_template(const PodTemplateSpec& tmpl,
                                                  std::int64_t generation, const std::string& hash);

/// ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes exactly one term,
/// matchFields metadata.name In [node]; every other required term (and nothing else) is dropped.
void replace_daemon_set_pod_node_name_node_affinity(Affinity& affinity, const std::string& node);

/// GetTargetNodeName: spec.nodeName, or else the value of the first required term's
/// matchFields metadata.name In with one value; nullopt when the pod names no node.
[[nodiscard]] std::optional<std::string> target_node_name(const Pod& pod);

}  // namespace gpusched::sim
