#include "gpusched/io/scenario_writer.hpp"

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

#include "io/device_plugin_json.hpp"
#include "io/expect_json.hpp"
#include "io/kueue_config_json.hpp"
#include "io/node_pool_json.hpp"
#include "io/nvidia_dra_driver_json.hpp"
#include "io/object_json.hpp"
#include "io/timeline_json.hpp"
#include "io/timestamps.hpp"

namespace gpusched::io {

std::string scenario_json_text(const Scenario& scenario) {
  using ordered = nlohmann::ordered_json;
  ordered out;
  out["apiVersion"] = kScenarioApiVersion;
  out["name"] = scenario.name;
  if (!scenario.description.empty()) out["description"] = scenario.description;
  if (scenario.start_time) out["startTime"] = format_rfc3339(*scenario.start_time);
  // The run's seed, version and feature gates, so that the scenario replays as the run did, and
  // the profiles' plugin sets when they are not the default (an imported GPU-sharing trace's);
  // plugin arguments are not written (a snapshot is replayed with the default profile).
  const SchedulerConfig defaults;
  const FeatureGates& gates = scenario.scheduler.feature_gates;
  const bool plugins =
      std::any_of(scenario.scheduler.profiles.begin(), scenario.scheduler.profiles.end(),
                  [](const Profile& p) { return p.plugins != PluginsConfig{}; });
  if (scenario.scheduler.seed != defaults.seed ||
      scenario.scheduler.kubernetes_version.to_string() !=
          defaults.kubernetes_version.to_string() ||
      !gates.values.empty() || plugins) {
    out["scheduler"] = {{"kubernetesVersion", scenario.scheduler.kubernetes_version.to_string()},
                        {"seed", scenario.scheduler.seed}};
    for (const auto& [name, value] : gates.values) out["scheduler"]["featureGates"][name] = value;
  }
  if (plugins) {
    auto refs = [](const std::vector<PluginRef>& list) {
      ordered items = ordered::array();
      for (const PluginRef& ref : list) {
        ordered item = {{"name", ref.name}};
        if (ref.weight != 0) item["weight"] = ref.weight;
        items.push_back(std::move(item));
      }
      return items;
    };
    for (const Profile& profile : scenario.scheduler.profiles) {
      ordered points = ordered::object();
      for (const auto& [point, set] : plugin_points(profile.plugins)) {
        if (set->enabled.empty() && set->disabled.empty()) continue;
        ordered entry = ordered::object();
        if (!set->enabled.empty()) entry["enabled"] = refs(set->enabled);
        if (!set->disabled.empty()) entry["disabled"] = refs(set->disabled);
        points[std::string(point)] = std::move(entry);
      }
      out["scheduler"]["profiles"].push_back(
          {{"schedulerName", profile.scheduler_name}, {"plugins", std::move(points)}});
    }
  }
  if (nlohmann::json plugin = device_plugin_json(scenario.device_plugin); !plugin.is_null()) {
    out["devicePlugin"] = ordered::parse(plugin.dump());
  }
  if (nlohmann::json driver = nvidia_dra_driver_json(scenario.nvidia_dra_driver);
      !driver.is_null()) {
    out["nvidiaDraDriver"] = ordered::parse(driver.dump());
  }
  if (!scenario.node_pools.empty()) out["nodePools"] = node_pools_json(scenario.node_pools);
  if (scenario.kueue) out["kueue"] = ordered::parse(kueue_json(*scenario.kueue).dump());
  if (scenario.cluster_autoscaler != ClusterAutoscalerSettings{}) {
    out["clusterAutoscaler"] = cluster_autoscaler_json(scenario.cluster_autoscaler);
  }
  ordered cluster = ordered::array();
  for (const Object& object : scenario.cluster) {
    nlohmann::json json = to_json(object);
    if (scenario.start_time) write_object_times(object, *scenario.start_time, json);
    cluster.push_back(ordered::parse(json.dump()));
  }
  out["cluster"] = std::move(cluster);
  // Only the cluster's objects carry wall-clock times: the loader reads none in the timeline,
  // where the API server stamps each created object anew.
  if (!scenario.timeline.empty()) {
    ordered timeline = ordered::array();
    for (const Action& action : scenario.timeline) timeline.push_back(action_json(action));
    out["timeline"] = std::move(timeline);
  }
  if (scenario.until) out["until"] = format_duration(*scenario.until);
  ordered expect = ordered::array();
  for (const Expectation& expectation : scenario.expect) {
    expect.push_back(ordered::parse(expectation_json(expectation).dump()));
  }
  out["expect"] = std::move(expect);
  return out.dump(2) + "\n";
}

}  // namespace gpusched::io
