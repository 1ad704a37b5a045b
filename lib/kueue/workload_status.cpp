#include "kueue/workload_status.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace gpusched::kueue {

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
  // writes the condition.
  const bool reserved = has_quota_reservation(wl);
  const bool checks_ready = has_all_checks_ready(wl);
  if (is_admitted(wl) == (reserved && checks_ready)) return false;
  Condition c{std::string(kAdmitted),     "True", "Admitted",
              "The workload is admitted", now,    wl.generation};
  if (!reserved && !checks_ready) {
    c.status = "False";
    c.reason = "NoReservationUnsatisfiedChecks";
    c.message = "The workload has no reservation and not all checks ready";
  } else if (!reserved) {
    c.status = "False";
    c.reason = "NoReservation";
    c.message = "The workload has no reservation";
  } else if (!checks_ready) {
    // UnadmittedWorkloadReasonWithFallback with the gate off: the fallback reason.
    c.status = "False";
    c.reason = "UnsatisfiedChecks";
    c.message = "The workload has not all checks ready";
  }
  return set_condition(wl.conditions, std::move(c));
}

bool set_evicted_condition(Workload& wl, std::string_view reason, std::string message, TimeMs now) {
  // resetChecksOnEviction (the retry count of a Retry check is not modelled: no check retries).
  for (AdmissionCheckState& check : wl.admission_checks) {
    if (check.state == kCheckPending) continue;
    check.message = "Reset to Pending after eviction. Previously: " + check.state;
    check.state = std::string(kCheckPending);
    check.last_transition_time = now;
  }
  return set_condition(wl.conditions, Condition{std::string(kEvicted), "True", std::string(reason),
                                                std::move(message), now, wl.generation});
}

std::string seconds_text(TimeMs ms) {
  // Go's %.0f rounds half to even.
  return std::to_string(
             static_cast<std::int64_t>(std::nearbyint(static_cast<double>(ms) / 1000.0))) +
         "s";
}

bool has_all_checks_ready(const Workload& wl) {
  return std::all_of(wl.admission_checks.begin(), wl.admission_checks.end(),
                     [](const AdmissionCheckState& c) { return c.state == kCheckReady; });
}

AdmissionCheckState* find_check(Workload& wl, std::string_view name) {
  auto it = std::find_if(wl.admission_checks.begin(), wl.admission_checks.end(),
                         [&](const AdmissionCheckState& c) { return c.name == name; });
  return it == wl.admission_checks.end() ? nullptr : &*it;
}

void set_check_state(Workload& wl, AdmissionCheckState check, TimeMs now) {
  AdmissionCheckState* existing = find_check(wl, check.name);
  if (existing == nullptr) {
    check.last_transition_time = now;
    wl.admission_checks.push_back(std::move(check));
    return;
  }
  if (existing->state != check.state) {
    existing->state = check.state;
    existing->last_transition_time = now;
  }
  existing->message = std::move(check.message);
}

bool sync_check_states(Workload& wl, const std::vector<std::string>& checks, TimeMs now) {
  bool changed = false;
  if (checks.empty()) {
    changed = !wl.admission_checks.empty();
    wl.admission_checks.clear();
    return changed;
  }
  for (const std::string& name : checks) {
    if (find_check(wl, name) != nullptr) continue;
    set_check_state(wl, AdmissionCheckState{name, std::string(kCheckPending), "", now}, now);
    changed = true;
  }
  const auto gone = std::remove_if(
      wl.admission_checks.begin(), wl.admission_checks.end(), [&](const AdmissionCheckState& c) {
        return std::find(checks.begin(), checks.end(), c.name) == checks.end();
      });
  if (gone != wl.admission_checks.end()) {
    wl.admission_checks.erase(gone, wl.admission_checks.end());
    changed = true;
  }
  std::sort(
      wl.admission_checks.begin(), wl.admission_checks.end(),
      [](const AdmissionCheckState& a, const AdmissionCheckState& b) { return a.name < b.name; });
  return changed;
}

std::vector<std::string> admission_checks_for(const ClusterQueue& cq, const Admission& admission) {
  std::set<std::string> out;
  for (const ClusterQueue::AdmissionCheckRule& rule : cq.admission_checks) {
    if (rule.on_flavors.empty()) {
      out.insert(rule.name);  // every flavor of the queue, so every admission's
      continue;
    }
    for (const PodSetAssignment& psa : admission.pod_set_assignments) {
      for (const auto& [resource, flavor] : psa.flavors) {
        if (std::find(rule.on_flavors.begin(), rule.on_flavors.end(), flavor) !=
            rule.on_flavors.end())
          out.insert(rule.name);
      }
    }
  }
  return {out.begin(), out.end()};
}

std::vector<std::string> admission_checks_for(const ClusterQueue& cq, const Workload& wl) {
  if (wl.admission) return admission_checks_for(cq, *wl.admission);
  std::vector<std::string> out;
  for (const ClusterQueue::AdmissionCheckRule& rule : cq.admission_checks) {
    bool everywhere = true;
    for (const ResourceGroup& group : cq.resource_groups) {
      for (const FlavorQuotas& flavor : group.flavors) {
        everywhere = everywhere && (rule.on_flavors.empty() ||
                                    std::find(rule.on_flavors.begin(), rule.on_flavors.end(),
                                              flavor.name) != rule.on_flavors.end());
      }
    }
    if (everywhere) out.push_back(rule.name);
  }
  std::sort(out.begin(), out.end());
  return out;
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
