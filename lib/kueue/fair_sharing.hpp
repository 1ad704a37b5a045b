#pragma once
// Kueue's dominant resource share (Kueue v0.19.2 pkg/cache/scheduler/fair_sharing.go): how far a
// ClusterQueue or Cohort borrows past its subtree quota, as a share of what its parent could
// lend, divided by its fairSharing weight. Fair sharing admits the lowest share first and
// preempts from the highest.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kueue/quota_tree.hpp"

namespace gpusched::kueue {

/// DRS.
struct Drs {
  double fair_weight = 1.0;
  /// The borrowed amount per 1000 of what the parent could lend, of the dominant resource.
  double unweighted_ratio = 0;
  std::string dominant_resource;
  /// Usage exceeds the subtree quota in some flavor and resource.
  bool borrowing = false;
  std::vector<FlavorResource> borrowed;

  /// NegativeDRS: the starting point of comparisons.
  [[nodiscard]] static Drs negative();
  [[nodiscard]] bool is_zero() const { return unweighted_ratio == 0; }
  /// IsBorrowingOn: borrowing on some flavor and resource `requested` holds more than 0 of.
  [[nodiscard]] bool borrowing_on(const FlavorResourceAmounts& requested) const;
  /// PreciseWeightedShare: 0 when not borrowing, +Inf for a borrowing node of weight 0.
  [[nodiscard]] double precise_weighted_share() const;
  [[nodiscard]] bool zero_weight_borrows() const { return fair_weight == 0 && !is_zero(); }
};

/// CompareDRS: -1, 0 or 1; lower is admitted first, higher preempted first. Among nodes of
/// weight 0 that borrow, the unweighted ratios compare; they rank above every other node.
[[nodiscard]] int compare_drs(const Drs& a, const Drs& b);

/// calculateLendable: per resource name, the sum over the root's flavors of what `node` could
/// ever use (what a child of `node` could borrow at most).
[[nodiscard]] std::map<std::string, Amount> calculate_lendable(const CohortNode& node);

/// dominantResourceShare of a ClusterQueue or Cohort with its current usage (0 without a parent).
[[nodiscard]] Drs dominant_resource_share(const QuotaNode& node);

/// The status weightedShare (clusterqueue_controller.go WeightedShare): the precise share rounded
/// up, INT64_MAX for +Inf.
[[nodiscard]] std::int64_t weighted_share_status(const Drs& drs);

}  // namespace gpusched::kueue
