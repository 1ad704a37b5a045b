#include "sim/kubelet.hpp"

#include <algorithm>

#include "config/nvidia_dra_feature_gates.hpp"
#include "gpusched/error.hpp"

namespace gpusched::sim {
namespace {

/// Whether the node object itself states a count for a resource the device plugin would
/// advertise: then it stays the truth for the scheduler.
bool states_device_resources(const Node& declared, const ResourceList& advertised) {
  auto states = [&](std::string_view name) {
    return declared.capacity.contains(name) || declared.allocatable.contains(name);
  };
  if (states("nvidia.com/gpu")) return true;
  return std::any_of(advertised.begin(), advertised.end(),
                     [&](const auto& entry) { return states(entry.first); });
}

/// Whether the node states, for each resource the plugin would advertise, the same capacity.
bool same_counts(const Node& declared, const ResourceList& advertised) {
  return std::all_of(advertised.begin(), advertised.end(), [&](const auto& entry) {
    auto it = declared.capacity.find(entry.first);
    return it != declared.capacity.end() && it->second == entry.second;
  });
}

}  // namespace

Node published_node(const Node& declared, const devices::NodeDevices& derived) {
  const bool stated = states_device_resources(declared, derived.capacity());
  Node effective = declared;
  for (const auto& [key, value] : derived.gfd_labels()) effective.metadata.labels[key] = value;
  const ResourceList capacity = derived.capacity();
  const ResourceList allocatable = derived.allocatable();
  if (!stated) {
    for (const auto& [resource, count] : capacity) {
      effective.capacity[resource] = count;
      auto healthy = allocatable.find(resource);
      effective.allocatable[resource] = healthy == allocatable.end() ? Quantity() : healthy->second;
    }
  } else {
    // An explicit allocatable stays; unhealthy devices still leave it, as the kubelet
    // subtracts what the plugin reports unhealthy.
    for (const auto& [resource, count] : capacity) {
      auto given = effective.allocatable.find(resource);
      if (given == effective.allocatable.end()) continue;
      auto healthy = allocatable.find(resource);
      const std::int64_t lost =
          count.milli() - (healthy == allocatable.end() ? 0 : healthy->second.milli());
      given->second =
          Quantity(std::max<std::int64_t>(0, given->second.milli() - lost), given->second.format());
    }
  }
  return effective;
}

Kubelets::Kubelets(const devices::DevicePluginSettings& plugin,
                   const devices::NvidiaDraDriverConfig& dra_driver, std::string source,
                   int kubernetes_minor)
    : plugin_(plugin),
      source_(std::move(source)),
      // The chart passes its featureGates to the kubelet plugin (FEATURE_GATES).
      dra_options_{
          .dynamic_mig = nvidia_dra_gate_enabled(dra_driver, "DynamicMIG"),
          .nvml_device_health_check = nvidia_dra_gate_enabled(dra_driver, "NVMLDeviceHealthCheck"),
          .kubernetes_minor = kubernetes_minor} {}

Node Kubelets::publish(const Node& declared, const std::string& pointer) {
  const std::string& name = declared.metadata.name;
  std::string error;
  std::optional<devices::NodeDevices> derived =
      devices::derive_node_devices(declared, plugin_, &error);
  if (!error.empty()) throw InputError(source_, pointer, "Node \"" + name + "\": " + error);
  dra_slices_.erase(name);
  if (derived) {
    // Health is the device plugin's view and survives a new config.
    for (int gpu : unhealthy_gpus_[name]) {
      if (gpu < static_cast<int>(derived->gpus.size()))
        derived->gpus[static_cast<std::size_t>(gpu)].healthy = false;
    }
  }
  if (derived && devices::serves_gpus_with_dra(declared)) {
    // NVIDIA's DRA kubelet plugin serves the GPUs and the device plugin is not deployed
    // (nvidia.com/gpu.deploy.device-plugin=false): GFD's labels, no extended resources.
    devices::NvidiaResourceSlices published =
        devices::nvidia_resource_slices(declared, *derived, dra_options_);
    if (!published.error.empty()) {
      throw InputError(source_, pointer,
                       "Node \"" + name + "\": NVIDIA's DRA kubelet plugin: " + published.error);
    }
    dra_slices_[name] = std::move(published.slices);
    declared_nodes_[name] = declared;
    device_managers_.erase(name);
    Node effective = declared;
    for (const auto& [key, value] : derived->gfd_labels()) effective.metadata.labels[key] = value;
    return effective;
  }
  const bool stated = derived && states_device_resources(declared, derived->capacity());
  if (!derived || (stated && !same_counts(declared, derived->capacity()))) {
    // No hardware, or a node (typically from a live cluster) whose stated counts say the
    // plugin runs another config than gpusched would derive (say time-slicing): the counts stay
    // the truth and no devices are modelled, rather than devices that contradict them.
    declared_nodes_.erase(name);
    device_managers_.erase(name);
    return declared;
  }
  declared_nodes_[name] = declared;
  Node effective = published_node(declared, *derived);
  auto manager = device_managers_.find(name);
  if (manager == device_managers_.end()) {
    device_managers_.emplace(name, devices::DeviceManager(std::move(*derived)));
  } else {
    manager->second.reconfigure(std::move(*derived));
  }
  return effective;
}

const std::vector<dra::ResourceSlice>& Kubelets::dra_slices(const std::string& node) const {
  static const std::vector<dra::ResourceSlice> kNone;
  auto it = dra_slices_.find(node);
  return it == dra_slices_.end() ? kNone : it->second;
}

Node Kubelets::declared(const NodeInfo& info) const {
  auto it = declared_nodes_.find(info.node.metadata.name);
  return it == declared_nodes_.end() ? info.node : it->second;
}

devices::Admission Kubelets::admit(const Pod& pod) {
  auto manager = device_managers_.find(pod.spec.node_name);
  if (manager == device_managers_.end()) return {};
  return manager->second.admit(pod);
}

void Kubelets::release(const PodInfo& pod) {
  auto manager = device_managers_.find(pod.pod.spec.node_name);
  if (manager != device_managers_.end()) manager->second.release(pod.pod.metadata.uid);
}

const devices::PodDevices* Kubelets::devices_of(const Pod& pod) const {
  auto manager = device_managers_.find(pod.spec.node_name);
  return manager == device_managers_.end() ? nullptr : manager->second.devices_of(pod.metadata.uid);
}

std::vector<std::string> Kubelets::held_gpus(const PodInfo& pod) const {
  auto manager = device_managers_.find(pod.pod.spec.node_name);
  if (manager == device_managers_.end()) return {};
  const devices::PodDevices* held = manager->second.devices_of(pod.pod.metadata.uid);
  if (held == nullptr) return {};
  std::vector<std::string> uuids;
  uuids.reserve(held->gpus.size());
  for (const int gpu : held->gpus) {
    uuids.push_back(manager->second.node().gpus[static_cast<std::size_t>(gpu)].uuid);
  }
  return uuids;
}

const devices::DeviceManager* Kubelets::manager(const std::string& node) const {
  auto it = device_managers_.find(node);
  return it == device_managers_.end() ? nullptr : &it->second;
}

void Kubelets::set_gpu_health(const std::string& node, int gpu, bool healthy,
                              const std::string& pointer) {
  auto manager = device_managers_.find(node);
  if (manager == device_managers_.end()) {
    throw InputError(source_, pointer,
                     "Node \"" + node +
                         "\" has no GPUs (no nvidia.com/gpu.product and nvidia.com/gpu.count "
                         "labels)");
  }
  const int count = static_cast<int>(manager->second.node().gpus.size());
  if (gpu >= count) {
    throw InputError(source_, pointer,
                     "Node \"" + node + "\" has " + std::to_string(count) +
                         " GPUs; there is no GPU " + std::to_string(gpu));
  }
  if (healthy) {
    unhealthy_gpus_[node].erase(gpu);
  } else {
    unhealthy_gpus_[node].insert(gpu);
  }
  manager->second.set_health(gpu, healthy);
}

void Kubelets::node_removed(const std::string& node) {
  declared_nodes_.erase(node);
  device_managers_.erase(node);
  unhealthy_gpus_.erase(node);
  dra_slices_.erase(node);
}

}  // namespace gpusched::sim
