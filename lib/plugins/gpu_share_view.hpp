#pragma once
// The FGD artifact's view of a node and a pod (utils.GetNodeResourceViaNodeInfo,
// utils.GetPodResource) over NodeInfo and PodInfo, for Open-Gpu-Share and the score plugins.

#include <algorithm>

#include "gpusched/framework/node_info.hpp"
#include "gpusched/framework/pod_info.hpp"
#include "model/gpu_share_policy.hpp"

namespace gpusched::plugins {

/// CPU left (allocatable less the pods' requests), free milli per GPU, the GPU model.
[[nodiscard]] inline gpu_share::NodeView share_view(const NodeInfo& node) noexcept {
  return {node.allocatable[res::kCpu] - node.requested[res::kCpu], node.gpu_free, node.gpu_model};
}

/// The non-zero CPU request and the GPU-sharing annotations.
[[nodiscard]] inline gpu_share::Shape share_shape(const PodInfo& pod) noexcept {
  const GpuShareRequest& share = pod.gpu_share->request;
  return {pod.nonzero_cpu, share.gpu_milli, share.gpu_count, share.gpu_type};
}

/// A score within [0, MaxNodeScore]. The artifact's scores leave it on nodes beyond the largest
/// it models (128 CPUs, 8 GPUs), where its framework fails the cycle with "invalid score";
/// gpusched keeps the nearest bound (docs/fragmentation.md).
[[nodiscard]] inline std::int64_t bounded_score(std::int64_t score) noexcept {
  return std::clamp<std::int64_t>(score, 0, gpu_share::kMaxNodeScore);
}

}  // namespace gpusched::plugins
