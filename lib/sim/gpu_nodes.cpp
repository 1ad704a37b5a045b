// GPU nodes in the replay: what the NVIDIA device plugin and GPU Feature Discovery publish on a
// node (derived from its hardware labels and the GPU Operator's configs), and the kubelet's
// device manager admitting each pod bound to it (scenario-format.md §3).

#include <algorithm>

#include "sim/simulation.hpp"

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

Node Simulation::publish_devices(const Node& declared, const std::string& pointer) {
  const std::string& name = declared.metadata.name;
  std::string error;
  std::optional<devices::NodeDevices> derived =
      devices::derive_node_devices(declared, scenario_.device_plugin, &error);
  if (!error.empty()) input_error(pointer, "Node \"" + name + "\": " + error);
  const bool stated = derived && states_device_resources(declared, derived->capacity());
  if (!derived || (stated && !same_counts(declared, derived->capacity()))) {
    // No hardware, or a node (typically from a live cluster) whose stated counts say the
    // plugin runs another config than gpusched would derive (say time-slicing): the counts stay
    // the truth and no devices are modelled, rather than devices that contradict them.
    declared_nodes_.erase(name);
    device_managers_.erase(name);
    return declared;
  }
  // Health is the device plugin's view and survives a new config.
  for (int gpu : unhealthy_gpus_[name]) {
    if (gpu < static_cast<int>(derived->gpus.size())) {
      derived->gpus[static_cast<std::size_t>(gpu)].healthy = false;
    }
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

Node Simulation::declared_node(const NodeInfo& info) const {
  auto it = declared_nodes_.find(info.node.metadata.name);
  return it == declared_nodes_.end() ? info.node : it->second;
}

bool Simulation::admit_on_node(PodInfo& pod) {
  auto manager = device_managers_.find(pod.pod.spec.node_name);
  if (manager == device_managers_.end()) return true;
  const devices::Admission admission = manager->second.admit(pod.pod);
  if (admission.admitted) return true;
  // The kubelet fails the pod at admission (kubelet.go canAdmitPod / rejectPod): phase Failed
  // with its reason and message, a Warning event, nothing held. The scheduler does not retry
  // it; a controller replaces it on its next sync.
  pod.pod.status.reason = admission.reason;
  pod.pod.status.message = admission.message;
  recorded_event("Pod/" + pod.pod.key(), "Warning", admission.reason, admission.message);
  end_pod(pod, PodPhase::Failed);
  // Controllers see the failure after the status update: the replacement is created a second
  // later (a ReplicaSet keeps replacing pods the kubelet keeps rejecting, as in a real cluster).
  if (pod.pod.metadata.controller() != nullptr) {
    const bool queued =
        event_queue_.find<ControllerSync>([&](TimeMs time, const ControllerSync& s) {
          return s.controller.empty() && time == now_ + 1000;
        }) != nullptr;
    if (!queued) event_queue_.push(now_ + 1000, ControllerSync{});
  }
  return false;
}

void Simulation::release_devices(const PodInfo& pod) {
  auto manager = device_managers_.find(pod.pod.spec.node_name);
  if (manager != device_managers_.end()) manager->second.release(pod.pod.metadata.uid);
}

const devices::PodDevices* Simulation::devices_of(const PodInfo& pod) const {
  auto manager = device_managers_.find(pod.pod.spec.node_name);
  return manager == device_managers_.end() ? nullptr
                                           : manager->second.devices_of(pod.pod.metadata.uid);
}

std::vector<std::string> Simulation::held_gpus(const PodInfo& pod) const {
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

void Simulation::set_gpu_health(const Action& action) {
  const std::string& name = action.target.name;
  NodeInfo* node = cluster_.find_node(name);
  if (node == nullptr) {
    input_error(action.pointer, "Node \"" + name + "\" does not exist at " + format_duration(now_));
  }
  auto manager = device_managers_.find(name);
  if (manager == device_managers_.end()) {
    input_error(action.pointer, "Node \"" + name +
                                    "\" has no GPUs (no nvidia.com/gpu.product and "
                                    "nvidia.com/gpu.count labels)");
  }
  const int count = static_cast<int>(manager->second.node().gpus.size());
  if (action.gpu >= count) {
    input_error(action.pointer, "Node \"" + name + "\" has " + std::to_string(count) +
                                    " GPUs; there is no GPU " + std::to_string(action.gpu));
  }
  if (action.healthy) {
    unhealthy_gpus_[name].erase(action.gpu);
  } else {
    unhealthy_gpus_[name].insert(action.gpu);
  }
  manager->second.set_health(action.gpu, action.healthy);
  // ListAndWatch reports the device's health; the kubelet updates allocatable.
  update_node(*node, publish_devices(declared_node(*node), action.pointer));
}

}  // namespace gpusched::sim
