#include "plugins/registry.hpp"

#include <string>

#include "plugins/balanced_allocation.hpp"
#include "plugins/best_fit_score.hpp"
#include "plugins/default_binder.hpp"
#include "plugins/default_preemption.hpp"
#include "plugins/dot_product_score.hpp"
#include "plugins/dynamic_resources.hpp"
#include "plugins/fgd_score.hpp"
#include "plugins/gang_scheduling.hpp"
#include "plugins/gpu_clustering_score.hpp"
#include "plugins/gpu_packing_score.hpp"
#include "plugins/inter_pod_affinity.hpp"
#include "plugins/node_affinity.hpp"
#include "plugins/node_name.hpp"
#include "plugins/node_ports.hpp"
#include "plugins/node_resources_fit.hpp"
#include "plugins/node_unschedulable.hpp"
#include "plugins/open_gpu_share.hpp"
#include "plugins/pod_topology_spread.hpp"
#include "plugins/priority_sort.hpp"
#include "plugins/random_score.hpp"
#include "plugins/scheduling_gates.hpp"
#include "plugins/taint_toleration.hpp"

namespace gpusched::plugins {
namespace {

/// A plugin constructed from the handle alone.
template <class P>
void add(Registry& registry) {
  registry.add(std::string(P::kName),
               [](Handle& handle, const Profile&) { return std::make_unique<P>(handle); });
}

}  // namespace

Registry in_tree_registry() {
  Registry registry;
  add<SchedulingGates>(registry);
  registry.add(std::string(PrioritySort::kName),
               [](Handle&, const Profile&) { return std::make_unique<PrioritySort>(); });
  add<NodeUnschedulable>(registry);
  add<NodeName>(registry);
  add<TaintToleration>(registry);
  add<NodeAffinity>(registry);
  add<NodePorts>(registry);
  registry.add(std::string(NodeResourcesFit::kName), [](Handle& handle, const Profile& profile) {
    return std::make_unique<NodeResourcesFit>(handle, profile.node_resources_fit);
  });
  add<PodTopologySpread>(registry);
  // Score joined in 1.35 ("DRA: Add scoring for Prioritized List feature").
  registry.add(std::string(DynamicResources::kName),
               [](Handle& handle, const Profile&) -> std::unique_ptr<Plugin> {
                 if (handle.version.minor >= 35)
                   return std::make_unique<DynamicResourcesScoring>(handle);
                 return std::make_unique<DynamicResources>(handle);
               });
  add<InterPodAffinity>(registry);
  registry.add(std::string(DefaultPreemption::kName), [](Handle& handle, const Profile& profile) {
    return std::make_unique<DefaultPreemption>(handle, profile.default_preemption);
  });
  registry.add(std::string(BalancedAllocation::kName), [](Handle& handle, const Profile& profile) {
    return std::make_unique<BalancedAllocation>(handle, profile.balanced_allocation);
  });
  add<DefaultBinder>(registry);
  add<GangScheduling>(registry);
  // The FGD artifact's GPU-sharing plugins, which profiles enable by name.
  add<OpenGpuShare>(registry);
  add<RandomScore>(registry);
  add<DotProductScore>(registry);
  add<GpuClusteringScore>(registry);
  add<GpuPackingScore>(registry);
  add<BestFitScore>(registry);
  add<FgdScore>(registry);
  return registry;
}

}  // namespace gpusched::plugins
