#pragma once
// NodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go).

#include <string>

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class NodeAffinity final : public PreFilterPlugin,
                           public FilterPlugin,
                           public PreScorePlugin,
                           public ScorePlugin,
                           public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = names::kNodeAffinity;
  explicit NodeAffinity(Handle& handle);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// Skip without nodeSelector or required affinity; narrows to `matchFields metadata.name In`
  /// nodes when every term names nodes; UU "pod affinity terms conflict" when none remain.
  [[nodiscard]] Status pre_filter(CycleState& state, const PodInfo& pod,
                                  PreFilterResult& result) override;
  [[nodiscard]] Code filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                            Reasons& reasons) const override;
  [[nodiscard]] bool append_node_static_key(const PodInfo& pod, std::string& key) const override;
  /// Skip without preferred terms.
  [[nodiscard]] Code pre_score(CycleState& state, const PodInfo& pod,
                               std::span<const NodeInfo* const> nodes) override;
  /// The sum of the weights of the preferred terms the node matches.
  [[nodiscard]] std::int64_t score(const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node) const override;
  void normalize(const CycleState& state, const PodInfo& pod,
                 std::span<std::int64_t> scores) const override;
  [[nodiscard]] std::vector<ClusterEventWithHint> events_to_register() const override;
  [[nodiscard]] QueueingHint queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                           const EventObjects& objects) const override;

 private:
  ClusterState& cluster_;
  StrId reason_pod_;
  StrId name_field_;
};

}  // namespace gpusched::plugins
