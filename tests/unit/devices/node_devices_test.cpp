// A GPU node's devices and GFD labels (lib/devices/node_devices.cpp): the NVIDIA device plugin's
// advertised resources under sharing and MIG strategies, and GPU Feature Discovery's labels,
// with gpu-sharing.md §1's worked examples.
#include "devices/node_devices.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace gpusched::devices {
namespace {

constexpr const char* kA100 = "NVIDIA-A100-SXM4-80GB";
constexpr const char* kH100 = "NVIDIA-H100-80GB-HBM3";

Node gpu_node(const std::string& product, int count, Labels extra = {}, Labels annotations = {}) {
  Node node;
  node.metadata.name = "gpu-node-0";
  node.metadata.labels = std::move(extra);
  node.metadata.labels["nvidia.com/gpu.product"] = product;
  node.metadata.labels["nvidia.com/gpu.count"] = std::to_string(count);
  node.metadata.labels.try_emplace("nvidia.com/gpu.memory", "81920");
  node.metadata.annotations = std::move(annotations);
  return node;
}

DevicePluginConfig shared(SharingStrategy sharing, int replicas, bool rename = false,
                          std::string resource = "nvidia.com/gpu") {
  DevicePluginConfig config;
  config.sharing = sharing;
  config.rename_by_default = rename;
  config.resources = {{std::move(resource), replicas}};
  return config;
}

DevicePluginConfig mig_strategy(std::string strategy, DevicePluginConfig config = {}) {
  config.mig_strategy = std::move(strategy);
  return config;
}

/// Settings whose default config is `config`.
DevicePluginSettings with_default(DevicePluginConfig config) {
  DevicePluginSettings settings;
  settings.default_config = "default";
  settings.configs["default"] = std::move(config);
  return settings;
}

NodeDevices derive(const Node& node, const DevicePluginSettings& settings = {}) {
  std::string error;
  auto out = derive_node_devices(node, settings, &error);
  INFO(error);
  REQUIRE(out);
  CHECK(error.empty());
  return *out;
}

std::string derive_error(const Node& node, const DevicePluginSettings& settings = {}) {
  std::string error;
  CHECK_FALSE(derive_node_devices(node, settings, &error));
  return error;
}

ResourceList units(std::initializer_list<std::pair<const char*, std::int64_t>> counts) {
  ResourceList out;
  for (const auto& [name, n] : counts) out.emplace(name, Quantity::from_units(n));
  return out;
}

/// The labels under `prefix` ("nvidia.com/gpu." ...), for comparing whole groups.
Labels labels_with(const Labels& labels, const std::string& prefix) {
  Labels out;
  for (const auto& [key, value] : labels) {
    if (key.starts_with(prefix)) out.emplace(key, value);
  }
  return out;
}

TEST_CASE("device_uuid is a deterministic 128-bit FNV-1a of prefix, node and indices",
          "[devices]") {
  // Pinned: reports and golden results show these IDs.
  CHECK(device_uuid("GPU", "gpu-node-0", 0) == "GPU-f95c7c3e-7ca3-6e51-190b-b432a5f38861");
  CHECK(device_uuid("MIG", "gpu-node-0", 0, 1) == "MIG-da9bf9ed-d5ef-8ac7-0ca7-2e20788a2a82");
  std::set<std::string> seen;
  for (const char* node : {"a", "b", "gpu-node-0"}) {
    for (int i = 0; i < 8; ++i) {
      seen.insert(device_uuid("GPU", node, i));
      for (int j = 0; j < 7; ++j) seen.insert(device_uuid("MIG", node, i, j));
    }
  }
  CHECK(seen.size() == 3 * 8 * 8);
  for (const std::string& uuid : seen) {
    INFO(uuid);
    const std::string hex = uuid.substr(4);
    REQUIRE(hex.size() == 36);
    for (std::size_t i = 0; i < hex.size(); ++i) {
      const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
      CHECK((dash ? hex[i] == '-'
                  : (std::isxdigit(hex[i]) != 0 && std::islower(hex[i]) != 0) ||
                        std::isdigit(hex[i]) != 0));
    }
  }
  CHECK(device_uuid("GPU", "gpu-node-0", 3) == device_uuid("GPU", "gpu-node-0", 3));
}

TEST_CASE("a node without GPU labels has no devices", "[devices]") {
  Node node;
  node.metadata.name = "cpu";
  std::string error = "stale";
  CHECK_FALSE(derive_node_devices(node, {}, &error));
  CHECK(error.empty());
}

TEST_CASE("time-slicing replicas multiply nvidia.com/gpu (gpu-sharing.md §1.2)", "[devices]") {
  const NodeDevices node =
      derive(gpu_node(kA100, 8), with_default(shared(SharingStrategy::TimeSlicing, 4)));
  CHECK(node.capacity() == units({{"nvidia.com/gpu", 32}}));
  CHECK(node.allocatable() == units({{"nvidia.com/gpu", 32}}));
  REQUIRE(node.devices.size() == 32);
  CHECK(node.devices[0].id == node.gpus[0].uuid + "::0");
  CHECK(node.devices[3].id == node.gpus[0].uuid + "::3");
  CHECK(node.devices[4].id == node.gpus[1].uuid + "::0");
  CHECK(node.devices[31].gpu == 7);
  CHECK(std::all_of(node.devices.begin(), node.devices.end(),
                    [](const Device& d) { return d.replica && !d.mig; }));
  CHECK(labels_with(node.gfd_labels(), "nvidia.com/gpu.") ==
        Labels{{"nvidia.com/gpu.count", "8"},
               {"nvidia.com/gpu.memory", "81920"},
               {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB-SHARED"},
               {"nvidia.com/gpu.replicas", "4"},
               {"nvidia.com/gpu.sharing-strategy", "time-slicing"}});
  CHECK_FALSE(node.gfd_labels().contains("nvidia.com/mig.strategy"));
}

TEST_CASE("renameByDefault advertises <name>.shared and drops -SHARED", "[devices]") {
  const NodeDevices node =
      derive(gpu_node(kA100, 8), with_default(shared(SharingStrategy::TimeSlicing, 4, true)));
  CHECK(node.capacity() == units({{"nvidia.com/gpu.shared", 32}}));
  const Labels labels = node.gfd_labels();
  CHECK(labels.at("nvidia.com/gpu.product") == "NVIDIA-A100-SXM4-80GB");
  CHECK(labels.at("nvidia.com/gpu.replicas") == "4");
  CHECK(labels.at("nvidia.com/gpu.sharing-strategy") == "time-slicing");
}

TEST_CASE("MPS replicas count like time-slicing and label mps", "[devices]") {
  const NodeDevices node =
      derive(gpu_node(kH100, 2), with_default(shared(SharingStrategy::Mps, 3)));
  CHECK(node.capacity() == units({{"nvidia.com/gpu", 6}}));
  CHECK(node.gfd_labels().at("nvidia.com/gpu.sharing-strategy") == "mps");
  CHECK(node.gfd_labels().at("nvidia.com/gpu.product") == "NVIDIA-H100-80GB-HBM3-SHARED");
}

TEST_CASE("without a config the plugin's defaults apply", "[devices]") {
  const NodeDevices node = derive(gpu_node(kA100, 8));
  CHECK(node.config_name.empty());
  CHECK(node.capacity() == units({{"nvidia.com/gpu", 8}}));
  REQUIRE(node.gpus.size() == 8);
  CHECK(node.devices[5].id == node.gpus[5].uuid);
  CHECK(node.gpus[5].uuid == device_uuid("GPU", "gpu-node-0", 5));
  CHECK(labels_with(node.gfd_labels(), "nvidia.com/") ==
        Labels{{"nvidia.com/gpu.count", "8"},
               {"nvidia.com/gpu.memory", "81920"},
               {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"},
               {"nvidia.com/gpu.replicas", "1"},
               {"nvidia.com/gpu.sharing-strategy", "none"}});
}

TEST_CASE("the node's config label picks a named config", "[devices]") {
  DevicePluginSettings settings = with_default({});
  settings.configs["ts2"] = shared(SharingStrategy::TimeSlicing, 2);
  const NodeDevices node =
      derive(gpu_node(kA100, 8, {{"nvidia.com/device-plugin.config", "ts2"}}), settings);
  CHECK(node.config_name == "ts2");
  CHECK(node.capacity() == units({{"nvidia.com/gpu", 16}}));
}

TEST_CASE("an unhealthy GPU leaves allocatable, not capacity", "[devices]") {
  NodeDevices node = derive(gpu_node(kA100, 8));
  node.gpus[3].healthy = false;
  CHECK(node.capacity() == units({{"nvidia.com/gpu", 8}}));
  CHECK(node.allocatable() == units({{"nvidia.com/gpu", 7}}));

  NodeDevices sliced =
      derive(gpu_node(kA100, 8), with_default(shared(SharingStrategy::TimeSlicing, 4)));
  sliced.gpus[0].healthy = false;
  CHECK(sliced.capacity() == units({{"nvidia.com/gpu", 32}}));
  CHECK(sliced.allocatable() == units({{"nvidia.com/gpu", 28}}));
}

TEST_CASE("mixed all-balanced on 8 A100-80GB (gpu-sharing.md §1.4)", "[devices]") {
  const NodeDevices node = derive(gpu_node(kA100, 8, {{"nvidia.com/mig.config", "all-balanced"}}),
                                  with_default(mig_strategy("mixed")));
  CHECK(node.capacity() == units({{"nvidia.com/mig-1g.10gb", 16},
                                  {"nvidia.com/mig-2g.20gb", 8},
                                  {"nvidia.com/mig-3g.40gb", 8}}));
  CHECK(node.plugin_error.empty());
  REQUIRE(node.gpus[0].mig.size() == 4);
  CHECK(node.gpus[0].mig_enabled);
  CHECK(node.gpus[0].mig[0].profile == "3g.40gb");
  CHECK(node.gpus[0].mig[1].uuid == device_uuid("MIG", "gpu-node-0", 0, 1));
  CHECK(std::all_of(node.devices.begin(), node.devices.end(), [](const Device& d) {
    return d.mig && !d.replica && d.id.starts_with("MIG-");
  }));
  const Labels labels = node.gfd_labels();
  CHECK(labels_with(labels, "nvidia.com/gpu.") ==
        Labels{{"nvidia.com/gpu.count", "8"},
               {"nvidia.com/gpu.memory", "81920"},
               {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"},
               {"nvidia.com/gpu.replicas", "0"},  // MIG-enabled GPUs label without sharing
               {"nvidia.com/gpu.sharing-strategy", "none"}});
  CHECK(labels.at("nvidia.com/mig.strategy") == "mixed");
  CHECK(labels_with(labels, "nvidia.com/mig-1g.10gb.") ==
        Labels{{"nvidia.com/mig-1g.10gb.count", "16"},
               {"nvidia.com/mig-1g.10gb.product", "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb"},
               {"nvidia.com/mig-1g.10gb.replicas", "1"},
               {"nvidia.com/mig-1g.10gb.sharing-strategy", "none"},
               {"nvidia.com/mig-1g.10gb.slices.ci", "1"},
               {"nvidia.com/mig-1g.10gb.slices.gi", "1"}});
  CHECK(labels.at("nvidia.com/mig-3g.40gb.count") == "8");
  CHECK(labels.at("nvidia.com/mig-3g.40gb.slices.gi") == "3");
}

TEST_CASE("mixed keeps MIG-disabled GPUs as nvidia.com/gpu and shares MIG resources", "[devices]") {
  DevicePluginSettings settings = with_default(mig_strategy(
      "mixed", shared(SharingStrategy::TimeSlicing, 2, false, "nvidia.com/mig-1g.10gb")));
  settings.mig_configs["half"] = {{std::vector<int>{0, 1, 2, 3}, true, {{"1g.10gb", 7}}}};
  const NodeDevices node =
      derive(gpu_node(kA100, 8, {{"nvidia.com/mig.config", "half"}}), settings);
  CHECK(node.capacity() == units({{"nvidia.com/gpu", 4}, {"nvidia.com/mig-1g.10gb", 56}}));
  const Labels labels = node.gfd_labels();
  CHECK(labels.at("nvidia.com/gpu.count") == "8");
  CHECK(labels.at("nvidia.com/gpu.replicas") == "1");
  CHECK(labels.at("nvidia.com/mig-1g.10gb.count") == "28");
  CHECK(labels.at("nvidia.com/mig-1g.10gb.replicas") == "2");
  CHECK(labels.at("nvidia.com/mig-1g.10gb.sharing-strategy") == "time-slicing");
  CHECK(labels.at("nvidia.com/mig-1g.10gb.product") == "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb-SHARED");
}

TEST_CASE("mixed names a media-extension profile with a dot", "[devices]") {
  const NodeDevices node = derive(gpu_node(kH100, 2, {{"nvidia.com/mig.config", "all-1g.10gb.me"}}),
                                  with_default(mig_strategy("mixed")));
  CHECK(node.capacity() == units({{"nvidia.com/mig-1g.10gb.me", 2}}));
  CHECK(node.gfd_labels().at("nvidia.com/mig-1g.10gb.me.product") ==
        "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb.me");
}

TEST_CASE("single all-1g.10gb on 8 H100-80GB (gpu-sharing.md §1.4)", "[devices]") {
  const NodeDevices node = derive(gpu_node(kH100, 8, {{"nvidia.com/mig.config", "all-1g.10gb"}}),
                                  with_default(mig_strategy("single")));
  CHECK(node.capacity() == units({{"nvidia.com/gpu", 56}}));
  CHECK(labels_with(node.gfd_labels(), "nvidia.com/") ==
        Labels{{"nvidia.com/gpu.count", "56"},
               {"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb"},
               {"nvidia.com/gpu.replicas", "1"},
               {"nvidia.com/gpu.sharing-strategy", "none"},
               {"nvidia.com/gpu.slices.ci", "1"},
               {"nvidia.com/gpu.slices.gi", "1"},
               {"nvidia.com/mig.strategy", "single"}});
}

TEST_CASE("single without MIG-enabled GPUs is the none strategy plus its label", "[devices]") {
  const NodeDevices node = derive(gpu_node(kH100, 8), with_default(mig_strategy("single")));
  CHECK(node.capacity() == units({{"nvidia.com/gpu", 8}}));
  CHECK(node.gfd_labels().at("nvidia.com/gpu.product") == kH100);
  CHECK(node.gfd_labels().at("nvidia.com/mig.strategy") == "single");
}

TEST_CASE("none keeps MIG-enabled GPUs whole", "[devices]") {
  const NodeDevices node = derive(gpu_node(kH100, 8, {{"nvidia.com/mig.config", "all-1g.10gb"}}));
  CHECK(node.capacity() == units({{"nvidia.com/gpu", 8}}));
  CHECK(node.gpus[0].mig.size() == 7);
  CHECK_FALSE(node.devices[0].mig);
  CHECK(node.gfd_labels().at("nvidia.com/gpu.replicas") == "0");
}

TEST_CASE("layouts the plugin refuses advertise nothing; GFD labels MIG-INVALID", "[devices]") {
  const std::string prefix =
      "error building device map: error building device map from config.resources: ";
  DevicePluginSettings settings = with_default(mig_strategy("single"));
  settings.mig_configs["two-profiles"] = {{std::vector<int>{0, 1, 2, 3}, true, {{"1g.10gb", 7}}},
                                          {std::vector<int>{4, 5, 6, 7}, true, {{"2g.20gb", 3}}}};
  settings.mig_configs["half"] = {{std::vector<int>{0, 1, 2, 3}, true, {{"1g.10gb", 7}}}};
  settings.configs["mixed"] = mig_strategy("mixed");
  settings.mig_configs["compute"] = {{std::nullopt, true, {{"1c.2g.20gb", 3}}}};
  struct Row {
    const char* name;
    const char* config;
    const char* mig;
    std::string error;
    bool invalid_labels;
  };
  const std::vector<Row> rows = {
      {"single, two profiles", "default", "two-profiles",
       prefix + "invalid MIG configuration: more than one MIG device type present on node", true},
      {"single, MIG on some GPUs", "default", "half",
       prefix + "all devices on the node must be configured with the same migEnabled value", true},
      {"single, MIG enabled without devices", "default", "all-enabled",
       prefix + "invalid MIG configuration: at least one device with migEnabled=true was not "
                "configured correctly: device 0 has an invalid MIG configuration",
       true},
      {"mixed, MIG enabled without devices", "mixed", "all-enabled",
       prefix + "invalid MIG configuration: at least one device with migEnabled=true was not "
                "configured correctly: device 0 has an invalid MIG configuration",
       false},
      {"mixed, a compute-instance profile", "mixed", "compute",
       prefix + "error building MIG device map: MIG profile '1c.2g.20gb' does not match any "
                "resource patterns",
       false},
  };
  for (const Row& row : rows) {
    INFO(row.name);
    const NodeDevices node = derive(gpu_node(kA100, 8,
                                             {{"nvidia.com/device-plugin.config", row.config},
                                              {"nvidia.com/mig.config", row.mig}}),
                                    settings);
    CHECK(node.devices.empty());
    CHECK(node.capacity().empty());
    CHECK(node.plugin_error == row.error);
    const Labels labels = node.gfd_labels();
    if (row.invalid_labels) {
      CHECK(labels.at("nvidia.com/gpu.product") == "NVIDIA-A100-SXM4-80GB-MIG-INVALID");
      CHECK(labels.at("nvidia.com/gpu.count") == "0");
      CHECK(labels.at("nvidia.com/gpu.replicas") == "0");
      CHECK(labels.at("nvidia.com/gpu.memory") == "0");
    } else {
      CHECK(labels.at("nvidia.com/gpu.count") == "8");
    }
  }
  // GFD labels what it finds even where the plugin fails.
  const NodeDevices compute = derive(gpu_node(kA100, 1,
                                              {{"nvidia.com/device-plugin.config", "mixed"},
                                               {"nvidia.com/mig.config", "compute"}}),
                                     settings);
  CHECK(labels_with(compute.gfd_labels(), "nvidia.com/mig-1c.2g.20gb.") ==
        Labels{{"nvidia.com/mig-1c.2g.20gb.count", "3"},
               {"nvidia.com/mig-1c.2g.20gb.product", "NVIDIA-A100-SXM4-80GB-MIG-1c.2g.20gb"},
               {"nvidia.com/mig-1c.2g.20gb.replicas", "1"},
               {"nvidia.com/mig-1c.2g.20gb.sharing-strategy", "none"},
               {"nvidia.com/mig-1c.2g.20gb.slices.ci", "1"},
               {"nvidia.com/mig-1c.2g.20gb.slices.gi", "2"}});
}

TEST_CASE("topology and topology-manager annotations", "[devices]") {
  const NodeDevices plain = derive(gpu_node(kA100, 8));
  CHECK(plain.topology.size() == 8);
  CHECK(plain.topology_manager_policy == "none");

  const NodeDevices preset =
      derive(gpu_node(kA100, 8, {},
                      {{"gpusched.io/gpu-topology", "pcie-2socket"},
                       {"gpusched.io/topology-manager-policy", "single-numa-node"}}));
  CHECK(preset.topology_manager_policy == "single-numa-node");
  CHECK(preset.gpus[0].numa_node == 0);
  CHECK(preset.gpus[7].numa_node == 1);

  const NodeDevices matrix = derive(
      gpu_node(kA100, 2, {}, {{"gpusched.io/gpu-topology", R"( [["X", "NV12"], ["NV12","X"]] )"}}));
  CHECK(matrix.topology.size() == 2);
  CHECK(matrix.topology.link(0, 1).nvlinks == 12);
}

TEST_CASE("a product label copied from a live node loses GFD's suffixes", "[devices]") {
  CHECK(derive(gpu_node("NVIDIA-A100-SXM4-80GB-SHARED", 1)).product == kA100);
  CHECK(derive(gpu_node("NVIDIA-H100-80GB-HBM3-MIG-1g.10gb", 1)).product == kH100);
}

TEST_CASE("derive_node_devices rejects what the node cannot be", "[devices]") {
  DevicePluginSettings mps = with_default(mig_strategy("single", shared(SharingStrategy::Mps, 2)));
  DevicePluginSettings unknown_default;
  unknown_default.default_config = "gone";
  struct Row {
    const char* name;
    Node node;
    DevicePluginSettings settings;
    std::string error;
  };
  const std::vector<Row> rows = {
      {"bad count",
       gpu_node(kA100, 0),
       {},
       "label nvidia.com/gpu.count: must be an integer from 1 to 1024, got \"0\""},
      {"bad memory",
       gpu_node(kA100, 1, {{"nvidia.com/gpu.memory", "80Gi"}}),
       {},
       "label nvidia.com/gpu.memory: must be a non-negative integer (MiB), got \"80Gi\""},
      {"unknown config",
       gpu_node(kA100, 1, {{"nvidia.com/device-plugin.config", "ts9"}}),
       {},
       "label nvidia.com/device-plugin.config: unknown device-plugin config \"ts9\" (no configs "
       "are given): the GPU Operator's config-manager stops with \"specified config ts9 does not "
       "exist\" and the device plugin does not start on the node"},
      {"unknown default", gpu_node(kA100, 1), unknown_default,
       "default: unknown device-plugin config \"gone\" (no configs are given): the GPU "
       "Operator's config-manager stops with \"specified config gone does not exist\" and the "
       "device plugin does not start on the node"},
      {"MIG profile the product lacks",
       gpu_node(kA100, 2, {{"nvidia.com/mig.config", "all-1g.5gb"}}),
       {},
       "label nvidia.com/mig.config: GPU 0 (NVIDIA-A100-SXM4-80GB): MIG profile \"1g.5gb\" does "
       "not exist on this product"},
      {"unknown MIG config",
       gpu_node(kA100, 2, {{"nvidia.com/mig.config", "nope"}}),
       {},
       "label nvidia.com/mig.config: selected mig-config not present: nope"},
      {"MPS on MIG", gpu_node(kH100, 2, {{"nvidia.com/mig.config", "all-1g.10gb"}}), mps,
       "sharing using MPS is not supported for MIG devices"},
      {"bad policy",
       gpu_node(kA100, 1, {}, {{"gpusched.io/topology-manager-policy", "strict"}}),
       {},
       "annotation gpusched.io/topology-manager-policy: unknown policy: \"strict\""},
      {"matrix of the wrong size",
       gpu_node(kA100, 4, {}, {{"gpusched.io/gpu-topology", R"([["X","PIX"],["PIX","X"]])"}}),
       {},
       "annotation gpusched.io/gpu-topology: the matrix has 2 rows but nvidia.com/gpu.count is 4"},
      {"matrix cut short",
       gpu_node(kA100, 2, {}, {{"gpusched.io/gpu-topology", R"([["X","PIX"],["PIX","X"])"}}),
       {},
       "annotation gpusched.io/gpu-topology: expected a preset name or a JSON array of rows of "
       "strings, the text ends early"},
      {"matrix with a number",
       gpu_node(kA100, 2, {}, {{"gpusched.io/gpu-topology", R"([["X",12],["12","X"]])"}}),
       {},
       "annotation gpusched.io/gpu-topology: expected a preset name or a JSON array of rows of "
       "strings, bad character at offset 6"},
  };
  for (const Row& row : rows) {
    INFO(row.name);
    CHECK(derive_error(row.node, row.settings) == row.error);
  }
  // The topology's own errors come through with the annotation named.
  const std::string preset =
      derive_error(gpu_node(kA100, 8, {}, {{"gpusched.io/gpu-topology", "no-such-board"}}));
  CHECK(preset.starts_with("annotation gpusched.io/gpu-topology: "));
  CHECK(preset.size() > std::string("annotation gpusched.io/gpu-topology: ").size());
}

}  // namespace
TEST_CASE("a product label alone declares no hardware", "[devices]") {
  // Contract v1 scenarios label GPU nodes with their model and state nvidia.com/gpu in capacity.
  Node node;
  node.metadata.name = "a100-1";
  node.metadata.labels = {{"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"}};
  std::string error = "stale";
  CHECK_FALSE(derive_node_devices(node, {}, &error).has_value());
  CHECK(error.empty());
}

}  // namespace gpusched::devices
