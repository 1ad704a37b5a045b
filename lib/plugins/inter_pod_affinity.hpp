#pragma once
// InterPodAffinity (pkg/scheduler/framework/plugins/interpodaffinity/plugin.go, filtering.go,
// scoring.go; Kubernetes 1.33).

#include <cstdint>
#include <string_view>
#include <vector>

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class InterPodAffinity final : public PreFilterPlugin,
                               public FilterPlugin,
                               public PreScorePlugin,
                               public ScorePlugin,
                               public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = names::kInterPodAffinity;
  /// config.InterPodAffinityArgs.HardPodAffinityWeight (DefaultHardPodAffinityWeight = 1).
  static constexpr std::int32_t kDefaultHardPodAffinityWeight = 1;

  explicit InterPodAffinity(Handle& handle,
                            std::int32_t hard_pod_affinity_weight = kDefaultHardPodAffinityWeight);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }

  /// Counts, per topology pair, the existing pods whose required anti-affinity matches the pod
  /// and the existing pods matching the pod's required (anti-)affinity terms. Skip when the pod
  /// has no required terms and no existing pod's anti-affinity matches it.
  [[nodiscard]] Status pre_filter(CycleState& state, const PodInfo& pod,
                                  PreFilterResult& result) override;
  void add_pod(CycleState& state, const PodInfo& pod, const PodInfo& added,
               const NodeInfo& node) const override;
  void remove_pod(CycleState& state, const PodInfo& pod, const PodInfo& removed,
                  const NodeInfo& node) const override;
  /// UU "node(s) didn't match pod affinity rules", U "node(s) didn't match pod anti-affinity
  /// rules", U "node(s) didn't satisfy existing pods anti-affinity rules", in that order.
  [[nodiscard]] Code filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                            Reasons& reasons) const override;

  /// Sums, per topology pair, the weights of the preferred terms (and of existing pods' required
  /// affinity, at HardPodAffinityWeight) that each existing pod satisfies; Skip when none apply.
  [[nodiscard]] Code pre_score(CycleState& state, const PodInfo& pod,
                               std::span<const NodeInfo* const> nodes) override;
  [[nodiscard]] std::int64_t score(const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node) const override;
  /// Min-max normalization to 0..100.
  void normalize(const CycleState& state, const PodInfo& pod,
                 std::span<std::int64_t> scores) const override;

  [[nodiscard]] std::vector<ClusterEventWithHint> events_to_register() const override;
  [[nodiscard]] QueueingHint queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                           const EventObjects& objects) const override;

 private:
  ClusterState& cluster_;
  std::int32_t hard_pod_affinity_weight_;
  StrId reason_affinity_;
  StrId reason_anti_affinity_;
  StrId reason_existing_anti_affinity_;
};

/// Whether one of `waiting`'s required pod affinity terms matches `added` (AffinityTerm.Matches,
/// with the labels of `added`'s namespace): the test getUnschedulablePodsWithCrossTopologyTerm
/// applies before an AssignedPodAdd event reaches a waiting pod.
[[nodiscard]] bool required_affinity_matches(const Pod& waiting, const Pod& added,
                                             const Labels& added_namespace_labels,
                                             StringPool& pool);

}  // namespace gpusched::plugins
