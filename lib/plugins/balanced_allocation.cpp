#include "plugins/balanced_allocation.hpp"

#include <algorithm>
#include <memory>

#include "gpusched/framework/cluster_state.hpp"

namespace gpusched::plugins {
namespace {

struct PreScoreState final : StateData {
  std::vector<std::int64_t> pod_requests;
  [[nodiscard]] std::unique_ptr<StateData> clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

std::vector<ScoredResource> scored_resources(ResourceRegistry& registry,
                                             const std::vector<ResourceSpec>& specs) {
  std::vector<ScoredResource> out;
  for (const ResourceSpec& spec : specs) {
    const ResId id = registry.intern(spec.name);
    out.push_back({id, spec.weight, registry.is_scalar(id)});
  }
  return out;
}

}  // namespace

BalancedAllocation::BalancedAllocation(Handle& handle, const BalancedAllocationArgs& args)
    : scorer_(scored_resources(handle.cluster.resources(), args.resources), true,
              balanced_resource_score) {}

Code BalancedAllocation::pre_score(CycleState& state, const PodInfo& pod,
                                   std::span<const NodeInfo* const>) {
  auto data = std::make_unique<PreScoreState>();
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
  if (const auto* data = state.get<PreScoreState>(slot()))
    return scorer_.score(node, data->pod_requests);
  // balanced_allocation.go Score: without PreScore state the requests are computed on the spot,
  // and a best-effort pod scores 0.
  const std::vector<std::int64_t> requests = scorer_.pod_requests(pod);
  if (std::all_of(requests.begin(), requests.end(), [](std::int64_t r) { return r == 0; }))
    return 0;
  return scorer_.score(node, requests);
}

}  // namespace gpusched::plugins
