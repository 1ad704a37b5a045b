#pragma once
// BestFitScore, the FGD artifact's best-fit policy (hkust-adsl/kubernetes-scheduler-simulator
// pkg/simulator/plugin/best_fit_score.go; ../shared/reference/fgd-artifact.md §3.5).

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class BestFitScore final : public ScorePlugin {
 public:
  static constexpr std::string_view kName = names::kBestFitScore;
  explicit BestFitScore(Handle&) {}
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// 100 x (1 - the mean of the free CPU and GPU milli left after the pod, each over the largest
  /// node's).
  [[nodiscard]] std::int64_t score(const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node) const override;
  /// Min-max over the feasible nodes, all 0 when they are equal.
  void normalize(const CycleState& state, const PodInfo& pod,
                 std::span<std::int64_t> scores) const override;
};

}  // namespace gpusched::plugins
