#pragma once
// Every node's kubelet with its device manager, and what the NVIDIA device plugin and GPU
// Feature Discovery publish on the node (derived from its hardware labels and the GPU
// Operator's configs; scenario-format.md §3).

#include <map>
#include <set>
#include <string>
#include <vector>

#include "devices/device_manager.hpp"
#include "devices/node_devices.hpp"
#include "devices/nvidia_dra_driver.hpp"
#include "gpusched/config/device_plugin_config.hpp"
#include "gpusched/config/nvidia_dra_driver_config.hpp"
#include "gpusched/framework/node_info.hpp"
#include "gpusched/framework/pod_info.hpp"
#include "gpusched/model/dra.hpp"
#include "gpusched/model/node.hpp"

namespace gpusched::sim {

/// The node as the NVIDIA device plugin and GPU Feature Discovery publish it, given the devices
/// derived from its hardware: GFD's labels, and the plugin's resources (a count the node states
/// stays, less unhealthy devices).
[[nodiscard]] Node published_node(const Node& declared, const devices::NodeDevices& derived);

class Kubelets {
 public:
  /// `source` names the scenario file in input errors. `dra_driver`: how NVIDIA's DRA driver is
  /// deployed (its feature gates); `kubernetes_minor`: the release mirrored (how the driver
  /// lays out its slices).
  Kubelets(const devices::DevicePluginSettings& plugin,
           const devices::NvidiaDraDriverConfig& dra_driver, std::string source,
           int kubernetes_minor);

  /// `declared` as the cluster shows it: with the device plugin's resources and GFD's labels
  /// when it has GPU hardware (then its device manager is created or reconfigured). A node
  /// labelled for NVIDIA's DRA kubelet plugin (devices::serves_gpus_with_dra) has no device
  /// plugin: GFD's labels only, its GPUs published as ResourceSlices (dra_slices). Throws
  /// InputError at `pointer` when its GPU configuration is impossible.
  [[nodiscard]] Node publish(const Node& declared, const std::string& pointer);
  /// The ResourceSlices NVIDIA's DRA kubelet plugin publishes for the node (empty when it does
  /// not run there).
  [[nodiscard]] const std::vector<dra::ResourceSlice>& dra_slices(const std::string& node) const;
  /// The node as its manifest (and later patches) declared it, before publish.
  [[nodiscard]] Node declared(const NodeInfo& info) const;
  /// The kubelet's admission of a pod bound to its node: the devices it gets, or a rejection.
  [[nodiscard]] devices::Admission admit(const Pod& pod);
  /// The pod no longer holds its devices.
  void release(const PodInfo& pod);
  /// The devices the pod holds on its node, if any.
  [[nodiscard]] const devices::PodDevices* devices_of(const Pod& pod) const;
  /// The UUIDs of the physical GPUs the pod's devices are on, in index order; none off GPU nodes.
  [[nodiscard]] std::vector<std::string> held_gpus(const PodInfo& pod) const;
  /// The device manager of a GPU node, or nullptr.
  [[nodiscard]] const devices::DeviceManager* manager(const std::string& node) const;
  /// ListAndWatch reports GPU `gpu` of `node` (healthy) or not. Throws InputError at `pointer`
  /// when the node has no such GPU.
  void set_gpu_health(const std::string& node, int gpu, bool healthy, const std::string& pointer);
  /// The node is gone.
  void node_removed(const std::string& node);

 private:
  const devices::DevicePluginSettings& plugin_;
  std::string source_;
  devices::NvidiaDraOptions dra_options_;
  std::map<std::string, Node> declared_nodes_;  // GPU nodes as declared, by name
  std::map<std::string, devices::DeviceManager> device_managers_;
  std::map<std::string, std::set<int>> unhealthy_gpus_;
  std::map<std::string, std::vector<dra::ResourceSlice>> dra_slices_;  // by node
};

}  // namespace gpusched::sim
