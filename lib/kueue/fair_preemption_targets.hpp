#pragma once
// Which ClusterQueue fair sharing's preemption takes its next candidate from (Kueue v0.19.2
// pkg/scheduler/preemption/fairsharing/ordering.go TargetClusterQueueOrdering, target.go,
// least_common_ancestor.go): from the root cohort down, the child with the highest share that
// still borrows and has candidates; and the shares its strategies compare, those of the two
// almost-least-common-ancestors of the preemptor's and the target's ClusterQueues.

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/time.hpp"
#include "kueue/fair_sharing.hpp"
#include "kueue/quota_tree.hpp"
#include "kueue/workload_info.hpp"

namespace gpusched::kueue {

class FairPreemptionTargets {
 public:
  /// `candidates` in CandidatesOrdering's order.
  FairPreemptionTargets(ClusterQueueNode& preemptor_cq,
                        const std::vector<const WorkloadInfo*>& candidates, TimeMs now);

  /// Iter's next ClusterQueue, nullptr once none is left. Between two calls the caller pops a
  /// workload of the one returned or drops it.
  [[nodiscard]] ClusterQueueNode* next();
  [[nodiscard]] bool has_workload(const ClusterQueueNode& cq) const;
  const WorkloadInfo* pop_workload(const ClusterQueueNode& cq);
  /// DropQueue.
  void drop_queue(const ClusterQueueNode& cq) { pruned_cqs_.insert(&cq); }

  /// ComputeShares: the preemptor's new share and the target's old share.
  [[nodiscard]] std::pair<Drs, Drs> compute_shares(const ClusterQueueNode& target) const;
  /// ComputeTargetShareAfterRemoval: the target's share with `wl`'s usage removed.
  [[nodiscard]] Drs target_share_after_removal(ClusterQueueNode& target,
                                               const WorkloadInfo& wl) const;

 private:
  [[nodiscard]] ClusterQueueNode* next_target(const CohortNode& cohort);
  [[nodiscard]] const CohortNode& lca(const ClusterQueueNode& target) const;

  ClusterQueueNode& preemptor_cq_;
  TimeMs now_;
  std::set<const CohortNode*> preemptor_ancestors_;
  std::map<std::string, std::vector<const WorkloadInfo*>> by_cq_;
  std::set<const ClusterQueueNode*> pruned_cqs_;
  std::set<const CohortNode*> pruned_cohorts_;
};

}  // namespace gpusched::kueue
