#include "gpusched/io/scenario_loader.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <system_error>

#include "gpusched/config/feature_gates.hpp"
#include "gpusched/error.hpp"
#include "io/cluster_json.hpp"
#include "io/device_plugin_json.hpp"
#include "io/expect_json.hpp"
#include "io/file_path.hpp"
#include "io/input_text.hpp"
#include "io/json_node.hpp"
#include "io/json_source.hpp"
#include "io/kind_filter.hpp"
#include "io/kueue_config_json.hpp"
#include "io/kueue_pod_webhook.hpp"
#include "io/node_pool_json.hpp"
#include "io/nvidia_dra_driver_json.hpp"
#include "io/scheduler_json.hpp"
#include "io/time_json.hpp"
#include "io/timeline_json.hpp"
#include "io/timestamps.hpp"
#include "sim/workload_api.hpp"

namespace gpusched::io {
namespace {

namespace fs = std::filesystem;

/// Most files `include` may name, directories' files counted one by one.
constexpr std::size_t kMaxIncludedFiles = 10'000;

bool is_manifest_name(const fs::path& path) {
  const fs::path ext = path.extension();
  return ext == ".json" || ext == ".yaml" || ext == ".yml";
}

/// The files `include` names, relative to the scenario's directory: a file as named, a
/// directory's *.json / *.yaml / *.yml files (not its subdirectories) sorted by name.
std::vector<std::pair<fs::path, JsonNode>> included_files(const JsonNode& include,
                                                          const std::string& scenario_file) {
  const fs::path base = fs::path(scenario_file).parent_path();
  std::error_code ec;
  const fs::path self = fs::weakly_canonical(scenario_file, ec);
  std::vector<std::pair<fs::path, JsonNode>> files;
  std::map<fs::path, std::string> seen;  // canonical path -> the entry that named it
  auto add = [&](const fs::path& path, const JsonNode& entry) {
    std::error_code canonical_ec;
    fs::path canonical = fs::weakly_canonical(path, canonical_ec);
    if (canonical_ec) canonical = path.lexically_normal();
    if (!self.empty() && canonical == self) {
      entry.fail("include cycle: " + path.generic_string() + " is the scenario itself");
    }
    auto [it, inserted] = seen.emplace(canonical, entry.pointer());
    if (!inserted) {
      entry.fail(path.generic_string() + " is already included by " + it->second);
    }
    if (files.size() == kMaxIncludedFiles) {
      entry.fail("more than " + std::to_string(kMaxIncludedFiles) + " included files");
    }
    files.emplace_back(path, entry);
  };
  for (const JsonNode& entry : include.elements()) {
    const std::string name = file_path_text(entry);
    if (name.empty()) entry.fail("an include path must not be empty");
    const fs::path path = (base / name).lexically_normal();
    std::error_code status_ec;
    const fs::file_status status = fs::status(path, status_ec);
    if (status_ec || !fs::exists(status)) {
      entry.fail("no such file or directory: " + path.generic_string());
    }
    if (fs::is_regular_file(status)) {
      add(path, entry);
      continue;
    }
    if (!fs::is_directory(status)) {
      // A device or a pipe could be endless.
      entry.fail("not a regular file or a directory: " + path.generic_string());
    }
    std::vector<fs::path> found;
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->is_regular_file(ec) && is_manifest_name(it->path())) found.push_back(it->path());
      if (found.size() > kMaxIncludedFiles) break;
    }
    if (ec) entry.fail("cannot read " + path.generic_string() + ": " + ec.message());
    if (found.empty()) {
      entry.fail("directory " + path.generic_string() + " holds no .json, .yaml or .yml file");
    }
    std::sort(found.begin(), found.end());
    for (const fs::path& file : found) add(file, entry);
  }
  return files;
}

/// A scenario's top-level keys.
constexpr std::array<std::string_view, 16> kScenarioKeys = {
    "apiVersion",   "name",       "description",     "startTime", "include",           "scheduler",
    "devicePlugin", "migConfigs", "nvidiaDraDriver", "nodePools", "clusterAutoscaler", "kueue",
    "cluster",      "timeline",   "expect",          "until"};

/// Where a manifest goes instead of being read as a scenario.
constexpr std::string_view kManifestHint =
    "add it to a cluster with `gpusched whatif --cluster CLUSTER --add FILE`, name it in a "
    "scenario's `include`, or read a `kubectl get -o json` dump with `gpusched snapshot`";

/// What the release's API server does not serve of the Workload API, refused at its place in the
/// file (the simulation checks again the timeline's objects, and a release given on the command
/// line).
void check_workload_api(const std::vector<JsonNode>& items, const Scenario& scenario) {
  for (std::size_t i = 0; i < items.size() && i < scenario.cluster.size(); ++i) {
    const std::optional<std::string> error =
        sim::unserved_workload_api(scenario.cluster[i], scenario.scheduler);
    if (!error) continue;
    const std::optional<JsonNode> spec = items[i].get("spec");
    std::optional<JsonNode> field = spec ? spec->get("workloadRef") : std::nullopt;
    if (!field && spec) field = spec->get("schedulingGroup");
    (field ? *field : items[i]).fail(*error);
  }
}

/// Kueue's pod webhook on the pods the scenario creates: the cluster's and the timeline's applies.
void check_kueue_pods(const std::vector<JsonNode>& items, const std::optional<JsonNode>& timeline,
                      const Scenario& scenario) {
  if (!scenario.kueue || !scenario.kueue->enabled("pod")) return;
  for (std::size_t i = 0; i < items.size() && i < scenario.cluster.size(); ++i) {
    if (std::holds_alternative<Pod>(scenario.cluster[i])) check_kueue_pod(items[i], scenario.kueue);
  }
  if (!timeline || !timeline->json().is_array()) return;
  for (const JsonNode& action : timeline->elements()) {
    std::optional<JsonNode> apply = action.json().is_object() ? action.get("apply") : std::nullopt;
    if (!apply) continue;
    const auto check = [&](const JsonNode& object) {
      const nlohmann::json& json = object.json();
      if (json.is_object() && json.value("kind", "") == "Pod" &&
          json.value("apiVersion", "") == "v1")
        check_kueue_pod(object, scenario.kueue);
    };
    if (apply->json().is_array()) {
      for (const JsonNode& object : apply->elements()) check(object);
    } else {
      check(*apply);
    }
  }
}

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& file,
                        const LoadOptions& options) {
  // Unknown fields of the objects, in the order the loader meets them (the cluster, the
  // included files' objects, the timeline), so that they read the same on every run.
  // What changes placement but is not modelled: fields as the parser meets them, then the
  // kinds left out (Scenario::notes).
  std::vector<std::string> warnings;
  std::vector<std::string> notes;
  const ParsedText parsed(file, text, &warnings, &notes, options.strict);
  const JsonSource& source = parsed.source();
  if (parsed.yaml() && parsed.documents() != 1) {
    source.fail("",
                parsed.documents() == 0
                    ? std::string("a scenario must be a YAML mapping, got no document")
                    : "a scenario file holds one YAML document, this one holds " +
                          std::to_string(parsed.documents()) +
                          ", as a Kubernetes manifest bundle does: " + std::string(kManifestHint));
  }
  const JsonNode root = parsed.root();
  if (!root.json().is_object()) {
    source.fail("", std::string("a scenario must be a ") +
                        (parsed.yaml() ? "YAML mapping" : "JSON object") + ", got " +
                        root.json().type_name());
  }
  // A manifest (what `kubectl apply` takes) read as a scenario would fail on its first key.
  if (const nlohmann::json& doc = root.json(); doc.contains("kind") && !doc.contains("name")) {
    const nlohmann::json& kind = doc["kind"];
    source.fail("",
                "this is a Kubernetes manifest" +
                    (kind.is_string() ? " (kind " + kind.get<std::string>() + ")" : std::string()) +
                    ", not a scenario: " + std::string(kManifestHint));
  }
  root.reject_unknown_keys(kScenarioKeys);
  if (auto version = root.get("apiVersion"); version && version->string() != kScenarioApiVersion) {
    version->fail("apiVersion \"" + version->string() + "\" is not a format this gpusched reads (" +
                  std::string(kScenarioApiVersion) + ")");
  }

  Scenario scenario;
  scenario.source = file;
  JsonNode name = root.required("name");
  scenario.name = name.string();
  if (scenario.name.empty()) name.fail("name must not be empty");
  if (auto description = root.get("description")) scenario.description = description->string();
  if (auto start = root.get("startTime")) scenario.start_time = read_rfc3339(*start);
  scenario.device_plugin =
      parse_device_plugin_settings(root.get("devicePlugin"), root.get("migConfigs"));
  if (auto driver = root.get("nvidiaDraDriver")) {
    scenario.nvidia_dra_driver = parse_nvidia_dra_driver(*driver);
  }
  if (auto scheduler = root.get("scheduler")) {
    scenario.scheduler =
        parse_scheduler_config(scheduler->rebased(), options.plugins, options.strict, &notes);
  }

  // The scenario's own cluster entries (a `kind: List` entry stands for its items), then each
  // included file's objects in include order.
  // Kinds gpusched does not model are left out here, one note per kind (kind_filter.hpp).
  KindFilter kinds(options.strict);
  std::vector<JsonNode> items;
  std::optional<JsonNode> cluster = root.get("cluster");
  if (cluster) {
    for (const JsonNode& entry : cluster->elements()) {
      std::vector<JsonNode> objects = kinds.kept(objects_of(entry));
      items.insert(items.end(), objects.begin(), objects.end());
    }
  }
  std::deque<ManifestFile> included;
  std::optional<JsonNode> include = root.get("include");
  if (include) {
    for (const auto& [path, entry] : included_files(*include, file)) {
      scenario.included.push_back(path.string());
      std::vector<JsonNode> objects =
          kinds.kept(included.emplace_back(path, &warnings, &notes, options.strict).objects());
      items.insert(items.end(), objects.begin(), objects.end());
    }
  }
  if (auto pools = root.get("nodePools")) scenario.node_pools = parse_node_pools(*pools);
  if (auto kueue = root.get("kueue")) scenario.kueue = parse_kueue(*kueue);
  if (auto autoscaler = root.get("clusterAutoscaler")) {
    scenario.cluster_autoscaler = parse_cluster_autoscaler(*autoscaler);
  }
  if (cluster || include) parse_cluster(items, cluster ? *cluster : *include, scenario);
  check_workload_api(items, scenario);
  check_pool_node_names(scenario.node_pools, scenario, items);

  if (auto until = root.get("until")) scenario.until = parse_time(*until);
  const std::optional<JsonNode> timeline = root.get("timeline");
  if (timeline) scenario.timeline = parse_timeline(*timeline, kinds);
  check_kueue_pods(items, timeline, scenario);
  if (auto expect = root.get("expect")) {
    scenario.expect = parse_expectations(*expect, scenario.until);
  }
  scenario.warnings = std::move(warnings);
  kinds.notes(notes);
  scenario.notes = std::move(notes);
  return scenario;
}

Scenario load_scenario(const std::filesystem::path& path, const LoadOptions& options) {
  const std::string file = path.string();
  const std::string text = read_input_file(path, file);
  return parse_scenario(text, file, options);
}

InputKind input_kind(const std::filesystem::path& path) {
  try {
    const std::string file = path.string();
    const std::string text = read_input_file(path, file);
    const ParsedText parsed(file, text);
    if (parsed.documents() > 1) return InputKind::Manifest;
    if (parsed.documents() == 0) return InputKind::Scenario;
    const nlohmann::json& root = parsed.root().json();
    if (!root.is_object()) return InputKind::Scenario;
    if (root.contains("kind") && !root.contains("name")) return InputKind::Manifest;
    const bool scenario_key = std::any_of(kScenarioKeys.begin(), kScenarioKeys.end(),
                                          [&](std::string_view key) { return root.contains(key); });
    return scenario_key ? InputKind::Scenario : InputKind::Other;
  } catch (const InputError&) {
    return InputKind::Scenario;
  }
}

bool is_manifest_file(const std::filesystem::path& path) {
  return input_kind(path) == InputKind::Manifest;
}

}  // namespace gpusched::io
