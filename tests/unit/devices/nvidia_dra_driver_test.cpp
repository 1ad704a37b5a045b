// NVIDIA's DRA driver for GPUs (lib/devices/nvidia_dra_driver.cpp, pinned at v0.4.0): the
// chart's DeviceClasses, the node label that selects the kubelet plugin, and the ResourceSlices
// the GPU kubelet plugin publishes for full GPUs, static MIG devices and DynamicMIG partitions.
#include "devices/nvidia_dra_driver.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dra/cel.hpp"

namespace gpusched::devices {
namespace {

using dra::DeviceAttribute;

constexpr const char* kH100 = "NVIDIA-H100-80GB-HBM3";
constexpr const char* kA100 = "NVIDIA-A100-SXM4-80GB";

DeviceAttribute s(std::string v) {
  return DeviceAttribute::of_string(std::move(v));
}
DeviceAttribute v(std::string text) {
  return DeviceAttribute::of_version(std::move(text));
}
Quantity q(std::string_view text) {
  std::string error;
  const auto parsed = Quantity::parse(text, &error);
  REQUIRE(parsed.has_value());
  return *parsed;
}

/// A node with GPU hardware labels and the DRA kubelet plugin's label.
Node gpu_node(std::string name, const std::string& product, int count, std::int64_t memory_mib,
              Labels extra = {}, Labels annotations = {}) {
  Node node;
  node.metadata.name = std::move(name);
  node.metadata.uid = "uid-" + node.metadata.name;
  node.metadata.labels = std::move(extra);
  node.metadata.labels.try_emplace("nvidia.com/dra-kubelet-plugin", "true");
  node.metadata.labels["nvidia.com/gpu.product"] = product;
  node.metadata.labels["nvidia.com/gpu.count"] = std::to_string(count);
  node.metadata.labels["nvidia.com/gpu.memory"] = std::to_string(memory_mib);
  node.metadata.annotations = std::move(annotations);
  return node;
}

NodeDevices derive(const Node& node, const DevicePluginSettings& settings = {}) {
  std::string error;
  auto out = derive_node_devices(node, settings, &error);
  INFO(error);
  REQUIRE(out);
  return *out;
}

std::vector<dra::ResourceSlice> publish(const Node& node, const NodeDevices& devices,
                                        const NvidiaDraOptions& options = {}) {
  NvidiaResourceSlices out = nvidia_resource_slices(node, devices, options);
  INFO(out.error);
  REQUIRE(out.error.empty());
  return std::move(out.slices);
}

std::vector<std::string> names(const dra::ResourceSlice& slice) {
  std::vector<std::string> out;
  for (const dra::Device& d : slice.devices) out.push_back(d.name);
  return out;
}

const dra::Device& device(const dra::ResourceSlice& slice, std::string_view name) {
  const auto it = std::find_if(slice.devices.begin(), slice.devices.end(),
                               [&](const dra::Device& d) { return d.name == name; });
  INFO(name);
  REQUIRE(it != slice.devices.end());
  return *it;
}

dra::CapacityMap capacities(std::initializer_list<std::pair<const char*, const char*>> values) {
  dra::CapacityMap out;
  for (const auto& [name, value] : values) out[name] = {q(value), std::nullopt};
  return out;
}

dra::CounterMap counters(std::initializer_list<std::pair<const char*, const char*>> values) {
  dra::CounterMap out;
  for (const auto& [name, value] : values) out[name] = q(value);
  return out;
}

/// The H100 node of the DGX-like examples: 8 GPUs, hgx-h100 topology, GFD driver labels.
Node h100_node(Labels extra = {}) {
  extra.try_emplace("nvidia.com/cuda.driver.major", "550");
  extra.try_emplace("nvidia.com/cuda.driver.minor", "90");
  extra.try_emplace("nvidia.com/cuda.driver.rev", "07");
  extra.try_emplace("nvidia.com/cuda.runtime.major", "12");
  extra.try_emplace("nvidia.com/cuda.runtime.minor", "4");
  return gpu_node("h100-1", kH100, 8, 81559, std::move(extra),
                  {{"gpusched.io/gpu-topology", "hgx-h100"}});
}

Node a100_node(const std::string& mig_config) {
  return gpu_node("a100-1", kA100, 2, 81920, {{"nvidia.com/mig.config", mig_config}});
}

TEST_CASE("the chart installs five DeviceClasses with its CEL selectors", "[devices][dra]") {
  // deployments/helm/dra-driver-nvidia-gpu/templates/deviceclass-*.yaml at v0.4.0.
  const std::vector<dra::DeviceClass> classes = nvidia_device_classes();
  struct Row {
    const char* name;
    const char* cel;
    std::optional<std::string> extended_resource_name;
  };
  const std::vector<Row> want = {
      {"compute-domain-daemon.nvidia.com",
       "device.driver == 'compute-domain.nvidia.com' && "
       "device.attributes['compute-domain.nvidia.com'].type == 'daemon'",
       std::nullopt},
      {"compute-domain-default-channel.nvidia.com",
       "device.driver == 'compute-domain.nvidia.com' && "
       "device.attributes['compute-domain.nvidia.com'].type == 'channel' && "
       "device.attributes['compute-domain.nvidia.com'].id == 0",
       std::nullopt},
      {"gpu.nvidia.com",
       "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'",
       "nvidia.com/gpu"},
      {"mig.nvidia.com",
       "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'",
       std::nullopt},
      {"vfio.gpu.nvidia.com",
       "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'vfio'",
       std::nullopt},
  };
  REQUIRE(classes.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    DYNAMIC_SECTION(want[i].name) {
      CHECK(classes[i].metadata.name == want[i].name);
      REQUIRE(classes[i].selectors.size() == 1);
      CHECK(classes[i].selectors[0].cel == std::optional<std::string>(want[i].cel));
      CHECK(classes[i].extended_resource_name == want[i].extended_resource_name);
      CHECK(classes[i].config.empty());
      const dra::cel::CompileResult compiled = dra::cel::compile(want[i].cel, {});
      CHECK(compiled.error == "");
      CHECK(compiled.program != nullptr);
    }
  }
}

TEST_CASE("the kubelet plugin runs where nvidia.com/dra-kubelet-plugin is exactly true",
          "[devices][dra]") {
  struct Row {
    const char* name;
    std::optional<std::string> value;
    bool serves;
  };
  const std::vector<Row> rows = {
      {"no label", std::nullopt, false}, {"true", "true", true}, {"false", "false", false},
      {"True", "True", false},           {"empty", "", false},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      Node node;
      node.metadata.name = "n";
      if (row.value) node.metadata.labels["nvidia.com/dra-kubelet-plugin"] = *row.value;
      CHECK(serves_gpus_with_dra(node) == row.serves);
    }
  }
}

TEST_CASE("a node without the DRA label gets no slices", "[devices][dra]") {
  Node node = h100_node({{"nvidia.com/dra-kubelet-plugin", "false"}});
  const NvidiaResourceSlices out = nvidia_resource_slices(node, derive(node));
  CHECK(out.slices.empty());
  CHECK(out.error.empty());
}

TEST_CASE("8 x H100 80GB: one slice of eight full GPUs", "[devices][dra]") {
  const Node node = h100_node();
  const NodeDevices hw = derive(node);
  const std::vector<dra::ResourceSlice> slices = publish(node, hw);
  REQUIRE(slices.size() == 1);
  const dra::ResourceSlice& slice = slices[0];

  // generateName "00000-gpu.nvidia.com-h100-1-" and five characters of the API server's alphabet.
  CHECK(slice.metadata.name == "00000-gpu.nvidia.com-h100-1-mt2dv");
  REQUIRE(slice.metadata.owner_references.size() == 1);
  CHECK(slice.metadata.owner_references[0] == OwnerReference{"Node", "h100-1", "uid-h100-1", true});
  CHECK(slice.driver == "gpu.nvidia.com");
  CHECK(slice.pool == dra::ResourcePool{"h100-1", 1, 1});
  CHECK(slice.node_name == std::optional<std::string>("h100-1"));
  CHECK_FALSE(slice.all_nodes);
  CHECK_FALSE(slice.node_selector.has_value());
  CHECK(slice.shared_counters.empty());
  CHECK(names(slice) == std::vector<std::string>{"gpu-0", "gpu-1", "gpu-2", "gpu-3", "gpu-4",
                                                 "gpu-5", "gpu-6", "gpu-7"});

  const dra::Device& gpu0 = device(slice, "gpu-0");
  const dra::AttributeMap want = {
      {"type", s("gpu")},
      {"uuid", s(device_uuid("GPU", "h100-1", 0))},
      {"productName", s("NVIDIA H100 80GB HBM3")},
      {"brand", s("Nvidia")},
      {"architecture", s("Hopper")},
      {"cudaComputeCapability", v("9.0.0")},
      {"driverVersion", v("550.90.7")},
      {"cudaDriverVersion", v("12.4.0")},
      {"resource.kubernetes.io/pcieRoot", s("pci0000:00")},
  };
  CHECK(gpu0.attributes == want);
  CHECK(gpu0.capacity == capacities({{"memory", "81559Mi"}}));
  CHECK(gpu0.capacity.at("memory").value.value() == 81559LL * 1024 * 1024);
  CHECK(gpu0.capacity.at("memory").value.to_string() == "81559Mi");
  for (const dra::Device& d : slice.devices) {
    INFO(d.name);
    CHECK(d.taints.empty());
    CHECK(d.consumes_counters.empty());
    const int index = d.name.back() - '0';
    CHECK(d.attributes.at("uuid") == s(device_uuid("GPU", "h100-1", index)));
    // hgx-h100: NODE within a socket, SYS across: no two GPUs share a host bridge.
    CHECK(d.attributes.at("resource.kubernetes.io/pcieRoot") ==
          s("pci0000:0" + std::to_string(index)));
  }
  // The same input publishes the same slices.
  CHECK(publish(node, hw) == slices);
}

TEST_CASE("resource.kubernetes.io/pcieRoot groups GPUs below one host bridge", "[devices][dra]") {
  struct Row {
    const char* topology;  ///< gpusched.io/gpu-topology, empty for none
    std::vector<std::string> roots;
  };
  const std::vector<Row> rows = {
      // pcie-2socket: pairs PIX, quads PXB, NODE between quads of a socket (none with 8 GPUs).
      {"pcie-2socket",
       {"pci0000:00", "pci0000:00", "pci0000:00", "pci0000:00", "pci0000:01", "pci0000:01",
        "pci0000:01", "pci0000:01"}},
      // hgx-a100 and dgx-a100: each pair behind one switch (PXB).
      {"hgx-a100",
       {"pci0000:00", "pci0000:00", "pci0000:01", "pci0000:01", "pci0000:02", "pci0000:02",
        "pci0000:03", "pci0000:03"}},
      {"dgx-a100",
       {"pci0000:00", "pci0000:00", "pci0000:01", "pci0000:01", "pci0000:02", "pci0000:02",
        "pci0000:03", "pci0000:03"}},
      // No annotation: every pair SYS.
      {"",
       {"pci0000:00", "pci0000:01", "pci0000:02", "pci0000:03", "pci0000:04", "pci0000:05",
        "pci0000:06", "pci0000:07"}},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.topology) {
      Labels annotations;
      if (*row.topology != '\0') annotations = {{"gpusched.io/gpu-topology", row.topology}};
      const Node node = gpu_node("n", kA100, 8, 81920, {}, annotations);
      const std::vector<dra::ResourceSlice> slices = publish(node, derive(node));
      REQUIRE(slices.size() == 1);
      std::vector<std::string> roots;
      for (const dra::Device& d : slices[0].devices) {
        roots.push_back(d.attributes.at("resource.kubernetes.io/pcieRoot").string_value);
      }
      CHECK(roots == row.roots);
    }
  }
}

TEST_CASE("attributes NVML gives come from GFD labels or the product, else are left out",
          "[devices][dra]") {
  struct Row {
    const char* name;
    std::string product;
    Labels labels;
    std::string product_name;
    std::optional<std::string> architecture;
    std::optional<std::string> compute_capability;
    std::optional<std::string> driver_version;
    std::optional<std::string> cuda_driver_version;
  };
  const std::vector<Row> rows = {
      {"A100 SXM4: NVML's hyphens stay",
       kA100,
       {},
       "NVIDIA A100-SXM4-80GB",
       "Ampere",
       "8.0.0",
       std::nullopt,
       std::nullopt},
      {"A100 PCIe 40GB",
       "NVIDIA-A100-PCIE-40GB",
       {},
       "NVIDIA A100-PCIE-40GB",
       "Ampere",
       "8.0.0",
       std::nullopt,
       std::nullopt},
      {"A100 80GB PCIe is written with spaces",
       "NVIDIA-A100-80GB-PCIe",
       {},
       "NVIDIA A100 80GB PCIe",
       "Ampere",
       "8.0.0",
       std::nullopt,
       std::nullopt},
      {"T4", "Tesla-T4", {}, "Tesla T4", "Turing", "7.5.0", std::nullopt, std::nullopt},
      {"L40S",
       "NVIDIA-L40S",
       {},
       "NVIDIA L40S",
       "Ada Lovelace",
       "8.9.0",
       std::nullopt,
       std::nullopt},
      {"unknown product: no capability, no architecture",
       "Acme-X1",
       {},
       "Acme X1",
       std::nullopt,
       std::nullopt,
       std::nullopt,
       std::nullopt},
      {"GFD compute labels win",
       "Acme-X1",
       {{"nvidia.com/gpu.compute.major", "12"}, {"nvidia.com/gpu.compute.minor", "0"}},
       "Acme X1",
       "Blackwell",
       "12.0.0",
       std::nullopt,
       std::nullopt},
      {"full version labels; a two-part driver",
       kA100,
       {{"nvidia.com/cuda.driver-version.full", "550.120"},
        {"nvidia.com/cuda.runtime-version.full", "12.4"}},
       "NVIDIA A100-SXM4-80GB",
       "Ampere",
       "8.0.0",
       "550.120.0",
       "12.4.0"},
      {"an empty rev label",
       kA100,
       {{"nvidia.com/cuda.driver.major", "580"},
        {"nvidia.com/cuda.driver.minor", "105"},
        {"nvidia.com/cuda.driver.rev", ""},
        {"nvidia.com/cuda.runtime.major", "13"},
        {"nvidia.com/cuda.runtime.minor", "0"}},
       "NVIDIA A100-SXM4-80GB",
       "Ampere",
       "8.0.0",
       "580.105.0",
       "13.0.0"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const Node node = gpu_node("n", row.product, 1, 16384, row.labels);
      const std::vector<dra::ResourceSlice> slices = publish(node, derive(node));
      REQUIRE(slices.size() == 1);
      const dra::AttributeMap& a = device(slices[0], "gpu-0").attributes;
      auto get = [&](const char* key) -> std::optional<DeviceAttribute> {
        const auto it = a.find(key);
        return it == a.end() ? std::nullopt : std::optional<DeviceAttribute>(it->second);
      };
      auto as = [](const std::optional<std::string>& text, bool version) {
        return text ? std::optional<DeviceAttribute>(version ? v(*text) : s(*text)) : std::nullopt;
      };
      CHECK(get("productName") == as(row.product_name, false));
      CHECK(get("brand") == as("Nvidia", false));
      CHECK(get("architecture") == as(row.architecture, false));
      CHECK(get("cudaComputeCapability") == as(row.compute_capability, true));
      CHECK(get("driverVersion") == as(row.driver_version, true));
      CHECK(get("cudaDriverVersion") == as(row.cuda_driver_version, true));
      CHECK_FALSE(get("resource.kubernetes.io/pciBusID").has_value());
      CHECK_FALSE(get("addressingMode").has_value());
      CHECK_FALSE(get("index").has_value());
      CHECK_FALSE(get("minor").has_value());
    }
  }
}

TEST_CASE("static MIG, all-1g.10gb on A100 80GB: seven MIG devices per GPU, no full GPU",
          "[devices][dra]") {
  const Node node = a100_node("all-1g.10gb");
  const std::vector<dra::ResourceSlice> slices = publish(node, derive(node));
  REQUIRE(slices.size() == 1);
  CHECK(slices[0].shared_counters.empty());
  std::vector<std::string> want;
  for (int gpu = 0; gpu < 2; ++gpu) {
    for (int start = 0; start < 7; ++start) {
      want.push_back("gpu-" + std::to_string(gpu) + "-mig-1g10gb-19-" + std::to_string(start));
    }
  }
  CHECK(names(slices[0]) == want);

  const dra::Device& mig = device(slices[0], "gpu-0-mig-1g10gb-19-3");
  const dra::AttributeMap attributes = {
      {"type", s("mig")},
      {"uuid", s(device_uuid("MIG", "a100-1", 0, 3))},
      {"parentUUID", s(device_uuid("GPU", "a100-1", 0))},
      {"profile", s("1g.10gb")},
      {"productName", s("NVIDIA A100-SXM4-80GB")},
      {"brand", s("Nvidia")},
      {"architecture", s("Ampere")},
      {"cudaComputeCapability", v("8.0.0")},
      {"resource.kubernetes.io/pcieRoot", s("pci0000:00")},
  };
  CHECK(mig.attributes == attributes);
  // CommonCapacitiesMig for A100-80GB's 1g.10gb (9.50 GiB), and its memory slice.
  CHECK(mig.capacity == capacities({{"multiprocessors", "14"},
                                    {"copyEngines", "1"},
                                    {"decoders", "0"},
                                    {"encoders", "0"},
                                    {"jpegEngines", "0"},
                                    {"ofaEngines", "0"},
                                    {"memory", "9728Mi"},
                                    {"memorySlice3", "1"}}));
  CHECK(mig.consumes_counters.empty());
}

TEST_CASE("static MIG, mixed layouts: placements and names", "[devices][dra]") {
  SECTION("all-balanced: 3g at 4:4, 2g at 0:2, the 1g devices at 2 and 3") {
    const Node node = a100_node("all-balanced");
    const std::vector<dra::ResourceSlice> slices = publish(node, derive(node));
    REQUIRE(slices.size() == 1);
    CHECK(names(slices[0]) ==
          std::vector<std::string>{"gpu-0-mig-1g10gb-19-2", "gpu-0-mig-1g10gb-19-3",
                                   "gpu-0-mig-2g20gb-14-0", "gpu-0-mig-3g40gb-9-4",
                                   "gpu-1-mig-1g10gb-19-2", "gpu-1-mig-1g10gb-19-3",
                                   "gpu-1-mig-2g20gb-14-0", "gpu-1-mig-3g40gb-9-4"});
    // mig-parted creates the 3g first (MigConfig.Flatten): the first MIG UUID of the GPU.
    const dra::Device& three = device(slices[0], "gpu-1-mig-3g40gb-9-4");
    CHECK(three.attributes.at("uuid") == s(device_uuid("MIG", "a100-1", 1, 0)));
    CHECK(three.attributes.at("profile") == s("3g.40gb"));
    CHECK(three.capacity == capacities({{"multiprocessors", "42"},
                                        {"copyEngines", "3"},
                                        {"decoders", "2"},
                                        {"encoders", "0"},
                                        {"jpegEngines", "0"},
                                        {"ofaEngines", "0"},
                                        {"memory", "40192Mi"},
                                        {"memorySlice4", "1"},
                                        {"memorySlice5", "1"},
                                        {"memorySlice6", "1"},
                                        {"memorySlice7", "1"}}));
  }
  SECTION("a custom layout on GPU 0 with 1g.10gb+me; GPU 1 stays whole") {
    DevicePluginSettings settings;
    settings.mig_configs["mixed"] = {
        {std::vector<int>{0}, true, {{"3g.40gb", 1}, {"2g.20gb", 1}, {"1g.10gb+me", 1}}},
        {std::vector<int>{1}, false, {}},
    };
    const Node node = a100_node("mixed");
    const std::vector<dra::ResourceSlice> slices = publish(node, derive(node, settings));
    REQUIRE(slices.size() == 1);
    // "1g.10gb+me" -> "1g10gb+me" -> toRFC1123Compliant -> "1g10gb-me"; GI profile 20.
    CHECK(names(slices[0]) == std::vector<std::string>{"gpu-0-mig-1g10gb-me-20-6",
                                                       "gpu-0-mig-2g20gb-14-4",
                                                       "gpu-0-mig-3g40gb-9-0", "gpu-1"});
    const dra::Device& me = device(slices[0], "gpu-0-mig-1g10gb-me-20-6");
    CHECK(me.attributes.at("profile") == s("1g.10gb+me"));
    CHECK(me.capacity == capacities({{"multiprocessors", "14"},
                                     {"copyEngines", "1"},
                                     {"decoders", "1"},
                                     {"encoders", "0"},
                                     {"jpegEngines", "1"},
                                     {"ofaEngines", "1"},
                                     {"memory", "9728Mi"},
                                     {"memorySlice6", "1"}}));
    CHECK(device(slices[0], "gpu-1").capacity == capacities({{"memory", "80Gi"}}));
  }
  SECTION("all-enabled without MIG devices: the GPUs publish nothing") {
    const Node node = a100_node("all-enabled");
    const std::vector<dra::ResourceSlice> slices = publish(node, derive(node));
    REQUIRE(slices.size() == 1);
    CHECK(slices[0].devices.empty());
    CHECK(slices[0].pool == dra::ResourcePool{"a100-1", 1, 1});
  }
}

TEST_CASE("a static 1c.2g.20gb MIG device stops the plugin at startup", "[devices][dra]") {
  DevicePluginSettings settings;
  settings.mig_configs["ci"] = {{std::nullopt, true, {{"1c.2g.20gb", 1}}}};
  const Node node = a100_node("ci");
  const NvidiaResourceSlices out = nvidia_resource_slices(node, derive(node, settings));
  CHECK(out.slices.empty());
  CHECK(out.error ==
        "error creating driver: error enumerating all possible devices: error enumerating "
        "allocatable devices: error visiting devices: error visiting device: error discovering "
        "MIG devices for GPU \"gpu-0\": error getting MIG devices for GPU \"gpu-0\": error "
        "enumerating MIG devices: error getting profile info for MIG device: " +
            device_uuid("MIG", "a100-1", 0, 0));
}

/// The 25 partitions of an 80GB A100/H100 GPU, in name order.
std::vector<std::string> partitions(int gpu) {
  const std::string p = "gpu-" + std::to_string(gpu) + "-mig-";
  std::vector<std::string> out;
  for (int i : {0, 2, 4, 6}) out.push_back(p + "1g20gb-15-" + std::to_string(i));
  for (int i = 0; i < 7; ++i) out.push_back(p + "1g10gb-19-" + std::to_string(i));
  for (int i = 0; i < 7; ++i) out.push_back(p + "1g10gb-me-20-" + std::to_string(i));
  for (int i : {0, 2, 4}) out.push_back(p + "2g20gb-14-" + std::to_string(i));
  for (int i : {0, 4}) out.push_back(p + "3g40gb-9-" + std::to_string(i));
  out.push_back(p + "4g40gb-5-0");
  out.push_back(p + "7g80gb-0-0");
  std::sort(out.begin(), out.end());
  return out;
}

TEST_CASE("DynamicMIG on A100 80GB with MIG on: partitions and counter sets", "[devices][dra]") {
  const Node node = a100_node("all-1g.10gb");
  const NodeDevices hw = derive(node);
  const dra::CounterMap gpu_counters = counters({{"multiprocessors", "98"},
                                                 {"copy-engines", "7"},
                                                 {"decoders", "5"},
                                                 {"encoders", "0"},
                                                 {"jpeg-engines", "1"},
                                                 {"ofa-engines", "1"},
                                                 {"memory", "80896Mi"},
                                                 {"memory-slice-0", "1"},
                                                 {"memory-slice-1", "1"},
                                                 {"memory-slice-2", "1"},
                                                 {"memory-slice-3", "1"},
                                                 {"memory-slice-4", "1"},
                                                 {"memory-slice-5", "1"},
                                                 {"memory-slice-6", "1"},
                                                 {"memory-slice-7", "1"}});
  const dra::CounterMap three_g_at_4 = counters({{"multiprocessors", "42"},
                                                 {"copy-engines", "3"},
                                                 {"decoders", "2"},
                                                 {"encoders", "0"},
                                                 {"jpeg-engines", "0"},
                                                 {"ofa-engines", "0"},
                                                 {"memory", "40192Mi"},
                                                 {"memory-slice-4", "1"},
                                                 {"memory-slice-5", "1"},
                                                 {"memory-slice-6", "1"},
                                                 {"memory-slice-7", "1"}});

  SECTION("Kubernetes 1.36: a counters slice, then one slice per GPU") {
    const std::vector<dra::ResourceSlice> slices = publish(node, hw, {true, false, 36});
    REQUIRE(slices.size() == 3);
    CHECK(slices[0].metadata.name.starts_with("00000-gpu.nvidia.com-a100-1-"));
    CHECK(slices[1].metadata.name.starts_with("00001-gpu.nvidia.com-a100-1-"));
    CHECK(slices[2].metadata.name.starts_with("00002-gpu.nvidia.com-a100-1-"));
    for (const dra::ResourceSlice& slice : slices) {
      CHECK(slice.pool == dra::ResourcePool{"a100-1", 1, 3});
      CHECK(slice.node_name == std::optional<std::string>("a100-1"));
    }
    CHECK(slices[0].devices.empty());
    REQUIRE(slices[0].shared_counters.size() == 2);
    CHECK(slices[0].shared_counters[0] == dra::CounterSet{"gpu-0-counter-set", gpu_counters});
    CHECK(slices[0].shared_counters[1].name == "gpu-1-counter-set");
    // A MIG-enabled Ampere GPU cannot leave MIG mode without a reset: no "gpu-0".
    CHECK(names(slices[1]) == partitions(0));
    CHECK(names(slices[2]) == partitions(1));
    CHECK(slices[1].shared_counters.empty());

    const dra::Device& three = device(slices[1], "gpu-0-mig-3g40gb-9-4");
    CHECK(three.consumes_counters ==
          std::vector<dra::DeviceCounterConsumption>{{"gpu-0-counter-set", three_g_at_4}});
    CHECK(three.capacity == capacities({{"multiprocessors", "42"},
                                        {"copyEngines", "3"},
                                        {"decoders", "2"},
                                        {"encoders", "0"},
                                        {"jpegEngines", "0"},
                                        {"ofaEngines", "0"},
                                        {"memory", "40192Mi"}}));
    // An abstract partition has no UUID.
    CHECK_FALSE(three.attributes.contains("uuid"));
    CHECK(three.attributes.at("type") == s("mig"));
    CHECK(three.attributes.at("profile") == s("3g.40gb"));
    CHECK(three.attributes.at("parentUUID") == s(device_uuid("GPU", "a100-1", 0)));

    const dra::Device& seven = device(slices[2], "gpu-1-mig-7g80gb-0-0");
    REQUIRE(seven.consumes_counters.size() == 1);
    CHECK(seven.consumes_counters[0].counter_set == "gpu-1-counter-set");
    CHECK(seven.consumes_counters[0].counters.at("memory-slice-0") == q("1"));
    CHECK(seven.consumes_counters[0].counters.at("memory-slice-7") == q("1"));
    CHECK(seven.consumes_counters[0].counters.at("memory") == q("80896Mi"));
  }
  SECTION("Kubernetes 1.34: each GPU's slice carries its counter set") {
    const std::vector<dra::ResourceSlice> slices = publish(node, hw, {true, false, 34});
    REQUIRE(slices.size() == 2);
    CHECK(slices[0].pool == dra::ResourcePool{"a100-1", 1, 2});
    CHECK(slices[0].shared_counters ==
          std::vector<dra::CounterSet>{{"gpu-0-counter-set", gpu_counters}});
    CHECK(names(slices[0]) == partitions(0));
    REQUIRE(slices[1].shared_counters.size() == 1);
    CHECK(slices[1].shared_counters[0].name == "gpu-1-counter-set");
    CHECK(names(slices[1]) == partitions(1));
  }
}

TEST_CASE("DynamicMIG on A100 80GB with MIG off: full GPUs only", "[devices][dra]") {
  // Ampere cannot enable MIG without a reset, so it is not DynamicMIG-capable; the node still
  // has a MIG-capable GPU, so the slices are split and the counters slice is empty.
  const Node node = a100_node("all-disabled");
  const std::vector<dra::ResourceSlice> slices = publish(node, derive(node), {true, false, 36});
  REQUIRE(slices.size() == 3);
  CHECK(slices[0].devices.empty());
  CHECK(slices[0].shared_counters.empty());
  CHECK(names(slices[1]) == std::vector<std::string>{"gpu-0"});
  CHECK(names(slices[2]) == std::vector<std::string>{"gpu-1"});
  const dra::Device& gpu0 = device(slices[1], "gpu-0");
  CHECK(gpu0.capacity == capacities({{"memory", "81920Mi"}}));
  CHECK(gpu0.consumes_counters.empty());
}

TEST_CASE("DynamicMIG on H100: the full GPU consumes every counter of its set", "[devices][dra]") {
  const Node node = h100_node();
  const std::vector<dra::ResourceSlice> slices = publish(node, derive(node), {true, false, 34});
  REQUIRE(slices.size() == 8);
  std::vector<std::string> want = partitions(0);
  want.insert(want.begin(), "gpu-0");
  CHECK(names(slices[0]) == want);
  REQUIRE(slices[0].shared_counters.size() == 1);
  const dra::CounterSet& set = slices[0].shared_counters[0];
  CHECK(set == dra::CounterSet{"gpu-0-counter-set", counters({{"multiprocessors", "132"},
                                                              {"copy-engines", "8"},
                                                              {"decoders", "7"},
                                                              {"encoders", "0"},
                                                              {"jpeg-engines", "7"},
                                                              {"ofa-engines", "1"},
                                                              {"memory", "81152Mi"},
                                                              {"memory-slice-0", "1"},
                                                              {"memory-slice-1", "1"},
                                                              {"memory-slice-2", "1"},
                                                              {"memory-slice-3", "1"},
                                                              {"memory-slice-4", "1"},
                                                              {"memory-slice-5", "1"},
                                                              {"memory-slice-6", "1"},
                                                              {"memory-slice-7", "1"}})});
  const dra::Device& gpu0 = device(slices[0], "gpu-0");
  // PartCapacities: the largest of each MIG capacity, not NVML's total memory.
  CHECK(gpu0.capacity == capacities({{"multiprocessors", "132"},
                                     {"copyEngines", "8"},
                                     {"decoders", "7"},
                                     {"encoders", "0"},
                                     {"jpegEngines", "7"},
                                     {"ofaEngines", "1"},
                                     {"memory", "81152Mi"}}));
  CHECK(gpu0.consumes_counters ==
        std::vector<dra::DeviceCounterConsumption>{{"gpu-0-counter-set", set.counters}});
  CHECK(gpu0.attributes.at("type") == s("gpu"));
  const dra::Device& small = device(slices[0], "gpu-0-mig-1g20gb-15-6");
  CHECK(small.capacity.at("multiprocessors").value == q("26"));
  CHECK(small.capacity.at("memory").value == q("20096Mi"));
  CHECK(small.consumes_counters[0].counters.at("memory-slice-6") == q("1"));
  CHECK(small.consumes_counters[0].counters.at("memory-slice-7") == q("1"));
  CHECK_FALSE(small.consumes_counters[0].counters.contains("memory-slice-5"));
}

TEST_CASE("an unhealthy GPU is published; with NVMLDeviceHealthCheck it is tainted",
          "[devices][dra]") {
  SECTION("full GPUs") {
    const Node node = h100_node();
    NodeDevices hw = derive(node);
    const std::vector<dra::ResourceSlice> healthy = publish(node, hw);
    hw.gpus[3].healthy = false;
    // Without the gate the plugin does not look at health.
    CHECK(publish(node, hw) == healthy);
    const std::vector<dra::ResourceSlice> slices = publish(node, hw, {false, true, 36});
    REQUIRE(slices.size() == 1);
    REQUIRE(slices[0].devices.size() == 8);
    for (const dra::Device& d : slices[0].devices) {
      INFO(d.name);
      if (d.name == "gpu-3") {
        CHECK(d.taints == std::vector<dra::DeviceTaint>{
                              {"gpu.nvidia.com/xid", "48", dra::DeviceTaintEffect::NoSchedule}});
      } else {
        CHECK(d.taints.empty());
      }
    }
  }
  SECTION("static MIG devices of the unhealthy GPU") {
    const Node node = a100_node("all-1g.10gb");
    NodeDevices hw = derive(node);
    hw.gpus[1].healthy = false;
    const std::vector<dra::ResourceSlice> slices = publish(node, hw, {false, true, 36});
    REQUIRE(slices.size() == 1);
    for (const dra::Device& d : slices[0].devices) {
      INFO(d.name);
      CHECK(d.taints.size() == (d.name.starts_with("gpu-1-") ? 1U : 0U));
    }
  }
  SECTION("DynamicMIG and NVMLDeviceHealthCheck exclude each other") {
    const Node node = h100_node();
    const NvidiaResourceSlices out = nvidia_resource_slices(node, derive(node), {true, true, 36});
    CHECK(out.slices.empty());
    CHECK(out.error ==
          "feature gate validation failed: feature gate DynamicMIG is currently mutually "
          "exclusive with NVMLDeviceHealthCheck");
  }
}

TEST_CASE("slice names follow generateName, cut to 58 characters", "[devices][dra]") {
  const std::string long_name(60, 'n');
  const Node node = gpu_node(long_name, kH100, 1, 81559);
  const std::vector<dra::ResourceSlice> slices = publish(node, derive(node));
  REQUIRE(slices.size() == 1);
  const std::string& name = slices[0].metadata.name;
  CHECK(name.size() == 63);
  CHECK(name.substr(0, 58) == ("00000-gpu.nvidia.com-" + long_name).substr(0, 58));
  CHECK(name.substr(58).find_first_not_of("bcdfghjklmnpqrstvwxz2456789") == std::string::npos);
  CHECK(slices[0].pool.name == long_name);
}

TEST_CASE("the classes' selectors tell full GPUs from MIG devices", "[devices][dra]") {
  std::vector<dra::ResourceSlice> slices;
  for (const dra::ResourceSlice& s : publish(h100_node(), derive(h100_node()), {true, false, 36})) {
    slices.push_back(s);
  }
  const Node a100 = a100_node("all-balanced");
  for (const dra::ResourceSlice& s : publish(a100, derive(a100))) slices.push_back(s);

  const std::vector<dra::DeviceClass> classes = nvidia_device_classes();
  auto compiled = [&](std::string_view name) {
    const auto it = std::find_if(classes.begin(), classes.end(), [&](const dra::DeviceClass& c) {
      return c.metadata.name == name;
    });
    REQUIRE(it != classes.end());
    dra::cel::CompileResult result = dra::cel::compile(*it->selectors[0].cel, {});
    REQUIRE(result.program != nullptr);
    return result;
  };
  const dra::cel::CompileResult gpu = compiled("gpu.nvidia.com");
  const dra::cel::CompileResult mig = compiled("mig.nvidia.com");
  const dra::cel::CompileResult vfio = compiled("vfio.gpu.nvidia.com");
  const dra::cel::CompileResult daemon = compiled("compute-domain-daemon.nvidia.com");
  const dra::cel::CompileResult channel = compiled("compute-domain-default-channel.nvidia.com");

  int full = 0;
  int mig_devices = 0;
  for (const dra::ResourceSlice& slice : slices) {
    for (const dra::Device& d : slice.devices) {
      INFO(d.name);
      const dra::cel::DeviceView view{slice.driver, &d.attributes, &d.capacity, std::nullopt};
      const bool is_mig = d.name.find("-mig-") != std::string::npos;
      (is_mig ? mig_devices : full) += 1;
      const dra::cel::EvalResult g = gpu.matches(view);
      const dra::cel::EvalResult m = mig.matches(view);
      CHECK_FALSE(g.error.has_value());
      CHECK_FALSE(m.error.has_value());
      CHECK(g.matches == !is_mig);
      CHECK(m.matches == is_mig);
      CHECK_FALSE(vfio.matches(view).matches);
      // device.driver differs: false before the attribute lookup (no such key) is reached.
      CHECK_FALSE(daemon.matches(view).matches);
      CHECK_FALSE(daemon.matches(view).error.has_value());
      CHECK_FALSE(channel.matches(view).matches);
    }
  }
  CHECK(full == 8);                  // the H100s' full GPUs
  CHECK(mig_devices == 8 * 25 + 8);  // H100 partitions, A100 all-balanced MIG devices
}

}  // namespace
}  // namespace gpusched::devices
