#include "plugins/registry.hpp"

#include "plugins/balanced_allocation.hpp"
#include "plugins/default_binder.hpp"
#include "plugins/default_preemption.hpp"
#include "plugins/dynamic_resources.hpp"
#include "plugins/inter_pod_affinity.hpp"
#include "plugins/node_affinity.hpp"
#include "plugins/node_name.hpp"
#include "plugins/node_ports.hpp"
#include "plugins/node_resources_fit.hpp"
#include "plugins/node_unschedulable.hpp"
#include "plugins/pod_topology_spread.hpp"
#include "plugins/priority_sort.hpp"
#include "plugins/taint_toleration.hpp"

namespace gpusched::plugins {

std::vector<PluginRef> default_plugins(const KubernetesVersion& version) {
  // getDefaultPlugins, without the plugins gpusched does not model yet (SchedulingGates,
  // volume plugins, ImageLocality): they accept every pod that has no gates or volumes.
  std::vector<PluginRef> out{
      {std::string(PrioritySort::kName), 0},     {std::string(NodeUnschedulable::kName), 0},
      {std::string(NodeName::kName), 0},         {std::string(TaintToleration::kName), 3},
      {std::string(NodeAffinity::kName), 2},     {std::string(NodePorts::kName), 0},
      {std::string(NodeResourcesFit::kName), 1}, {std::string(PodTopologySpread::kName), 2},
      {std::string(InterPodAffinity::kName), 2},
  };
  // applyFeatureGates: DynamicResources goes just before DefaultPreemption once DRA is on.
  if (version.dynamic_resources_post_filter())
    out.push_back({std::string(DynamicResources::kName), 0});
  out.push_back({std::string(DefaultPreemption::kName), 0});
  out.push_back({std::string(BalancedAllocation::kName), 1});
  out.push_back({std::string(DefaultBinder::kName), 0});
  return out;
}

const std::vector<std::string_view>& known_plugins() {
  static const std::vector<std::string_view> names{
      PrioritySort::kName,       NodeUnschedulable::kName, NodeName::kName,
      TaintToleration::kName,    NodeAffinity::kName,      NodePorts::kName,
      NodeResourcesFit::kName,   DynamicResources::kName,  DefaultPreemption::kName,
      BalancedAllocation::kName, DefaultBinder::kName,     InterPodAffinity::kName,
      PodTopologySpread::kName};
  return names;
}

std::unique_ptr<Plugin> make_plugin(std::string_view name, Handle& handle, const Profile& profile) {
  if (name == PrioritySort::kName) return std::make_unique<PrioritySort>();
  if (name == NodeUnschedulable::kName) return std::make_unique<NodeUnschedulable>(handle);
  if (name == NodeName::kName) return std::make_unique<NodeName>(handle);
  if (name == TaintToleration::kName) return std::make_unique<TaintToleration>(handle);
  if (name == NodeAffinity::kName) return std::make_unique<NodeAffinity>(handle);
  if (name == NodePorts::kName) return std::make_unique<NodePorts>(handle);
  if (name == NodeResourcesFit::kName) {
    return std::make_unique<NodeResourcesFit>(handle, profile.node_resources_fit);
  }
  if (name == PodTopologySpread::kName) return std::make_unique<PodTopologySpread>(handle);
  if (name == DynamicResources::kName) return std::make_unique<DynamicResources>();
  if (name == InterPodAffinity::kName) return std::make_unique<InterPodAffinity>(handle);
  if (name == DefaultPreemption::kName) {
    return std::make_unique<DefaultPreemption>(handle, profile.default_preemption);
  }
  if (name == BalancedAllocation::kName) {
    return std::make_unique<BalancedAllocation>(handle, profile.balanced_allocation);
  }
  if (name == DefaultBinder::kName) return std::make_unique<DefaultBinder>(handle);
  return nullptr;
}

}  // namespace gpusched::plugins
