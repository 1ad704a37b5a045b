#include "plugins/resource_allocation.hpp"

#include <algorithm>
#include <cmath>

#include "plugins/helpers.hpp"

namespace gpusched::plugins {
namespace {

// balanced_allocation.go balancedResourceScorer.
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

// balanced_allocation.go balancedResourceScorer from 1.36 (PR #135573): the change of the
// node's balance, mapped onto 50..100 as the balance alone was (75: unchanged; 100: from
// perfectly unbalanced to balanced). Integer arithmetic, as upstream's int64 scores.
std::int64_t balance_change_score(std::span<const std::int64_t> requested,
                                  std::span<const std::int64_t> allocated,
                                  std::span<const std::int64_t> allocatable) {
  const std::int64_t with_pod = balanced_resource_score(requested, allocatable);
  const std::int64_t without_pod = balanced_resource_score(allocated, allocatable);
  return kMaxNodeScore / 2 + (kMaxNodeScore / 2 + with_pod - without_pod) / 2;
}

}  // namespace

std::int64_t scheduler_units(ResId id, std::int64_t milli) noexcept {
  if (id == res::kCpu) return milli;
  // Quantity.Value() rounds up.
  return milli / 1000 + (milli % 1000 > 0 ? 1 : 0);
}

ResourceAllocationScorer::ResourceAllocationScorer(ClusterState& cluster,
                                                   const std::vector<ResourceSpec>& resources,
                                                   bool use_requested, AllocationStrategy strategy,
                                                   const std::vector<UtilizationShapePoint>& shape)
    : cluster_(cluster), use_requested_(use_requested), strategy_(strategy) {
  ResourceRegistry& registry = cluster.resources();
  for (const ResourceSpec& spec : resources) {
    const ResId id = registry.intern(spec.name);
    resources_.push_back({id, spec.weight, registry.is_scalar(id)});
  }
  // Shape scores are given 0..10 (MaxCustomPriorityScore) and scaled to MaxNodeScore.
  for (const UtilizationShapePoint& p : shape)
    shape_.push_back({p.utilization, p.score * (kMaxNodeScore / 10)});
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
  // Small fixed buffers: no allocation per node in the Score loop. They are left uninitialized
  // (every entry is written below): zeroing them costs more than the scoring itself.
  constexpr std::size_t kInline = 16;
  std::int64_t requested_buf[kInline];
  std::int64_t allocated_buf[kInline];
  std::int64_t allocatable_buf[kInline];
  std::vector<std::int64_t> requested_heap, allocated_heap, allocatable_heap;
  std::span<std::int64_t> requested(requested_buf, std::min(resources_.size(), kInline));
  std::span<std::int64_t> allocated(allocated_buf, requested.size());
  std::span<std::int64_t> allocatable(allocatable_buf, requested.size());
  if (resources_.size() > kInline) {
    requested_heap.resize(resources_.size());
    allocated_heap.resize(resources_.size());
    allocatable_heap.resize(resources_.size());
    requested = requested_heap;
    allocated = allocated_heap;
    allocatable = allocatable_heap;
  }
  for (std::size_t i = 0; i < resources_.size(); ++i) {
    const ScoredResource& r = resources_[i];
    const std::int64_t pod_request = pod_requests[i];
    requested[i] = 0;
    allocated[i] = 0;
    allocatable[i] = 0;
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
    allocated[i] = scheduler_units(r.id, node_requested);
    requested[i] = allocated[i] + pod_request;
  }
  return combine(requested, allocated, allocatable);
}

void ResourceAllocationScorer::score_nodes(std::span<const NodeInfo* const> nodes,
                                           std::span<const std::int64_t> pod_requests,
                                           std::span<std::int64_t> out,
                                           std::span<const std::uint32_t> positions) const {
  // The shape's place: where these requests were memoized, else the least recently used one,
  // under a new epoch (its entries then hold for nothing).
  MemoShape* shape = nullptr;
  for (MemoShape& s : memo_) {
    if (s.epoch != 0 && std::equal(pod_requests.begin(), pod_requests.end(), s.requests.begin(),
                                   s.requests.end())) {
      shape = &s;
      break;
    }
  }
  if (shape == nullptr) {
    shape =
        &*std::min_element(memo_.begin(), memo_.end(),
                           [](const MemoShape& a, const MemoShape& b) { return a.used < b.used; });
    shape->requests.assign(pod_requests.begin(), pod_requests.end());
    shape->epoch = ++memo_epoch_;
  }
  shape->used = ++memo_clock_;
  // What the loop reads is held in locals: through the members, every store of an entry could
  // have changed them, and each node reloaded them from memory.
  const std::uint64_t epoch = shape->epoch;
  std::vector<MemoEntry>& memo = shape->nodes;
  MemoEntry* entries = memo.data();
  std::size_t held = memo.size();
  const auto memoized = [&](std::size_t i, std::uint32_t slot, std::uint64_t version) {
    if (slot >= held) [[unlikely]] {
      memo.resize(slot + 1);
      entries = memo.data();
      held = memo.size();
    }
    MemoEntry& entry = entries[slot];
    if (entry.epoch != epoch || entry.node_version != version) {
      entry = {version, epoch, score(*nodes[i], pod_requests)};
    }
    out[i] = entry.score;
  };
  if (positions.empty()) {
    for (std::size_t i = 0; i < nodes.size(); ++i) memoized(i, nodes[i]->slot, nodes[i]->version);
    return;
  }
  const std::uint32_t* slots = cluster_.node_slots().data();
  const std::uint64_t* versions = cluster_.node_versions().data();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    // The mirror of the node's version, unless pods are nominated to it (they do not count in
    // a score, and the node's own version stands).
    std::uint64_t version = versions[positions[i]];
    if (version == VersionMirror::kJudgeAfresh) version = nodes[i]->version;
    memoized(i, slots[positions[i]], version);
  }
}

std::int64_t ResourceAllocationScorer::combine(std::span<const std::int64_t> requested,
                                               std::span<const std::int64_t> allocated,
                                               std::span<const std::int64_t> allocatable) const {
  switch (strategy_) {
    case AllocationStrategy::LeastAllocated:
      return least_allocated(requested, allocatable);
    case AllocationStrategy::MostAllocated:
      return most_allocated(requested, allocatable);
    case AllocationStrategy::RequestedToCapacityRatio:
      return requested_to_capacity_ratio(requested, allocatable);
    case AllocationStrategy::Balanced:
      return balanced_resource_score(requested, allocatable);
    case AllocationStrategy::BalanceChange:
      return balance_change_score(requested, allocated, allocatable);
  }
  return 0;
}

// least_allocated.go leastResourceScorer.
std::int64_t ResourceAllocationScorer::least_allocated(
    std::span<const std::int64_t> requested, std::span<const std::int64_t> allocatable) const {
  std::int64_t node_score = 0, weight_sum = 0;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    if (allocatable[i] == 0) continue;
    // leastRequestedScore
    std::int64_t s = 0;
    if (requested[i] <= allocatable[i])
      s = mul_div(allocatable[i] - requested[i], kMaxNodeScore, allocatable[i]);
    node_score += s * resources_[i].weight;
    weight_sum += resources_[i].weight;
  }
  return weight_sum == 0 ? 0 : node_score / weight_sum;
}

// most_allocated.go mostResourceScorer.
std::int64_t ResourceAllocationScorer::most_allocated(
    std::span<const std::int64_t> requested, std::span<const std::int64_t> allocatable) const {
  std::int64_t node_score = 0, weight_sum = 0;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    if (allocatable[i] == 0) continue;
    // mostRequestedScore: pods without requests get minimum values, so requested may exceed it.
    const std::int64_t req = std::min(requested[i], allocatable[i]);
    node_score += mul_div(req, kMaxNodeScore, allocatable[i]) * resources_[i].weight;
    weight_sum += resources_[i].weight;
  }
  return weight_sum == 0 ? 0 : node_score / weight_sum;
}

std::int64_t ResourceAllocationScorer::broken_linear(std::int64_t p) const {
  for (std::size_t i = 0; i < shape_.size(); ++i) {
    if (p <= shape_[i].utilization) {
      if (i == 0) return shape_[0].score;
      return shape_[i - 1].score + (shape_[i].score - shape_[i - 1].score) *
                                       (p - shape_[i - 1].utilization) /
                                       (shape_[i].utilization - shape_[i - 1].utilization);
    }
  }
  return shape_.back().score;
}

// requested_to_capacity_ratio.go requestedToCapacityRatioScorer.
std::int64_t ResourceAllocationScorer::requested_to_capacity_ratio(
    std::span<const std::int64_t> requested, std::span<const std::int64_t> allocatable) const {
  constexpr std::int64_t kMaxUtilization = 100;
  std::int64_t node_score = 0, weight_sum = 0;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    if (allocatable[i] == 0) continue;
    const std::int64_t s =
        requested[i] > allocatable[i]
            ? broken_linear(kMaxUtilization)
            : broken_linear(mul_div(requested[i], kMaxUtilization, allocatable[i]));
    if (s > 0) {
      node_score += s * resources_[i].weight;
      weight_sum += resources_[i].weight;
    }
  }
  if (weight_sum == 0) return 0;
  // math.Round(float64(nodeScore) / float64(weightSum)) for non-negative values.
  return (2 * node_score + weight_sum) / (2 * weight_sum);
}

}  // namespace gpusched::plugins
