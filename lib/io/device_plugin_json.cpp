#include "io/device_plugin_json.hpp"

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "devices/mig.hpp"
#include "gpusched/error.hpp"
#include "gpusched/io/device_plugin_configs.hpp"
#include "gpusched/model/resource_list.hpp"
#include "io/api_fields.hpp"
#include "io/file_path.hpp"
#include "io/input_text.hpp"

namespace gpusched::io {
namespace {

using devices::DevicePluginConfig;
using devices::DevicePluginSettings;
using devices::MigConfig;
using devices::MigConfigEntry;
using devices::ReplicatedResource;
using devices::SharingStrategy;

// api/config/v1/consts.go.
constexpr std::string_view kResourceNamePrefix = "nvidia.com/";
constexpr std::size_t kMaxResourceNameLength = 63;
constexpr std::string_view kSharedSuffix = ".shared";

bool is_one_of(std::string_view value, std::initializer_list<std::string_view> allowed) {
  return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

void warn(const JsonNode& node, const std::string& reason) {
  node.source().warn(node.pointer(), reason);
}

// resources.go NewResourceName: "nvidia.com/" prepended when missing, at most 63 characters, a
// valid name part. Upstream checks the part as a DNS-1123 subdomain; gpusched checks the whole
// name as an extended resource's qualified name, which also admits upper case and '_'.
std::string resource_name(const JsonNode& node) {
  std::string name = node.string();
  if (!name.starts_with(kResourceNamePrefix)) name = std::string(kResourceNamePrefix) + name;
  if (name.size() > kMaxResourceNameLength) {
    node.fail("fully-qualified resource name must be " + std::to_string(kMaxResourceNameLength) +
              " characters or less: " + name);
  }
  const std::vector<std::string> errors = resource::qualified_name_errors(name);
  if (!errors.empty()) {
    std::string list;
    for (const std::string& e : errors) list += (list.empty() ? "" : " ") + e;
    node.fail("incorrect format for resource name '" + name + "': [" + list + "]");
  }
  return name;
}

// replicas.go ReplicatedDevices.UnmarshalJSON: "all", a count > 0, or a list of devices. Only
// "all" takes effect (DisableResourceNamingInConfig), so the list is not looked into.
bool all_devices(const JsonNode& node) {
  if (node.is_string()) {
    const std::string value = node.string();
    if (value != "all") {
      node.fail("devices set as '" + value + "' but the only valid string input is 'all'");
    }
    return true;
  }
  if (node.is_number()) {
    const std::int64_t count = node.integer();
    if (count <= 0) {
      node.fail("devices set as '" + std::to_string(count) +
                "' but a count of devices must be > 0");
    }
    return false;
  }
  if (!node.json().is_array())
    node.fail("unrecognized type for devices spec: " + node.json().dump());
  return false;
}

// replicas.go ReplicatedResource.UnmarshalJSON (name, devices, replicas, rename in that order),
// then DisableResourceNamingInConfig's warnings for what it resets.
ReplicatedResource parse_replicated_resource(const JsonNode& item, bool rename_by_default,
                                             std::string_view block) {
  item.reject_unknown_keys({"name", "rename", "devices", "replicas"});
  ReplicatedResource out;
  const auto name = item.get("name");
  if (!name) item.fail("no resource name specified");
  out.name = resource_name(*name);
  if (const auto devices = item.get("devices"); devices && !all_devices(*devices)) {
    warn(*devices, "Customizing the 'devices' field in " + std::string(block) +
                       " is not yet supported in the config. Ignoring...");
  }
  const auto replicas = item.get("replicas");
  if (!replicas) item.fail("no replicas specified");
  out.replicas = replicas->int32();
  if (out.replicas < 2) replicas->fail("number of replicas must be >= 2");
  if (const auto rename = item.get("rename")) {
    const std::string value = resource_name(*rename);
    if (!rename_by_default || value != out.name + std::string(kSharedSuffix)) {
      warn(*rename, "Setting the 'rename' field in " + std::string(block) +
                        " is not yet supported in the config. Ignoring...");
    }
  }
  return out;
}

// sharing.timeSlicing / sharing.mps (ReplicatedResources): failRequestsGreaterThanOne defaults
// to false for time-slicing and to true for MPS (NewConfig keeps the historical MPS behaviour).
void parse_sharing_block(const JsonNode& node, bool mps, DevicePluginConfig& out) {
  node.reject_unknown_keys({"renameByDefault", "failRequestsGreaterThanOne", "resources"});
  out.sharing = mps ? SharingStrategy::Mps : SharingStrategy::TimeSlicing;
  if (const auto rename = node.get("renameByDefault")) out.rename_by_default = rename->boolean();
  const auto fail_requests = node.get("failRequestsGreaterThanOne");
  out.fail_requests_greater_than_one = fail_requests ? fail_requests->boolean() : mps;
  const auto resources = node.get("resources");
  if (!resources || resources->elements().empty()) {
    (resources ? *resources : node).fail("no resources specified");
  }
  const std::string_view block = mps ? "sharing.mps.resources" : "sharing.timeSlicing.resources";
  for (const JsonNode& item : resources->elements()) {
    ReplicatedResource r = parse_replicated_resource(item, out.rename_by_default, block);
    const bool duplicate =
        std::any_of(out.resources.begin(), out.resources.end(),
                    [&](const ReplicatedResource& o) { return o.name == r.name; });
    if (duplicate) item.fail("duplicate resource name \"" + r.name + "\"");
    out.resources.push_back(std::move(r));
  }
}

// strategy.go NewDeviceListStrategies, as validateFlags words its failure; the value is one
// strategy or a list (flags.go deviceListStrategyFlag).
void check_device_list_strategy(const JsonNode& node) {
  const std::string prefix = "invalid --device-list-strategy option: ";
  std::vector<JsonNode> items;
  if (node.json().is_array()) {
    items = node.elements();
  } else {
    items.push_back(node);
  }
  if (items.empty()) {
    node.fail(prefix +
              "no device list strategy specified; at least one of [envvar volume-mounts "
              "cdi-annotations cdi-cri] is required");
  }
  for (const JsonNode& item : items) {
    const std::string value = item.string();
    if (!is_one_of(value, {"envvar", "volume-mounts", "cdi-annotations", "cdi-cri"})) {
      item.fail(prefix + "invalid strategy: " + value);
    }
  }
}

// flags.go PluginCommandLineFlags, validated as cmd/nvidia-device-plugin/main.go validateFlags.
void parse_plugin_flags(const JsonNode& node, DevicePluginConfig& out) {
  node.reject_unknown_keys({"passDeviceSpecs", "deviceListStrategy", "deviceIDStrategy",
                            "cdiAnnotationPrefix", "nvidiaCDIHookPath", "nvidiaCTKPath",
                            "containerDriverRoot", "driverRootCtrPath",
                            "sharedDevicesAllocationPolicy"});
  if (const auto list = node.get("deviceListStrategy")) check_device_list_strategy(*list);
  if (const auto id = node.get("deviceIDStrategy")) {
    out.device_id_strategy = id->string();
    if (!is_one_of(out.device_id_strategy, {"uuid", "index"})) {
      id->fail("invalid --device-id-strategy option: " + out.device_id_strategy);
    }
  }
  if (const auto policy = node.get("sharedDevicesAllocationPolicy")) {
    out.shared_allocation_policy = policy->string();
    if (!is_one_of(out.shared_allocation_policy, {"distributed", "packed"})) {
      policy->fail("invalid --shared-devices-allocation-policy option: " +
                   out.shared_allocation_policy);
    }
  }
}

// flags.go CommandLineFlags; only migStrategy and plugin matter, the others are accepted.
void parse_flags(const JsonNode& node, DevicePluginConfig& out) {
  node.reject_unknown_keys({"migStrategy", "failOnInitError", "mpsRoot", "nvidiaDriverRoot",
                            "nvidiaDevRoot", "gdrcopyEnabled", "gdsEnabled", "mofedEnabled",
                            "useNodeFeatureAPI", "deviceDiscoveryStrategy", "plugin", "gfd"});
  if (const auto strategy = node.get("migStrategy")) {
    out.mig_strategy = strategy->string();
    if (!is_one_of(out.mig_strategy, {"none", "single", "mixed"})) {
      strategy->fail("unknown MIG strategy: " + out.mig_strategy);
    }
  }
  if (const auto plugin = node.get("plugin")) parse_plugin_flags(*plugin, out);
}

// config.go parseConfigFrom, then DisableResourceNamingInConfig and validateFlags. Upstream
// defaults `version` to v1; a scenario's inline config must say it, a config file (a ConfigMap
// key) need not.
DevicePluginConfig parse_config(const JsonNode& node, bool config_file) {
  node.reject_unknown_keys({"version", "flags", "resources", "sharing", "imex"});
  const std::optional<JsonNode> version =
      config_file ? node.get("version") : node.required("version");
  if (version && version->string() != "v1") version->fail("unknown version: " + version->string());
  DevicePluginConfig out;
  if (const auto flags = node.get("flags")) parse_flags(*flags, out);
  if (const auto resources = node.get("resources")) {
    warn(*resources,
         "Customizing the 'resources' field is not yet supported in the config. "
         "Ignoring...");
  }
  if (const auto sharing = node.get("sharing")) {
    sharing->reject_unknown_keys({"timeSlicing", "mps"});
    const auto time_slicing = sharing->get("timeSlicing");
    const auto mps = sharing->get("mps");
    // Upstream lets MPS win silently (Sharing.ReplicatedResources); its README says the two are
    // mutually exclusive, and gpusched holds the scenario to that.
    if (time_slicing && mps) sharing->fail("time-slicing and MPS are mutually exclusive");
    if (time_slicing) parse_sharing_block(*time_slicing, false, out);
    if (mps) parse_sharing_block(*mps, true, out);
  }
  if (out.sharing == SharingStrategy::Mps && out.mig_strategy == "mixed") {
    node.required("flags")
        .required("migStrategy")
        .fail("using --mig-strategy=mixed is not supported with MPS");
  }
  return out;
}

// mig-parted api/spec/v1/spec.go MigConfigSpec.UnmarshalJSON and types.MigConfig validation.
MigConfigEntry parse_mig_entry(const JsonNode& node) {
  for (const std::string_view field : {"devices", "mig-enabled"}) {
    if (!node.object().contains(std::string(field))) {
      node.fail("missing required field: " + std::string(field));
    }
  }
  for (const auto& [key, value] : node.entries()) {
    if (key == "device-filter") {
      value.fail(
          "device-filter is not supported: gpusched knows GPUs by product, not by PCI "
          "device ID");
    }
    if (!is_one_of(key, {"devices", "mig-enabled", "mig-devices"})) {
      value.fail("unexpected field: " + key);
    }
  }
  MigConfigEntry out;
  const JsonNode devices = node.required("devices");
  if (devices.is_string()) {
    if (devices.string() != "all") {
      devices.fail("invalid string input for 'devices': " + devices.string());
    }
  } else {
    out.devices.emplace();
    for (const JsonNode& index : devices.elements()) out.devices->push_back(index.int32());
  }
  out.enabled = node.required("mig-enabled").boolean();
  const auto mig_devices = node.get("mig-devices");
  if (out.enabled && !mig_devices) {
    node.fail("missing required field 'mig-devices' when 'mig-enabled' is true");
  }
  if (!mig_devices) return out;
  const auto profiles = mig_devices->entries();
  if (!out.enabled && !profiles.empty()) {
    mig_devices->fail("MIG devices included when 'mig-enabled' is false");
  }
  const std::string prefix = "error validating values in 'mig-devices' field: ";
  for (const auto& [name, count] : profiles) {
    std::string error;
    const auto profile = devices::parse_mig_profile(name, &error);
    if (!profile) count.fail(prefix + "invalid format for '" + name + "': " + error);
    const std::int32_t n = count.int32();
    if (n < 0) count.fail(prefix + "invalid count for '" + name + "': " + std::to_string(n));
    if (n > 0) out.mig_devices[profile->name()] += n;
  }
  return out;
}

// One ConfigMap key as the device plugin reads the file the config-manager links to it: YAML or
// JSON (sigs.k8s.io/yaml), empty meaning the plugin's defaults. Its errors and warnings read
// `<ConfigMap place>: <key>:<line>: <pointer>: <reason>`, the key standing for the file it is
// mounted as.
DevicePluginConfig parse_config_text(const std::string& key, const JsonNode& value) {
  const std::string text = value.string();
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return {};
  std::vector<std::string> warnings;
  try {
    const ParsedText parsed(key, text, &warnings);
    if (parsed.documents() != 1) {
      parsed.source().fail("", "a device-plugin config holds one document, this one holds " +
                                   std::to_string(parsed.documents()));
    }
    DevicePluginConfig config = parse_config(parsed.root(), true);
    for (const std::string& warning : warnings) value.source().warn(value.pointer(), warning);
    return config;
  } catch (const InputError& error) {
    value.fail(error.what());
  }
}

// The GPU Operator's device-plugin ConfigMap (ClusterPolicy devicePlugin.config.name): mounted
// whole at /available-configs, one file per key (gpu-operator controllers/object_controls.go
// handleDevicePluginConfig, createConfigMapVolume), each key a config the config-manager
// (k8s-device-plugin cmd/config-manager/main.go) may select for a node.
std::map<std::string, DevicePluginConfig> parse_config_map(const JsonNode& node) {
  node.expect_type(nlohmann::json::value_t::object, "a ConfigMap object");
  node.note_unknown_keys(api_fields::kConfigMap);
  const JsonNode kind = node.required("kind");
  if (kind.string() != "ConfigMap") kind.fail("expected kind ConfigMap, got " + kind.string());
  if (const auto version = node.get("apiVersion"); version && version->string() != "v1") {
    version->fail("a ConfigMap's apiVersion is v1, got " + version->string());
  }
  // Its keys are files too, but gpusched reads configs as text.
  if (const auto binary = node.get("binaryData"); binary && !binary->entries().empty()) {
    binary->fail("device-plugin configs in binaryData are not read: put them in data");
  }
  const std::optional<JsonNode> data = node.get("data");
  if (!data || data->entries().empty()) {
    (data ? *data : node.missing("data"))
        .fail(
            "the ConfigMap holds no config: the config-manager stops with \"no configuration "
            "files available\"");
  }
  std::map<std::string, DevicePluginConfig> out;
  for (const auto& [key, value] : data->entries()) out.emplace(key, parse_config_text(key, value));
  return out;
}

// A ConfigMap file named by the scenario, relative to the scenario's directory.
std::map<std::string, DevicePluginConfig> read_config_map_file(const JsonNode& node) {
  const std::string name = file_path_text(node);
  if (name.empty()) node.fail("file name must not be empty");
  std::filesystem::path path(name);
  if (path.is_relative()) path = std::filesystem::path(node.source().file()).parent_path() / path;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) node.fail("no such file: " + path.string());
  return load_device_plugin_configs(path, node.source().warnings_sink());
}

std::map<std::string, MigConfig> parse_mig_configs(const JsonNode& node) {
  std::map<std::string, MigConfig> out;
  const auto configs = node.entries();
  if (configs.empty()) node.fail("at least one entry in 'mig-configs' is required");
  for (const auto& [name, entries] : configs) {
    MigConfig config;
    for (const JsonNode& entry : entries.elements()) config.push_back(parse_mig_entry(entry));
    if (config.empty()) entries.fail("at least one entry in '" + name + "' is required");
    out.emplace(name, std::move(config));
  }
  return out;
}

}  // namespace

DevicePluginSettings parse_device_plugin_settings(const std::optional<JsonNode>& device_plugin,
                                                  const std::optional<JsonNode>& mig_configs) {
  DevicePluginSettings out;
  if (device_plugin) {
    device_plugin->reject_unknown_keys({"default", "configs", "configMap"});
    const auto configs = device_plugin->get("configs");
    const auto config_map = device_plugin->get("configMap");
    if (configs && config_map) config_map->fail("give configs or configMap, not both");
    if (configs) {
      for (const auto& [name, config] : configs->entries()) {
        out.configs.emplace(name, parse_config(config, false));
      }
    }
    if (config_map) {
      out.configs = config_map->is_string() ? read_config_map_file(*config_map)
                                            : parse_config_map(*config_map);
    }
    if (const auto default_config = device_plugin->get("default")) {
      out.default_config = default_config->string();
      if (!out.configs.contains(out.default_config)) {
        default_config->fail("unknown device-plugin config \"" + out.default_config + "\"");
      }
    }
  }
  if (mig_configs) out.mig_configs = parse_mig_configs(*mig_configs);
  return out;
}

nlohmann::json device_plugin_json(const DevicePluginSettings& settings) {
  if (settings.configs.empty() && settings.default_config.empty()) return nullptr;
  nlohmann::json configs = nlohmann::json::object();
  for (const auto& [name, config] : settings.configs) {
    nlohmann::json out = {
        {"version", "v1"},
        {"flags",
         {{"migStrategy", config.mig_strategy},
          {"plugin",
           {{"deviceIDStrategy", config.device_id_strategy},
            {"sharedDevicesAllocationPolicy", config.shared_allocation_policy}}}}}};
    if (config.sharing != SharingStrategy::None) {
      nlohmann::json resources = nlohmann::json::array();
      for (const ReplicatedResource& r : config.resources) {
        resources.push_back({{"name", r.name}, {"replicas", r.replicas}});
      }
      out["sharing"][config.sharing == SharingStrategy::Mps ? "mps" : "timeSlicing"] = {
          {"renameByDefault", config.rename_by_default},
          {"failRequestsGreaterThanOne", config.fail_requests_greater_than_one},
          {"resources", std::move(resources)}};
    }
    configs[name] = std::move(out);
  }
  nlohmann::json out = {{"configs", std::move(configs)}};
  if (!settings.default_config.empty()) out["default"] = settings.default_config;
  return out;
}

std::map<std::string, devices::DevicePluginConfig> load_device_plugin_configs(
    const std::filesystem::path& path, std::vector<std::string>* warnings) {
  const ManifestFile file(path, warnings);
  const std::vector<JsonNode> objects = file.objects();
  if (objects.size() != 1) {
    file.parsed().source().fail("",
                                "a device-plugin ConfigMap file holds one ConfigMap, this one "
                                "holds " +
                                    std::to_string(objects.size()) + " objects");
  }
  return parse_config_map(objects.front());
}

}  // namespace gpusched::io
