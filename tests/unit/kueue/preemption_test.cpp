// Kueue v0.19.2's own preemption tables (pkg/scheduler/preemption/preemption_test.go
// TestPreemption), transcribed case by case with upstream's names, run against the classical
// preemptor (lib/kueue/preemptor.cpp): the targets GetTargets returns, compared with the
// workloads upstream finds preempted (their Preempted condition's reason) and wantPreempted.

#include "preemption_case.hpp"

namespace gpusched::kueue {
namespace {

using namespace testing;  // NOLINT: the builders read like upstream's utiltestingapi

// TestPreemption's defaultClusterQueues.
std::vector<ClusterQueue> default_cluster_queues() {
  return std::vector<ClusterQueue>{
      ClusterQueueBuilder("standalone")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "6")})
          .resource_group({FlavorQuotasBuilder("alpha").resource("memory", "3Gi"),
                           FlavorQuotasBuilder("beta").resource("memory", "3Gi")})
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("c1")
          .cohort("cohort")
          .resource_group({FlavorQuotasBuilder("default")
                               .resource("cpu", "6", "6")
                               .resource("memory", "3Gi", "3Gi")})
          .preemption(preemption(PreemptionPolicy::LowerPriority, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("c2")
          .cohort("cohort")
          .resource_group({FlavorQuotasBuilder("default")
                               .resource("cpu", "6", "6")
                               .resource("memory", "3Gi", "3Gi")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::Never)),
      ClusterQueueBuilder("d1")
          .cohort("cohort-no-limits")
          .resource_group(
              {FlavorQuotasBuilder("default").resource("cpu", "6").resource("memory", "3Gi")})
          .preemption(preemption(PreemptionPolicy::LowerPriority, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("d2")
          .cohort("cohort-no-limits")
          .resource_group(
              {FlavorQuotasBuilder("default").resource("cpu", "6").resource("memory", "3Gi")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::Never)),
      ClusterQueueBuilder("l1")
          .cohort("legion")
          .resource_group({FlavorQuotasBuilder("default")
                               .resource("cpu", "6", "12")
                               .resource("memory", "3Gi", "6Gi")})
          .preemption(preemption(PreemptionPolicy::LowerPriority, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("preventStarvation")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "6")})
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerOrNewerEqualPriority)),
      ClusterQueueBuilder("a_standard")
          .cohort("with_shared_cq")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "1", "12")})
          .preemption(preemption(PreemptionPolicy::LowerPriority,
                                 BorrowWithinCohortPolicy::LowerPriority, PreemptionPolicy::Never,
                                 0)),
      ClusterQueueBuilder("b_standard")
          .cohort("with_shared_cq")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "1", "12")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::LowerPriority,
                                 PreemptionPolicy::LowerPriority, 0)),
      ClusterQueueBuilder("a_best_effort")
          .cohort("with_shared_cq")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "1", "12")})
          .preemption(preemption(PreemptionPolicy::LowerPriority,
                                 BorrowWithinCohortPolicy::LowerPriority, PreemptionPolicy::Never,
                                 0)),
      ClusterQueueBuilder("b_best_effort")
          .cohort("with_shared_cq")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "0", "13")})
          .preemption(preemption(PreemptionPolicy::LowerPriority,
                                 BorrowWithinCohortPolicy::LowerPriority, PreemptionPolicy::Never,
                                 0)),
      ClusterQueueBuilder("shared")
          .cohort("with_shared_cq")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "10")}),
      ClusterQueueBuilder("lend1")
          .cohort("cohort-lend")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "6", "", "4")})
          .preemption(preemption(PreemptionPolicy::LowerPriority, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("lend2")
          .cohort("cohort-lend")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "6", "", "2")})
          .preemption(preemption(PreemptionPolicy::LowerPriority, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("a")
          .cohort("cohort-three")
          .resource_group(
              {FlavorQuotasBuilder("default").resource("cpu", "2").resource("memory", "2")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("b")
          .cohort("cohort-three")
          .resource_group(
              {FlavorQuotasBuilder("default").resource("cpu", "2").resource("memory", "2")}),
      ClusterQueueBuilder("c")
          .cohort("cohort-three")
          .resource_group(
              {FlavorQuotasBuilder("default").resource("cpu", "2").resource("memory", "2")})};
}

TEST_CASE("Kueue preemption: preempt lowest priority", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("low", "")
          .priority(-1)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2000m")),
              kNow),
      WorkloadBuilder("mid", "")
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2000m")),
              kNow),
      WorkloadBuilder("high", "")
          .priority(1)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "2");
  c.target_cq = "standalone";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/low", "InClusterQueue"}};
  check(c);
}

TEST_CASE("Kueue preemption: preempt multiple", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("low", "")
          .priority(-1)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2000m")),
              kNow),
      WorkloadBuilder("mid", "")
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2000m")),
              kNow),
      WorkloadBuilder("high", "")
          .priority(1)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "3");
  c.target_cq = "standalone";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/low", "InClusterQueue"}, {"/mid", "InClusterQueue"}};
  check(c);
}

TEST_CASE("Kueue preemption: no preemption for low priority", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("low", "")
          .priority(-1)
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow),
      WorkloadBuilder("mid", "")
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow)};
  c.incoming = WorkloadBuilder("in", "").priority(-1).request("cpu", "1");
  c.target_cq = "standalone";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 0;
  c.want = {};
  check(c);
}

TEST_CASE("Kueue preemption: not enough low priority workloads", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("low", "")
          .priority(-1)
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow),
      WorkloadBuilder("mid", "")
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow)};
  c.incoming = WorkloadBuilder("in", "").request("cpu", "4");
  c.target_cq = "standalone";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 0;
  c.want = {};
  check(c);
}

TEST_CASE("Kueue preemption: some free quota, preempt low priority", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("low", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1000m")),
              kNow),
      WorkloadBuilder("mid", "")
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1000m")),
              kNow),
      WorkloadBuilder("high", "")
          .priority(1)
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "2");
  c.target_cq = "standalone";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/low", "InClusterQueue"}};
  check(c);
}

TEST_CASE("Kueue preemption: minimal set excludes low priority", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("low", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1000m")),
              kNow),
      WorkloadBuilder("mid", "")
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2000m")),
              kNow),
      WorkloadBuilder("high", "")
          .priority(1)
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "2");
  c.target_cq = "standalone";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/mid", "InClusterQueue"}};
  check(c);
}

TEST_CASE("Kueue preemption: only preempt workloads using the chosen flavor",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("low", "")
          .priority(-1)
          .request("memory", "2Gi")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("memory", "alpha", "2Gi")),
              kNow),
      WorkloadBuilder("mid", "")
          .request("memory", "1Gi")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("memory", "beta", "1Gi")),
              kNow),
      WorkloadBuilder("high", "")
          .priority(1)
          .request("memory", "1Gi")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("memory", "beta", "1Gi")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "1").request("memory", "2Gi");
  c.target_cq = "standalone";
  c.assignment = {
      {"main",
       1,
       {{"cpu", "default", AssignmentMode::Fit}, {"memory", "beta", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/mid", "InClusterQueue"}};
  check(c);
}

TEST_CASE("Kueue preemption: reclaim quota from borrower", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("c1-low", "")
          .priority(-1)
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("c1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow),
      WorkloadBuilder("c2-mid", "")
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow),
      WorkloadBuilder("c2-high", "")
          .priority(1)
          .request("cpu", "6")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "6000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "3");
  c.target_cq = "c1";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/c2-mid", "InCohortReclamation"}};
  check(c);
}

TEST_CASE(
    "Kueue preemption: reclaim quota if workload requests 0 resources for a resource at nominal "
    "quota",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("c1-low", "")
          .priority(-1)
          .request("cpu", "3")
          .request("memory", "3Gi")
          .simple_reserve_quota("c1", "default", kNow),
      WorkloadBuilder("c2-mid", "").request("cpu", "3").simple_reserve_quota("c2", "default", kNow),
      WorkloadBuilder("c2-high", "")
          .priority(1)
          .request("cpu", "6")
          .simple_reserve_quota("c2", "default", kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "3").request("memory", "0");
  c.target_cq = "c1";
  c.assignment = {
      {"main",
       1,
       {{"cpu", "default", AssignmentMode::Preempt}, {"memory", "default", AssignmentMode::Fit}}}};
  c.want_preempted = 1;
  c.want = {{"/c2-mid", "InCohortReclamation"}};
  check(c);
}

TEST_CASE("Kueue preemption: no workloads borrowing", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("c1-high", "")
          .priority(1)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow),
      WorkloadBuilder("c2-low-1", "")
          .priority(-1)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "4");
  c.target_cq = "c1";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 0;
  c.want = {};
  check(c);
}

TEST_CASE("Kueue preemption: not enough workloads borrowing", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("c1-high", "")
          .priority(1)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow),
      WorkloadBuilder("c2-low-1", "")
          .priority(-1)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow),
      WorkloadBuilder("c2-low-2", "")
          .priority(-1)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "4");
  c.target_cq = "c1";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 0;
  c.want = {};
  check(c);
}

TEST_CASE(
    "Kueue preemption: preempting locally and borrowing other resources in cohort, without cohort "
    "candidates",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("c1-low", "")
          .priority(-1)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow),
      WorkloadBuilder("c2-low-1", "")
          .priority(-1)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow),
      WorkloadBuilder("c2-high-2", "")
          .priority(1)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "4").request("memory", "5Gi");
  c.target_cq = "c1";
  c.assignment = {{"main",
                   1,
                   {{"cpu", "default", AssignmentMode::Preempt},
                    {"memory", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/c1-low", "InClusterQueue"}};
  check(c);
}

TEST_CASE("Kueue preemption: preempting locally and borrowing same resource in cohort",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("c1-med", "")
          .priority(0)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow),
      WorkloadBuilder("c1-low", "")
          .priority(-1)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow),
      WorkloadBuilder("c2-low-1", "")
          .priority(-1)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "4");
  c.target_cq = "c1";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/c1-low", "InClusterQueue"}};
  check(c);
}

TEST_CASE(
    "Kueue preemption: preempting locally and borrowing same resource in cohort; no borrowing "
    "limit in the cohort",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("d1-med", "")
          .priority(0)
          .request("cpu", "4")
          .reserve_quota_at(AdmissionBuilder("d1").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "4")),
                            kNow),
      WorkloadBuilder("d1-low", "")
          .priority(-1)
          .request("cpu", "4")
          .reserve_quota_at(AdmissionBuilder("d1").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "4")),
                            kNow),
      WorkloadBuilder("d2-low-1", "")
          .priority(-1)
          .request("cpu", "4")
          .reserve_quota_at(AdmissionBuilder("d2").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "4")),
                            kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "4");
  c.target_cq = "d1";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/d1-low", "InClusterQueue"}};
  check(c);
}

TEST_CASE(
    "Kueue preemption: preempting locally and borrowing other resources in cohort, with cohort "
    "candidates",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("c1-med", "")
          .priority(0)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow),
      WorkloadBuilder("c2-low-1", "")
          .priority(-1)
          .request("cpu", "5")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "5000m")),
              kNow),
      WorkloadBuilder("c2-low-2", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "1000m")),
              kNow),
      WorkloadBuilder("c2-low-3", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "1000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "2").request("memory", "5Gi");
  c.target_cq = "c1";
  c.assignment = {{"main",
                   1,
                   {{"cpu", "default", AssignmentMode::Preempt},
                    {"memory", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/c1-med", "InClusterQueue"}};
  check(c);
}

TEST_CASE("Kueue preemption: preempting locally and not borrowing same resource in 1-queue cohort",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("l1-med", "")
          .priority(0)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("l1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow),
      WorkloadBuilder("l1-low", "")
          .priority(-1)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("l1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "2000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "4");
  c.target_cq = "l1";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/l1-med", "InClusterQueue"}};
  check(c);
}

TEST_CASE(
    "Kueue preemption: do not reclaim borrowed quota from same priority for "
    "withinCohort=ReclaimFromLowerPriority",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("c1", "")
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("c1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "2000m")),
              kNow),
      WorkloadBuilder("c2-1", "")
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow),
      WorkloadBuilder("c2-2", "")
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow)};
  c.incoming = base_incoming().clone().request("cpu", "4");
  c.target_cq = "c1";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 0;
  c.want = {};
  check(c);
}

TEST_CASE(
    "Kueue preemption: reclaim borrowed quota from same priority for withinCohort=ReclaimFromAny",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("c1-1", "")
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow),
      WorkloadBuilder("c1-2", "")
          .priority(1)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow),
      WorkloadBuilder("c2", "")
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "2000m")),
              kNow)};
  c.incoming = base_incoming().clone().request("cpu", "4");
  c.target_cq = "c2";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/c1-1", "InCohortReclamation"}};
  check(c);
}

TEST_CASE("Kueue preemption: preempt from all ClusterQueues in cohort", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("c1-low", "")
          .priority(-1)
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("c1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow),
      WorkloadBuilder("c1-mid", "")
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("c1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "2000m")),
              kNow),
      WorkloadBuilder("c2-low", "")
          .priority(-1)
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow),
      WorkloadBuilder("c2-mid", "")
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow)};
  c.incoming = base_incoming().clone().request("cpu", "4");
  c.target_cq = "c1";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/c1-low", "InClusterQueue"}, {"/c2-low", "InCohortReclamation"}};
  check(c);
}

TEST_CASE("Kueue preemption: can't preempt workloads in ClusterQueue for withinClusterQueue=Never",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("c2-low", "")
          .priority(-1)
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("c2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "4");
  c.target_cq = "c2";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 0;
  c.want = {};
  check(c);
}

TEST_CASE("Kueue preemption: each podset preempts a different flavor", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("low-alpha", "")
          .priority(-1)
          .request("memory", "2Gi")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("memory", "alpha", "2Gi")),
              kNow),
      WorkloadBuilder("low-beta", "")
          .priority(-1)
          .request("memory", "2Gi")
          .reserve_quota_at(
              AdmissionBuilder("standalone")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("memory", "beta", "2Gi")),
              kNow)};
  c.incoming =
      base_incoming().clone().pod_sets(PodSetBuilder("launcher", 1).request("memory", "2Gi"),
                                       PodSetBuilder("workers", 2).request("memory", "1Gi"));
  c.target_cq = "standalone";
  c.assignment = {{"launcher", 1, {{"memory", "alpha", AssignmentMode::Preempt}}},
                  {"workers", 2, {{"memory", "beta", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/low-alpha", "InClusterQueue"}, {"/low-beta", "InClusterQueue"}};
  check(c);
}

TEST_CASE("Kueue preemption: preempt newer workloads with the same priority",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("wl1", "")
          .priority(2)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("preventStarvation")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow),
      WorkloadBuilder("wl2", "")
          .priority(1)
          .creation(kNow)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("preventStarvation")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              (kNow + 1000)),
      WorkloadBuilder("wl3", "")
          .priority(1)
          .creation(kNow)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("preventStarvation")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow)};
  c.incoming = base_incoming()
                   .clone()
                   .priority(1)
                   .creation((kNow + (-15) * 1000))
                   .pod_sets(PodSetBuilder("launcher", 1).request("cpu", "2"));
  c.target_cq = "preventStarvation";
  c.assignment = {{"launcher", 0, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/wl2", "InClusterQueue"}};
  check(c);
}

TEST_CASE(
    "Kueue preemption: use BorrowWithinCohort; allow preempting a lower-priority workload from "
    "another ClusterQueue while borrowing",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("a_best_effort_low", "")
          .priority(-1)
          .request("cpu", "10")
          .reserve_quota_at(
              AdmissionBuilder("a_best_effort")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "10")),
              kNow),
      WorkloadBuilder("b_best_effort_low", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("b_best_effort")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow)};
  c.incoming = base_incoming().clone().request("cpu", "10");
  c.target_cq = "a_standard";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/a_best_effort_low", "InCohortReclaimWhileBorrowing"}};
  check(c);
}

TEST_CASE(
    "Kueue preemption: use BorrowWithinCohort; don't allow preempting a lower-priority workload "
    "with priority above MaxPriorityThreshold, if borrowing is required even after the preemption",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("b_standard", "")
          .priority(1)
          .request("cpu", "10")
          .reserve_quota_at(
              AdmissionBuilder("b_standard")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "10000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(2).request("cpu", "10");
  c.target_cq = "a_standard";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 0;
  c.want = {};
  check(c);
}

TEST_CASE(
    "Kueue preemption: use BorrowWithinCohort; allow preempting a lower-priority workload with "
    "priority above MaxPriorityThreshold, if borrowing is not required after the preemption",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("b_standard", "")
          .priority(1)
          .request("cpu", "13")
          .reserve_quota_at(
              AdmissionBuilder("b_standard")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "13000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(2).request("cpu", "1");
  c.target_cq = "a_standard";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/b_standard", "InCohortReclamation"}};
  check(c);
}

TEST_CASE(
    "Kueue preemption: use BorrowWithinCohort; don't allow for preemption of lower-priority "
    "workload from the same ClusterQueue",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("a_standard", "")
          .priority(1)
          .request("cpu", "13")
          .reserve_quota_at(
              AdmissionBuilder("a_standard")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "13000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(2).request("cpu", "1");
  c.target_cq = "a_standard";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 0;
  c.want = {};
  check(c);
}

TEST_CASE(
    "Kueue preemption: use BorrowWithinCohort; only preempt from CQ if no workloads below "
    "threshold and already above nominal",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("a_standard_1", "")
          .priority(1)
          .request("cpu", "10")
          .reserve_quota_at(
              AdmissionBuilder("a_standard")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "10")),
              kNow),
      WorkloadBuilder("a_standard_2", "")
          .priority(1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("a_standard")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow),
      WorkloadBuilder("b_standard_1", "")
          .priority(1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("b_standard")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow),
      WorkloadBuilder("b_standard_2", "")
          .priority(2)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("b_standard")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow)};
  c.incoming = base_incoming().clone().priority(3).request("cpu", "1");
  c.target_cq = "b_standard";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/b_standard_1", "InClusterQueue"}};
  check(c);
}

TEST_CASE(
    "Kueue preemption: use BorrowWithinCohort; preempt from CQ and from other CQs with workloads "
    "below threshold",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("b_standard_high", "")
          .priority(2)
          .request("cpu", "10")
          .reserve_quota_at(
              AdmissionBuilder("b_standard")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "10")),
              kNow),
      WorkloadBuilder("b_standard_mid", "")
          .priority(1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("b_standard")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow),
      WorkloadBuilder("a_best_effort_low", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("a_best_effort")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow),
      WorkloadBuilder("a_best_effort_lower", "")
          .priority(-2)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("a_best_effort")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow)};
  c.incoming = base_incoming().clone().priority(2).request("cpu", "2");
  c.target_cq = "b_standard";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/a_best_effort_lower", "InCohortReclaimWhileBorrowing"},
            {"/b_standard_mid", "InClusterQueue"}};
  check(c);
}

TEST_CASE("Kueue preemption: reclaim quota from lender", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("lend1-low", "")
          .priority(-1)
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("lend1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow),
      WorkloadBuilder("lend2-mid", "")
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("lend2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow),
      WorkloadBuilder("lend2-high", "")
          .priority(1)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("lend2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "3");
  c.target_cq = "lend1";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/lend2-mid", "InCohortReclamation"}};
  check(c);
}

TEST_CASE("Kueue preemption: preempt from all ClusterQueues in cohort-lend",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("lend1-low", "")
          .priority(-1)
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("lend1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow),
      WorkloadBuilder("lend1-mid", "")
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("lend1").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "2000m")),
              kNow),
      WorkloadBuilder("lend2-low", "")
          .priority(-1)
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("lend2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "3000m")),
              kNow),
      WorkloadBuilder("lend2-mid", "")
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("lend2").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow)};
  c.incoming = base_incoming().clone().request("cpu", "4");
  c.target_cq = "lend1";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/lend1-low", "InClusterQueue"}, {"/lend2-low", "InCohortReclamation"}};
  check(c);
}

TEST_CASE(
    "Kueue preemption: cannot preempt from other ClusterQueues if exceeds requestable quota "
    "including lending limit",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("lend2-low", "")
          .priority(-1)
          .request("cpu", "10")
          .reserve_quota_at(AdmissionBuilder("lend2").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "10")),
                            kNow)};
  c.incoming = base_incoming().clone().request("cpu", "9");
  c.target_cq = "lend1";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 0;
  c.want = {};
  check(c);
}

TEST_CASE(
    "Kueue preemption: preemptions from cq when target queue is exhausted for the single requested "
    "resource",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("a1", "")
          .priority(-2)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("a").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("a2", "")
          .priority(-2)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("a").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("a3", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("a").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("b1", "")
          .priority(0)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("b").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("b2", "")
          .priority(0)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("b").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("b3", "")
          .priority(0)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("b").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow)};
  c.incoming = base_incoming().clone().request("cpu", "2").priority(0);
  c.target_cq = "a";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/a1", "InClusterQueue"}, {"/a2", "InClusterQueue"}};
  check(c);
}

TEST_CASE(
    "Kueue preemption: preemptions from cq when target queue is exhausted for two requested "
    "resources",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("a1", "")
          .priority(-2)
          .request("cpu", "1")
          .request("memory", "1")
          .reserve_quota_at(
              AdmissionBuilder("a").pod_sets(PodSetAssignmentBuilder("main")
                                                 .assignment("cpu", "default", "1")
                                                 .assignment("memory", "default", "1")),
              kNow),
      WorkloadBuilder("a2", "")
          .priority(-2)
          .request("cpu", "1")
          .request("memory", "1")
          .reserve_quota_at(
              AdmissionBuilder("a").pod_sets(PodSetAssignmentBuilder("main")
                                                 .assignment("cpu", "default", "1")
                                                 .assignment("memory", "default", "1")),
              kNow),
      WorkloadBuilder("a3", "")
          .priority(-1)
          .request("cpu", "1")
          .request("memory", "1")
          .reserve_quota_at(
              AdmissionBuilder("a").pod_sets(PodSetAssignmentBuilder("main")
                                                 .assignment("cpu", "default", "1")
                                                 .assignment("memory", "default", "1")),
              kNow),
      WorkloadBuilder("b1", "")
          .priority(0)
          .request("cpu", "1")
          .request("memory", "1")
          .reserve_quota_at(
              AdmissionBuilder("b").pod_sets(PodSetAssignmentBuilder("main")
                                                 .assignment("cpu", "default", "1")
                                                 .assignment("memory", "default", "1")),
              kNow),
      WorkloadBuilder("b2", "")
          .priority(0)
          .request("cpu", "1")
          .request("memory", "1")
          .reserve_quota_at(AdmissionBuilder("b").pod_sets(
                                PodSetAssignmentBuilder("main")
                                    .assignment("cpu", "default", "1")
                                    .assignment("memory", "default", "1")),
                            kNow),
      WorkloadBuilder("b3", "")
          .priority(0)
          .request("cpu", "1")
          .request("memory", "1")
          .reserve_quota_at(AdmissionBuilder("b").pod_sets(
                                PodSetAssignmentBuilder("main")
                                    .assignment("cpu", "default", "1")
                                    .assignment("memory", "default", "1")),
                            kNow)};
  c.incoming = base_incoming().clone().request("cpu", "2").request("memory", "2").priority(0);
  c.target_cq = "a";
  c.assignment = {{"main",
                   1,
                   {{"cpu", "default", AssignmentMode::Preempt},
                    {"memory", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/a1", "InClusterQueue"}, {"/a2", "InClusterQueue"}};
  check(c);
}

TEST_CASE(
    "Kueue preemption: preemptions from cq when target queue is exhausted for one requested "
    "resource, but not the other",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("a1", "")
          .priority(-2)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("a").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("a2", "")
          .priority(-2)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("a").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("a3", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("a").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("b1", "")
          .priority(0)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("b").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("b2", "")
          .priority(0)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("b").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("b3", "")
          .priority(0)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("b").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow)};
  c.incoming = base_incoming().clone().request("cpu", "2").request("memory", "2").priority(0);
  c.target_cq = "a";
  c.assignment = {{"main",
                   1,
                   {{"cpu", "default", AssignmentMode::Preempt},
                    {"memory", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/a1", "InClusterQueue"}, {"/a2", "InClusterQueue"}};
  check(c);
}

TEST_CASE(
    "Kueue preemption: allow preemption from other cluster queues if target cq is not exhausted "
    "for the requested resource",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = default_cluster_queues();
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("a1", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("a").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("b1", "")
          .priority(0)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("b").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("b2", "")
          .priority(0)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("b").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("b3", "")
          .priority(0)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("b").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("b4", "")
          .priority(0)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("b").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("b5", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("b").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow)};
  c.incoming = base_incoming().clone().request("cpu", "2");
  c.target_cq = "a";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/a1", "InClusterQueue"}, {"/b5", "InCohortReclamation"}};
  check(c);
}

TEST_CASE("Kueue preemption: long range preemption", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("cq-left")
          .cohort("cohort-left")
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::Never))
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "10")}),
      ClusterQueueBuilder("cq-right")
          .cohort("cohort-right")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "0")})};
  c.cohorts = std::vector<Cohort>{CohortBuilder("cohort-left").parent("root"),
                                  CohortBuilder("cohort-right").parent("root")};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("to-be-preempted", "")
          .request("cpu", "5")
          .reserve_quota_at(
              AdmissionBuilder("cq-right")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "5")),
              kNow)};
  c.incoming = base_incoming().clone().request("cpu", "8");
  c.target_cq = "cq-left";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/to-be-preempted", "InCohortReclamation"}};
  check(c);
}

}  // namespace
}  // namespace gpusched::kueue
