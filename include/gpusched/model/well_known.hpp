#pragma once
/// Label and annotation names that several parts of gpusched read or write.

#include <string_view>

namespace gpusched::well_known {

/// GPU feature discovery's hardware labels: a node with both declares its GPUs
/// (scenario-format.md §3).
inline constexpr std::string_view kGpuProductLabel = "nvidia.com/gpu.product";
inline constexpr std::string_view kGpuCountLabel = "nvidia.com/gpu.count";
/// Each GPU's memory in MiB.
inline constexpr std::string_view kGpuMemoryLabel = "nvidia.com/gpu.memory";

/// The GPU Operator's MIG manager partitions a node's GPUs as this label names
/// (`all-disabled`, `all-1g.10gb`, ...).
inline constexpr std::string_view kMigConfigLabel = "nvidia.com/mig.config";

/// gpusched's annotation: the node's kubelet Topology Manager policy (scenario-format.md §3).
inline constexpr std::string_view kTopologyManagerPolicyAnnotation =
    "gpusched.io/topology-manager-policy";

/// v1.LabelHostname: the kubelet registers its node with its hostname in this label.
inline constexpr std::string_view kHostnameLabel = "kubernetes.io/hostname";

/// gpusched's label on the nodes of a node pool: the pool's name.
inline constexpr std::string_view kNodePoolLabel = "gpusched.io/node-pool";

/// gpusched's annotation: the pod's containers exit 0 this long after it starts.
inline constexpr std::string_view kRunDurationAnnotation = "gpusched.io/run-duration";

}  // namespace gpusched::well_known
