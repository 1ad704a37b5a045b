#pragma once
// The test body of Kueue v0.19.2's TestPreemption and TestHierarchicalPreemptions
// (pkg/scheduler/preemption/preemption_test.go, preemption_hierarchical_test.go) and
// TestFairPreemptions (preemption_fair_test.go): a case's
// ClusterQueues, Cohorts, admitted workloads, incoming workload and its flavor assignment, run
// through the preemptor (lib/kueue/preemptor.cpp), classical or with fair sharing.

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kueue/preemptor.hpp"
#include "kueue_test_support.hpp"

namespace gpusched::kueue::testing {

// time.Now().Truncate(time.Second) of the upstream test: any instant after the zero creation
// time MakeWorkload leaves.
constexpr TimeMs kNow = 1'000'000'000;

/// One resource's flavor and mode in a pod set of the incoming workload's assignment.
struct ResourceFlavorMode {
  std::string resource;
  std::string flavor;
  AssignmentMode mode;
};

/// flavorassigner.PodSetAssignment{Name, Count, Flavors}.
struct PodSetAssignmentSpec {
  std::string name;
  std::int32_t count;
  std::vector<ResourceFlavorMode> flavors;
};

struct PreemptionCase {
  std::vector<ClusterQueue> cluster_queues;
  std::vector<Cohort> cohorts;
  std::vector<Workload> admitted;
  Workload incoming;
  std::string target_cq;
  std::vector<PodSetAssignmentSpec> assignment;
  std::size_t want_preempted = 0;
  std::set<std::pair<std::string, std::string>> want;  // key, Preempted reason
  /// With fair sharing (TestFairPreemptions): its preemptionStrategies (empty: both).
  std::optional<std::vector<KueuePreemptionStrategy>> fair_strategies;
};

// baseIncomingWl.
inline WorkloadBuilder base_incoming() {
  return WorkloadBuilder("in", "").uid("wl-in").label(std::string(kJobUidLabel), "job-in");
}

// Assignment.TotalRequestsFor: each pod set's requests scaled to the assignment's count
// (PodSetResources.ScaledTo leaves a pod set of count 0 as it is), zero ones left out.
inline FlavorResourceAmounts total_requests_for(const WorkloadInfo& wl, const Assignment& a) {
  FlavorResourceAmounts usage;
  for (std::size_t i = 0; i < wl.total_requests.size(); ++i) {
    const PodSetResources& ps = wl.total_requests[i];
    const PodSetFlavors& assigned = a.pod_sets[i];
    for (const auto& [resource, q] : ps.requests) {
      const std::int64_t scaled = ps.count == 0 ? q : q / ps.count * assigned.count;
      if (scaled == 0) continue;
      auto flavor = assigned.flavors.find(resource);
      usage[{flavor == assigned.flavors.end() ? "" : flavor->second.name, resource}] +=
          Amount(scaled);
    }
  }
  return usage;
}

// The test body of TestPreemption: the cache with the admitted workloads, a snapshot,
// GetTargets for the incoming workload in targetCQ; the snapshot is left as it was.
inline void check(const PreemptionCase& c) {
  QuotaTree cache = build_tree(c.cluster_queues, c.cohorts);
  std::map<std::string, Workload> workloads;
  for (const Workload& wl : c.admitted)
    workloads[wl.metadata.namespace_ + "/" + wl.metadata.name] = wl;
  for (const auto& [key, wl] : workloads) {
    const WorkloadInfo info = make_info(wl, key);
    ClusterQueueNode* cq = cache.cluster_queue(info.cluster_queue);
    REQUIRE(cq != nullptr);
    cq->workloads.insert(key);
    cq->add_usage(info.usage());
  }
  QuotaTree snapshot = cache;
  KueueConfiguration config;
  if (c.fair_strategies) config.fair_sharing = KueueConfiguration::FairSharing{*c.fair_strategies};
  Preemptor preemptor(snapshot, workloads, config, kNow);

  WorkloadInfo in = make_info(c.incoming, "/" + c.incoming.metadata.name);
  in.cluster_queue = c.target_cq;
  Assignment assignment;
  for (const PodSetAssignmentSpec& spec : c.assignment) {
    PodSetFlavors ps;
    ps.name = spec.name;
    ps.count = spec.count;
    for (const ResourceFlavorMode& f : spec.flavors)
      ps.flavors[f.resource] = FlavorAssignment{f.flavor, f.mode};
    assignment.pod_sets.push_back(std::move(ps));
  }
  assignment.usage = total_requests_for(in, assignment);

  const std::vector<PreemptionTarget> targets = preemptor.get_targets(in, assignment);
  std::set<std::pair<std::string, std::string>> got;
  for (const PreemptionTarget& t : targets) got.emplace(t.key, t.reason);
  // A target already evicted gets no Preempted condition upstream: its reason is unknown ("").
  std::set<std::pair<std::string, std::string>> want;
  for (const auto& [key, reason] : c.want) {
    if (reason.empty()) {
      // A reference of its own: Clang 14 cannot capture a structured binding.
      const std::string& wanted = key;
      auto it =
          std::find_if(got.begin(), got.end(), [&](const auto& g) { return g.first == wanted; });
      if (it != got.end())
        want.insert(*it);
      else
        want.emplace(key, reason);
    } else {
      want.emplace(key, reason);
    }
  }
  CHECK(got == want);
  CHECK(targets.size() == c.want_preempted);
  for (const auto& [name, cq] : cache.cluster_queues()) {
    INFO("snapshot of " << name << " left as it was");
    CHECK(snapshot.cluster_queue(name)->workloads == cq->workloads);
    // Fair sharing adds the preemptor's usage and removes it again: a flavor it held none of
    // is left at 0, as in Kueue's map.
    auto nonzero = [](FlavorResourceAmounts usage) {
      std::erase_if(usage, [](const auto& entry) { return entry.second == Amount(); });
      return usage;
    };
    CHECK(nonzero(snapshot.cluster_queue(name)->resources.usage) == nonzero(cq->resources.usage));
  }
}

}  // namespace gpusched::kueue::testing
