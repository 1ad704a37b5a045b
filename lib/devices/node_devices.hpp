#pragma once
// A GPU node as the GPU Operator publishes it: its physical GPUs (deterministic UUIDs, NUMA
// node, health, MIG devices), the devices the NVIDIA device plugin advertises under each
// resource name, and the labels GPU Feature Discovery sets. Derived from the node's GFD
// hardware labels, its topology annotation, its device-plugin and MIG config labels.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "devices/gpu_topology.hpp"
#include "gpusched/config/device_plugin_config.hpp"
#include "gpusched/model/node.hpp"
#include "gpusched/model/resource_list.hpp"

namespace gpusched::devices {

/// The largest nvidia.com/gpu.count a node may declare, so that a typo cannot ask for millions
/// of devices.
inline constexpr std::int64_t kMaxGpusPerNode = 1024;

/// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (or "MIG-..." with `prefix` "MIG"), lowercase
/// hex, the same for the same node name and index on every run: the 128-bit FNV-1a hash of
/// "<prefix>/<node>/<index>[/<sub_index>]" (sub_index < 0: none), as 8-4-4-4-12 digits.
[[nodiscard]] std::string device_uuid(std::string_view prefix, std::string_view node, int index,
                                      int sub_index = -1);

struct MigDevice {
  std::string uuid;     ///< "MIG-..."
  std::string profile;  ///< "1g.10gb"
};

struct PhysicalGpu {
  int index = 0;
  std::string uuid;
  int numa_node = 0;
  bool healthy = true;
  bool mig_enabled = false;
  std::vector<MigDevice> mig;  ///< in mig-parted order
};

/// One device the plugin registers with the kubelet.
struct Device {
  std::string id;        ///< GPU UUID, "<UUID>::<k>" for a replica, or a MIG UUID
  std::string resource;  ///< "nvidia.com/gpu", "nvidia.com/gpu.shared", "nvidia.com/mig-1g.10gb"
  int gpu = 0;           ///< the physical GPU it lives on
  bool replica = false;  ///< a time-slicing / MPS replica
  bool mig = false;
};

struct NodeDevices {
  std::string product;  ///< nvidia.com/gpu.product as given (before -SHARED / -MIG- suffixes)
  std::int64_t memory_mib = 0;
  GpuTopology topology{0};
  std::vector<PhysicalGpu> gpus;
  std::string config_name;  ///< the device-plugin config in force
  DevicePluginConfig plugin;
  std::string mig_config;       ///< nvidia.com/mig.config in force ("" when none)
  std::vector<Device> devices;  ///< every advertised device, grouped by resource, in plugin order
  /// Why the device plugin registers nothing, in its words ("error building device map: ..."):
  /// a MIG layout its migStrategy rejects. Empty when it runs.
  std::string plugin_error;
  /// The topology manager policy of the kubelet (gpusched.io/topology-manager-policy):
  /// none, best-effort, restricted, single-numa-node.
  std::string topology_manager_policy = "none";

  /// What the plugin registers per resource: every device (capacity) and the healthy ones
  /// (allocatable): a device is unhealthy when its physical GPU is.
  [[nodiscard]] ResourceList capacity() const;
  [[nodiscard]] ResourceList allocatable() const;
  /// The labels GFD publishes for this state (gpu.count, gpu.replicas, gpu.sharing-strategy,
  /// gpu.product with -SHARED / -MIG-<profile>, gpu.memory, mig.strategy, mig-<profile>.*).
  /// Left out, as NVML values gpusched does not know: driver, CUDA and gfd.timestamp labels,
  /// gpu.machine, gpu.mode, gpu.family, gpu.compute.*, mig.capable, mps.capable, and a MIG
  /// device's memory, multiprocessors and engines.* (so single-strategy MIG has no gpu.memory).
  [[nodiscard]] Labels gfd_labels() const;
};

/// The devices of `node`, or nullopt when it declares no GPU hardware (no nvidia.com/gpu.product
/// and nvidia.com/gpu.count labels; `error` empty). Fails (nullopt, `error` set to a message fit
/// for an input error about the node) on an unknown topology preset or config name, a bad
/// matrix, a MIG layout the product cannot hold, or MPS on MIG devices. The annotation
/// gpusched.io/gpu-topology is a preset name, or, when it starts with '[', JSON text of the
/// nvidia-smi matrix's rows ([["X","NV12"],["NV12","X"]]) with one row per GPU. A layout the
/// plugin's migStrategy refuses is no input error: the plugin advertises nothing (plugin_error).
[[nodiscard]] std::optional<NodeDevices> derive_node_devices(const Node& node,
                                                             const DevicePluginSettings& settings,
                                                             std::string* error);

}  // namespace gpusched::devices
