#pragma once
// NodeUnschedulable (pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go).

#include <string>

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class NodeUnschedulable final : public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = names::kNodeUnschedulable;
  explicit NodeUnschedulable(Handle& handle);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  [[nodiscard]] Code filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                            Reasons& reasons) const override;
  [[nodiscard]] bool append_node_static_key(const PodInfo& pod, std::string& key) const override;
  [[nodiscard]] std::vector<ClusterEventWithHint> events_to_register() const override;
  [[nodiscard]] QueueingHint queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                           const EventObjects& objects) const override;

 private:
  [[nodiscard]] bool tolerates_unschedulable(const PodInfo& pod) const;
  TaintInfo unschedulable_taint_;
  StrId reason_;
};

}  // namespace gpusched::plugins
