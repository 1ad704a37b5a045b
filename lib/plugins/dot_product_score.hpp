#pragma once
// DotProductScore, the FGD artifact's dot-product policy (hkust-adsl/kubernetes-scheduler-simulator
// pkg/simulator/plugin/dot_product_score.go; ../shared/reference/fgd-artifact.md §3.2).

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class DotProductScore final : public ScorePlugin {
 public:
  static constexpr std::string_view kName = names::kDotProductScore;
  explicit DotProductScore(Handle&) {}
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// 100 x (1 - the dot product of the node's free CPU and GPU milli with the pod's request, over
  /// 2), each over the largest node's (128 CPUs, 8 GPUs).
  [[nodiscard]] std::int64_t score(const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node) const override;
};

}  // namespace gpusched::plugins
