#pragma once
// GpuClusteringScore, the FGD artifact's GPU-clustering policy
// (hkust-adsl/kubernetes-scheduler-simulator pkg/simulator/plugin/gpu_clustering_score.go;
// ../shared/reference/fgd-artifact.md §3.3).

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class GpuClusteringScore final : public ScorePlugin {
 public:
  static constexpr std::string_view kName = names::kGpuClusteringScore;
  explicit GpuClusteringScore(Handle&) {}
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// GPU pods go to nodes holding GPU pods of their kind (a share, or n whole GPUs); CPU pods score
  /// 0.
  [[nodiscard]] std::int64_t score(const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node) const override;
};

}  // namespace gpusched::plugins
