#include "config/default_plugins.hpp"

#include <string>

#include "gpusched/config/plugin_names.hpp"

namespace gpusched {

std::vector<PluginRef> default_plugins(const KubernetesVersion& version,
                                       const FeatureGates& gates) {
  // getDefaultPlugins, without the plugins gpusched does not model yet (volume plugins,
  // ImageLocality): they accept every pod that has no volumes.
  std::vector<PluginRef> out{
      {std::string(names::kSchedulingGates), 0},   {std::string(names::kPrioritySort), 0},
      {std::string(names::kNodeUnschedulable), 0}, {std::string(names::kNodeName), 0},
      {std::string(names::kTaintToleration), 3},   {std::string(names::kNodeAffinity), 2},
      {std::string(names::kNodePorts), 0},         {std::string(names::kNodeResourcesFit), 1},
      {std::string(names::kPodTopologySpread), 2}, {std::string(names::kInterPodAffinity), 2},
  };
  // applyFeatureGates: DynamicResources goes just before DefaultPreemption once DRA is on (by
  // default from 1.34).
  if (gates.enabled(FeatureGate::DynamicResourceAllocation, version))
    out.push_back({std::string(names::kDynamicResources), 0});
  out.push_back({std::string(names::kDefaultPreemption), 0});
  out.push_back({std::string(names::kNodeResourcesBalancedAllocation), 1});
  out.push_back({std::string(names::kDefaultBinder), 0});
  // applyGangScheduling (1.35): GangScheduling is appended while its gate is on.
  if (gates.enabled(FeatureGate::GangScheduling, version))
    out.push_back({std::string(names::kGangScheduling), 0});
  return out;
}

}  // namespace gpusched
