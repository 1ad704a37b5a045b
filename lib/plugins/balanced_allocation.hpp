#pragma once
// NodeResourcesBalancedAllocation
// (pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go).

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"
#include "plugins/resource_allocation.hpp"

namespace gpusched::plugins {

class BalancedAllocation final : public PreScorePlugin, public ScorePlugin {
 public:
  static constexpr std::string_view kName = names::kNodeResourcesBalancedAllocation;
  BalancedAllocation(Handle& handle, const BalancedAllocationArgs& args);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// Skip for best-effort pods (none of the resources requested; PR #130260, 1.33).
  [[nodiscard]] Code pre_score(CycleState& state, const PodInfo& pod,
                               std::span<const NodeInfo* const> nodes) override;
  /// (1 - standard deviation of the requested fractions) * 100, truncated.
  [[nodiscard]] std::int64_t score(const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node) const override;
  /// The pod's requests from PreScore, then the strategy for every node.
  void score_nodes(const CycleState& state, const PodInfo& pod,
                   std::span<const NodeInfo* const> nodes,
                   std::span<std::int64_t> scores) const override;

 private:
  ResourceAllocationScorer scorer_;
};

}  // namespace gpusched::plugins
