#pragma once
// GpuPacking: a Score plugin that packs GPU pods onto the nodes with the fewest GPUs left, so
// that whole nodes stay free for pods that need many GPUs, and keeps pods without GPUs off GPU
// nodes. kube-scheduler's NodeResourcesFit scores cpu and memory only by default, so without it
// a GPU pod goes to the emptiest node and scatters the free GPUs.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <gpusched/framework/cluster_state.hpp>
#include <gpusched/framework/framework.hpp>
#include <gpusched/framework/plugin.hpp>

class GpuPacking final : public gpusched::ScorePlugin {
 public:
  static constexpr std::string_view kName = "GpuPacking";

  explicit GpuPacking(gpusched::Handle& handle) : cluster_(handle.cluster) {}

  [[nodiscard]] std::string_view name() const noexcept override { return kName; }

  /// 0..100: 100 for a node the pod fills to its last GPU, less the more GPUs it would leave
  /// free. A pod without GPUs scores 100 on a node without GPUs and 0 on a GPU node.
  [[nodiscard]] std::int64_t score(const gpusched::CycleState& /*state*/,
                                   const gpusched::PodInfo& pod,
                                   const gpusched::NodeInfo& node) const override {
    const std::optional<gpusched::ResId> gpu = cluster_.resources().find(kGpu);
    const std::int64_t allocatable = gpu ? node.allocatable[*gpu] : 0;
    const std::int64_t wanted = gpu ? pod.request(*gpu) : 0;
    if (allocatable == 0) return wanted == 0 ? kMaxScore : 0;
    if (wanted == 0) return 0;
    // Filter has passed: the pod fits, so what is left is between 0 and allocatable.
    const std::int64_t left = allocatable - node.requested[*gpu] - wanted;
    return kMaxScore - kMaxScore * left / allocatable;
  }

 private:
  static constexpr std::int64_t kMaxScore = 100;  // framework.MaxNodeScore
  inline static const std::string kGpu = "nvidia.com/gpu";
  const gpusched::ClusterState& cluster_;
};
