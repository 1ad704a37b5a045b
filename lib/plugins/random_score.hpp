#pragma once
// RandomScore, the FGD artifact's random policy (hkust-adsl/kubernetes-scheduler-simulator
// pkg/simulator/plugin/random_score.go; ../shared/reference/fgd-artifact.md §3.1), drawing from
// the run's one seeded source.

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class RandomScore final : public PreScorePlugin, public ScorePlugin {
 public:
  static constexpr std::string_view kName = names::kRandomScore;
  explicit RandomScore(Handle& handle) : rng_(handle.rng) {}
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// Draws one of the feasible nodes (Intn over their number).
  [[nodiscard]] Code pre_score(CycleState& state, const PodInfo& pod,
                               std::span<const NodeInfo* const> nodes) override;
  /// 100 for the node drawn, 0 for the others.
  [[nodiscard]] std::int64_t score(const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node) const override;
  /// allocateGpuIdBasedOnRandomFit: for a share, a uniform draw among the GPUs that hold it
  /// (reservoir sampling, one draw per such GPU).
  [[nodiscard]] int choose_gpu(const PodInfo& pod, const NodeInfo& node);

 private:
  Rng& rng_;
};

}  // namespace gpusched::plugins
