#pragma once
// PodTopologySpread (pkg/scheduler/framework/plugins/podtopologyspread/{plugin.go,common.go,
// filtering.go,scoring.go}).

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"
#include "gpusched/model/selector.hpp"

namespace gpusched::plugins {

/// A pod's constraint as the plugin evaluates it (upstream topologySpreadConstraint): the
/// selector merged with matchLabelKeys, the defaults of minDomains and the inclusion policies
/// filled in, the topology key interned.
struct SpreadConstraint {
  std::int32_t max_skew = 1;
  std::string topology_key;
  StrId key = 0;           ///< interned topology_key
  bool hostname = false;   ///< topology_key == kubernetes.io/hostname (Score counts per node)
  LabelSelector selector;  ///< meaningful unless `nothing`
  bool nothing = false;    ///< labels.Nothing(): a nil labelSelector matches no pod
  std::int32_t min_domains = 1;
  bool honor_affinity = true;  ///< nodeAffinityPolicy Honor (the default)
  bool honor_taints = false;   ///< nodeTaintsPolicy Honor (default Ignore)

  /// labels.Selector.Matches.
  [[nodiscard]] bool matches(const Labels& labels) const {
    return !nothing && selector.matches(labels);
  }
  /// labels.Selector.Empty(): the Everything selector of an empty labelSelector.
  [[nodiscard]] bool empty() const noexcept { return !nothing && selector.empty(); }
};

class PodTopologySpread final : public PreFilterPlugin,
                                public FilterPlugin,
                                public PreScorePlugin,
                                public ScorePlugin,
                                public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = names::kPodTopologySpread;
  /// `defaultingType: System` (upstream's default): hostname maxSkew 3 and zone maxSkew 5,
  /// ScheduleAnyway, for pods without constraints of their own.
  explicit PodTopologySpread(Handle& handle);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }

  /// Counts the pods matching each DoNotSchedule constraint per topology value over all nodes
  /// (TpValueToMatchNum, critical paths); Skip without such constraints.
  [[nodiscard]] Status pre_filter(CycleState& state, const PodInfo& pod,
                                  PreFilterResult& result) override;
  void add_pod(CycleState& state, const PodInfo& pod, const PodInfo& added,
               const NodeInfo& node) const override;
  void remove_pod(CycleState& state, const PodInfo& pod, const PodInfo& removed,
                  const NodeInfo& node) const override;
  /// UU "... (missing required label)" when the node lacks a topology key; U when the skew
  /// would exceed maxSkew.
  [[nodiscard]] Code filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                            Reasons& reasons) const override;
  /// ScheduleAnyway constraints (or the system defaults); Skip without any.
  [[nodiscard]] Code pre_score(CycleState& state, const PodInfo& pod,
                               std::span<const NodeInfo* const> nodes) override;
  /// Sum over constraints of count * log(domains + 2) + maxSkew - 1, rounded.
  [[nodiscard]] std::int64_t score(const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node) const override;
  /// 100 * (max + min - score) / max; ignored nodes score 0.
  void normalize(const CycleState& state, const PodInfo& pod,
                 std::span<std::int64_t> scores) const override;
  [[nodiscard]] std::vector<ClusterEventWithHint> events_to_register() const override;
  [[nodiscard]] QueueingHint queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                           const EventObjects& objects) const override;

  /// getConstraints / initPreScoreState: the pod's constraints with `when_unsatisfiable`, or
  /// the system defaults with the selector of the pod's controller (helper.DefaultSelector).
  [[nodiscard]] std::vector<SpreadConstraint> constraints_for(const Pod& pod,
                                                              std::string_view action) const;

 private:
  [[nodiscard]] std::vector<SpreadConstraint> filter_constraints(
      const std::vector<TopologySpreadConstraint>& constraints, const Labels& pod_labels,
      std::string_view action) const;
  /// matchNodeInclusionPolicies.
  [[nodiscard]] bool node_included(const SpreadConstraint& c, const PodInfo& pod,
                                   const NodeInfo& node) const;
  void update_with_pod(CycleState& state, const PodInfo& pod, const PodInfo& updated,
                       const NodeInfo& node, int delta) const;

  ClusterState& cluster_;
  std::vector<TopologySpreadConstraint> default_constraints_;
  bool system_defaulted_ = true;
  StrId hostname_key_;
  StrId reason_constraints_;
  StrId reason_label_;
};

}  // namespace gpusched::plugins
