#pragma once
// DefaultBinder (pkg/scheduler/framework/plugins/defaultbinder/default_binder.go).

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class DefaultBinder final : public BindPlugin {
 public:
  static constexpr std::string_view kName = names::kDefaultBinder;
  explicit DefaultBinder(Handle& handle) : cluster_(handle.cluster) {}
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// The Binding subresource: sets spec.nodeName; the pod then holds the node.
  [[nodiscard]] Code bind(CycleState& state, PodInfo& pod, NodeInfo& node) override;

 private:
  ClusterState& cluster_;
};

}  // namespace gpusched::plugins
