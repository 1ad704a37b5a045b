#include "devices/topology_manager.hpp"

#include <bit>
#include <functional>

namespace gpusched::devices {
namespace {

int count(NumaMask mask) {
  return std::popcount(mask);
}

NumaMask mask_of(const std::vector<int>& numa_nodes) {
  NumaMask mask = 0;
  for (int node : numa_nodes) mask |= NumaMask{1} << node;
  return mask;
}

/// bitmask.IterateBitMasks: every non-empty combination of `numa_nodes`, by size, then in
/// lexicographic order of the nodes.
void iterate_masks(const std::vector<int>& numa_nodes, const std::function<void(NumaMask)>& f) {
  const int n = static_cast<int>(numa_nodes.size());
  std::function<void(int, int, NumaMask)> combine = [&](int start, int left, NumaMask mask) {
    if (left == 0) {
      f(mask);
      return;
    }
    for (int i = start; i <= n - left; ++i) {
      combine(i + 1, left - 1, mask | (NumaMask{1} << numa_nodes[static_cast<std::size_t>(i)]));
    }
  };
  for (int size = 1; size <= n; ++size) combine(0, size, 0);
}

/// bitMask.IsNarrowerThan: fewer NUMA nodes; on a tie the numerically lower mask (IsLessThan).
bool narrower(NumaMask a, NumaMask b) {
  return count(a) == count(b) ? a < b : count(a) < count(b);
}

/// HintMerger.CompareNUMAAffinityMasks without prefer-closest-numa-nodes: the narrowest wins,
/// the current one on equal masks.
const TopologyHint& fitter(const TopologyHint& current, const TopologyHint& candidate) {
  if (*candidate.affinity == *current.affinity) return current;
  return narrower(*current.affinity, *candidate.affinity) ? current : candidate;
}

/// maxOfMinAffinityCounts over the providers' hints.
int best_non_preferred_count(const std::vector<std::vector<TopologyHint>>& hints) {
  int best = 0;
  for (const auto& resource : hints) {
    const TopologyHint* narrowest = nullptr;
    for (const TopologyHint& hint : resource) {
      if (!hint.affinity) continue;
      if (narrowest == nullptr || narrower(*hint.affinity, *narrowest->affinity)) {
        narrowest = &hint;
      }
    }
    if (narrowest != nullptr) best = std::max(best, count(*narrowest->affinity));
  }
  return best;
}

/// HintMerger.compare (policy.go): which of the best hint so far and a merged candidate wins.
const TopologyHint* compare(const TopologyHint* current, const TopologyHint& candidate,
                            int best_non_preferred) {
  if (count(*candidate.affinity) == 0) return current;
  if (current == nullptr) return &candidate;
  if (!current->preferred && candidate.preferred) return &candidate;
  if (current->preferred && !candidate.preferred) return current;
  if (current->preferred && candidate.preferred) return &fitter(*current, candidate);
  // Both non-preferred: get as close as possible to (not above) the widest of the narrowest
  // hints any resource needs.
  const int cur = count(*current->affinity);
  const int cand = count(*candidate.affinity);
  if (cur > best_non_preferred) return &fitter(*current, candidate);
  if (cur == best_non_preferred) {
    return cand != best_non_preferred ? current : &fitter(*current, candidate);
  }
  if (cand > best_non_preferred) return current;
  if (cand == best_non_preferred) return &candidate;
  if (cand > cur) return &candidate;
  if (cand < cur) return current;
  return &fitter(*current, candidate);
}

/// mergePermutation: the AND of the affinities (the default mask for "no preference"),
/// preferred when every hint is preferred and all given affinities are equal.
TopologyHint merge_permutation(NumaMask default_mask, const std::vector<TopologyHint>& hints) {
  bool preferred = true;
  NumaMask merged = default_mask;
  std::optional<NumaMask> first;
  for (const TopologyHint& hint : hints) {
    if (hint.affinity) {
      if (!first) first = *hint.affinity;
      if (*hint.affinity != *first) preferred = false;
      merged &= *hint.affinity;
    }
    if (!hint.preferred) preferred = false;
  }
  return {merged, preferred};
}

/// HintMerger.Merge over every permutation of one hint per resource.
TopologyHint merge(NumaMask default_mask, const std::vector<std::vector<TopologyHint>>& hints) {
  const int best_non_preferred = best_non_preferred_count(hints);
  std::optional<TopologyHint> best;
  std::vector<TopologyHint> permutation;
  std::function<void(std::size_t)> iterate = [&](std::size_t i) {
    if (i == hints.size()) {
      const TopologyHint candidate = merge_permutation(default_mask, permutation);
      const TopologyHint* current = best ? &*best : nullptr;
      const TopologyHint* winner = compare(current, candidate, best_non_preferred);
      if (winner == &candidate) best = candidate;
      return;
    }
    for (const TopologyHint& hint : hints[i]) {
      permutation.push_back(hint);
      iterate(i + 1);
      permutation.pop_back();
    }
  };
  iterate(0);
  return best ? *best : TopologyHint{default_mask, false};
}

}  // namespace

std::vector<TopologyHint> device_topology_hints(const std::vector<int>& numa_nodes,
                                                const ResourceDemand& demand) {
  int min_affinity_size = static_cast<int>(numa_nodes.size());
  std::vector<TopologyHint> hints;
  auto in_mask = [](NumaMask mask, int numa) { return (mask >> numa & 1U) != 0; };
  iterate_masks(numa_nodes, [&](NumaMask mask) {
    int in_all = 0;
    for (int numa : demand.all_numa) in_all += in_mask(mask, numa) ? 1 : 0;
    if (in_all >= demand.request && count(mask) < min_affinity_size) {
      min_affinity_size = count(mask);
    }
    int matching = 0;
    for (int numa : demand.available_numa) matching += in_mask(mask, numa) ? 1 : 0;
    if (matching < demand.request) return;
    hints.push_back({mask, false});
  });
  // Only the hints as narrow as the fewest NUMA nodes that could ever hold the request are
  // preferred.
  for (TopologyHint& hint : hints) hint.preferred = count(*hint.affinity) == min_affinity_size;
  return hints;
}

TopologyAdmission merge_hints(const std::string& policy, const std::vector<int>& numa_nodes,
                      const std::vector<std::vector<TopologyHint>>& resources) {
  if (policy == "none") return {TopologyHint{std::nullopt, true}, true};
  // filterProvidersHints: a resource without any possible affinity is {nil, false}.
  std::vector<std::vector<TopologyHint>> hints;
  for (const auto& resource : resources) {
    hints.push_back(resource.empty() ? std::vector<TopologyHint>{{std::nullopt, false}}
                                     : resource);
  }
  if (hints.empty()) hints.push_back({{std::nullopt, true}});
  const NumaMask default_mask = mask_of(numa_nodes);
  if (policy == "single-numa-node") {
    // filterSingleNumaHints: only preferred hints of one NUMA node, or preferred "don't care".
    for (auto& resource : hints) {
      std::vector<TopologyHint> kept;
      for (const TopologyHint& hint : resource) {
        if (hint.preferred && (!hint.affinity || count(*hint.affinity) == 1)) kept.push_back(hint);
      }
      resource = std::move(kept);
    }
    TopologyHint best = merge(default_mask, hints);
    if (best.affinity == default_mask) best.affinity.reset();
    return {best, best.preferred};
  }
  const TopologyHint best = merge(default_mask, hints);
  return {best, policy == "best-effort" || best.preferred};
}

}  // namespace gpusched::devices
