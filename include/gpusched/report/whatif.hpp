#pragma once
/// The answer to "would these pods schedule on my cluster right now, where, and whom would they
/// preempt": the pods a what-if replay added, and those that were already waiting.

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "gpusched/model/kueue.hpp"
#include "gpusched/sim/result.hpp"

namespace gpusched::report {

/// One pod's fate in the replay.
struct WhatIfPod {
  std::string pod;     ///< "ns/name"
  bool added = false;  ///< created by the additions; otherwise waiting in the snapshot
  std::string status;  ///< kubectl's STATUS: Running, Pending, Completed, Terminating, ...
  std::string node;    ///< empty: not bound
  std::string nominated_node;
  std::string reason;   ///< the PodScheduled condition's reason and message when not bound
  std::string message;  ///< or, for a pod no profile serves, why nothing tries it
  std::vector<PreemptionRecord> preemptions;  ///< the preemptions it made, in order
  /// The ResourceClaims its spec.resourceClaims name, as the replay left them, in that order.
  std::vector<ResourceClaimRecord> claims;
};

/// An added Job that Kueue manages (a queue-name label): its Workload at the snapshot's instant
/// and in the replay that follows.
struct WhatIfWorkload {
  std::string job;            ///< "ns/name"
  std::string workload;       ///< "ns/name" of the Workload Kueue made for it
  std::string cluster_queue;  ///< of its admission, else the one its LocalQueue names
  std::int32_t priority = 0;
  /// At the snapshot's instant, once Kueue has run: Admitted, and the condition that says why
  /// (Admitted when admitted, else QuotaReserved), word for word; nullopt when it has neither.
  bool admitted_now = false;
  std::optional<kueue::Condition> condition;
  /// When its quota was first reserved in the replay (0: at once); nullopt: never by the end.
  std::optional<TimeMs> quota_reserved;
  /// Pod set -> resource -> flavor of that reservation.
  std::map<std::string, std::map<std::string, std::string>> flavors;
  std::int32_t pods = 0;               ///< pods of the Job in the replay
  std::int32_t pods_bound = 0;         ///< of them, those that got a node
  std::optional<TimeMs> started;       ///< the first bind of one of its pods
  std::vector<std::string> pod_names;  ///< "ns/name", by name
  /// Whom Kueue evicted to admit it: its PreemptedWorkload events, in order (Kueue's own words:
  /// "Preempted workload ns/name (UID: ...) in ClusterQueue cq; preemptor effective priority
  /// ...").
  std::vector<EventRecord> preemptions;
};

struct WhatIf {
  std::string cluster;          ///< what the replay started from, e.g. "snapshot.json taken at ..."
  std::vector<WhatIfPod> pods;  ///< added pods by name, then the snapshot's waiting pods
  std::vector<WhatIfWorkload> workloads;  ///< the added Jobs Kueue manages, by name
  TimeMs settled_at = 0;                  ///< the clock when the replay settled
  /// True when every added pod got a node and every added Job Kueue manages got quota.
  [[nodiscard]] bool all_added_bound() const noexcept;
};

/// The what-if view of `result`: pods not in `existing` are the added ones; pods in `waiting`
/// were Pending without a node when the snapshot was taken. `schedulers` are the replay's
/// profiles' schedulerNames: an unbound pod naming another one gets a message saying so (upstream
/// leaves it Pending without a condition or event). `added_jobs` ("ns/name") are the Jobs the
/// additions created; those Kueue manages are told by their Workloads in `at_start` (the
/// replay's Workloads at the snapshot's instant) and in the result.
[[nodiscard]] WhatIf what_if(const SimulationResult& result, std::string cluster,
                             const std::set<std::string>& existing,
                             const std::set<std::string>& waiting,
                             const std::vector<std::string>& schedulers = {},
                             const std::set<std::string>& added_jobs = {},
                             const std::vector<WorkloadRecord>& at_start = {});

/// A table of the pods, their resource claims, why each unbound pod waits, and the victims of
/// each preemption.
void write_whatif_table(std::ostream& out, const WhatIf& whatif);
/// The same as JSON: {"cluster", "settledAt", "allAddedBound", "pods": [...], "workloads": [...]};
/// a pod that names claims has "resourceClaims", each as the result's (scenario-format.md §1).
void write_whatif_json(std::ostream& out, const WhatIf& whatif);

}  // namespace gpusched::report
