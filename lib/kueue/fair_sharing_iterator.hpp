#pragma once
// The order Kueue's scheduler takes a cycle's heads in when fair sharing is on (Kueue v0.19.2
// pkg/scheduler/fair_sharing_iterator.go): for each next entry, a tournament in the cohort tree
// where at every cohort the child whose share after admitting its candidate is lowest wins.

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "gpusched/config/kueue_config.hpp"
#include "gpusched/model/time.hpp"
#include "kueue/fair_sharing.hpp"
#include "kueue/quota_tree.hpp"

namespace gpusched::kueue {

/// A head as the tournament sees it (one per ClusterQueue).
struct TournamentEntry {
  ClusterQueueNode* cq = nullptr;
  FlavorResourceAmounts usage;  ///< the assignment's usage
  std::int64_t priority = 0;
  TimeMs timestamp = 0;  ///< the queue-order timestamp
};

/// fairSharingIterator. Entries are popped one at a time: the scheduler's processing of one
/// (its usage added to the snapshot) changes the shares of the next tournament.
class FairSharingIterator {
 public:
  FairSharingIterator(std::vector<TournamentEntry> entries, const KueueConfiguration& config);

  [[nodiscard]] bool has_next() const { return popped_ < entries_.size(); }
  /// The index of the next entry.
  std::size_t pop();

 private:
  void compute_drs(const CohortNode& root);
  [[nodiscard]] const TournamentEntry* run_tournament(const CohortNode& cohort) const;
  [[nodiscard]] bool less(const TournamentEntry& a, const TournamentEntry& b,
                          const CohortNode& parent) const;

  std::vector<TournamentEntry> entries_;
  std::vector<bool> done_;
  std::size_t popped_ = 0;
  std::map<const ClusterQueueNode*, std::size_t> by_cq_;
  std::map<std::pair<const CohortNode*, const TournamentEntry*>, Drs> drs_;
  bool prioritize_non_borrowing_ = true;
};

}  // namespace gpusched::kueue
