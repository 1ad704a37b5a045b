#pragma once
// The scorer shared by NodeResourcesFit and NodeResourcesBalancedAllocation
// (pkg/scheduler/framework/plugins/noderesources/resource_allocation.go) and its strategies
// (least_allocated.go, most_allocated.go, requested_to_capacity_ratio.go, balanced_allocation.go).

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "gpusched/config/scheduler_config.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/cycle_state.hpp"
#include "gpusched/framework/node_info.hpp"
#include "gpusched/framework/pod_info.hpp"
#include "gpusched/framework/resources.hpp"

namespace gpusched::plugins {

/// A scored resource: its id, its weight, and whether it is a scalar resource.
struct ScoredResource {
  ResId id;
  std::int64_t weight;
  bool scalar;
};

/// The pod's requests for the scored resources, computed in PreScore for every Score call.
struct PodRequestsState final : StateData {
  std::vector<std::int64_t> pod_requests;
  [[nodiscard]] std::unique_ptr<StateData> clone() const override {
    return std::make_unique<PodRequestsState>(*this);
  }
};

/// How requested / allocatable become a score: the NodeResourcesFit strategies and
/// NodeResourcesBalancedAllocation's, the balance with the pod (Balanced, up to 1.35) or its
/// change from the balance without it (BalanceChange, 1.36+).
enum class AllocationStrategy {
  LeastAllocated,
  MostAllocated,
  RequestedToCapacityRatio,
  Balanced,
  BalanceChange,
};

class ResourceAllocationScorer {
 public:
  /// Scores the configured resources (interned in the cluster's registry); `use_requested`: real
  /// requests (BalancedAllocation) rather than NonZeroRequested (Fit). `shape` is
  /// RequestedToCapacityRatio's utilization -> score (0..10) function.
  ResourceAllocationScorer(ClusterState& cluster, const std::vector<ResourceSpec>& resources,
                           bool use_requested, AllocationStrategy strategy,
                           const std::vector<UtilizationShapePoint>& shape = {});

  /// calculatePodResourceRequestList, in the scheduler's units.
  [[nodiscard]] std::vector<std::int64_t> pod_requests(const PodInfo& pod) const;
  /// resourceAllocationScorer.score.
  [[nodiscard]] std::int64_t score(const NodeInfo& node,
                                   std::span<const std::int64_t> pod_requests) const;
  /// score() for each node, into `out`. With the nodes' positions in the cluster's node list
  /// (CycleState::node_positions), their slots and versions are read from the cluster's arrays,
  /// and a node itself only when its score is not kept.
  void score_nodes(std::span<const NodeInfo* const> nodes,
                   std::span<const std::int64_t> pod_requests, std::span<std::int64_t> out,
                   std::span<const std::uint32_t> positions) const;

 private:
  struct ShapePoint {
    std::int64_t utilization, score;
  };
  /// The strategy over requested[i] (with the pod), allocated[i] (without it), allocatable[i]
  /// (the scheduler's units; 0 allocatable: the resource is left out).
  [[nodiscard]] std::int64_t combine(std::span<const std::int64_t> requested,
                                     std::span<const std::int64_t> allocated,
                                     std::span<const std::int64_t> allocatable) const;
  [[nodiscard]] std::int64_t least_allocated(std::span<const std::int64_t> requested,
                                             std::span<const std::int64_t> allocatable) const;
  [[nodiscard]] std::int64_t most_allocated(std::span<const std::int64_t> requested,
                                            std::span<const std::int64_t> allocatable) const;
  [[nodiscard]] std::int64_t requested_to_capacity_ratio(
      std::span<const std::int64_t> requested, std::span<const std::int64_t> allocatable) const;
  /// helper.BuildBrokenLinearFunction over shape_.
  [[nodiscard]] std::int64_t broken_linear(std::int64_t utilization) const;

  const ClusterState& cluster_;
  std::vector<ScoredResource> resources_;
  bool use_requested_;
  AllocationStrategy strategy_;
  std::vector<ShapePoint> shape_;  ///< scores scaled to MaxNodeScore

  struct MemoEntry {
    std::uint64_t node_version = 0;
    std::uint64_t epoch = 0;
    std::int64_t score = 0;
  };
  // score_nodes' memo: for each of the last kMemoShapes distinct pod_requests, by node slot; an
  // entry holds while the node's version and the shape's epoch (new each time a shape takes the
  // place) are those it was computed for. Pods of a few recurring shapes (a trace's typical
  // pods) each find the nodes that did not change since a pod of their shape was scored.
  static constexpr std::size_t kMemoShapes = 16;
  struct MemoShape {
    std::vector<std::int64_t> requests;
    std::uint64_t epoch = 0;
    std::uint64_t used = 0;  ///< when last used, for replacing the least recent
    std::vector<MemoEntry> nodes;
  };
  mutable std::array<MemoShape, kMemoShapes> memo_;
  mutable std::uint64_t memo_epoch_ = 0;
  mutable std::uint64_t memo_clock_ = 0;
};

/// Milli-units to the unit upstream scores in: milli for cpu, whole units (rounded up) otherwise.
[[nodiscard]] std::int64_t scheduler_units(ResId id, std::int64_t milli) noexcept;

}  // namespace gpusched::plugins
