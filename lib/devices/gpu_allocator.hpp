#pragma once
// Which devices a container gets once the kubelet admits it: the NVIDIA device plugin's
// GetPreferredAllocation (internal/rm/allocate.go) for whole GPUs (go-gpuallocator's best-effort
// policy) and for shared replicas or MIG devices (greedy, distributed or packed).

#include <optional>
#include <string>
#include <vector>

#include "devices/gpu_topology.hpp"

namespace gpusched::devices {

/// go-gpuallocator NewBestEffortPolicy().Allocate(available, required, size): the GPU indices
/// (ascending) of the best set of `size` among `available` that contains `required`. It
/// enumerates every partition of the available GPUs (padded to a multiple of `size`) into sets
/// of `size`, keeps the partition with the highest total pair score (the first in enumeration
/// order on ties) and returns its best-scoring set holding `required` (first on ties). The
/// kubelet passes the devices in Go map order; gpusched sorts `available` ascending (dropping
/// repeats), a fixed stand-in for that random order. Indices must be below topology.size().
/// Empty when size <= 0, fewer than `size` are available, `required` holds more than `size`
/// or a GPU not available, and in the corner where the winning set is the padded one (size - 1
/// or fewer real GPUs): upstream returns nil devices there and the plugin's
/// GetPreferredAllocation fails, so no preference exists.
[[nodiscard]] std::vector<int> best_effort_allocate(const GpuTopology& topology,
                                                    std::vector<int> available,
                                                    const std::vector<int>& required, int size);

/// A device that is not a whole GPU: a time-slicing/MPS replica ("<UUID>::<k>") or a MIG
/// device, and the physical GPU it lives on.
struct SharedDevice {
  std::string id;
  int gpu = 0;
};

/// The device plugin's greedyAlloc (v0.20): `size` devices among `available` including
/// `required`, returned as `required` (in the given order) followed by the picks. The
/// candidates are `available` minus `required`, in the given order (upstream: Go map order).
/// Before each pick it sorts them again, stably, by how many replicas of their GPU are
/// allocated (fewest first when `packed` is false, most first when true), then by how few
/// devices this call already took from that GPU, and takes the first. A GPU's allocated count is
/// `allocated_per_gpu[gpu]` (replicas held by other containers; missing entries count 0) plus
/// the `required` devices found on it in `available`, plus this call's picks: upstream counts
/// every registered replica that is not a candidate. nullopt when there are too few candidates
/// ("not enough available devices to satisfy allocation").
[[nodiscard]] std::optional<std::vector<std::string>> greedy_allocate(
    const std::vector<SharedDevice>& available, const std::vector<std::string>& required, int size,
    const std::vector<int>& allocated_per_gpu, bool packed);

}  // namespace gpusched::devices
