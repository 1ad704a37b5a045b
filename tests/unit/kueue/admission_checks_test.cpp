// A Workload's admission checks (lib/kueue/workload_status.cpp), ported from Kueue v0.19.2's
// tables: pkg/workload/admissionchecks_test.go TestSyncAdmittedCondition,
// pkg/controller/core/workload_controller_test.go TestSyncCheckStates, and
// pkg/workload/workload_test.go TestAdmissionChecksForWorkload; and the admission cycle's
// QuotaReserved without Admitted when a ClusterQueue has checks (scheduler.go prepareWorkload).

#include <catch2/catch.hpp>

#include "kueue/workload_status.hpp"

namespace gpusched::kueue {
namespace {

AdmissionCheckState check(std::string name, std::string_view state, std::string message = "") {
  return AdmissionCheckState{std::move(name), std::string(state), std::move(message), 0};
}

Condition condition(std::string_view type, std::string status, TimeMs at = 0) {
  return Condition{std::string(type), std::move(status), "", "", at, 0};
}

std::vector<std::string> names(const Workload& wl) {
  std::vector<std::string> out;
  for (const AdmissionCheckState& c : wl.admission_checks) out.push_back(c.name + "=" + c.state);
  return out;
}

}  // namespace

TEST_CASE("SyncAdmittedCondition: Admitted only with the reservation and every check Ready",
          "[kueue][admission-checks]") {
  Workload wl;
  const TimeMs now = 5000;
  SECTION("empty") {
    CHECK_FALSE(sync_admitted_condition(wl, now));
    CHECK(wl.conditions.empty());
  }
  SECTION("reservation no checks") {
    wl.conditions = {condition(kQuotaReserved, "True")};
    CHECK(sync_admitted_condition(wl, now));
    const Condition* admitted = find_condition(wl.conditions, kAdmitted);
    REQUIRE(admitted != nullptr);
    CHECK(admitted->status == "True");
    CHECK(admitted->reason == "Admitted");
    CHECK(admitted->message == "The workload is admitted");
  }
  SECTION("reservation, checks not ready: no Admitted condition (observability gate off)") {
    wl.conditions = {condition(kQuotaReserved, "True")};
    wl.admission_checks = {check("check1", kCheckPending), check("check2", kCheckReady)};
    CHECK_FALSE(sync_admitted_condition(wl, now));
    CHECK(find_condition(wl.conditions, kAdmitted) == nullptr);
  }
  SECTION("reservation, checks ready") {
    wl.conditions = {condition(kQuotaReserved, "True")};
    wl.admission_checks = {check("check1", kCheckReady), check("check2", kCheckReady)};
    CHECK(sync_admitted_condition(wl, now));
    CHECK(is_admitted(wl));
  }
  SECTION("reservation lost") {
    wl.admission_checks = {check("check1", kCheckReady), check("check2", kCheckReady)};
    wl.conditions = {condition(kAdmitted, "True", 4000)};
    CHECK(sync_admitted_condition(wl, now));
    const Condition* admitted = find_condition(wl.conditions, kAdmitted);
    CHECK(admitted->status == "False");
    CHECK(admitted->reason == "NoReservation");
    CHECK(admitted->message == "The workload has no reservation");
    CHECK(admitted->last_transition_time == now);
  }
  SECTION("check lost") {
    wl.admission_checks = {check("check1", kCheckReady), check("check2", kCheckPending)};
    wl.conditions = {condition(kQuotaReserved, "True"), condition(kAdmitted, "True", 4000)};
    CHECK(sync_admitted_condition(wl, now));
    const Condition* admitted = find_condition(wl.conditions, kAdmitted);
    CHECK(admitted->status == "False");
    CHECK(admitted->reason == "UnsatisfiedChecks");
    CHECK(admitted->message == "The workload has not all checks ready");
  }
  SECTION("reservation and check lost") {
    wl.admission_checks = {check("check1", kCheckReady), check("check2", kCheckPending)};
    wl.conditions = {condition(kAdmitted, "True", 4000)};
    CHECK(sync_admitted_condition(wl, now));
    const Condition* admitted = find_condition(wl.conditions, kAdmitted);
    CHECK(admitted->reason == "NoReservationUnsatisfiedChecks");
    CHECK(admitted->message == "The workload has no reservation and not all checks ready");
  }
}

TEST_CASE("syncAdmissionCheckConditions: Pending for the missing checks, none for the others",
          "[kueue][admission-checks]") {
  Workload wl;
  const TimeMs now = 7000;
  SECTION("nil conditions, nil list") {
    CHECK_FALSE(sync_check_states(wl, {}, now));
    CHECK(wl.admission_checks.empty());
  }
  SECTION("add to nil conditions") {
    CHECK(sync_check_states(wl, {"ac1", "ac2"}, now));
    CHECK(names(wl) == std::vector<std::string>{"ac1=Pending", "ac2=Pending"});
    CHECK(wl.admission_checks[0].last_transition_time == now);
  }
  SECTION("add and remove") {
    wl.admission_checks = {check("ac0", kCheckPending), check("ac1", kCheckPending)};
    CHECK(sync_check_states(wl, {"ac1", "ac2"}, now));
    CHECK(names(wl) == std::vector<std::string>{"ac1=Pending", "ac2=Pending"});
  }
  SECTION("cleanup") {
    wl.admission_checks = {check("ac0", kCheckPending), check("ac1", kCheckPending)};
    CHECK(sync_check_states(wl, {}, now));
    CHECK(wl.admission_checks.empty());
  }
  SECTION("preserve conditions data") {
    wl.admission_checks = {check("ac0", kCheckReady, "Message one"), check("ac1", kCheckPending)};
    CHECK_FALSE(sync_check_states(wl, {"ac0", "ac1"}, now));
    CHECK(names(wl) == std::vector<std::string>{"ac0=Ready", "ac1=Pending"});
    CHECK(wl.admission_checks[0].message == "Message one");
  }
}

TEST_CASE("SetAdmissionCheckState: the transition time moves only with the state",
          "[kueue][admission-checks]") {
  Workload wl;
  set_check_state(wl, check("prov", kCheckPending), 1000);
  CHECK(wl.admission_checks.at(0).last_transition_time == 1000);
  set_check_state(wl, check("prov", kCheckPending, "waiting"), 2000);
  CHECK(wl.admission_checks.at(0).last_transition_time == 1000);
  CHECK(wl.admission_checks.at(0).message == "waiting");
  set_check_state(wl, check("prov", kCheckReady, "Capacity is found in the cluster"), 3000);
  CHECK(wl.admission_checks.at(0).last_transition_time == 3000);
  CHECK(wl.admission_checks.at(0).state == "Ready");
  CHECK(find_check(wl, "other") == nullptr);
}

TEST_CASE("An eviction resets every check not Pending (resetChecksOnEviction)",
          "[kueue][admission-checks]") {
  Workload wl;
  wl.admission_checks = {check("a", kCheckReady, "Capacity is found in the cluster"),
                         check("b", kCheckPending, "waiting")};
  set_evicted_condition(wl, "Preempted", "Preempted to accommodate a workload", 9000);
  CHECK(wl.admission_checks[0].state == "Pending");
  CHECK(wl.admission_checks[0].message == "Reset to Pending after eviction. Previously: Ready");
  CHECK(wl.admission_checks[0].last_transition_time == 9000);
  CHECK(wl.admission_checks[1].message == "waiting");  // a Pending check is left as it is
  CHECK(condition_true(wl.conditions, kEvicted));
}

TEST_CASE("admissionChecksForAdmission: a check applies to the flavors it names",
          "[kueue][admission-checks]") {
  ClusterQueue cq;
  cq.admission_checks = {{"everywhere", {}}, {"on-spot", {"spot"}}, {"on-h100", {"h100", "a100"}}};
  Admission admission;
  admission.cluster_queue = "cq";
  PodSetAssignment psa;
  psa.name = "main";
  psa.flavors = {{"nvidia.com/gpu", "h100"}, {"cpu", "default"}};
  admission.pod_set_assignments.push_back(psa);
  CHECK(admission_checks_for(cq, admission) == std::vector<std::string>{"everywhere", "on-h100"});
  admission.pod_set_assignments[0].flavors = {{"nvidia.com/gpu", "spot"}};
  CHECK(admission_checks_for(cq, admission) == std::vector<std::string>{"everywhere", "on-spot"});
  cq.admission_checks.clear();
  CHECK(admission_checks_for(cq, admission).empty());
}

TEST_CASE("AdmissionChecksForWorkload: before its admission, the checks on every flavor",
          "[kueue][admission-checks]") {
  ClusterQueue cq;
  ResourceGroup group;
  group.covered_resources = {"nvidia.com/gpu"};
  group.flavors = {FlavorQuotas{"h100", {}}, FlavorQuotas{"spot", {}}};
  cq.resource_groups.push_back(group);
  cq.admission_checks = {{"on-both", {"spot", "h100"}}, {"everywhere", {}}, {"on-spot", {"spot"}}};
  Workload wl;
  CHECK(admission_checks_for(cq, wl) == std::vector<std::string>{"everywhere", "on-both"});
  wl.admission = Admission{"cq", {PodSetAssignment{"main", {{"nvidia.com/gpu", "spot"}}, {}, 1}}};
  CHECK(admission_checks_for(cq, wl) ==
        std::vector<std::string>{"everywhere", "on-both", "on-spot"});
}

TEST_CASE("Kueue's wait-time text rounds to whole seconds", "[kueue][admission-checks]") {
  CHECK(seconds_text(0) == "0s");
  CHECK(seconds_text(10'000) == "10s");
  CHECK(seconds_text(1'499) == "1s");
  CHECK(seconds_text(2'500) == "2s");  // half to even, as Go's %.0f
}

}  // namespace gpusched::kueue
