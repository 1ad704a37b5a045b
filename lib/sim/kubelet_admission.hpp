#pragma once
// The kubelet's predicate admission of a pod bound to its node (pkg/kubelet/lifecycle/
// predicate.go predicateAdmitHandler.Admit, after the device manager's allocation): what the
// scheduler's Filter would have checked, for pods that reached the node without it (spec.nodeName
// set by hand or by another controller) or that a stale view let through.

#include <optional>
#include <string>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/pod_info.hpp"

namespace gpusched::sim {

/// Why the kubelet refuses a pod: the pod's status.reason and status.message.
struct Rejection {
  std::string reason;   ///< "OutOfcpu", "OutOfnvidia.com/gpu", "NodeAffinity", ...
  std::string message;  ///< "Node didn't have enough resource: cpu, requested: ..."
};

/// Whether the kubelet checks a request of resource `id` against the node: not for an extended
/// resource the node does not advertise at all (removeMissingExtendedResources: cluster-level
/// resources), nor for names that are neither cpu, memory, ephemeral-storage nor scalar.
[[nodiscard]] bool kubelet_checks(const NodeInfo& node, const ResourceRegistry& registry, ResId id);

/// generalFilter on the node as its other pods hold it (`pod`, which holds `node` already, left
/// out): scheduler.AdmissionCheck (NodeResourcesFit's Fits, required node affinity,
/// NodePorts), then untolerated NoExecute taints. The first failure, or nullopt when it fits.
/// With `dra_extended_resource` (DRAExtendedResource, 1.36: PR #135725) the requests DRA
/// devices serve on the node are left out, as the scheduler leaves them to DynamicResources.
[[nodiscard]] std::optional<Rejection> predicate_admission(const PodInfo& pod, const NodeInfo& node,
                                                           const ClusterState& cluster,
                                                           bool dra_extended_resource);

}  // namespace gpusched::sim
