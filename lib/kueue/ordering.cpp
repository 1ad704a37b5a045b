#include "kueue/ordering.hpp"

#include "kueue/workload_status.hpp"

namespace gpusched::kueue {

namespace {

// evict.IsEvicted{ByPodsReadyTimeout,ByAdmissionCheck}: Evicted=True with that reason.
const Condition* evicted_with(const Workload& wl, std::string_view reason) {
  const Condition* evicted = find_condition(wl.conditions, kEvicted);
  if (evicted == nullptr || evicted->status != "True" || evicted->reason != reason) return nullptr;
  return evicted;
}

// common/ordering.go quotaReservationTime: QuotaReserved=True's transition, else now.
TimeMs quota_reservation_time(const Workload& wl, TimeMs now) {
  const Condition* reserved = find_condition(wl.conditions, kQuotaReserved);
  return reserved != nullptr && reserved->status == "True" ? reserved->last_transition_time : now;
}

}  // namespace

TimeMs queue_order_timestamp(const Workload& wl, const KueueConfiguration& config) {
  if (config.wait_for_pods_ready.requeuing_timestamp == KueueRequeuingTimestamp::Eviction) {
    if (const Condition* c = evicted_with(wl, "PodsReadyTimeout")) return c->last_transition_time;
  }
  if (const Condition* c = evicted_with(wl, "AdmissionCheck")) return c->last_transition_time;
  return wl.metadata.creation_ms;
}

TimeMs queued_since(const Workload& wl) {
  const Condition* requeued = find_condition(wl.conditions, kRequeued);
  return requeued != nullptr ? requeued->last_transition_time : wl.metadata.creation_ms;
}

bool satisfies_preemption_policy(const Workload& preemptor, const Workload& candidate,
                                 const KueueConfiguration& config, PreemptionPolicy policy) {
  const bool lower_priority = preemptor.priority > candidate.priority;
  switch (policy) {
    case PreemptionPolicy::LowerPriority:
      return lower_priority;
    case PreemptionPolicy::LowerOrNewerEqualPriority:
      return lower_priority ||
             (preemptor.priority == candidate.priority &&
              queue_order_timestamp(preemptor, config) < queue_order_timestamp(candidate, config));
    case PreemptionPolicy::Any:
      return true;
    case PreemptionPolicy::Never:
      return false;
  }
  return false;
}

bool candidate_before(const WorkloadInfo& a, const WorkloadInfo& b,
                      const std::string& cluster_queue, TimeMs now) {
  const bool a_evicted = condition_true(a.obj->conditions, kEvicted);
  const bool b_evicted = condition_true(b.obj->conditions, kEvicted);
  if (a_evicted != b_evicted) return a_evicted;
  const bool a_same = a.cluster_queue == cluster_queue;
  const bool b_same = b.cluster_queue == cluster_queue;
  if (a_same != b_same) return b_same;
  if (a.obj->priority != b.obj->priority) return a.obj->priority < b.obj->priority;
  const TimeMs a_reserved = quota_reservation_time(*a.obj, now);
  const TimeMs b_reserved = quota_reservation_time(*b.obj, now);
  if (a_reserved != b_reserved) return a_reserved > b_reserved;
  return a.obj->metadata.uid < b.obj->metadata.uid;
}

}  // namespace gpusched::kueue
