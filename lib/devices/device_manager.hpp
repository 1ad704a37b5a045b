#pragma once
// The kubelet's device manager on one GPU node, with the NVIDIA device plugin behind it
// (pkg/kubelet/cm/devicemanager/manager.go; k8s-device-plugin internal/plugin/server.go,
// internal/rm): admission of a bound pod picks concrete devices (Topology Manager hint,
// GetPreferredAllocation, Allocate) or rejects the pod as the kubelet does.

#include <map>
#include <string>
#include <vector>

#include "devices/node_devices.hpp"
#include "gpusched/model/pod.hpp"

namespace gpusched::devices {

/// What a pod got: device IDs per resource (in device order) and the NVIDIA_VISIBLE_DEVICES
/// value its containers see.
struct PodDevices {
  std::map<std::string, std::vector<std::string>> by_resource;
  std::string visible_devices;
  std::vector<int> gpus;  ///< the physical GPUs those devices are on, ascending
};

/// The kubelet's verdict on a bound pod.
struct Admission {
  bool admitted = true;
  std::string reason;   ///< UnexpectedAdmissionError, TopologyAffinityError
  std::string message;  ///< the pod's status.message and the kubelet's event text
  PodDevices devices;
};

class DeviceManager {
 public:
  explicit DeviceManager(NodeDevices node);

  [[nodiscard]] const NodeDevices& node() const noexcept { return node_; }
  /// Replaces what the node advertises (a new config or layout), keeping the allocations of the
  /// devices that still exist.
  void reconfigure(NodeDevices node);

  /// Admits `pod` (a bound pod's containers, init containers first) or says why not. On success
  /// its devices stay allocated until release(); on failure nothing is held.
  [[nodiscard]] Admission admit(const Pod& pod);
  /// The pod's devices are free again (it finished, failed or was deleted).
  void release(const std::string& pod_uid);
  /// Marks a physical GPU healthy or not; its devices leave (or rejoin) allocatable, and the
  /// pods using it keep running.
  void set_health(int gpu, bool healthy);

  /// "ns/name" of the pods holding devices of each physical GPU, by GPU index.
  [[nodiscard]] std::vector<std::vector<std::string>> pods_per_gpu() const;
  /// The devices a pod holds, if any.
  [[nodiscard]] const PodDevices* devices_of(const std::string& pod_uid) const;

 private:
  struct Holder {
    std::string pod_key;
    PodDevices devices;
    std::vector<std::string> ids;  ///< every device ID held
  };

  /// The advertised device with this ID (one of node_.devices).
  [[nodiscard]] const Device& device(const std::string& id) const;

  NodeDevices node_;
  std::map<std::string, std::size_t> index_;  // device ID -> position in node_.devices
  std::map<std::string, std::string> owner_;  // device ID -> pod uid
  std::map<std::string, Holder> holders_;     // pod uid -> what it holds
};

}  // namespace gpusched::devices
