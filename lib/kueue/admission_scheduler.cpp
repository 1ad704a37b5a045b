#include "kueue/admission_scheduler.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "kueue/fair_sharing_iterator.hpp"
#include "kueue/ordering.hpp"
#include "kueue/preemptor.hpp"
#include "kueue/workload_status.hpp"

namespace gpusched::kueue {

namespace {

enum class EntryStatus : std::uint8_t { NotNominated, Nominated, Skipped, Assumed };

// scheduler.go's entry: a head with its assignment and what became of it in the cycle.
struct Entry {
  Head head;
  WorkloadInfo info;
  Assignment assignment;
  std::vector<PreemptionTarget> targets;
  EntryStatus status = EntryStatus::NotNominated;
  std::string inadmissible_msg;
  RequeueReason requeue_reason = RequeueReason::Generic;
};

}  // namespace

QueuedWorkload AdmissionScheduler::queued(const std::string& key, const Workload& wl,
                                          TimeMs now) const {
  QueuedWorkload q;
  q.key = key;
  q.priority = wl.priority;
  q.timestamp = queue_order_timestamp(wl, *state_.config);
  q.uid = wl.metadata.uid;
  // backoffWaitingTimeExpired.
  const Condition* requeued = find_condition(wl.conditions, kRequeued);
  if (requeued != nullptr && requeued->status == "False") {
    q.backoff_expired = false;
  } else if (wl.requeue_state && wl.requeue_state->requeue_at) {
    q.backoff_expired = now >= *wl.requeue_state->requeue_at;
  }
  return q;
}

int AdmissionScheduler::issue_preemptions(const Head& preemptor_head,
                                          const std::vector<PreemptionTarget>& targets,
                                          const QuotaTree& snapshot, TimeMs now) {
  // preemption.go IssuePreemptions: each target evicted (workloadevict.Evict with the Preempted
  // condition), with its events; one already evicted counts as preempted.
  const Workload& preemptor = state_.workloads->at(preemptor_head.key);
  const std::string preemptor_path =
      cluster_queue_path(*snapshot.cluster_queue(preemptor_head.cluster_queue));
  int preempted = 0;
  for (const PreemptionTarget& t : targets) {
    ++preempted;
    Workload& victim = state_.workloads->at(t.key);
    if (condition_true(victim.conditions, kEvicted)) continue;
    const std::string message =
        preemption_message(preemptor, t.reason, preemptor_path,
                           cluster_queue_path(*snapshot.cluster_queue(t.cluster_queue)));
    set_preempted_condition(victim, t.reason, message, now);
    set_evicted_condition(victim, "Preempted", message, now);
    // Effective priorities: the priority-boost annotation is off (PriorityBoost gate).
    const std::string priorities =
        "; preemptor effective priority: " + std::to_string(preemptor.priority) +
        " (base: " + std::to_string(preemptor.priority) +
        ", boost: 0); preemptee effective priority: " + std::to_string(victim.priority) +
        " (base: " + std::to_string(victim.priority) + ", boost: 0)";
    sink_.workload_event(t.key, "Normal", "EvictedDueToPreempted", message);
    sink_.workload_event(t.key, "Normal", "Preempted", message + priorities);
    sink_.workload_event(preemptor_head.key, "Normal", "PreemptedWorkload",
                         "Preempted workload " + t.key + " (UID: " + victim.metadata.uid +
                             ") in ClusterQueue " + t.cluster_queue + priorities);
    sink_.preempted(t.key, preemptor_head.key, t.reason, message);
  }
  return preempted;
}

bool AdmissionScheduler::schedule(TimeMs now) {
  ++scheduling_cycle_;
  std::set<std::string> active;
  for (const auto& [name, cq] : state_.cache->cluster_queues()) {
    if (!state_.inactive.contains(name)) active.insert(name);
  }
  const std::vector<Head> heads = state_.queues->heads(active);
  if (heads.empty()) return false;
  std::vector<Head> admitted;
  const bool changed = run_cycle(heads, now, admitted);
  // The cache's ClusterQueues hold the admitted workloads only now, when the cycle's snapshot,
  // which shares their keys until either changes, has let them go: adding them while it held
  // them would copy every admitted workload's key once per admission.
  snapshot_.release_workload_keys();
  for (const Head& head : admitted)
    state_.cache->cluster_queue(head.cluster_queue)->workloads.insert(head.key);
  return changed;
}

bool AdmissionScheduler::run_cycle(const std::vector<Head>& heads, TimeMs now,
                                   std::vector<Head>& admitted) {
  // 2. The snapshot: the cache as it is, for this cycle's arithmetic, and its preemptor.
  snapshot_ = *state_.cache;
  QuotaTree& snapshot = snapshot_;
  Preemptor preemptor(snapshot, *state_.workloads, *state_.config, now);

  // 3. nominate.
  std::vector<Entry> entries;
  std::vector<Entry> inadmissible;
  for (const Head& head : heads) {
    auto wl_it = state_.workloads->find(head.key);
    if (wl_it == state_.workloads->end()) continue;
    const Workload& wl = wl_it->second;
    if (has_quota_reservation(wl)) continue;  // already in the cache
    Entry e;
    e.head = head;
    e.info = make_info(wl, head.key);
    e.info.cluster_queue = head.cluster_queue;
    if (auto last = state_.queues->last_assignment.find(head.key);
        last != state_.queues->last_assignment.end())
      e.info.last_assignment = last->second;
    ClusterQueueNode* cq = snapshot.cluster_queue(head.cluster_queue);
    std::optional<Labels> ns_labels = state_.namespace_labels(wl.metadata.namespace_);
    if (state_.inactive.contains(head.cluster_queue)) {
      e.inadmissible_msg = "ClusterQueue " + head.cluster_queue + " is inactive";
    } else if (cq == nullptr) {
      e.inadmissible_msg = "ClusterQueue " + head.cluster_queue + " not found";
    } else if (!ns_labels) {
      // workload.ValidateAdmissibility.
      e.inadmissible_msg = "workload namespace \"" + wl.metadata.namespace_ +
                           "\" does not exist: namespaces \"" + wl.metadata.namespace_ +
                           "\" not found";
    } else if (!cq->namespace_selector || !cq->namespace_selector->matches(*ns_labels)) {
      e.inadmissible_msg = "workload namespace doesn't match ClusterQueue selector";
      e.requeue_reason = RequeueReason::NamespaceMismatch;
    } else {
      // getAssignments: a scan progress older than the last cycle is dropped when the queue's
      // quotas changed since (lastAssignmentOutdated with FlavorFungibilityPreserveScanProgress).
      if (e.info.last_assignment &&
          scheduling_cycle_ - e.info.last_assignment->scheduling_cycle > 1 &&
          cq->allocatable_generation > e.info.last_assignment->cluster_queue_generation)
        e.info.last_assignment.reset();
      AssignerContext ctx;
      ctx.cq = cq;
      ctx.flavors = state_.flavors;
      ctx.enable_fair_sharing = state_.config->fair_sharing.has_value();
      ctx.oracle = &preemptor;
      ctx.scheduling_cycle = scheduling_cycle_;
      e.assignment = assign_flavors(e.info, ctx);
      e.inadmissible_msg = e.assignment.message();
      // getInitialAssignments: where only preemption makes room, its targets (none found: the
      // full assignment, pending).
      if (e.assignment.representative_mode() == AssignmentMode::Preempt)
        e.targets = preemptor.get_targets(e.info, e.assignment);
      state_.queues->last_assignment[head.key] = e.assignment.last_state;
      entries.push_back(std::move(e));
      continue;
    }
    inadmissible.push_back(std::move(e));
  }

  // 4. makeIterator. With fair sharing, the tournament picks each next entry on the snapshot as
  // the entries before it left it (fairSharingIterator). Else the classical order
  // (makeClassicalIterator): non-borrowing first, then priority, then queue-order time; ties
  // keep the heads' order (by ClusterQueue name).
  std::optional<FairSharingIterator> fair;
  if (state_.config->fair_sharing) {
    std::vector<TournamentEntry> tournament;
    for (const Entry& e : entries) {
      tournament.push_back(TournamentEntry{snapshot.cluster_queue(e.head.cluster_queue),
                                           e.assignment.usage, e.info.obj->priority,
                                           queue_order_timestamp(*e.info.obj, *state_.config)});
    }
    fair.emplace(std::move(tournament), *state_.config);
  } else {
    std::stable_sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) {
      if (a.assignment.borrowing != b.assignment.borrowing)
        return a.assignment.borrowing < b.assignment.borrowing;
      if (a.info.obj->priority != b.info.obj->priority)
        return a.info.obj->priority > b.info.obj->priority;
      return queue_order_timestamp(*a.info.obj, *state_.config) <
             queue_order_timestamp(*b.info.obj, *state_.config);
    });
  }

  // 5. processEntry.
  bool changed = false;
  std::set<std::string> preempted;  // PreemptedWorkloads of the cycle
  for (std::size_t n = 0; n < entries.size(); ++n) {
    Entry& e = entries[fair ? fair->pop() : n];
    ClusterQueueNode& cq = *snapshot.cluster_queue(e.head.cluster_queue);
    const FlavorResourceAmounts& usage = e.assignment.usage;
    // fits: with the usage of this cycle's victims and this entry's own targets removed.
    std::set<std::string> victims = preempted;
    for (const PreemptionTarget& t : e.targets) victims.insert(t.key);
    const std::vector<std::string> victim_keys(victims.begin(), victims.end());
    preemptor.remove_usage_of(victim_keys);
    const bool fits = cq.fits(usage);
    preemptor.add_usage_of(victim_keys);
    const AssignmentMode mode = e.assignment.representative_mode();
    if (mode == AssignmentMode::NoFit) {
      e.requeue_reason = RequeueReason::NoFit;
      continue;
    }
    if (mode == AssignmentMode::Preempt && e.targets.empty()) {
      // No preemption targets: the quota that the ClusterQueue may not be able to reclaim is held
      // for it, so that lower entries cannot take it (reserveCapacityForUnreclaimablePreempt).
      e.requeue_reason = RequeueReason::PreemptionNoCandidates;
      if (cq.preemption.reclaim_within_cohort != PreemptionPolicy::Any) {
        FlavorResourceAmounts reserved;
        for (const auto& [fr, amount] : usage) {
          const NodeQuota quota = cq.quota_for(fr);
          if (e.assignment.borrowing > 0) {
            reserved[fr] =
                quota.borrowing_limit
                    ? min(amount, quota.nominal + *quota.borrowing_limit - cq.resources.used(fr))
                    : amount;
          } else {
            reserved[fr] = max(Amount(), min(amount, quota.nominal - cq.resources.used(fr)));
          }
        }
        cq.add_usage(reserved);
      }
      continue;
    }
    // Only one preemption per victim in a cycle.
    if (std::any_of(e.targets.begin(), e.targets.end(),
                    [&](const PreemptionTarget& t) { return preempted.contains(t.key); })) {
      e.status = EntryStatus::Skipped;
      e.inadmissible_msg = "Workload has overlapping preemption targets with another workload";
      continue;
    }
    if (!fits) {
      e.status = EntryStatus::Skipped;
      e.inadmissible_msg = "Workload no longer fits after processing another workload";
      continue;
    }
    for (const PreemptionTarget& t : e.targets) preempted.insert(t.key);
    cq.add_usage(usage);
    if (mode == AssignmentMode::Preempt) {
      // issuePreemptions, then markPreemptionOutcome: the next cycle scans every flavor again.
      // Targets all evicted before change nothing: the cycles at this instant are over until
      // their quota is released (a pod group's pods hold it through their grace period).
      const bool evicts = std::any_of(e.targets.begin(), e.targets.end(), [&](const auto& t) {
        return !condition_true(state_.workloads->at(t.key).conditions, kEvicted);
      });
      const int count = issue_preemptions(e.head, e.targets, snapshot, now);
      e.inadmissible_msg += ". Pending the preemption of " + std::to_string(count) + " workload(s)";
      e.requeue_reason = RequeueReason::PendingPreemption;
      state_.queues->last_assignment.erase(e.head.key);
      if (evicts) changed = true;
      continue;
    }
    e.status = EntryStatus::Nominated;

    // admit: QuotaReserved, and Admitted when the workload has every check its flavors need
    // (prepareWorkload's HasAllRequiredChecks), into the cache. The workload controller then
    // adds the missing checks as Pending (reconcileSyncAdmissionChecks).
    Workload& wl = state_.workloads->at(e.head.key);
    const std::string flavors_considered = format_attempts_for_events(e.assignment);
    Admission admission{e.head.cluster_queue, e.assignment.to_api()};
    set_quota_reservation(wl, std::move(admission), now);
    std::vector<std::string> checks;
    if (state_.cluster_queues != nullptr) {
      if (auto cq_obj = state_.cluster_queues->find(e.head.cluster_queue);
          cq_obj != state_.cluster_queues->end())
        checks = admission_checks_for(cq_obj->second, *wl.admission);
    }
    if (std::all_of(checks.begin(), checks.end(),
                    [&](const std::string& name) { return find_check(wl, name) != nullptr; }))
      sync_admitted_condition(wl, now);
    sync_check_states(wl, checks, now);
    e.status = EntryStatus::Assumed;
    e.info.cluster_queue = e.head.cluster_queue;
    const WorkloadInfo admitted_info = make_info(wl, e.head.key);
    state_.cache->cluster_queue(e.head.cluster_queue)->add_usage(admitted_info.usage());
    admitted.push_back(e.head);
    state_.queues->remove(e.head.key);
    changed = true;
    std::string reserved = "Quota reserved in ClusterQueue " + e.head.cluster_queue +
                           ", wait time since queued was " + seconds_text(now - queued_since(wl));
    if (!flavors_considered.empty()) reserved += "; Flavors considered: " + flavors_considered;
    sink_.workload_event(e.head.key, "Normal", "QuotaReserved", std::move(reserved));
    if (is_admitted(wl)) {
      sink_.workload_event(e.head.key, "Normal", "Admitted",
                           "Admitted by ClusterQueue " + e.head.cluster_queue +
                               ", wait time since reservation was 0s");
    }
    sink_.admitted(e.head.key);
  }

  // 6. requeueAndUpdate of the heads not admitted.
  auto requeue = [&](Entry& e) {
    if (e.status != EntryStatus::NotNominated && e.requeue_reason == RequeueReason::Generic)
      e.requeue_reason = RequeueReason::FailedAfterNomination;
    auto wl_it = state_.workloads->find(e.head.key);
    if (wl_it == state_.workloads->end()) return;
    Workload& wl = wl_it->second;
    const std::string lq_key = local_queue_key(wl);
    const bool to_inadmissible =
        state_.queues->requeue(lq_key, queued(e.head.key, wl, now), e.requeue_reason) &&
        !state_.queues->queued_in_heap(e.head.key);
    changed = changed || to_inadmissible;
    if (e.status == EntryStatus::NotNominated || e.status == EntryStatus::Skipped) {
      if (unset_quota_reservation(wl, "Pending", e.inadmissible_msg, now)) changed = true;
      sink_.workload_event(e.head.key, "Warning", "Pending", e.inadmissible_msg);
    }
  };
  for (Entry& e : entries) {
    if (e.status != EntryStatus::Assumed) requeue(e);
  }
  for (Entry& e : inadmissible) requeue(e);
  return changed;
}

}  // namespace gpusched::kueue
