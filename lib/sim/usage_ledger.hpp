#pragma once
// Time-weighted allocation: what each node offered and what its pods requested, integrated over
// the virtual clock as ClusterState reports each change (NodeObserver).

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/sim/result.hpp"
#include "model/wide_int.hpp"

namespace gpusched::sim {

class UsageLedger {
 public:
  /// Reads the clock through `now` at each change.
  UsageLedger(const ClusterState& cluster, const TimeMs& now) : cluster_(cluster), now_(now) {}

  /// The NodeObserver: integrates the node's values up to now before they change.
  void observe(const NodeInfo& node, NodeChange change);
  /// Closes the nodes still in the cluster now and returns every stay, ordered by node name then
  /// start; widens the series' buckets so that at most kMaxBuckets cover the run. Call once, at
  /// the end of the run.
  [[nodiscard]] std::vector<NodeUsage> finish();
  /// The fleet's GPUs over time, to now (SimulationResult::gpu_series), and the bucket width.
  [[nodiscard]] std::vector<GpuBucket> gpu_series() const;
  [[nodiscard]] TimeMs bucket_ms() const noexcept { return bucket_ms_; }

 private:
  // milli-units x milliseconds: a TiB of memory for a year is ~3e25, beyond 64 bits.
  using Integral = Int128;
  struct Open {
    TimeMs from = 0;
    TimeMs last = 0;  // when the integrals were last brought up to date
    std::vector<std::pair<ResId, Integral>> allocatable;
    std::vector<std::pair<ResId, Integral>> requested;
    std::vector<std::pair<ResId, Integral>> schedulable;
    std::vector<GpuStep> gpu_steps;
    /// nvidia.com/gpu's integrals, of the GPUs gpus_of() counts.
    struct {
      Integral allocatable = 0;
      Integral requested = 0;
      Integral schedulable = 0;
    } gpus;
  };
  // GPU milli-unit-milliseconds in one bucket of the fleet series.
  struct Bucket {
    Integral schedulable = 0;
    Integral allocated = 0;
  };
  static constexpr std::size_t kMaxBuckets = 4096;

  void integrate(const NodeInfo& node, Open& open);
  /// Doubles the bucket width (merging buckets in pairs) until [0, to) needs at most
  /// kMaxBuckets: the series is bounded by that count, whatever the clock reads.
  void widen_to(TimeMs to);
  /// Spreads GPU amounts held over [from, to) across the series' buckets.
  void add_to_series(TimeMs from, TimeMs to, std::int64_t schedulable, std::int64_t allocated);
  void close(const NodeInfo& node, Open& open);
  /// The node's GPUs as the GPU metrics count them: the device plugin's nvidia.com/gpu, and the
  /// GPUs NVIDIA's DRA driver publishes there (its full-GPU devices, type "gpu"); allocated, the
  /// device plugin's requests (less those DRA serves through the extended-resource bridge) and
  /// the driver's GPUs that claims hold, themselves or through a MIG device (parentUUID).
  /// Milli-units.
  struct Gpus {
    std::int64_t allocatable = 0;
    std::int64_t allocated = 0;
  };
  [[nodiscard]] Gpus gpus_of(const NodeInfo& node);

  const ClusterState& cluster_;
  const TimeMs& now_;
  std::vector<Open> open_;  // by NodeInfo::slot (never reused)
  /// The driver's GPUs (pool, device) by node, as of the slices' generation `dra_slices_seen_`;
  /// those claims hold, as of the claims' generation `dra_claims_seen_`.
  using DeviceKey = std::pair<std::string, std::string>;
  std::map<std::string, std::set<DeviceKey>, std::less<>> dra_gpus_;
  std::map<DeviceKey, DeviceKey> dra_gpu_of_;  ///< a device of the driver -> its GPU
  std::uint64_t dra_slices_seen_ = 0;
  std::set<DeviceKey> dra_allocated_;
  std::uint64_t dra_claims_seen_ = 0;
  std::vector<NodeUsage> closed_;
  std::optional<ResId> gpu_;  // nvidia.com/gpu's id, once a node has had it
  // alibabacloud.com/gpu-milli's and gpu-count's ids, once a node has had them
  std::optional<ResId> share_milli_;
  std::optional<ResId> share_count_;
  TimeMs bucket_ms_ = 60'000;
  std::vector<Bucket> series_;
};

}  // namespace gpusched::sim
