#pragma once
// NodePorts (pkg/scheduler/framework/plugins/nodeports/node_ports.go).

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class NodePorts final : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = names::kNodePorts;
  explicit NodePorts(Handle& handle);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// Skip for a pod without host ports.
  [[nodiscard]] Status pre_filter(CycleState& state, const PodInfo& pod,
                                  PreFilterResult& result) override;
  [[nodiscard]] Code filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                            Reasons& reasons) const override;
  /// Filter reads the pod's host ports and the ports the node's pods use.
  [[nodiscard]] bool append_node_dynamic_key(const PodInfo& pod, std::string& key) const override;
  [[nodiscard]] std::vector<ClusterEventWithHint> events_to_register() const override;
  [[nodiscard]] QueueingHint queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                           const EventObjects& objects) const override;

  /// HostPortInfo.CheckConflict: a wildcard IP conflicts with the same protocol/port on any IP.
  [[nodiscard]] static bool conflicts(const std::vector<HostPort>& used, const HostPort& wanted,
                                      StrId wildcard);

 private:
  StrId reason_;
  StrId wildcard_;
};

}  // namespace gpusched::plugins
