#include "kueue/fair_sharing_iterator.hpp"

namespace gpusched::kueue {

FairSharingIterator::FairSharingIterator(std::vector<TournamentEntry> entries,
                                         const KueueConfiguration& config)
    : entries_(std::move(entries)),
      done_(entries_.size(), false),
      prioritize_non_borrowing_(config.gate("FairSharingPrioritizeNonBorrowing", true)) {
  for (std::size_t i = 0; i < entries_.size(); ++i) by_cq_[entries_[i].cq] = i;
}

std::size_t FairSharingIterator::pop() {
  // getCq takes any ClusterQueue left (Go map order, so across root cohorts Kueue's order is
  // not deterministic); gpusched takes the first in the heads' order.
  std::size_t first = 0;
  while (done_[first]) ++first;
  std::size_t index = first;
  if (entries_[first].cq->has_parent()) {
    const CohortNode& root = entries_[first].cq->parent->root();
    compute_drs(root);
    index = by_cq_.at(run_tournament(root)->cq);
  }
  done_[index] = true;
  ++popped_;
  return index;
}

// computeDRS: each candidate's share after its admission, for its ClusterQueue and each cohort
// below the root, keyed by the cohort that compares them.
void FairSharingIterator::compute_drs(const CohortNode& root) {
  drs_.clear();
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (done_[i]) continue;
    TournamentEntry& e = entries_[i];
    if (!e.cq->has_parent() || &e.cq->parent->root() != &root) continue;
    e.cq->add_usage(e.usage);
    Drs drs = dominant_resource_share(*e.cq);
    for (const CohortNode* ancestor = e.cq->parent; ancestor != nullptr;
         ancestor = ancestor->parent) {
      drs_[{ancestor, &e}] = drs;
      drs = dominant_resource_share(*ancestor);
    }
    e.cq->remove_usage(e.usage);
  }
}

// runTournament: the winner of each child cohort, then each child ClusterQueue's entry; the
// first of equals stays best.
const TournamentEntry* FairSharingIterator::run_tournament(const CohortNode& cohort) const {
  std::vector<const TournamentEntry*> candidates;
  for (const CohortNode* child : cohort.child_cohorts) {
    if (const TournamentEntry* c = run_tournament(*child)) candidates.push_back(c);
  }
  for (const ClusterQueueNode* child : cohort.child_cqs) {
    auto it = by_cq_.find(child);
    if (it != by_cq_.end() && !done_[it->second]) candidates.push_back(&entries_[it->second]);
  }
  if (candidates.empty()) return nullptr;
  const TournamentEntry* best = candidates.front();
  for (std::size_t i = 1; i < candidates.size(); ++i) {
    if (less(*candidates[i], *best, cohort)) best = candidates[i];
  }
  return best;
}

// entryComparer.less (PrioritizePreemptorWorkloads off, PrioritySortingWithinCohort on).
bool FairSharingIterator::less(const TournamentEntry& a, const TournamentEntry& b,
                               const CohortNode& parent) const {
  const Drs& a_drs = drs_.at({&parent, &a});
  const Drs& b_drs = drs_.at({&parent, &b});
  // Those whose subtree does not borrow from `parent` on the flavors they request first.
  if (prioritize_non_borrowing_) {
    const bool a_borrowing = a_drs.borrowing_on(a.usage);
    const bool b_borrowing = b_drs.borrowing_on(b.usage);
    if (a_borrowing != b_borrowing) return !a_borrowing;
  }
  if (const int cmp = compare_drs(a_drs, b_drs); cmp != 0) return cmp == -1;
  if (a.priority != b.priority) return a.priority > b.priority;
  return a.timestamp < b.timestamp;
}

}  // namespace gpusched::kueue
