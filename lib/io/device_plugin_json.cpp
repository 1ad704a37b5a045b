#include "io/device_plugin_json.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "devices/mig.hpp"
#include "gpusched/model/resource_list.hpp"

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

// config.go parseConfigFrom (gpusched requires `version`, which upstream defaults to v1), then
// DisableResourceNamingInConfig and validateFlags.
DevicePluginConfig parse_config(const JsonNode& node) {
  node.reject_unknown_keys({"version", "flags", "resources", "sharing", "imex"});
  const JsonNode version = node.required("version");
  if (version.string() != "v1") version.fail("unknown version: " + version.string());
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
    device_plugin->reject_unknown_keys({"default", "configs"});
    if (const auto configs = device_plugin->get("configs")) {
      for (const auto& [name, config] : configs->entries()) {
        out.configs.emplace(name, parse_config(config));
      }
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

}  // namespace gpusched::io
