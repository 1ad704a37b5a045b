#pragma once
// The scorer shared by NodeResourcesFit and NodeResourcesBalancedAllocation
// (pkg/scheduler/framework/plugins/noderesources/resource_allocation.go) and its strategies
// (least_allocated.go, most_allocated.go, requested_to_capacity_ratio.go, balanced_allocation.go).

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "gpusched/framework/cycle_state.hpp"
#include "gpusched/framework/node_info.hpp"
#include "gpusched/framework/pod_info.hpp"
#include "gpusched/framework/resources.hpp"
#include "gpusched/scheduler/config.hpp"

namespace gpusched::plugins {

/// A scored resource: its id, its weight, and whether it is a scalar resource.
struct ScoredResource {
  ResId id;
  std::int64_t weight;
  bool scalar;
};

/// requested[i], allocatable[i] in the scheduler's units (milli-cpu, bytes, counts) -> 0..100.
using ResourceScorer = std::function<std::int64_t(std::span<const std::int64_t> requested,
                                                  std::span<const std::int64_t> allocatable)>;

/// The pod's requests for the scored resources, computed in PreScore for every Score call.
struct PodRequestsState final : StateData {
  std::vector<std::int64_t> pod_requests;
  [[nodiscard]] std::unique_ptr<StateData> clone() const override {
    return std::make_unique<PodRequestsState>(*this);
  }
};

class ResourceAllocationScorer {
 public:
  /// Scores the configured resources (interned in `registry`); `use_requested`: real requests
  /// (BalancedAllocation) rather than NonZeroRequested (Fit).
  ResourceAllocationScorer(ResourceRegistry& registry, const std::vector<ResourceSpec>& resources,
                           bool use_requested, ResourceScorer scorer);

  /// calculatePodResourceRequestList, in the scheduler's units.
  [[nodiscard]] std::vector<std::int64_t> pod_requests(const PodInfo& pod) const;
  /// resourceAllocationScorer.score.
  [[nodiscard]] std::int64_t score(const NodeInfo& node,
                                   std::span<const std::int64_t> pod_requests) const;

 private:
  std::vector<ScoredResource> resources_;
  bool use_requested_;
  ResourceScorer scorer_;
};

/// Milli-units to the unit upstream scores in: milli for cpu, whole units (rounded up) otherwise.
[[nodiscard]] std::int64_t scheduler_units(ResId id, std::int64_t milli) noexcept;

[[nodiscard]] ResourceScorer least_allocated_scorer(std::vector<std::int64_t> weights);
[[nodiscard]] ResourceScorer most_allocated_scorer(std::vector<std::int64_t> weights);
[[nodiscard]] ResourceScorer requested_to_capacity_ratio_scorer(
    std::vector<std::int64_t> weights, const std::vector<UtilizationShapePoint>& shape);
[[nodiscard]] std::int64_t balanced_resource_score(std::span<const std::int64_t> requested,
                                                   std::span<const std::int64_t> allocatable);

}  // namespace gpusched::plugins
