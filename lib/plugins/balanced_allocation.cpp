#include "plugins/balanced_allocation.hpp"

#include <algorithm>
#include <memory>

#include "gpusched/framework/cluster_state.hpp"

namespace gpusched::plugins {
BalancedAllocation::BalancedAllocation(Handle& handle, const BalancedAllocationArgs& args)
    : scorer_(handle.cluster, args.resources, true,
              handle.version.balanced_allocation_scores_change() ? AllocationStrategy::BalanceChange
                                                                 : AllocationStrategy::Balanced) {}

Code BalancedAllocation::pre_score(CycleState& state, const PodInfo& pod,
                                   std::span<const NodeInfo* const>) {
  auto data = std::make_unique<PodRequestsState>();
  data->pod_requests = scorer_.pod_requests(pod);
  // Best-effort pods would all pile onto one node (issue #129138).
  if (std::all_of(data->pod_requests.begin(), data->pod_requests.end(),
                  [](std::int64_t r) { return r == 0; })) {
    state.skip_score(slot());
    return Code::Skip;
  }
  state.set(slot(), std::move(data));
  return Code::Success;
}

std::int64_t BalancedAllocation::score(const CycleState& state, const PodInfo& pod,
                                       const NodeInfo& node) const {
  if (const auto* data = state.get<PodRequestsState>(slot()))
    return scorer_.score(node, data->pod_requests);
  // balanced_allocation.go Score: without PreScore state the requests are computed on the spot,
  // and a best-effort pod scores 0.
  const std::vector<std::int64_t> requests = scorer_.pod_requests(pod);
  if (std::all_of(requests.begin(), requests.end(), [](std::int64_t r) { return r == 0; }))
    return 0;
  return scorer_.score(node, requests);
}

void BalancedAllocation::score_nodes(const CycleState& state, const PodInfo& pod,
                                     std::span<const NodeInfo* const> nodes,
                                     std::span<std::int64_t> scores) const {
  if (const auto* data = state.get<PodRequestsState>(slot())) {
    scorer_.score_nodes(nodes, data->pod_requests, scores, state.node_positions());
    return;
  }
  const std::vector<std::int64_t> requests = scorer_.pod_requests(pod);
  if (std::all_of(requests.begin(), requests.end(), [](std::int64_t r) { return r == 0; })) {
    std::fill(scores.begin(), scores.end(), 0);
    return;
  }
  scorer_.score_nodes(nodes, requests, scores, state.node_positions());
}

}  // namespace gpusched::plugins
