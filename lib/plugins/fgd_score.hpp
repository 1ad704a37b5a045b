#pragma once
// FGDScore, the FGD artifact's fragmentation gradient descent (hkust-adsl/
// kubernetes-scheduler-simulator pkg/simulator/plugin/fgd_score.go, pkg/utils/frag.go;
// ../shared/reference/fgd-artifact.md §3.6).

#include <cstdint>
#include <vector>

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"
#include "model/gpu_share_policy.hpp"

namespace gpusched::plugins {

class FgdScore final : public ScorePlugin {
 public:
  static constexpr std::string_view kName = names::kFgdScore;
  explicit FgdScore(Handle& handle) : cluster_(handle.cluster) {}
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// sigmoid(the drop in the node's fragmentation the pod makes / 1000) x 100, truncated; for a
  /// share, on the GPU that drops it most.
  [[nodiscard]] std::int64_t score(const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node) const override;
  /// The GPU a share takes on `node`: the first with the highest score.
  [[nodiscard]] int choose_gpu(const PodInfo& pod, const NodeInfo& node) const;

 private:
  [[nodiscard]] gpu_share::FgdChoice choice(const PodInfo& pod, const NodeInfo& node) const;
  /// The target workload: the typical pods of every pod the cluster has seen so far
  /// (ClusterState::pod_shapes), computed again when pods were added. The artifact takes the
  /// pods of its input, all known before the first cycle; a scenario whose pods all exist at
  /// the start gives the same. (Kept here rather than at PreScore, which a profile enabling
  /// FGDScore at Score alone would not run; the artifact's plugin has no PreScore either.)
  const std::vector<gpu_share::TypicalPod>& typical() const;

  const ClusterState& cluster_;
  mutable std::vector<gpu_share::TypicalPod> typical_;
  mutable std::uint64_t typical_pods_ = ~std::uint64_t{0};  ///< pods_seen() typical_ is for
};

}  // namespace gpusched::plugins
