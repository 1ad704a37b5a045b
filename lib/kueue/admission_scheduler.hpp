#pragma once
// Kueue's scheduler (Kueue v0.19.2 pkg/scheduler/scheduler.go: schedule): each cycle takes the
// head of every active ClusterQueue, assigns flavors against a snapshot of the quota tree
// (nominate) and finds preemption targets where only preemption makes room, orders the entries
// (classically: non-borrowing before borrowing, priority, queue-order time; with fair sharing:
// by the tournament of fair_sharing_iterator.hpp), then admits each that still
// fits or evicts its targets, and requeues the rest with their QuotaReserved=False message and a
// Pending event.

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "gpusched/config/kueue_config.hpp"
#include "gpusched/model/kueue.hpp"
#include "kueue/flavor_assigner.hpp"
#include "kueue/preemptor.hpp"
#include "kueue/queue_manager.hpp"
#include "kueue/quota_tree.hpp"

namespace gpusched::kueue {

/// What the scheduler works on: the Workloads, the quota tree with the usage of those holding
/// quota (the cache), the queues, the flavors and the configuration.
struct AdmissionState {
  std::map<std::string, Workload>* workloads = nullptr;  ///< by "ns/name"
  QuotaTree* cache = nullptr;
  QueueManager* queues = nullptr;
  const std::map<std::string, ResourceFlavor>* flavors = nullptr;
  /// The ClusterQueue objects, for their admission checks; none when null.
  const std::map<std::string, ClusterQueue>* cluster_queues = nullptr;
  const KueueConfiguration* config = nullptr;
  /// ClusterQueues that are not active (stopped, a flavor missing, a cohort cycle).
  std::set<std::string> inactive;
  /// The labels of a namespace, nullopt when it does not exist.
  std::function<std::optional<Labels>(const std::string&)> namespace_labels;
};

/// The scheduler's effects on the rest of the cluster.
class AdmissionSink {
 public:
  virtual ~AdmissionSink() = default;
  /// An event on the Workload "ns/name".
  virtual void workload_event(const std::string& key, std::string_view type,
                              std::string_view reason, std::string message) = 0;
  /// The workload "ns/name" now holds quota, and is admitted unless its ClusterQueue has
  /// admission checks for its flavors (then they are Pending).
  virtual void admitted(const std::string& key) = 0;
  /// The admitted workload `victim` was evicted (Evicted=True, reason Preempted) to admit
  /// `preemptor`: its job is to be stopped and its quota released once its pods are gone.
  virtual void preempted(const std::string& victim, const std::string& preemptor,
                         const std::string& reason, const std::string& message) = 0;
};

class AdmissionScheduler {
 public:
  AdmissionScheduler(AdmissionState& state, AdmissionSink& sink) : state_(state), sink_(sink) {}

  /// One cycle at `now`. Returns whether it changed anything (a workload admitted or moved to
  /// the inadmissible list): cycles at one instant repeat until one changes nothing.
  bool schedule(TimeMs now);

  /// The queue entry for a workload as Kueue orders it (priority, queue-order time, UID).
  [[nodiscard]] QueuedWorkload queued(const std::string& key, const Workload& wl, TimeMs now) const;

 private:
  /// The cycle over `heads` with its snapshot; the heads it admits are added to `admitted`
  /// (their ClusterQueues in the cache do not list them yet).
  bool run_cycle(const std::vector<Head>& heads, TimeMs now, std::vector<Head>& admitted);
  /// IssuePreemptions: evicts each target for the workload at `preemptor`; returns how many are
  /// preempted (those evicted before included).
  int issue_preemptions(const Head& preemptor, const std::vector<PreemptionTarget>& targets,
                        const QuotaTree& snapshot, TimeMs now);

  std::int64_t scheduling_cycle_ = 0;
  AdmissionState& state_;
  AdmissionSink& sink_;
  /// The cycle's snapshot, kept between cycles so that the next one reuses its storage.
  QuotaTree snapshot_;
};

}  // namespace gpusched::kueue
