#pragma once
// Kueue's preemption (Kueue v0.19.2 pkg/scheduler/preemption/preemption.go): the workloads to
// evict so that a workload fits its ClusterQueue, found on the admission cycle's snapshot of the
// quota tree. Classical (classicalPreemptions, classical/candidate_generator.go,
// classical/hierarchical_preemption.go) or, with fairSharing configured, by the shares
// (fairPreemptions, fairsharing/*); preemption_oracle.go for the flavor assigner.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpusched/config/kueue_config.hpp"
#include "gpusched/model/kueue.hpp"
#include "kueue/flavor_assigner.hpp"
#include "kueue/quota_tree.hpp"
#include "kueue/workload_info.hpp"

namespace gpusched::kueue {

// Preemption reasons (apis/kueue/v1beta2/workload_types.go).
inline constexpr std::string_view kInClusterQueueReason = "InClusterQueue";
inline constexpr std::string_view kInCohortReclamationReason = "InCohortReclamation";
inline constexpr std::string_view kInCohortReclaimWhileBorrowingReason =
    "InCohortReclaimWhileBorrowing";
inline constexpr std::string_view kInCohortFairSharingReason = "InCohortFairSharing";

/// Target: a workload to evict, why, and its ClusterQueue.
struct PreemptionTarget {
  std::string key;  ///< "ns/name"
  std::string reason;
  std::string cluster_queue;
};

/// The preemptor of one admission cycle, working on that cycle's snapshot. It is also the flavor
/// assigner's oracle (PreemptionOracle.SimulatePreemption).
class Preemptor final : public PreemptionOracle {
 public:
  Preemptor(QuotaTree& snapshot, const std::map<std::string, Workload>& workloads,
            const KueueConfiguration& config, TimeMs now);

  /// GetTargets: the workloads to evict so that `wl` fits with `assignment` (empty: none found).
  [[nodiscard]] std::vector<PreemptionTarget> get_targets(const WorkloadInfo& wl,
                                                          const Assignment& assignment);

  std::pair<PreemptionPossibility, int> simulate_preemption(const ClusterQueueNode& cq,
                                                            const WorkloadInfo& wl,
                                                            const FlavorResource& fr,
                                                            Amount quantity) override;

  /// The admitted workload "ns/name" as the snapshot counts it.
  [[nodiscard]] const WorkloadInfo& info(const std::string& key);
  /// Snapshot.SimulateWorkloadUsageRemoval / its revert: the workloads' usage leaves (returns to)
  /// their ClusterQueues.
  void remove_usage_of(const std::vector<std::string>& keys);
  void add_usage_of(const std::vector<std::string>& keys);

 private:
  struct Context {
    const WorkloadInfo* preemptor = nullptr;
    ClusterQueueNode* cq = nullptr;
    std::set<FlavorResource> frs_need_preemption;
    FlavorResourceAmounts usage;
  };
  [[nodiscard]] std::vector<PreemptionTarget> preemptions(const Context& ctx);
  [[nodiscard]] std::vector<PreemptionTarget> classical_preemptions(const Context& ctx);
  [[nodiscard]] std::vector<PreemptionTarget> fair_preemptions(const Context& ctx);
  [[nodiscard]] std::vector<const WorkloadInfo*> fair_candidates(const Context& ctx);
  bool first_fair_strategy(const Context& ctx, const std::vector<const WorkloadInfo*>& candidates,
                           KueuePreemptionStrategy strategy, std::vector<PreemptionTarget>& targets,
                           std::vector<const WorkloadInfo*>& retry);
  bool second_fair_strategy(const Context& ctx, const std::vector<const WorkloadInfo*>& retry,
                            std::vector<PreemptionTarget>& targets);
  /// Evicts `wl` in the snapshot as a target; whether the preemptor now fits.
  bool take(const Context& ctx, const WorkloadInfo& wl, std::string_view reason,
            std::vector<PreemptionTarget>& targets);
  [[nodiscard]] bool fits_for_fair_sharing(const Context& ctx);
  void fill_back(const Context& ctx, std::vector<PreemptionTarget>& targets, bool allow_borrowing);
  [[nodiscard]] bool workload_fits(const Context& ctx, bool allow_borrowing) const;
  void remove_workload(const std::string& key);
  void add_workload(const std::string& key);

  QuotaTree& snapshot_;
  const std::map<std::string, Workload>& workloads_;
  const KueueConfiguration& config_;
  TimeMs now_;
  std::map<std::string, WorkloadInfo> infos_;
};

/// preemptionMessage: `Preempted to accommodate a workload (UID: ..., JobUID: ...) due to
/// prioritization in the ClusterQueue; preemptor path: /cohort/cq; preemptee path: /cohort/cq`.
[[nodiscard]] std::string preemption_message(const Workload& preemptor, std::string_view reason,
                                             const std::string& preemptor_path,
                                             const std::string& preemptee_path);

/// buildCQPath: "/root/.../cq".
[[nodiscard]] std::string cluster_queue_path(const ClusterQueueNode& cq);

}  // namespace gpusched::kueue
