// A scenario's `devicePlugin` and `migConfigs` (lib/io/device_plugin_json.cpp): the NVIDIA
// device plugin's config format and mig-parted's, with their own error texts.
#include "io/device_plugin_json.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "io/json_source.hpp"

namespace gpusched {
namespace {

using devices::DevicePluginSettings;
using devices::SharingStrategy;

DevicePluginSettings parse(const std::string& text, std::vector<std::string>* warnings = nullptr) {
  io::JsonSource source("s.json", text);
  source.collect_warnings(warnings);
  const nlohmann::json document = source.parse();
  const io::JsonNode root(source, document, "");
  return io::parse_device_plugin_settings(root.get("devicePlugin"), root.get("migConfigs"));
}

/// "<pointer>: <reason>" of the InputError parsing `text` throws.
std::string error_of(const std::string& text) {
  try {
    (void)parse(text);
  } catch (const InputError& e) {
    return e.pointer() + ": " + e.reason();
  }
  return "no error";
}

/// A scenario whose only config "c" is `config`.
std::string with_config(const std::string& config) {
  return R"({"devicePlugin": {"default": "c", "configs": {"c": )" + config + "}}}";
}

TEST_CASE("devicePlugin holds named configs in the device plugin's format", "[io][devices]") {
  const DevicePluginSettings settings = parse(R"({"devicePlugin": {
    "default": "plain",
    "configs": {
      "plain": {"version": "v1"},
      "ts4": {"version": "v1",
              "flags": {"migStrategy": "mixed", "failOnInitError": true,
                        "plugin": {"deviceIDStrategy": "index", "deviceListStrategy": ["envvar"],
                                   "sharedDevicesAllocationPolicy": "packed"},
                        "gfd": {"oneshot": false}},
              "sharing": {"timeSlicing": {"renameByDefault": true,
                                          "resources": [{"name": "nvidia.com/gpu", "replicas": 4},
                                                        {"name": "mig-1g.10gb", "replicas": 2}]}}},
      "mps": {"version": "v1",
              "sharing": {"mps": {"resources": [{"name": "nvidia.com/gpu", "replicas": 3}]}}}
    }}})");
  CHECK(settings.default_config == "plain");
  REQUIRE(settings.configs.size() == 3);
  const auto& plain = settings.configs.at("plain");
  CHECK(plain.mig_strategy == "none");
  CHECK(plain.sharing == SharingStrategy::None);
  CHECK(plain.resources.empty());

  const auto& ts4 = settings.configs.at("ts4");
  CHECK(ts4.mig_strategy == "mixed");
  CHECK(ts4.device_id_strategy == "index");
  CHECK(ts4.shared_allocation_policy == "packed");
  CHECK(ts4.sharing == SharingStrategy::TimeSlicing);
  CHECK(ts4.rename_by_default);
  CHECK_FALSE(ts4.fail_requests_greater_than_one);
  REQUIRE(ts4.resources.size() == 2);
  CHECK(ts4.resources[0].name == "nvidia.com/gpu");
  CHECK(ts4.resources[0].replicas == 4);
  CHECK(ts4.resources[1].name == "nvidia.com/mig-1g.10gb");  // NewResourceName adds the prefix

  const auto& mps = settings.configs.at("mps");
  CHECK(mps.sharing == SharingStrategy::Mps);
  CHECK(mps.fail_requests_greater_than_one);  // MPS's historical default
  CHECK(parse("{}").configs.empty());
}

TEST_CASE("what the plugin ignores is accepted with its warning", "[io][devices]") {
  std::vector<std::string> warnings;
  (void)parse(with_config(R"({"version": "v1",
      "resources": {"gpus": [{"pattern": "*", "name": "gpu"}]},
      "sharing": {"timeSlicing": {"resources": [
        {"name": "nvidia.com/gpu", "replicas": 2, "rename": "gpu.ts", "devices": [0, 1]}]}}})"),
              &warnings);
  REQUIRE(warnings.size() == 3);
  CHECK(warnings[0] ==
        "s.json:2: /devicePlugin/configs/c/resources: Customizing the 'resources' "
        "field is not yet supported in the config. Ignoring...");
  CHECK(
      warnings[1].ends_with("/devicePlugin/configs/c/sharing/timeSlicing/resources/0/devices: "
                            "Customizing the 'devices' field in sharing.timeSlicing.resources "
                            "is not yet supported in the config. Ignoring..."));
  CHECK(
      warnings[2].ends_with("/resources/0/rename: Setting the 'rename' field in "
                            "sharing.timeSlicing.resources is not yet supported in the config. "
                            "Ignoring..."));
  warnings.clear();
  (void)parse(with_config(R"({"version": "v1", "sharing": {"mps": {"renameByDefault": true,
      "resources": [{"name": "gpu", "replicas": 2, "rename": "nvidia.com/gpu.shared",
                     "devices": "all"}]}}})"),
              &warnings);
  CHECK(warnings.empty());  // the default rename and all devices change nothing
}

TEST_CASE("device plugin configs fail with the plugin's words", "[io][devices]") {
  struct Row {
    const char* name;
    std::string text;
    const char* error;
  };
  const std::vector<Row> rows = {
      {"no version", with_config("{}"),
       "/devicePlugin/configs/c: missing required key \"version\""},
      {"other version", with_config(R"({"version": "v2"})"),
       "/devicePlugin/configs/c/version: unknown version: v2"},
      {"MIG strategy", with_config(R"({"version": "v1", "flags": {"migStrategy": "auto"}})"),
       "/devicePlugin/configs/c/flags/migStrategy: unknown MIG strategy: auto"},
      {"device ID strategy",
       with_config(R"({"version": "v1", "flags": {"plugin": {"deviceIDStrategy": "bus"}}})"),
       "/devicePlugin/configs/c/flags/plugin/deviceIDStrategy: invalid --device-id-strategy "
       "option: bus"},
      {"device list strategy",
       with_config(R"({"version": "v1", "flags": {"plugin": {"deviceListStrategy": ["envvar",
           "cdi"]}}})"),
       "/devicePlugin/configs/c/flags/plugin/deviceListStrategy/1: invalid --device-list-strategy "
       "option: invalid strategy: cdi"},
      {"no device list strategy",
       with_config(R"({"version": "v1", "flags": {"plugin": {"deviceListStrategy": []}}})"),
       "/devicePlugin/configs/c/flags/plugin/deviceListStrategy: invalid --device-list-strategy "
       "option: no device list strategy specified; at least one of [envvar volume-mounts "
       "cdi-annotations cdi-cri] is required"},
      {"allocation policy",
       with_config(R"({"version": "v1", "flags": {"plugin": {"sharedDevicesAllocationPolicy":
           "spread"}}})"),
       "/devicePlugin/configs/c/flags/plugin/sharedDevicesAllocationPolicy: invalid "
       "--shared-devices-allocation-policy option: spread"},
      {"unknown flag", with_config(R"({"version": "v1", "flags": {"migstrategy": "none"}})"),
       "/devicePlugin/configs/c/flags/migstrategy: unknown key \"migstrategy\" (known keys: "
       "migStrategy, failOnInitError, mpsRoot, nvidiaDriverRoot, nvidiaDevRoot, gdrcopyEnabled, "
       "gdsEnabled, mofedEnabled, useNodeFeatureAPI, deviceDiscoveryStrategy, plugin, gfd)"},
      {"one replica", with_config(R"({"version": "v1", "sharing": {"timeSlicing": {"resources": [
           {"name": "nvidia.com/gpu", "replicas": 1}]}}})"),
       "/devicePlugin/configs/c/sharing/timeSlicing/resources/0/replicas: number of replicas must "
       "be >= 2"},
      {"no replicas", with_config(R"({"version": "v1", "sharing": {"timeSlicing": {"resources": [
           {"name": "nvidia.com/gpu"}]}}})"),
       "/devicePlugin/configs/c/sharing/timeSlicing/resources/0: no replicas specified"},
      {"no name",
       with_config(R"({"version": "v1", "sharing": {"mps": {"resources": [{"replicas": 2}]}}})"),
       "/devicePlugin/configs/c/sharing/mps/resources/0: no resource name specified"},
      {"no resources", with_config(R"({"version": "v1", "sharing": {"timeSlicing": {}}})"),
       "/devicePlugin/configs/c/sharing/timeSlicing: no resources specified"},
      {"empty resources",
       with_config(R"({"version": "v1", "sharing": {"timeSlicing": {"resources": []}}})"),
       "/devicePlugin/configs/c/sharing/timeSlicing/resources: no resources specified"},
      {"bad devices", with_config(R"({"version": "v1", "sharing": {"timeSlicing": {"resources": [
           {"name": "nvidia.com/gpu", "replicas": 2, "devices": "some"}]}}})"),
       "/devicePlugin/configs/c/sharing/timeSlicing/resources/0/devices: devices set as 'some' but "
       "the only valid string input is 'all'"},
      {"long name", with_config(R"({"version": "v1", "sharing": {"timeSlicing": {"resources": [
           {"name": "gpu-with-a-name-much-longer-than-any-resource-should-ever-be", "replicas": 2}
           ]}}})"),
       "/devicePlugin/configs/c/sharing/timeSlicing/resources/0/name: fully-qualified resource "
       "name must be 63 characters or less: "
       "nvidia.com/gpu-with-a-name-much-longer-than-any-resource-should-ever-be"},
      {"duplicate resource",
       with_config(R"({"version": "v1", "sharing": {"timeSlicing": {"resources": [
           {"name": "gpu", "replicas": 2}, {"name": "nvidia.com/gpu", "replicas": 4}]}}})"),
       "/devicePlugin/configs/c/sharing/timeSlicing/resources/1: duplicate resource name "
       "\"nvidia.com/gpu\""},
      {"time-slicing and MPS", with_config(R"({"version": "v1", "sharing": {
           "timeSlicing": {"resources": [{"name": "nvidia.com/gpu", "replicas": 2}]},
           "mps": {"resources": [{"name": "nvidia.com/gpu", "replicas": 2}]}}})"),
       "/devicePlugin/configs/c/sharing: time-slicing and MPS are mutually exclusive"},
      {"MPS with mixed", with_config(R"({"version": "v1", "flags": {"migStrategy": "mixed"},
           "sharing": {"mps": {"resources": [{"name": "nvidia.com/gpu", "replicas": 2}]}}})"),
       "/devicePlugin/configs/c/flags/migStrategy: using --mig-strategy=mixed is not supported "
       "with MPS"},
      {"unknown default", R"({"devicePlugin": {"default": "ts", "configs": {}}})",
       "/devicePlugin/default: unknown device-plugin config \"ts\""},
      {"unknown key", R"({"devicePlugin": {"defaults": "ts"}})",
       "/devicePlugin/defaults: unknown key \"defaults\" (known keys: default, configs, "
       "configMap)"},
  };
  for (const Row& row : rows) {
    INFO(row.name);
    CHECK(error_of(row.text) == row.error);
  }
}

/// A scenario whose devicePlugin is the ConfigMap with `data` and the default "a".
std::string with_config_map(const std::string& data) {
  return R"({"devicePlugin": {"default": "a", "configMap": {"apiVersion": "v1", "kind": "ConfigMap",
      "metadata": {"name": "device-plugin-config", "namespace": "gpu-operator"},
      "data": )" +
         data + "}}}";
}

TEST_CASE("devicePlugin takes the GPU Operator's ConfigMap: each data key a config file",
          "[io][devices]") {
  // As `kubectl get configmap -o json` prints block scalars: YAML and JSON texts, `version`
  // defaulting to v1 as the plugin's parseConfigFrom defaults it, and an empty file.
  const DevicePluginSettings settings = parse(with_config_map(R"({
      "a": "version: v1\nflags:\n  migStrategy: none\n",
      "ts4": "sharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 4\n",
      "mps.json": "{\"version\": \"v1\", \"sharing\": {\"mps\": {\"resources\": [{\"name\": \"nvidia.com/gpu\", \"replicas\": 2}]}}}",
      "empty": ""})"));
  CHECK(settings.default_config == "a");
  REQUIRE(settings.configs.size() == 4);
  CHECK(settings.configs.at("a").sharing == SharingStrategy::None);
  const devices::DevicePluginConfig& ts4 = settings.configs.at("ts4");
  CHECK(ts4.sharing == SharingStrategy::TimeSlicing);
  REQUIRE(ts4.resources.size() == 1);
  CHECK(ts4.resources[0].replicas == 4);
  CHECK(settings.configs.at("mps.json").sharing == SharingStrategy::Mps);
  CHECK(settings.configs.at("mps.json").fail_requests_greater_than_one);
  CHECK(settings.configs.at("empty").mig_strategy == "none");

  std::vector<std::string> warnings;
  (void)parse(with_config_map(R"({"a": "version: v1\nresources:\n  gpus: []\n"})"), &warnings);
  CHECK(warnings == std::vector<std::string>{
                        "s.json:3: /devicePlugin/configMap/data/a: a:3: /resources: Customizing "
                        "the 'resources' field is not yet supported in the config. Ignoring..."});
}

TEST_CASE("a device-plugin ConfigMap's errors name the key and the place in its text",
          "[io][devices]") {
  struct Row {
    const char* name;
    std::string text;
    const char* error;
  };
  const std::vector<Row> rows = {
      {"bad replicas",
       with_config_map(
           R"({"a": "version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: gpu\n      replicas: 1\n"})"),
       "/devicePlugin/configMap/data/a: a:6: /sharing/timeSlicing/resources/0/replicas: number "
       "of replicas must be >= 2"},
      {"unknown version", with_config_map(R"({"a": "version: v2"})"),
       "/devicePlugin/configMap/data/a: a:1: /version: unknown version: v2"},
      {"bad YAML", with_config_map(R"({"a": "version: [v1"})"),
       "/devicePlugin/configMap/data/a: a:1: invalid YAML at column 1: end of sequence flow not "
       "found"},
      {"two documents", with_config_map(R"({"a": "version: v1\n---\nversion: v1\n"})"),
       "/devicePlugin/configMap/data/a: a:1: a device-plugin config holds one document, this one "
       "holds 2"},
      {"unknown default", with_config_map(R"({"b": "version: v1"})"),
       "/devicePlugin/default: unknown device-plugin config \"a\""},
      {"no data", R"({"devicePlugin": {"configMap": {"kind": "ConfigMap", "data": {}}}})",
       "/devicePlugin/configMap/data: the ConfigMap holds no config: the config-manager stops "
       "with \"no configuration files available\""},
      {"binaryData", R"({"devicePlugin": {"configMap": {"kind": "ConfigMap",
           "binaryData": {"a": "dmVyc2lvbjogdjE="}}}})",
       "/devicePlugin/configMap/binaryData: device-plugin configs in binaryData are not read: put "
       "them in data"},
      {"another kind", R"({"devicePlugin": {"configMap": {"kind": "Secret", "data": {}}}})",
       "/devicePlugin/configMap/kind: expected kind ConfigMap, got Secret"},
      {"both", R"({"devicePlugin": {"configs": {}, "configMap": {"kind": "ConfigMap"}}})",
       "/devicePlugin/configMap: give configs or configMap, not both"},
      {"missing file", R"({"devicePlugin": {"configMap": "/nonexistent/cm.yaml"}})",
       "/devicePlugin/configMap: no such file: /nonexistent/cm.yaml"},
  };
  for (const Row& row : rows) {
    INFO(row.name);
    CHECK(error_of(row.text) == row.error);
  }
}

TEST_CASE("migConfigs hold mig-parted layouts", "[io][devices]") {
  const DevicePluginSettings settings = parse(R"({"migConfigs": {
    "half": [{"devices": [0, 1], "mig-enabled": true,
              "mig-devices": {"1c.1g.10gb": 2, "1g.10gb": 1, "3g.40gb": 1, "2g.20gb": 0}},
             {"devices": "all", "mig-enabled": false}],
    "on": [{"devices": "all", "mig-enabled": true, "mig-devices": {}}]}})");
  REQUIRE(settings.mig_configs.size() == 2);
  const devices::MigConfig& half = settings.mig_configs.at("half");
  REQUIRE(half.size() == 2);
  CHECK(half[0].devices == std::vector<int>{0, 1});
  CHECK(half[0].enabled);
  CHECK(half[0].mig_devices == std::map<std::string, int>{{"1g.10gb", 3}, {"3g.40gb", 1}});
  CHECK_FALSE(half[1].devices);
  CHECK_FALSE(half[1].enabled);
  CHECK(settings.mig_configs.at("on")[0].mig_devices.empty());
}

TEST_CASE("migConfigs fail with mig-parted's words", "[io][devices]") {
  struct Row {
    const char* name;
    const char* text;
    const char* error;
  };
  const std::vector<Row> rows = {
      {"no configs", R"({"migConfigs": {}})",
       "/migConfigs: at least one entry in 'mig-configs' is required"},
      {"no entries", R"({"migConfigs": {"x": []}})",
       "/migConfigs/x: at least one entry in 'x' is required"},
      {"no mig-enabled", R"({"migConfigs": {"x": [{"devices": "all"}]}})",
       "/migConfigs/x/0: missing required field: mig-enabled"},
      {"no devices", R"({"migConfigs": {"x": [{"mig-enabled": false}]}})",
       "/migConfigs/x/0: missing required field: devices"},
      {"bad devices", R"({"migConfigs": {"x": [{"devices": "some", "mig-enabled": false}]}})",
       "/migConfigs/x/0/devices: invalid string input for 'devices': some"},
      {"enabled without devices", R"({"migConfigs": {"x": [{"devices": "all",
           "mig-enabled": true}]}})",
       "/migConfigs/x/0: missing required field 'mig-devices' when 'mig-enabled' is true"},
      {"disabled with devices", R"({"migConfigs": {"x": [{"devices": "all",
           "mig-enabled": false, "mig-devices": {"1g.10gb": 1}}]}})",
       "/migConfigs/x/0/mig-devices: MIG devices included when 'mig-enabled' is false"},
      {"bad profile", R"({"migConfigs": {"x": [{"devices": "all", "mig-enabled": true,
           "mig-devices": {"1g.10gb.me": 1}}]}})",
       "/migConfigs/x/0/mig-devices/1g.10gb.me: error validating values in 'mig-devices' field: "
       "invalid format for '1g.10gb.me': error parsing '.' separated fields in MigProfile string: "
       "missing 'c' from '%dc'"},
      {"negative count", R"({"migConfigs": {"x": [{"devices": "all", "mig-enabled": true,
           "mig-devices": {"1g.10gb": -1}}]}})",
       "/migConfigs/x/0/mig-devices/1g.10gb: error validating values in 'mig-devices' field: "
       "invalid count for '1g.10gb': -1"},
      {"device filter", R"({"migConfigs": {"x": [{"device-filter": "0x20B010DE",
           "devices": "all", "mig-enabled": false}]}})",
       "/migConfigs/x/0/device-filter: device-filter is not supported: gpusched knows GPUs by "
       "product, not by PCI device ID"},
      {"unexpected field", R"({"migConfigs": {"x": [{"devices": "all", "mig-enabled": false,
           "mig-device": {}}]}})",
       "/migConfigs/x/0/mig-device: unexpected field: mig-device"},
  };
  for (const Row& row : rows) {
    INFO(row.name);
    CHECK(error_of(row.text) == row.error);
  }
}

}  // namespace
}  // namespace gpusched
