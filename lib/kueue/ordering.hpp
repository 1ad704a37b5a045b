#pragma once
// How Kueue orders workloads (Kueue v0.19.2): the queue-order timestamp
// (pkg/workload/workload.go Ordering.GetQueueOrderTimestamp), whether a preemption policy lets one
// workload preempt another (pkg/scheduler/preemption/common/preemption_policy.go), and the order
// preemption candidates are tried in (common/ordering.go CandidatesOrdering).

#include <string>

#include "gpusched/config/kueue_config.hpp"
#include "gpusched/model/kueue.hpp"
#include "kueue/workload_info.hpp"

namespace gpusched::kueue {

/// GetQueueOrderTimestamp: the eviction time after a PodsReady timeout (with requeuingTimestamp
/// Eviction) or an admission check's eviction, else the creation time (PrioritySortingWithinCohort
/// is on, so a workload preempted while borrowing gets no epsilon).
[[nodiscard]] TimeMs queue_order_timestamp(const Workload& wl, const KueueConfiguration& config);

/// workload.QueuedWaitTime's start: the last Requeued transition, else the creation time.
[[nodiscard]] TimeMs queued_since(const Workload& wl);

/// SatisfiesPreemptionPolicy: `policy` lets `preemptor` preempt `candidate` (with
/// SchedulerTimestampPreemptionBuffer off).
[[nodiscard]] bool satisfies_preemption_policy(const Workload& preemptor, const Workload& candidate,
                                               const KueueConfiguration& config,
                                               PreemptionPolicy policy);

/// CandidatesOrdering (admission fair sharing off): evicted ones first, then those of other
/// ClusterQueues than `cluster_queue`, lower priority, more recently reserved, then UID.
[[nodiscard]] bool candidate_before(const WorkloadInfo& a, const WorkloadInfo& b,
                                    const std::string& cluster_queue, TimeMs now);

}  // namespace gpusched::kueue
