#include "kueue/fair_preemption_targets.hpp"

#include "kueue/ordering.hpp"

namespace gpusched::kueue {

namespace {

// getAlmostLCA: the node below `lca` on the way from `cq` to the root.
const QuotaNode& almost_lca(const ClusterQueueNode& cq, const CohortNode& lca) {
  const QuotaNode* node = &cq;
  for (const CohortNode* ancestor = cq.parent; ancestor != nullptr; ancestor = ancestor->parent) {
    if (ancestor == &lca) break;
    node = ancestor;
  }
  return *node;
}

}  // namespace

FairPreemptionTargets::FairPreemptionTargets(ClusterQueueNode& preemptor_cq,
                                             const std::vector<const WorkloadInfo*>& candidates,
                                             TimeMs now)
    : preemptor_cq_(preemptor_cq), now_(now) {
  for (const CohortNode* a = preemptor_cq.parent; a != nullptr; a = a->parent)
    preemptor_ancestors_.insert(a);
  for (const WorkloadInfo* c : candidates) by_cq_[c->cluster_queue].push_back(c);
}

bool FairPreemptionTargets::has_workload(const ClusterQueueNode& cq) const {
  auto it = by_cq_.find(cq.name);
  return it != by_cq_.end() && !it->second.empty();
}

const WorkloadInfo* FairPreemptionTargets::pop_workload(const ClusterQueueNode& cq) {
  std::vector<const WorkloadInfo*>& list = by_cq_.at(cq.name);
  const WorkloadInfo* head = list.front();
  list.erase(list.begin());
  return head;
}

ClusterQueueNode* FairPreemptionTargets::next() {
  if (!preemptor_cq_.has_parent()) {
    // Without a cohort only the preemptor's own queue, until dropped or empty.
    if (pruned_cqs_.contains(&preemptor_cq_) || !has_workload(preemptor_cq_)) return nullptr;
    return &preemptor_cq_;
  }
  const CohortNode& root = preemptor_cq_.parent->root();
  // A pass may only prune nodes; it ends once the root is pruned.
  while (!pruned_cohorts_.contains(&root)) {
    if (ClusterQueueNode* target = next_target(root)) return target;
  }
  return nullptr;
}

// nextTarget. Children are read in name order (Kueue's order is its maps').
ClusterQueueNode* FairPreemptionTargets::next_target(const CohortNode& cohort) {
  ClusterQueueNode* highest_cq = nullptr;
  Drs highest_cq_drs = Drs::negative();
  for (ClusterQueueNode* cq : cohort.child_cqs) {
    if (pruned_cqs_.contains(cq)) continue;
    const Drs drs = dominant_resource_share(*cq);
    // The preemptor's queue is pruned only once it has no candidates left.
    if ((!drs.borrowing && cq != &preemptor_cq_) || !has_workload(*cq)) {
      pruned_cqs_.insert(cq);
    } else if (const int cmp = compare_drs(drs, highest_cq_drs); cmp == 0) {
      if (candidate_before(*by_cq_.at(cq->name).front(), *by_cq_.at(highest_cq->name).front(),
                           preemptor_cq_.name, now_))
        highest_cq = cq;
    } else if (cmp == 1) {
      highest_cq_drs = drs;
      highest_cq = cq;
    }
  }
  const CohortNode* highest_cohort = nullptr;
  Drs highest_cohort_drs = Drs::negative();
  for (const CohortNode* child : cohort.child_cohorts) {
    if (pruned_cohorts_.contains(child)) continue;
    const Drs drs = dominant_resource_share(*child);
    // A cohort on the way to the preemptor's queue stays until its children are pruned.
    if (!drs.borrowing && !preemptor_ancestors_.contains(child)) {
      pruned_cohorts_.insert(child);
    } else if (compare_drs(drs, highest_cohort_drs) >= 0) {
      highest_cohort_drs = drs;
      highest_cohort = child;
    }
  }
  if (highest_cohort == nullptr && highest_cq == nullptr) {
    pruned_cohorts_.insert(&cohort);
    return nullptr;
  }
  // On a tie the cohort, to pick the most unfair node inside it.
  if (compare_drs(highest_cohort_drs, highest_cq_drs) >= 0) return next_target(*highest_cohort);
  return highest_cq;
}

// getLCA: the first cohort above the target that holds the preemptor's queue.
const CohortNode& FairPreemptionTargets::lca(const ClusterQueueNode& target) const {
  const CohortNode* ancestor = target.parent;
  while (!preemptor_ancestors_.contains(ancestor)) ancestor = ancestor->parent;
  return *ancestor;
}

std::pair<Drs, Drs> FairPreemptionTargets::compute_shares(const ClusterQueueNode& target) const {
  const CohortNode& common = lca(target);
  return {dominant_resource_share(almost_lca(preemptor_cq_, common)),
          dominant_resource_share(almost_lca(target, common))};
}

Drs FairPreemptionTargets::target_share_after_removal(ClusterQueueNode& target,
                                                      const WorkloadInfo& wl) const {
  target.remove_usage(wl.usage());
  const Drs share = dominant_resource_share(almost_lca(target, lca(target)));
  target.add_usage(wl.usage());
  return share;
}

}  // namespace gpusched::kueue
