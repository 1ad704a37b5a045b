#pragma once
// NodeName (pkg/scheduler/framework/plugins/nodename/node_name.go).

#include <string>

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class NodeName final : public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = names::kNodeName;
  explicit NodeName(Handle& handle);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// Fits when spec.nodeName is empty or names this node.
  [[nodiscard]] Code filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                            Reasons& reasons) const override;
  [[nodiscard]] bool append_node_static_key(const PodInfo& pod, std::string& key) const override;
  /// Node Add, without a hint (always requeues).
  [[nodiscard]] std::vector<ClusterEventWithHint> events_to_register() const override;

 private:
  StrId reason_;
};

}  // namespace gpusched::plugins
