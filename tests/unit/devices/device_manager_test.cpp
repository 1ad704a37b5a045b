// The kubelet's device manager with the NVIDIA plugin behind it: which devices a pod gets, what
// its container sees, and the admission errors in the kubelet's words.

#include "devices/device_manager.hpp"

#include <catch2/catch.hpp>

namespace gpusched::devices {
namespace {

Node gpu_node(int count, const std::string& config = {}) {
  Node node;
  node.metadata.name = "p1";
  node.metadata.labels = {{"nvidia.com/gpu.product", "NVIDIA-L40S"},
                          {"nvidia.com/gpu.count", std::to_string(count)}};
  if (!config.empty()) node.metadata.labels["nvidia.com/device-plugin.config"] = config;
  node.metadata.annotations = {{"gpusched.io/gpu-topology", "pcie-2socket"}};
  return node;
}

NodeDevices derive(const Node& node, const DevicePluginSettings& settings = {}) {
  std::string error;
  auto devices = derive_node_devices(node, settings, &error);
  INFO(error);
  REQUIRE(devices.has_value());
  return *devices;
}

Pod gpu_pod(const std::string& name, int gpus) {
  Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  pod.metadata.uid = "uid-" + name;
  Container c;
  c.name = "c";
  c.limits["nvidia.com/gpu"] = Quantity::from_units(gpus);
  c.requests = c.limits;
  pod.spec.containers.push_back(c);
  return pod;
}

TEST_CASE("admitted pods get whole GPUs and see their UUIDs", "[devices]") {
  DeviceManager manager(derive(gpu_node(8)));
  const auto& gpus = manager.node().gpus;
  const Admission a = manager.admit(gpu_pod("a", 2));
  REQUIRE(a.admitted);
  CHECK(a.devices.gpus == std::vector<int>{0, 1});
  CHECK(a.devices.by_resource.at("nvidia.com/gpu") ==
        std::vector<std::string>{gpus[0].uuid, gpus[1].uuid});
  CHECK(a.devices.visible_devices == gpus[0].uuid + "," + gpus[1].uuid);
  CHECK(manager.pods_per_gpu()[1] == std::vector<std::string>{"default/a"});
  // A released pod's GPUs are free again.
  manager.release("uid-a");
  CHECK(manager.devices_of("uid-a") == nullptr);
  CHECK(manager.admit(gpu_pod("b", 2)).devices.gpus == std::vector<int>{0, 1});
}

TEST_CASE("too few healthy devices is the device manager's error, wrapped by the kubelet",
          "[devices]") {
  DeviceManager manager(derive(gpu_node(2)));
  manager.set_health(1, false);
  const Admission a = manager.admit(gpu_pod("a", 2));
  CHECK_FALSE(a.admitted);
  CHECK(a.reason == "UnexpectedAdmissionError");
  CHECK(a.message ==
        "Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. "
        "Requested: 2, Available: 1, which is unexpected");
  // Nothing is held after a rejection.
  CHECK(manager.pods_per_gpu()[0].empty());
}

TEST_CASE("replicas show their GPU once; deviceIDStrategy index shows indices", "[devices]") {
  DevicePluginSettings settings;
  DevicePluginConfig ts;
  ts.sharing = SharingStrategy::TimeSlicing;
  ts.resources = {{"nvidia.com/gpu", 4}};
  ts.shared_allocation_policy = "packed";
  settings.configs["packed"] = ts;
  ts.device_id_strategy = "index";
  settings.configs["indexed"] = ts;
  DeviceManager packed(derive(gpu_node(2, "packed"), settings));
  const Admission a = packed.admit(gpu_pod("a", 2));
  REQUIRE(a.admitted);
  // Packed: both replicas on GPU 0, so the container sees one GPU.
  CHECK(a.devices.gpus == std::vector<int>{0});
  const std::string uuid = packed.node().gpus[0].uuid;
  CHECK(a.devices.by_resource.at("nvidia.com/gpu") == std::vector<std::string>{uuid, uuid});
  CHECK(a.devices.visible_devices == uuid);
  DeviceManager indexed(derive(gpu_node(2, "indexed"), settings));
  CHECK(indexed.admit(gpu_pod("b", 1)).devices.visible_devices == "0");
}

}  // namespace
}  // namespace gpusched::devices
