#pragma once
// GpuPackingScore, the FGD artifact's GPU-packing policy (hkust-adsl/kubernetes-scheduler-simulator
// pkg/simulator/plugin/gpu_packing_score.go; ../shared/reference/fgd-artifact.md §3.4).

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class GpuPackingScore final : public ScorePlugin {
 public:
  static constexpr std::string_view kName = names::kGpuPackingScore;
  explicit GpuPackingScore(Handle&) {}
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// GPU pods go first to partly used GPUs, then to nodes with GPUs in use, then to idle nodes; CPU
  /// pods score 0.
  [[nodiscard]] std::int64_t score(const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node) const override;
};

}  // namespace gpusched::plugins
