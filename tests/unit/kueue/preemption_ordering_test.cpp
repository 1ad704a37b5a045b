// Kueue v0.19.2's small preemption tables: TestCandidatesOrdering and TestPreemptionMessage
// (pkg/scheduler/preemption/preemption_test.go) and TestSatisfiesPreemptionPolicy
// (pkg/scheduler/preemption/common/preemption_policy_test.go), against lib/kueue/ordering.cpp
// and preemption_message. Cases behind feature gates off by default (PriorityBoost,
// SchedulerTimestampPreemptionBuffer) or with admission fair sharing are left out.

#include <algorithm>

#include "kueue/ordering.hpp"
#include "kueue/preemptor.hpp"
#include "kueue/workload_info.hpp"
#include "kueue_test_support.hpp"

namespace gpusched::kueue {
namespace {

using namespace testing;  // NOLINT: the builders read like upstream's utiltestingapi

constexpr TimeMs kNow = 1'000'000'000;

// TestCandidatesOrdering's loop: sort with CandidatesOrdering for ClusterQueue "preemptor".
std::vector<std::string> sorted_names(const std::vector<Workload>& workloads) {
  std::vector<WorkloadInfo> infos;
  for (const Workload& wl : workloads) infos.push_back(make_info(wl, "/" + wl.metadata.name));
  std::stable_sort(infos.begin(), infos.end(), [](const WorkloadInfo& a, const WorkloadInfo& b) {
    return candidate_before(a, b, "preemptor", kNow);
  });
  std::vector<std::string> names;
  for (const WorkloadInfo& info : infos) names.push_back(info.obj->metadata.name);
  return names;
}

TEST_CASE("Kueue CandidatesOrdering: workloads sorted by priority", "[kueue][preemption]") {
  CHECK(sorted_names({
            WorkloadBuilder("high", "")
                .reserve_quota_at(AdmissionBuilder("preemptor"), kNow)
                .priority(10),
            WorkloadBuilder("low", "")
                .reserve_quota_at(AdmissionBuilder("preemptor"), kNow)
                .priority(-10),
        }) == std::vector<std::string>{"low", "high"});
}

TEST_CASE("Kueue CandidatesOrdering: evicted workload first", "[kueue][preemption]") {
  CHECK(sorted_names({
            WorkloadBuilder("other", "")
                .reserve_quota_at(AdmissionBuilder("preemptor"), kNow)
                .priority(10),
            WorkloadBuilder("evicted", "").condition(Condition{"Evicted", "True", "", "", kNow, 0}),
        }) == std::vector<std::string>{"evicted", "other"});
}

TEST_CASE("Kueue CandidatesOrdering: workload from different CQ first", "[kueue][preemption]") {
  CHECK(sorted_names({
            WorkloadBuilder("preemptorCq", "")
                .reserve_quota_at(AdmissionBuilder("preemptor"), kNow)
                .priority(10),
            WorkloadBuilder("other", "")
                .reserve_quota_at(AdmissionBuilder("other"), kNow)
                .priority(10),
        }) == std::vector<std::string>{"other", "preemptorCq"});
}

TEST_CASE("Kueue CandidatesOrdering: old workloads last", "[kueue][preemption]") {
  CHECK(
      sorted_names({
          WorkloadBuilder("older", "").reserve_quota_at(AdmissionBuilder("preemptor"), kNow - 1000),
          WorkloadBuilder("younger", "")
              .reserve_quota_at(AdmissionBuilder("preemptor"), kNow + 1000),
          WorkloadBuilder("current", "").reserve_quota_at(AdmissionBuilder("preemptor"), kNow),
      }) == std::vector<std::string>{"younger", "current", "older"});
}

// TestSatisfiesPreemptionPolicy: preemptor and candidate in namespace "default".
bool satisfies(std::int32_t preemptor_priority, TimeMs preemptor_created,
               std::int32_t candidate_priority, TimeMs candidate_created, PreemptionPolicy policy) {
  const Workload preemptor = WorkloadBuilder("preemptor", "default")
                                 .priority(preemptor_priority)
                                 .creation(preemptor_created);
  const Workload candidate = WorkloadBuilder("candidate", "default")
                                 .priority(candidate_priority)
                                 .creation(candidate_created);
  return satisfies_preemption_policy(preemptor, candidate, KueueConfiguration{}, policy);
}

TEST_CASE("Kueue SatisfiesPreemptionPolicy", "[kueue][preemption]") {
  constexpr TimeMs kPlus1Min = kNow + 60'000;
  constexpr TimeMs kPlus6Min = kNow + 6 * 60'000;
  SECTION("LowerPriority: preemptor has higher priority") {
    CHECK(satisfies(10, 0, 5, 0, PreemptionPolicy::LowerPriority));
  }
  SECTION("LowerPriority: preemptor has same priority") {
    CHECK_FALSE(satisfies(10, 0, 10, 0, PreemptionPolicy::LowerPriority));
  }
  SECTION("LowerOrNewerEqualPriority: preemptor has same priority, same timestamp") {
    CHECK_FALSE(satisfies(10, kNow, 10, kNow, PreemptionPolicy::LowerOrNewerEqualPriority));
  }
  SECTION(
      "LowerOrNewerEqualPriority: preemptor has same priority, newer timestamp (within 5min "
      "buffer)") {
    CHECK_FALSE(satisfies(10, kPlus1Min, 10, kNow, PreemptionPolicy::LowerOrNewerEqualPriority));
  }
  SECTION(
      "LowerOrNewerEqualPriority: preemptor has same priority, older timestamp (within 5min "
      "buffer)") {
    CHECK(satisfies(10, kNow, 10, kPlus1Min, PreemptionPolicy::LowerOrNewerEqualPriority));
  }
  SECTION("PreemptionPolicyAny") {
    CHECK(satisfies(10, kNow, 10, kPlus6Min, PreemptionPolicy::Any));
  }
  SECTION("PreemptionPolicyNever") {
    CHECK_FALSE(satisfies(10, kNow, 10, kPlus6Min, PreemptionPolicy::Never));
  }
}

TEST_CASE("Kueue preemptionMessage", "[kueue][preemption]") {
  Workload preemptor;
  CHECK(preemption_message(preemptor, "", "", "") ==
        "Preempted to accommodate a workload (UID: UNKNOWN, JobUID: UNKNOWN) due to UNKNOWN; "
        "preemptor path: UNKNOWN; preemptee path: UNKNOWN");
  preemptor.metadata.uid = "uid";
  CHECK(preemption_message(preemptor, "", "", "") ==
        "Preempted to accommodate a workload (UID: uid, JobUID: UNKNOWN) due to UNKNOWN; "
        "preemptor path: UNKNOWN; preemptee path: UNKNOWN");
  preemptor.metadata.labels[std::string(kJobUidLabel)] = "juid";
  CHECK(preemption_message(preemptor, "", "", "") ==
        "Preempted to accommodate a workload (UID: uid, JobUID: juid) due to UNKNOWN; "
        "preemptor path: UNKNOWN; preemptee path: UNKNOWN");
  CHECK(preemption_message(preemptor, kInClusterQueueReason, "/a", "/b") ==
        "Preempted to accommodate a workload (UID: uid, JobUID: juid) due to prioritization in "
        "the ClusterQueue; preemptor path: /a; preemptee path: /b");
}

}  // namespace
}  // namespace gpusched::kueue
