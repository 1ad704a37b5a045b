#include "kueue/workload_status.hpp"

#include <algorithm>

namespace gpusched::kueue {

const Condition* find_condition(const std::vector<Condition>& conditions, std::string_view type) {
  auto it = std::find_if(conditions.begin(), conditions.end(),
                         [&](const Condition& c) { return c.type == type; });
  return it == conditions.end() ? nullptr : &*it;
}

bool condition_true(const std::vector<Condition>& conditions, std::string_view type) {
  const Condition* c = find_condition(conditions, type);
  return c != nullptr && c->status == "True";
}

bool set_condition(std::vector<Condition>& conditions, Condition condition) {
  auto it = std::find_if(conditions.begin(), conditions.end(),
                         [&](const Condition& c) { return c.type == condition.type; });
  if (it == conditions.end()) {
    conditions.push_back(std::move(condition));
    return true;
  }
  bool changed = false;
  if (it->status != condition.status) {
    it->status = condition.status;
    it->last_transition_time = condition.last_transition_time;
    changed = true;
  }
  if (it->reason != condition.reason) {
    it->reason = condition.reason;
    changed = true;
  }
  if (it->message != condition.message) {
    it->message = condition.message;
    changed = true;
  }
  if (it->observed_generation != condition.observed_generation) {
    it->observed_generation = condition.observed_generation;
    changed = true;
  }
  return changed;
}

namespace {

// resetActiveCondition: a True condition of `type` becomes False, "Previously: <message>".
bool reset_active_condition(Workload& wl, std::string_view type, std::string_view reason,
                            TimeMs now) {
  const Condition* prev = find_condition(wl.conditions, type);
  if (prev == nullptr || prev->status != "True") return false;
  return set_condition(wl.conditions,
                       Condition{std::string(type), "False", std::string(reason),
                                 "Previously: " + prev->message, now, wl.generation});
}

}  // namespace

bool set_quota_reservation(Workload& wl, Admission admission, TimeMs now) {
  const std::string message = "Quota reserved in ClusterQueue " + admission.cluster_queue;
  wl.admission = std::move(admission);
  bool changed = set_condition(
      wl.conditions,
      Condition{std::string(kQuotaReserved), "True", "QuotaReserved", message, now, wl.generation});
  changed = reset_active_condition(wl, kEvicted, "QuotaReserved", now) || changed;
  changed = reset_active_condition(wl, kPreempted, "QuotaReserved", now) || changed;
  return changed;
}

bool unset_quota_reservation(Workload& wl, std::string_view reason, std::string message,
                             TimeMs now) {
  bool changed = set_condition(wl.conditions,
                               Condition{std::string(kQuotaReserved), "False", std::string(reason),
                                         std::move(message), now, wl.generation});
  if (wl.admission) {
    wl.admission.reset();
    changed = true;
  }
  return sync_admitted_condition(wl, now) || changed;
}

bool sync_admitted_condition(Workload& wl, TimeMs now) {
  // UnadmittedWorkloadsObservability is off in Kueue 0.19: only a change of the admitted state
  // writes the condition. With no admission checks every check is ready.
  const bool reserved = has_quota_reservation(wl);
  if (is_admitted(wl) == reserved) return false;
  Condition c{std::string(kAdmitted),     "True", "Admitted",
              "The workload is admitted", now,    wl.generation};
  if (!reserved) {
    c.status = "False";
    c.reason = "NoReservation";
    c.message = "The workload has no reservation";
  }
  return set_condition(wl.conditions, std::move(c));
}

bool set_evicted_condition(Workload& wl, std::string_view reason, std::string message, TimeMs now) {
  return set_condition(wl.conditions, Condition{std::string(kEvicted), "True", std::string(reason),
                                                std::move(message), now, wl.generation});
}

bool set_preempted_condition(Workload& wl, std::string_view reason, std::string message,
                             TimeMs now) {
  return set_condition(wl.conditions, Condition{std::string(kPreempted), "True",
                                                std::string(reason), std::move(message), now, 0});
}

bool set_requeued_condition(Workload& wl, std::string_view reason, std::string message, bool status,
                            TimeMs now) {
  return set_condition(wl.conditions,
                       Condition{std::string(kRequeued), status ? "True" : "False",
                                 std::string(reason), std::move(message), now, wl.generation});
}

}  // namespace gpusched::kueue
