#pragma once
// The status of a Kueue Workload as Kueue's helpers write it (Kueue v0.19.2
// pkg/workload/workload.go, admissionchecks.go; apimachinery's meta.SetStatusCondition).

#include <string>
#include <string_view>

#include "gpusched/model/kueue.hpp"

namespace gpusched::kueue {

// Condition types (apis/kueue/v1beta2/workload_types.go).
inline constexpr std::string_view kQuotaReserved = "QuotaReserved";
inline constexpr std::string_view kAdmitted = "Admitted";
inline constexpr std::string_view kEvicted = "Evicted";
inline constexpr std::string_view kPreempted = "Preempted";
inline constexpr std::string_view kRequeued = "Requeued";
inline constexpr std::string_view kPodsReady = "PodsReady";
inline constexpr std::string_view kFinished = "Finished";

// meta.FindStatusCondition, IsStatusConditionTrue and SetStatusCondition.
using gpusched::condition_true;
using gpusched::find_condition;
using gpusched::set_condition;

[[nodiscard]] inline bool has_quota_reservation(const Workload& wl) {
  return condition_true(wl.conditions, kQuotaReserved);
}
[[nodiscard]] inline bool is_admitted(const Workload& wl) {
  return condition_true(wl.conditions, kAdmitted);
}
[[nodiscard]] inline bool is_finished(const Workload& wl) {
  return condition_true(wl.conditions, kFinished);
}

/// SetQuotaReservation: the admission, QuotaReserved=True, and active Evicted / Preempted reset.
bool set_quota_reservation(Workload& wl, Admission admission, TimeMs now);
/// UnsetQuotaReservationWithCondition: QuotaReserved=False with the reason and message, the
/// admission cleared, Admitted synced.
bool unset_quota_reservation(Workload& wl, std::string_view reason, std::string message,
                             TimeMs now);
/// evict.prepareForEviction: Evicted=True with the reason and message, and each admission check
/// not Pending reset to Pending (resetChecksOnEviction; no topology or preemption gates).
bool set_evicted_condition(Workload& wl, std::string_view reason, std::string message, TimeMs now);
/// SetPreemptedCondition: Preempted=True with the preemption reason (no observed generation, as
/// upstream).
bool set_preempted_condition(Workload& wl, std::string_view reason, std::string message,
                             TimeMs now);
/// SetRequeuedCondition: Requeued with the eviction's reason and message, True when the workload
/// goes back to its queue at once.
bool set_requeued_condition(Workload& wl, std::string_view reason, std::string message, bool status,
                            TimeMs now);
/// SyncAdmittedCondition (no delayed topology requests): Admitted=True once the workload holds
/// quota and every admission check is Ready.
bool sync_admitted_condition(Workload& wl, TimeMs now);

/// "%.0fs" of a duration, as Kueue's wait-time event messages print it.
[[nodiscard]] std::string seconds_text(TimeMs ms);

// Admission check states (apis/kueue/v1beta2/admissioncheck_types.go CheckState).
inline constexpr std::string_view kCheckPending = "Pending";
inline constexpr std::string_view kCheckReady = "Ready";

/// HasAllChecksReady.
[[nodiscard]] bool has_all_checks_ready(const Workload& wl);
/// The workload's state of the check `name`, nullptr when it has none.
[[nodiscard]] AdmissionCheckState* find_check(Workload& wl, std::string_view name);
/// workloadpatching.SetAdmissionCheckState: adds the check, or updates its state (its transition
/// time only when the state changes) and message.
void set_check_state(Workload& wl, AdmissionCheckState check, TimeMs now);
/// The workload controller's syncAdmissionCheckConditions: a Pending state for each check of
/// `checks` the workload lacks, none for the others, sorted by name. Returns whether it changed.
bool sync_check_states(Workload& wl, const std::vector<std::string>& checks, TimeMs now);
/// admissionChecksForAdmission: the ClusterQueue's checks whose flavors (all of the queue's when
/// onFlavors is empty) include a flavor of the admission, by name.
[[nodiscard]] std::vector<std::string> admission_checks_for(const ClusterQueue& cq,
                                                            const Admission& admission);
/// AdmissionChecksForWorkload: those of its admission, or, before it has one, the checks on
/// every flavor of the ClusterQueue.
[[nodiscard]] std::vector<std::string> admission_checks_for(const ClusterQueue& cq,
                                                            const Workload& wl);

}  // namespace gpusched::kueue
