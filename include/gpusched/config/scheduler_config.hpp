#pragma once
/// Scheduler configuration, shaped like KubeSchedulerConfiguration
/// (kubescheduler.config.k8s.io/v1).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/config/feature_gates.hpp"
#include "gpusched/config/kubernetes_version.hpp"

namespace gpusched {

/// A plugin named in `profiles[].plugins.<point>.enabled|disabled`; weight 0 means default.
struct PluginRef {
  std::string name;
  std::int32_t weight = 0;
  friend bool operator==(const PluginRef&, const PluginRef&) = default;
};

struct PluginSet {
  std::vector<PluginRef> enabled;
  std::vector<PluginRef> disabled;  ///< a name of "*" disables every default plugin
  friend bool operator==(const PluginSet&, const PluginSet&) = default;
};

/// `profiles[].plugins`: per extension point, and multiPoint.
struct PluginsConfig {
  PluginSet multi_point, queue_sort, pre_filter, filter, post_filter, pre_score, score, reserve,
      permit, pre_bind, bind;
  friend bool operator==(const PluginsConfig&, const PluginsConfig&) = default;
};

/// Each extension point's set (const or not, as `plugins` is) with its key in
/// `profiles[].plugins`, in KubeSchedulerConfiguration's order: what the parser reads and the
/// scenario writer writes.
template <class Plugins>
[[nodiscard]] constexpr auto plugin_points(Plugins& plugins) {
  using Set = decltype(&plugins.multi_point);
  return std::array<std::pair<std::string_view, Set>, 11>{{{"multiPoint", &plugins.multi_point},
                                                           {"queueSort", &plugins.queue_sort},
                                                           {"preFilter", &plugins.pre_filter},
                                                           {"filter", &plugins.filter},
                                                           {"postFilter", &plugins.post_filter},
                                                           {"preScore", &plugins.pre_score},
                                                           {"score", &plugins.score},
                                                           {"reserve", &plugins.reserve},
                                                           {"permit", &plugins.permit},
                                                           {"preBind", &plugins.pre_bind},
                                                           {"bind", &plugins.bind}}};
}

/// A resource and its weight in a scoring strategy (config.ResourceSpec).
struct ResourceSpec {
  std::string name;
  std::int64_t weight = 1;
  friend bool operator==(const ResourceSpec&, const ResourceSpec&) = default;
};

/// A point of RequestedToCapacityRatio's shape: utilization 0..100, score 0..10.
struct UtilizationShapePoint {
  std::int32_t utilization = 0;
  std::int32_t score = 0;
  friend bool operator==(const UtilizationShapePoint&, const UtilizationShapePoint&) = default;
};

enum class ScoringStrategyType { LeastAllocated, MostAllocated, RequestedToCapacityRatio };

/// NodeResourcesFitArgs.
struct NodeResourcesFitArgs {
  std::vector<std::string> ignored_resources;
  std::vector<std::string> ignored_resource_groups;
  ScoringStrategyType scoring_type = ScoringStrategyType::LeastAllocated;
  std::vector<ResourceSpec> resources{{"cpu", 1}, {"memory", 1}};
  std::vector<UtilizationShapePoint> shape;  ///< RequestedToCapacityRatio only
  friend bool operator==(const NodeResourcesFitArgs&, const NodeResourcesFitArgs&) = default;
};

/// NodeResourcesBalancedAllocationArgs.
struct BalancedAllocationArgs {
  std::vector<ResourceSpec> resources{{"cpu", 1}, {"memory", 1}};
  friend bool operator==(const BalancedAllocationArgs&, const BalancedAllocationArgs&) = default;
};

/// DefaultPreemptionArgs.
struct DefaultPreemptionArgs {
  std::int32_t min_candidate_nodes_percentage = 10;
  std::int32_t min_candidate_nodes_absolute = 100;
  friend bool operator==(const DefaultPreemptionArgs&, const DefaultPreemptionArgs&) = default;
};

/// One KubeSchedulerProfile.
struct Profile {
  std::string scheduler_name = "default-scheduler";
  PluginsConfig plugins;
  std::optional<std::int32_t> percentage_of_nodes_to_score;  ///< profile value wins when set
  NodeResourcesFitArgs node_resources_fit;
  BalancedAllocationArgs balanced_allocation;
  DefaultPreemptionArgs default_preemption;
  friend bool operator==(const Profile&, const Profile&) = default;
};

struct SchedulerConfig {
  std::uint64_t seed = 1;  ///< the one random source: tie-breaks and preemption offsets
  KubernetesVersion kubernetes_version;
  /// `featureGates`: gates set away from the release's defaults (feature_gates.hpp).
  FeatureGates feature_gates;
  std::int32_t percentage_of_nodes_to_score = 0;  ///< 0: upstream's adaptive formula
  std::int64_t pod_initial_backoff_ms = 1000;
  std::int64_t pod_max_backoff_ms = 10000;
  std::vector<Profile> profiles{Profile{}};
  /// Not part of the scenario format: run the straightforward engine (every plugin called per
  /// node, every retry filtered again), which the optimized one must match byte for byte.
  bool reference_engine = false;
  friend bool operator==(const SchedulerConfig&, const SchedulerConfig&) = default;
};

}  // namespace gpusched
