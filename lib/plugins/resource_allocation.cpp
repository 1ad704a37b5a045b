#include "plugins/resource_allocation.hpp"

#include <cmath>

#include "plugins/helpers.hpp"

namespace gpusched::plugins {

std::int64_t scheduler_units(ResId id, std::int64_t milli) noexcept {
  if (id == res::kCpu) return milli;
  // Quantity.Value() rounds up.
  return milli / 1000 + (milli % 1000 > 0 ? 1 : 0);
}

ResourceAllocationScorer::ResourceAllocationScorer(ResourceRegistry& registry,
                                                   const std::vector<ResourceSpec>& resources,
                                                   bool use_requested, ResourceScorer scorer)
    : use_requested_(use_requested), scorer_(std::move(scorer)) {
  for (const ResourceSpec& spec : resources) {
    const ResId id = registry.intern(spec.name);
    resources_.push_back({id, spec.weight, registry.is_scalar(id)});
  }
}

std::vector<std::int64_t> ResourceAllocationScorer::pod_requests(const PodInfo& pod) const {
  std::vector<std::int64_t> out;
  out.reserve(resources_.size());
  for (const ScoredResource& r : resources_) {
    std::int64_t milli = pod.request(r.id);
    // NonMissingContainerRequests: the Fit scorer counts 100m / 200Mi for containers without one.
    if (!use_requested_ && r.id == res::kCpu) milli = pod.nonzero_cpu;
    if (!use_requested_ && r.id == res::kMemory) milli = pod.nonzero_memory;
    out.push_back(scheduler_units(r.id, milli));
  }
  return out;
}

std::int64_t ResourceAllocationScorer::score(const NodeInfo& node,
                                             std::span<const std::int64_t> pod_requests) const {
  // Small fixed buffers: no allocation per node in the Score loop.
  constexpr std::size_t kInline = 16;
  std::int64_t requested_buf[kInline] = {};
  std::int64_t allocatable_buf[kInline] = {};
  std::vector<std::int64_t> requested_heap, allocatable_heap;
  std::span<std::int64_t> requested(requested_buf, std::min(resources_.size(), kInline));
  std::span<std::int64_t> allocatable(allocatable_buf, requested.size());
  if (resources_.size() > kInline) {
    requested_heap.assign(resources_.size(), 0);
    allocatable_heap.assign(resources_.size(), 0);
    requested = requested_heap;
    allocatable = allocatable_heap;
  }
  for (std::size_t i = 0; i < resources_.size(); ++i) {
    const ScoredResource& r = resources_[i];
    const std::int64_t pod_request = pod_requests[i];
    // calculateResourceAllocatableRequest: a scalar resource the pod does not request is skipped.
    if (pod_request == 0 && r.scalar) continue;
    std::int64_t node_requested = 0;
    if (r.id == res::kCpu) {
      node_requested = use_requested_ ? node.requested[r.id] : node.nonzero_cpu;
    } else if (r.id == res::kMemory) {
      node_requested = use_requested_ ? node.requested[r.id] : node.nonzero_memory;
    } else {
      node_requested = node.requested[r.id];
    }
    const std::int64_t alloc = scheduler_units(r.id, node.allocatable[r.id]);
    if (alloc == 0) continue;
    allocatable[i] = alloc;
    requested[i] = scheduler_units(r.id, node_requested) + pod_request;
  }
  return scorer_(requested, allocatable);
}

ResourceScorer least_allocated_scorer(std::vector<std::int64_t> weights) {
  return [weights = std::move(weights)](std::span<const std::int64_t> requested,
                                        std::span<const std::int64_t> allocatable) {
    std::int64_t node_score = 0, weight_sum = 0;
    for (std::size_t i = 0; i < requested.size(); ++i) {
      if (allocatable[i] == 0) continue;
      // leastRequestedScore
      std::int64_t s = 0;
      if (requested[i] <= allocatable[i]) {
        s = static_cast<std::int64_t>(
            (static_cast<Int128>(allocatable[i] - requested[i]) * kMaxNodeScore) / allocatable[i]);
      }
      node_score += s * weights[i];
      weight_sum += weights[i];
    }
    return weight_sum == 0 ? 0 : node_score / weight_sum;
  };
}

ResourceScorer most_allocated_scorer(std::vector<std::int64_t> weights) {
  return [weights = std::move(weights)](std::span<const std::int64_t> requested,
                                        std::span<const std::int64_t> allocatable) {
    std::int64_t node_score = 0, weight_sum = 0;
    for (std::size_t i = 0; i < requested.size(); ++i) {
      if (allocatable[i] == 0) continue;
      // mostRequestedScore: pods without requests get minimum values, so requested may exceed it.
      const std::int64_t req = std::min(requested[i], allocatable[i]);
      const auto s =
          static_cast<std::int64_t>((static_cast<Int128>(req) * kMaxNodeScore) / allocatable[i]);
      node_score += s * weights[i];
      weight_sum += weights[i];
    }
    return weight_sum == 0 ? 0 : node_score / weight_sum;
  };
}

ResourceScorer requested_to_capacity_ratio_scorer(std::vector<std::int64_t> weights,
                                                  const std::vector<UtilizationShapePoint>& shape) {
  // Scores are given 0..10 (MaxCustomPriorityScore) and scaled to MaxNodeScore.
  struct Point {
    std::int64_t utilization, score;
  };
  std::vector<Point> points;
  for (const auto& p : shape) points.push_back({p.utilization, p.score * (kMaxNodeScore / 10)});
  // helper.BuildBrokenLinearFunction
  auto broken_linear = [points](std::int64_t p) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (p <= points[i].utilization) {
        if (i == 0) return points[0].score;
        return points[i - 1].score + (points[i].score - points[i - 1].score) *
                                         (p - points[i - 1].utilization) /
                                         (points[i].utilization - points[i - 1].utilization);
      }
    }
    return points.back().score;
  };
  return [weights = std::move(weights), broken_linear](std::span<const std::int64_t> requested,
                                                       std::span<const std::int64_t> allocatable) {
    constexpr std::int64_t kMaxUtilization = 100;
    std::int64_t node_score = 0, weight_sum = 0;
    for (std::size_t i = 0; i < requested.size(); ++i) {
      if (allocatable[i] == 0) continue;
      const std::int64_t s =
          requested[i] > allocatable[i]
              ? broken_linear(kMaxUtilization)
              : broken_linear(static_cast<std::int64_t>(static_cast<Int128>(requested[i]) *
                                                        kMaxUtilization / allocatable[i]));
      if (s > 0) {
        node_score += s * weights[i];
        weight_sum += weights[i];
      }
    }
    if (weight_sum == 0) return std::int64_t{0};
    // math.Round(float64(nodeScore) / float64(weightSum)) for non-negative values.
    return (2 * node_score + weight_sum) / (2 * weight_sum);
  };
}

std::int64_t balanced_resource_score(std::span<const std::int64_t> requested,
                                     std::span<const std::int64_t> allocatable) {
  // Fractions are computed twice (count, then use) instead of stored, so that any number of
  // configured resources works without allocating in the Score loop.
  auto fraction = [&](std::size_t i) {
    const double f = static_cast<double>(requested[i]) / static_cast<double>(allocatable[i]);
    return f > 1 ? 1.0 : f;
  };
  std::size_t n = 0;
  double total = 0;
  double first = 0, second = 0;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    if (allocatable[i] == 0) continue;
    const double f = fraction(i);
    if (n == 0) first = f;
    if (n == 1) second = f;
    total += f;
    ++n;
  }
  double std_dev = 0;
  if (n == 2) {
    std_dev = std::abs((first - second) / 2);
  } else if (n > 2) {
    const double mean = total / static_cast<double>(n);
    double sum = 0;
    for (std::size_t i = 0; i < requested.size(); ++i) {
      if (allocatable[i] == 0) continue;
      sum += (fraction(i) - mean) * (fraction(i) - mean);
    }
    std_dev = std::sqrt(sum / static_cast<double>(n));
  }
  return static_cast<std::int64_t>((1 - std_dev) * static_cast<double>(kMaxNodeScore));
}

}  // namespace gpusched::plugins
