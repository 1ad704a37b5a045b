#include "io/scheduler_json.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <string>

#include "gpusched/config/feature_gates.hpp"
#include "gpusched/config/plugin_names.hpp"
#include "gpusched/error.hpp"
#include "io/api_validation.hpp"

namespace gpusched::io {
namespace {

// Upper bound for backoff seconds, so that milliseconds cannot overflow.
constexpr std::int64_t kMaxBackoffSeconds = 1'000'000'000;

void validate_percentage(const JsonNode& node, std::int64_t value) {
  // pkg/scheduler/apis/config/validation/validation.go validatePercentageOfNodesToScore.
  if (value < 0 || value > 100) node.fail_field(invalid_value(value, "not in valid range [0-100]"));
}

std::string plugin_name(const JsonNode& node, bool allow_star, const OutOfTree& out_of_tree) {
  std::string name = node.string();
  if (name.empty()) node.fail_field(required_value());
  const bool known = names::is_in_tree(name) || names::is_gpu_share(name) ||
                     std::find(out_of_tree.begin(), out_of_tree.end(), name) != out_of_tree.end();
  if (!known && !(allow_star && name == "*")) {
    node.fail_field(invalid_value(name, "unknown plugin"));
  }
  return name;
}

std::vector<PluginRef> parse_plugin_list(const JsonNode& node, bool allow_star,
                                         const OutOfTree& out_of_tree) {
  std::vector<PluginRef> out;
  for (const JsonNode& item : node.elements()) {
    item.reject_unknown_keys({"name", "weight"});
    PluginRef ref;
    ref.name = plugin_name(item.required("name"), allow_star, out_of_tree);
    if (auto weight = item.get("weight")) {
      ref.weight = weight->int32();
      if (ref.weight < 0) weight->fail_field(invalid_value(ref.weight, "must not be negative"));
    }
    out.push_back(std::move(ref));
  }
  return out;
}

PluginSet parse_plugin_set(const JsonNode& node, const OutOfTree& out_of_tree) {
  node.reject_unknown_keys({"enabled", "disabled"});
  PluginSet set;
  if (auto enabled = node.get("enabled"))
    set.enabled = parse_plugin_list(*enabled, false, out_of_tree);
  if (auto disabled = node.get("disabled"))
    set.disabled = parse_plugin_list(*disabled, true, out_of_tree);
  return set;
}

PluginsConfig parse_plugins(const JsonNode& node, const OutOfTree& out_of_tree) {
  PluginsConfig plugins;
  const auto points = plugin_points(plugins);
  std::array<std::string_view, points.size()> keys;
  for (std::size_t i = 0; i < points.size(); ++i) keys[i] = points[i].first;
  node.reject_unknown_keys(keys);
  for (const auto& [key, set] : points) {
    if (auto child = node.get(key)) *set = parse_plugin_set(*child, out_of_tree);
  }
  return plugins;
}

/// config.ResourceSpec list; a missing or zero weight defaults to 1 (SetDefaults_*Args).
std::vector<ResourceSpec> parse_resource_specs(const JsonNode& node) {
  std::vector<ResourceSpec> out;
  for (const JsonNode& item : node.elements()) {
    item.reject_unknown_keys({"name", "weight"});
    ResourceSpec spec;
    spec.name = item.required("name").string();
    spec.weight = 0;
    if (auto weight = item.get("weight")) spec.weight = weight->integer();
    if (spec.weight == 0) spec.weight = 1;
    out.push_back(std::move(spec));
  }
  return out;
}

/// validation_pluginargs.go validateFunctionShape.
std::vector<UtilizationShapePoint> parse_shape(const JsonNode& node) {
  std::vector<UtilizationShapePoint> shape;
  std::vector<JsonNode> items = node.elements();
  if (items.empty()) node.fail_field(required_value("at least one point must be specified"));
  for (const JsonNode& item : items) {
    item.reject_unknown_keys({"utilization", "score"});
    UtilizationShapePoint point;
    if (auto u = item.get("utilization")) point.utilization = u->int32();
    if (auto s = item.get("score")) point.score = s->int32();
    shape.push_back(point);
  }
  for (std::size_t i = 1; i < shape.size(); ++i) {
    if (shape[i - 1].utilization >= shape[i].utilization) {
      items[i]
          .required("utilization")
          .fail_field(
              invalid_value(shape[i].utilization, "values must be sorted in increasing order"));
    }
  }
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i].utilization < 0 || shape[i].utilization > 100) {
      items[i]
          .required("utilization")
          .fail_field(invalid_value(shape[i].utilization, "not in valid range [0, 100]"));
    }
    if (shape[i].score < 0 || shape[i].score > 10) {
      items[i].required("score").fail_field(
          invalid_value(shape[i].score, "not in valid range [0, 10]"));
    }
  }
  return shape;
}

/// ValidateNodeResourcesFitArgs.
NodeResourcesFitArgs parse_fit_args(const JsonNode& args) {
  args.reject_unknown_keys(
      {"apiVersion", "kind", "ignoredResources", "ignoredResourceGroups", "scoringStrategy"});
  NodeResourcesFitArgs out;
  if (auto ignored = args.get("ignoredResources")) {
    for (const JsonNode& item : ignored->elements()) {
      std::string name = item.string();
      for (const std::string& message : resource::qualified_name_errors(name)) {
        item.fail_field(invalid_value(name, message));
      }
      out.ignored_resources.push_back(std::move(name));
    }
  }
  if (auto groups = args.get("ignoredResourceGroups")) {
    for (const JsonNode& item : groups->elements()) {
      std::string group = item.string();
      if (group.find('/') != std::string::npos) {
        item.fail_field(invalid_value(group, "resource group name can't contain '/'"));
      }
      for (const std::string& message : resource::qualified_name_errors(group)) {
        item.fail_field(invalid_value(group, message));
      }
      out.ignored_resource_groups.push_back(std::move(group));
    }
  }
  auto strategy = args.get("scoringStrategy");
  if (!strategy) return out;
  strategy->reject_unknown_keys({"type", "resources", "requestedToCapacityRatio"});
  std::string type;
  std::optional<JsonNode> type_node = strategy->get("type");
  if (type_node) type = type_node->string();
  if (type == "LeastAllocated") {
    out.scoring_type = ScoringStrategyType::LeastAllocated;
  } else if (type == "MostAllocated") {
    out.scoring_type = ScoringStrategyType::MostAllocated;
  } else if (type == "RequestedToCapacityRatio") {
    out.scoring_type = ScoringStrategyType::RequestedToCapacityRatio;
  } else {
    // An absent type is not defaulted upstream, so it is unsupported too.
    std::string message =
        not_supported(type, {"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"});
    (type_node ? *type_node : strategy->missing("type")).fail_field(message);
  }
  if (auto resources = strategy->get("resources")) {
    std::vector<ResourceSpec> specs = parse_resource_specs(*resources);
    std::vector<JsonNode> items = resources->elements();
    for (std::size_t i = 0; i < specs.size(); ++i) {
      // validateResources: weights in (0, 100].
      if (specs[i].weight <= 0 || specs[i].weight > 100) {
        items[i].required("weight").fail_field(
            invalid_value(specs[i].weight,
                          "resource weight of " + specs[i].name + " not in valid range (0, 100]"));
      }
    }
    if (!specs.empty()) out.resources = std::move(specs);
  }
  std::optional<JsonNode> ratio = strategy->get("requestedToCapacityRatio");
  if (out.scoring_type == ScoringStrategyType::RequestedToCapacityRatio) {
    if (!ratio) {
      strategy->missing("requestedToCapacityRatio")
          .fail_field(required_value("must be specified when type is RequestedToCapacityRatio"));
    }
    ratio->reject_unknown_keys({"shape"});
    std::optional<JsonNode> shape = ratio->get("shape");
    if (!shape)
      ratio->missing("shape").fail_field(required_value("at least one point must be specified"));
    out.shape = parse_shape(*shape);
  } else if (ratio) {
    ratio->fail_field(forbidden("must be nil when type is not RequestedToCapacityRatio"));
  }
  return out;
}

/// ValidateNodeResourcesBalancedAllocationArgs.
BalancedAllocationArgs parse_balanced_args(const JsonNode& args) {
  args.reject_unknown_keys({"apiVersion", "kind", "resources"});
  BalancedAllocationArgs out;
  auto resources = args.get("resources");
  if (!resources) return out;
  std::vector<ResourceSpec> specs = parse_resource_specs(*resources);
  std::vector<JsonNode> items = resources->elements();
  std::set<std::string, std::less<>> seen;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (!seen.insert(specs[i].name).second) {
      items[i].required("name").fail_field(duplicate_value(specs[i].name));
    }
    if (specs[i].weight != 1) {
      items[i].required("weight").fail_field(invalid_value(specs[i].weight, "must be 1"));
    }
  }
  if (!specs.empty()) out.resources = std::move(specs);
  return out;
}

/// ValidateDefaultPreemptionArgs.
DefaultPreemptionArgs parse_preemption_args(const JsonNode& args) {
  args.reject_unknown_keys(
      {"apiVersion", "kind", "minCandidateNodesPercentage", "minCandidateNodesAbsolute"});
  DefaultPreemptionArgs out;
  std::optional<JsonNode> percentage = args.get("minCandidateNodesPercentage");
  std::optional<JsonNode> absolute = args.get("minCandidateNodesAbsolute");
  if (percentage) {
    out.min_candidate_nodes_percentage = percentage->int32();
    if (out.min_candidate_nodes_percentage < 0 || out.min_candidate_nodes_percentage > 100) {
      percentage->fail_field(
          invalid_value(out.min_candidate_nodes_percentage, "not in valid range [0, 100]"));
    }
  }
  if (absolute) {
    out.min_candidate_nodes_absolute = absolute->int32();
    if (out.min_candidate_nodes_absolute < 0) {
      absolute->fail_field(
          invalid_value(out.min_candidate_nodes_absolute, "not in valid range [0, inf)"));
    }
  }
  if (out.min_candidate_nodes_percentage == 0 && out.min_candidate_nodes_absolute == 0) {
    // Both zero means both were written.
    percentage->fail_field(
        invalid_value(0, "cannot be zero at the same time as minCandidateNodesAbsolute"));
  }
  return out;
}

void parse_plugin_config(const JsonNode& node, Profile& profile, const OutOfTree& out_of_tree) {
  std::set<std::string, std::less<>> seen;
  for (const JsonNode& item : node.elements()) {
    item.reject_unknown_keys({"name", "args"});
    std::string name = plugin_name(item.required("name"), false, out_of_tree);
    if (!seen.insert(name).second) item.fail_field(duplicate_value(name));
    std::optional<JsonNode> args = item.get("args");
    if (!args) continue;
    if (name == names::kNodeResourcesFit) {
      profile.node_resources_fit = parse_fit_args(*args);
    } else if (name == names::kNodeResourcesBalancedAllocation) {
      profile.balanced_allocation = parse_balanced_args(*args);
    } else if (name == names::kDefaultPreemption) {
      profile.default_preemption = parse_preemption_args(*args);
    } else if (!args->object().empty()) {
      // Accepting args gpusched ignores would let a replay silently differ from the cluster.
      args->fail("gpusched does not model the args of plugin \"" + name + "\"");
    }
  }
}

Profile parse_profile(const JsonNode& node, bool sole_profile, const OutOfTree& out_of_tree) {
  node.reject_unknown_keys(
      {"schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig"});
  Profile profile;
  if (auto name = node.get("schedulerName")) {
    profile.scheduler_name = name->string();
  } else if (!sole_profile) {
    // SetDefaults_KubeSchedulerConfiguration names only a sole profile.
    profile.scheduler_name.clear();
  }
  if (profile.scheduler_name.empty()) node.missing("schedulerName").fail_field(required_value());
  if (auto percentage = node.get("percentageOfNodesToScore")) {
    std::int64_t value = percentage->integer();
    validate_percentage(*percentage, value);
    profile.percentage_of_nodes_to_score = static_cast<std::int32_t>(value);
  }
  if (auto plugins = node.get("plugins")) profile.plugins = parse_plugins(*plugins, out_of_tree);
  if (auto config = node.get("pluginConfig")) parse_plugin_config(*config, profile, out_of_tree);
  return profile;
}

// `featureGates`: {"Name": bool}. A gate the release lacks or locks is refused as kube-scheduler
// refuses its --feature-gates; a value that changes what gpusched does not model is a warning
// (an error under --strict), and the release's default is simulated.
FeatureGates parse_feature_gates(const JsonNode& node, const KubernetesVersion& version,
                                 bool strict, std::vector<std::string>* not_modelled) {
  FeatureGates gates;
  for (const auto& [name, value_node] : node.entries()) {
    const bool value = value_node.boolean();
    if (auto error = feature_gate_error(name, value, version)) value_node.fail(*error);
    if (auto warning = feature_gate_warning(name, value, version)) {
      if (strict) value_node.fail(*warning);
      if (not_modelled != nullptr) {
        const JsonSource& source = value_node.source();
        not_modelled->push_back(located_message(source.file(), value_node.pointer(), *warning,
                                                source.line_of(value_node.pointer())));
      }
    }
    gates.values.insert_or_assign(name, value);
  }
  return gates;
}

}  // namespace

SchedulerConfig parse_scheduler_config(const JsonNode& node, const OutOfTree& out_of_tree,
                                       bool strict, std::vector<std::string>* not_modelled) {
  // The operational fields of a kube-scheduler's configuration file (how it talks to the API
  // server, elects a leader, serves metrics, how many goroutines it runs) decide nothing about
  // placement, so a real file is read as it is and they are ignored.
  node.reject_unknown_keys({"apiVersion", "kind", "seed", "kubernetesVersion", "featureGates",
                            "percentageOfNodesToScore", "podInitialBackoffSeconds",
                            "podMaxBackoffSeconds", "profiles", "parallelism", "leaderElection",
                            "clientConnection", "healthzBindAddress", "metricsBindAddress",
                            "enableProfiling", "enableContentionProfiling", "delayCacheUntilActive",
                            "extenders"});
  if (auto extenders = node.get("extenders"); extenders && !extenders->elements().empty()) {
    extenders->fail("gpusched does not model scheduler extenders (webhooks it cannot call)");
  }
  SchedulerConfig config;
  if (auto seed = node.get("seed")) {
    std::int64_t value = seed->integer();
    if (value < 0) seed->fail("must be a non-negative integer, got " + std::to_string(value));
    config.seed = static_cast<std::uint64_t>(value);
  }
  if (auto version = node.get("kubernetesVersion")) {
    std::string error;
    std::optional<KubernetesVersion> parsed = KubernetesVersion::parse(version->string(), &error);
    if (!parsed) version->fail(error);
    config.kubernetes_version = *parsed;
  }
  if (auto gates = node.get("featureGates")) {
    config.feature_gates =
        parse_feature_gates(*gates, config.kubernetes_version, strict, not_modelled);
  }
  if (auto percentage = node.get("percentageOfNodesToScore")) {
    std::int64_t value = percentage->integer();
    validate_percentage(*percentage, value);
    config.percentage_of_nodes_to_score = static_cast<std::int32_t>(value);
  }
  // validation.go: podInitialBackoffSeconds > 0, podMaxBackoffSeconds >= initial.
  std::int64_t initial = config.pod_initial_backoff_ms / 1000;
  std::int64_t max = config.pod_max_backoff_ms / 1000;
  std::optional<JsonNode> initial_node = node.get("podInitialBackoffSeconds");
  std::optional<JsonNode> max_node = node.get("podMaxBackoffSeconds");
  for (auto [place, value] : {std::pair{&initial_node, &initial}, std::pair{&max_node, &max}}) {
    if (!*place) continue;
    *value = (*place)->integer();
    if (*value <= 0) (*place)->fail_field(invalid_value(*value, "must be greater than 0"));
    if (*value > kMaxBackoffSeconds) {
      (*place)->fail_field(
          invalid_value(*value, "must be no more than " + std::to_string(kMaxBackoffSeconds)));
    }
  }
  if (max < initial) {
    (max_node ? *max_node : node.missing("podMaxBackoffSeconds"))
        .fail_field(
            invalid_value(max, "must be greater than or equal to PodInitialBackoffSeconds"));
  }
  config.pod_initial_backoff_ms = initial * 1000;
  config.pod_max_backoff_ms = max * 1000;
  if (auto profiles = node.get("profiles")) {
    std::vector<JsonNode> items = profiles->elements();
    config.profiles.clear();
    std::set<std::string, std::less<>> names;
    for (const JsonNode& item : items) {
      Profile profile = parse_profile(item, items.size() == 1, out_of_tree);
      if (!names.insert(profile.scheduler_name).second) {
        item.required("schedulerName").fail_field(duplicate_value(profile.scheduler_name));
      }
      config.profiles.push_back(std::move(profile));
    }
    if (config.profiles.empty()) config.profiles.emplace_back();
  }
  return config;
}

}  // namespace gpusched::io
