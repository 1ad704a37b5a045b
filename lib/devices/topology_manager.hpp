#pragma once
// The kubelet's Topology Manager for the one hint provider gpusched models, the device manager
// (pkg/kubelet/cm/topologymanager: policy_*.go, topology_manager.go;
// pkg/kubelet/cm/devicemanager/topology_hints.go): the NUMA hints of a container's device
// requests, merged under the node's policy into one affinity, and whether the pod is admitted.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpusched::devices {

/// A set of NUMA nodes (bit i = NUMA node i), bitmask.BitMask.
using NumaMask = std::uint64_t;

/// topologymanager.TopologyHint; `affinity` nullopt is "no preference".
struct TopologyHint {
  std::optional<NumaMask> affinity;
  bool preferred = false;
  friend bool operator==(const TopologyHint&, const TopologyHint&) = default;
};

/// What the device manager knows of one requested resource: the NUMA node of each of its
/// devices (all of them, and the ones still free), and how many the container asks for.
struct ResourceDemand {
  std::vector<int> all_numa;        ///< per registered device, healthy or not
  std::vector<int> available_numa;  ///< per free healthy device
  int request = 0;
};

/// generateDeviceTopologyHints for one resource over the machine's NUMA nodes `numa_nodes`.
[[nodiscard]] std::vector<TopologyHint> device_topology_hints(const std::vector<int>& numa_nodes,
                                                              const ResourceDemand& demand);

/// The policy's merge of every resource's hints (an empty list: no possible affinity), and
/// whether the container may run. Policies: "none" (no hint, always admitted), "best-effort"
/// (best hint, always admitted), "restricted" (admitted when the best hint is preferred),
/// "single-numa-node" (only single-NUMA preferred hints; admitted when one is found).
struct TopologyAdmission {
  TopologyHint hint;
  bool admit = true;
};
[[nodiscard]] TopologyAdmission merge_hints(const std::string& policy, const std::vector<int>& numa_nodes,
                                    const std::vector<std::vector<TopologyHint>>& resources);

/// TopologyAffinityError's text (topologymanager.ErrorTopologyAffinity's Error()).
inline constexpr const char* kTopologyAffinityReason = "TopologyAffinityError";
inline constexpr const char* kTopologyAffinityMessage =
    "Resources cannot be allocated with Topology locality";

}  // namespace gpusched::devices
