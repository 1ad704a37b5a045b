#pragma once
// The structured allocator (k8s.io/dynamic-resource-allocation/structured, v0.36.2): which
// devices of the ResourceSlices a node can reach would satisfy all of a pod's unallocated claims
// at once. A port of the "incubating" implementation (internal/incubating/allocator_incubating.go,
// pools_incubating.go, consumable_capacity.go, constraint.go), the one kube-scheduler's default
// feature gates select in 1.35 and 1.36: depth-first over claims, requests and devices with
// backtracking, the first complete solution wins (no scoring). Pools are taken in (driver, pool)
// order and slices by name, the order upstream fixed in 1.36; 1.34 and 1.35 iterate a Go map, so
// gpusched uses the sorted order for every version (docs/fidelity.md).

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "dra/cel.hpp"
#include "dra/pools.hpp"
#include "model/string_hash.hpp"
#include "gpusched/model/dra.hpp"
#include "gpusched/model/node.hpp"

namespace gpusched::dra {

/// internal.Features: the DRA feature gates the allocator looks at.
struct AllocatorFeatures {
  bool admin_access = false;               ///< DRAAdminAccess
  bool consumable_capacity = false;        ///< DRAConsumableCapacity
  bool device_binding_and_status = false;  ///< DRADeviceBindingConditions + device status
  bool device_taints = false;              ///< DRADeviceTaints
  bool list_type_attributes = false;       ///< DRAListTypeAttributes
  bool partitionable_devices = false;      ///< DRAPartitionableDevices
  bool prioritized_list = false;           ///< DRAPrioritizedList
  friend bool operator==(const AllocatorFeatures&, const AllocatorFeatures&) = default;
};

/// Capacity name -> amount consumed (internal.ConsumedCapacity).
using ConsumedCapacity = std::map<std::string, Quantity, std::less<>>;

/// One allocation of a device that allows several (internal.SharedDeviceID).
struct SharedDeviceId {
  DeviceId device;
  std::string share_id;
  friend auto operator<=>(const SharedDeviceId&, const SharedDeviceId&) = default;
  friend bool operator==(const SharedDeviceId&, const SharedDeviceId&) = default;
};

/// A DeviceId by reference, to look one up without copying its names.
struct DeviceIdView {
  std::string_view driver;
  std::string_view pool;
  std::string_view device;
};

/// A DeviceId's hash, for a DeviceId or a DeviceIdView alike: the allocator asks of every
/// candidate device whether it is in use.
struct DeviceIdHash {
  using is_transparent = void;
  [[nodiscard]] std::size_t operator()(const DeviceIdView& id) const noexcept {
    const std::hash<std::string_view> h;
    std::size_t seed = h(id.driver);
    for (const std::string_view part : {id.pool, id.device})
      seed ^= h(part) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
    return seed;
  }
  [[nodiscard]] std::size_t operator()(const DeviceId& id) const noexcept {
    return (*this)(DeviceIdView{id.driver, id.pool, id.device});
  }
};

struct DeviceIdEqual {
  using is_transparent = void;
  [[nodiscard]] static DeviceIdView view(const DeviceId& id) noexcept {
    return {id.driver, id.pool, id.device};
  }
  [[nodiscard]] static DeviceIdView view(const DeviceIdView& id) noexcept { return id; }
  template <class A, class B>
  [[nodiscard]] bool operator()(const A& a, const B& b) const noexcept {
    const DeviceIdView x = view(a), y = view(b);
    return x.device == y.device && x.pool == y.pool && x.driver == y.driver;
  }
};

struct SliceIndex;

/// What is in use already (internal.AllocatedState): devices of allocated claims, the shares
/// of devices allocated several times, and the capacity those shares consume.
struct AllocatedState {
  std::unordered_set<DeviceId, DeviceIdHash, DeviceIdEqual> allocated_devices;
  std::set<SharedDeviceId> allocated_shared_device_ids;
  std::map<DeviceId, ConsumedCapacity> aggregated_capacity;
  /// allocated_devices again, by the numbers `in_use_index` gives the devices of its slices
  /// (see SliceIndex::first_device): an allocator reading that index tests a bit instead of
  /// hashing three names per candidate. Left empty (null index) by a caller that does not
  /// keep one; the allocator then looks names up.
  std::vector<bool> in_use;
  std::shared_ptr<const SliceIndex> in_use_index;
};

/// Counter set -> counter -> value.
using CounterValues =
    std::map<std::string, std::map<std::string, Quantity, std::less<>>, std::less<>>;

/// DeviceClassLister.Get: the class of that name, or nullptr (NotFound).
using ClassLookup = std::function<const DeviceClass*(std::string_view name)>;

/// What Allocate returned.
struct AllocateOutcome {
  enum class Kind : std::uint8_t {
    Allocated,  ///< one AllocationResult per claim, in the claims' order
    NoFit,      ///< (nil, nil): the node cannot satisfy the claims
    NodeError,  ///< an error wrapping ErrFailedAllocationOnNode: this node only
    Error,      ///< any other error: scheduling of the pod stops
  };
  Kind kind = Kind::NoFit;
  std::vector<AllocationResult> results;
  std::string error;  ///< err.Error() for NodeError and Error
};

/// The slices an allocator reads, grouped as it looks them up: by the node they name, and those
/// any node may reach (node selectors, all nodes, shared counters). Built once per slice change
/// by a caller that allocates for many pods.
struct SliceIndex {
  explicit SliceIndex(std::vector<const ResourceSlice*> slices);
  std::vector<const ResourceSlice*> all;
  std::map<std::string, std::vector<const ResourceSlice*>, std::less<>> on_node;
  std::vector<const ResourceSlice*> shared;
  /// Every device of every slice numbered: its slice's first number plus its position there.
  std::unordered_map<const ResourceSlice*, std::uint32_t> first_device;
  std::uint32_t device_count = 0;

  /// The numbers of the devices `id` names: one, none, or several when slices of a pool (or
  /// of its generations) repeat a name.
  [[nodiscard]] std::span<const std::uint32_t> devices_named(const DeviceId& id) const;

  /// GatherPools for `node`, kept per node name when every slice names its node (`shared`
  /// empty): a node's pools then follow from the slices alone, not from its labels. Null when
  /// some slice is shared, for the caller to gather itself. Not thread-safe, as the scheduler
  /// that keeps an index is not.
  [[nodiscard]] const std::vector<Pool>* pools_of(const Node& node,
                                                  const AllocatorFeatures& features) const;

 private:
  mutable std::optional<AllocatorFeatures> pools_features_;
  mutable std::unordered_map<std::string, std::vector<Pool>, StringHash, std::equal_to<>>
      pools_by_node_;
  std::unordered_map<DeviceId, std::vector<std::uint32_t>, DeviceIdHash, DeviceIdEqual> named_;
};

/// Sets or clears the bits of `state.in_use` that stand for `id` under its index.
void mark_in_use(AllocatedState& state, const DeviceId& id, bool in_use);

/// Makes `state.in_use` describe `state.allocated_devices` under `index`.
void number_in_use(AllocatedState& state, std::shared_ptr<const SliceIndex> index);

class Allocator {
 public:
  /// `slices` must outlive the allocator; so must what `classes` returns. `new_share_id`
  /// names each allocation of a device that allows several (upstream draws a random UID).
  Allocator(AllocatorFeatures features, AllocatedState allocated, ClassLookup classes,
            std::vector<const ResourceSlice*> slices, cel::Cache& cel_cache,
            std::function<std::string()> new_share_id);
  /// The same, reading an allocated state and a slice index the caller keeps (neither may
  /// change while the allocator lives): a scheduler shares them across cycles instead of
  /// building them per pod.
  Allocator(AllocatorFeatures features, std::shared_ptr<const AllocatedState> allocated,
            ClassLookup classes, std::shared_ptr<const SliceIndex> slices, cel::Cache& cel_cache,
            std::function<std::string()> new_share_id);

  /// Allocator.Allocate: devices for all `claims` on `node`, all or nothing.
  [[nodiscard]] AllocateOutcome allocate(const Node& node,
                                         std::span<const ResourceClaim* const> claims);

  /// Stats.NumAllocateOneInvocations over every allocate() so far.
  [[nodiscard]] std::int64_t num_allocate_one_invocations() const noexcept {
    return num_allocate_one_invocations_;
  }

 private:
  friend class AllocationSearch;
  AllocatorFeatures features_;
  std::shared_ptr<const AllocatedState> allocated_state_;
  const AllocatedState& allocated_;
  ClassLookup classes_;
  std::shared_ptr<const SliceIndex> slices_;
  cel::Cache& cel_cache_;
  std::function<std::string()> new_share_id_;
  std::int64_t num_allocate_one_invocations_ = 0;
  /// availableCounters: per pool name (upstream's key), what allocated devices left.
  std::map<std::string, CounterValues, std::less<>> available_counters_;
};

}  // namespace gpusched::dra
