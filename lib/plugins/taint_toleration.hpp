#pragma once
// TaintToleration (pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go).

#include <string>

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class TaintToleration final : public FilterPlugin,
                              public PreScorePlugin,
                              public ScorePlugin,
                              public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = names::kTaintToleration;
  explicit TaintToleration(Handle& handle);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// The first untolerated NoSchedule/NoExecute taint, in the node's order: UU.
  [[nodiscard]] Code filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                            Reasons& reasons) const override;
  [[nodiscard]] bool append_node_static_key(const PodInfo& pod, std::string& key) const override;
  /// Keeps the tolerations that can tolerate PreferNoSchedule (effect empty or PreferNoSchedule).
  [[nodiscard]] Code pre_score(CycleState& state, const PodInfo& pod,
                               std::span<const NodeInfo* const> nodes) override;
  /// The number of intolerable PreferNoSchedule taints.
  [[nodiscard]] std::int64_t score(const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node) const override;
  /// score() for each node, the pod's tolerations read once; 0 on a node without taints (known
  /// without reading the node when its position is, CycleState::node_positions).
  void score_nodes(const CycleState& state, const PodInfo& pod,
                   std::span<const NodeInfo* const> nodes,
                   std::span<std::int64_t> scores) const override;
  /// DefaultNormalizeScore, reversed: fewer intolerable taints score higher.
  void normalize(const CycleState& state, const PodInfo& pod,
                 std::span<std::int64_t> scores) const override;
  /// None of the nodes has taints: each counts 0 and scores MaxNodeScore.
  [[nodiscard]] bool scores_alike(const CycleState& state, const PodInfo& pod,
                                  std::span<const NodeInfo* const> nodes) const override;
  [[nodiscard]] std::vector<ClusterEventWithHint> events_to_register() const override;
  [[nodiscard]] QueueingHint queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                           const EventObjects& objects) const override;

 private:
  const ClusterState& cluster_;
  bool aggregated_reason_;  // 1.35 (and 1.34.2+): one reason for every taint
  StrId aggregated_;
};

}  // namespace gpusched::plugins
