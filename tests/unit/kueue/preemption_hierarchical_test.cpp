// Kueue v0.19.2's hierarchical preemption tables
// (pkg/scheduler/preemption/preemption_hierarchical_test.go TestHierarchicalPreemptions),
// transcribed case by case with upstream's names; see preemption_case.hpp.

#include "preemption_case.hpp"

namespace gpusched::kueue {
namespace {

using namespace testing;  // NOLINT: the builders read like upstream's utiltestingapi

TEST_CASE("Kueue hierarchical preemption: preempt with hierarchical advantage",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_borrowing")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{CohortBuilder("r"),
                                  CohortBuilder("c").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "2")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted2", "")
          .priority(0)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow)};
  c.incoming = base_incoming().clone().priority(0).request("cpu", "2");
  c.target_cq = "q";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/admitted2", "InCohortReclamation"}};
  check(c);
}

TEST_CASE("Kueue hierarchical preemption: avoid queues within nominal quota",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q_nominal")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "2")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_borrowing")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{CohortBuilder("r"),
                                  CohortBuilder("c").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "2")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted1", "")
          .priority(-10)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("q_nominal")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow),
      WorkloadBuilder("admitted2", "")
          .priority(0)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow)};
  c.incoming = base_incoming().clone().priority(0).request("cpu", "2");
  c.target_cq = "q";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/admitted2", "InCohortReclamation"}};
  check(c);
}

TEST_CASE("Kueue hierarchical preemption: preempt multiple with hierarchical advantage",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_borrowing")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{CohortBuilder("r"),
                                  CohortBuilder("c").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "2")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted1", "")
          .priority(1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow),
      WorkloadBuilder("admitted2", "")
          .priority(2)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow)};
  c.incoming = base_incoming().clone().priority(0).request("cpu", "2");
  c.target_cq = "q";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/admitted1", "InCohortReclamation"}, {"/admitted2", "InCohortReclamation"}};
  check(c);
}

TEST_CASE("Kueue hierarchical preemption: preempt in cohort and own CQ", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::LowerPriority,
                                 PreemptionPolicy::LowerPriority, 0)),
      ClusterQueueBuilder("q_same_cohort")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{CohortBuilder("r"),
                                  CohortBuilder("c").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "3")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted_not_preemptible", "")
          .priority(1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("q_same_cohort")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow),
      WorkloadBuilder("admitted_preemptible", "")
          .priority(0)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("q_same_cohort")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow),
      WorkloadBuilder("admitted_own_queue", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("q").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow)};
  c.incoming = base_incoming().clone().priority(1).request("cpu", "2");
  c.target_cq = "q";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/admitted_own_queue", "InClusterQueue"},
            {"/admitted_preemptible", "InCohortReclaimWhileBorrowing"}};
  check(c);
}

TEST_CASE("Kueue hierarchical preemption: prefer to preempt hierarchical candidate",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_borrowing")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{CohortBuilder("r"),
                                  CohortBuilder("c").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "2")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted_borrowing", "")
          .priority(1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow),
      WorkloadBuilder("admitted_same_queue", "")
          .priority(-2)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("q").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow)};
  c.incoming = base_incoming().clone().priority(0).request("cpu", "1");
  c.target_cq = "q";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/admitted_borrowing", "InCohortReclamation"}};
  check(c);
}

TEST_CASE("Kueue hierarchical preemption: forced to preempt priority candidate",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::LowerPriority,
                                 PreemptionPolicy::LowerPriority, 0)),
      ClusterQueueBuilder("q_nominal")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "2")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_same_cohort")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{CohortBuilder("r"),
                                  CohortBuilder("c").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "2")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted_nominal", "")
          .priority(-10)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("q_nominal")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow),
      WorkloadBuilder("admitted_same_cohort", "")
          .priority(-1)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("q_same_cohort")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow)};
  c.incoming = base_incoming().clone().priority(0).request("cpu", "2");
  c.target_cq = "q";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/admitted_same_cohort", "InCohortReclaimWhileBorrowing"}};
  check(c);
}

TEST_CASE("Kueue hierarchical preemption: incoming workload fits in CQ nominal quota",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "4")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_borrowing")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_same_cohort")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{CohortBuilder("r"),
                                  CohortBuilder("c").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "2")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted_borrowing", "")
          .priority(10)
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "3")),
              kNow),
      WorkloadBuilder("admitted_same_cohort", "")
          .priority(10)
          .request("cpu", "3")
          .reserve_quota_at(
              AdmissionBuilder("q_same_cohort")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "3")),
              kNow)};
  c.incoming = base_incoming().clone().priority(0).request("cpu", "4");
  c.target_cq = "q";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/admitted_borrowing", "InCohortReclamation"},
            {"/admitted_same_cohort", "InCohortReclamation"}};
  check(c);
}

TEST_CASE("Kueue hierarchical preemption: preempt hierarchical and priority candidates",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::LowerPriority,
                                 BorrowWithinCohortPolicy::LowerPriority,
                                 PreemptionPolicy::LowerPriority, 0)),
      ClusterQueueBuilder("q_borrowing")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_same_cohort")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{
      CohortBuilder("r").resource_group({FlavorQuotasBuilder("default").resource("cpu", "1")}),
      CohortBuilder("c").parent("r").resource_group(
          {FlavorQuotasBuilder("default").resource("cpu", "4")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted_borrowing", "")
          .priority(-1)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow),
      WorkloadBuilder("admitted_same_cohort_preemptible", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("q_same_cohort")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow),
      WorkloadBuilder("admitted_borrowing_not_preemptible", "")
          .priority(1)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow)};
  c.incoming = base_incoming().clone().priority(0).request("cpu", "3");
  c.target_cq = "q";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/admitted_borrowing", "InCohortReclamation"},
            {"/admitted_same_cohort_preemptible", "InCohortReclaimWhileBorrowing"}};
  check(c);
}

TEST_CASE("Kueue hierarchical preemption: preempt hierarchical candidates and inside CQ",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::LowerPriority,
                                 BorrowWithinCohortPolicy::LowerPriority,
                                 PreemptionPolicy::LowerPriority, 0)),
      ClusterQueueBuilder("q_borrowing")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_same_cohort")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{
      CohortBuilder("r").resource_group({FlavorQuotasBuilder("default").resource("cpu", "1")}),
      CohortBuilder("c").parent("r").resource_group(
          {FlavorQuotasBuilder("default").resource("cpu", "4")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted_borrowing", "")
          .priority(-1)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow),
      WorkloadBuilder("admitted_same_queue_preemptible", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("q").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("admitted_borrowing_not_preemptible", "")
          .priority(1)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow)};
  c.incoming = base_incoming().clone().priority(0).request("cpu", "3");
  c.target_cq = "q";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/admitted_borrowing", "InCohortReclamation"},
            {"/admitted_same_queue_preemptible", "InClusterQueue"}};
  check(c);
}

TEST_CASE(
    "Kueue hierarchical preemption: reclaim nominal quota from lowest priority workload, excluding "
    "non-borrowing",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_borrowing")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_nominal")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "2")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{CohortBuilder("r"),
                                  CohortBuilder("c").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "3")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted_borrowing_prio_8", "")
          .priority(8)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow),
      WorkloadBuilder("admitted_borrowing_prio_9", "")
          .priority(9)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow),
      WorkloadBuilder("admitted_borrowing_prio_10", "")
          .priority(9)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow),
      WorkloadBuilder("admitted_nominal", "")
          .priority(-2)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("q_nominal")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow)};
  c.incoming = base_incoming().clone().priority(0).request("cpu", "1");
  c.target_cq = "q";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/admitted_borrowing_prio_8", "InCohortReclamation"}};
  check(c);
}

TEST_CASE(
    "Kueue hierarchical preemption: infeasible preemption all available workloads in pruned "
    "subtrees",
    "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q_other")
          .cohort("c_other")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_same_cohort")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{CohortBuilder("r"),
                                  CohortBuilder("c").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "2")}),
                                  CohortBuilder("c_other").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "2")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted_other_1", "")
          .priority(-10)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("q_other").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("admitted_other_2", "")
          .priority(-10)
          .request("cpu", "1")
          .reserve_quota_at(AdmissionBuilder("q_other").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
                            kNow),
      WorkloadBuilder("admitted_same_cohort", "")
          .priority(0)
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("q_same_cohort")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow)};
  c.incoming = base_incoming().clone().priority(0).request("cpu", "2");
  c.target_cq = "q";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 0;
  c.want = {};
  check(c);
}

TEST_CASE("Kueue hierarchical preemption: hiearchical preemption with multiple resources",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_borrowing")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_same_cohort")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{
      CohortBuilder("r").resource_group({FlavorQuotasBuilder("default").resource("cpu", "3")}),
      CohortBuilder("c").parent("r").resource_group(
          {FlavorQuotasBuilder("default").resource("cpu", "4").resource("memory", "4Gi")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted_borrowing", "")
          .priority(0)
          .request("cpu", "3")
          .request("memory", "1Gi")
          .reserve_quota_at(AdmissionBuilder("q_borrowing")
                                .pod_sets(PodSetAssignmentBuilder("main")
                                              .assignment("cpu", "default", "3")
                                              .assignment("memory", "default", "1Gi")),
                            kNow),
      WorkloadBuilder("admitted_same_cohort", "")
          .priority(-2)
          .request("cpu", "1")
          .request("memory", "3Gi")
          .reserve_quota_at(AdmissionBuilder("q_same_cohort")
                                .pod_sets(PodSetAssignmentBuilder("main")
                                              .assignment("cpu", "default", "1")
                                              .assignment("memory", "default", "3Gi")),
                            kNow)};
  c.incoming = base_incoming().clone().priority(-2).request("cpu", "2").request("memory", "1Gi");
  c.target_cq = "q";
  c.assignment = {{"main",
                   1,
                   {{"cpu", "default", AssignmentMode::Preempt},
                    {"memory", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/admitted_borrowing", "InCohortReclamation"}};
  check(c);
}

TEST_CASE("Kueue hierarchical preemption: prefer to preempt evicted workloads",
          "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::LowerPriority,
                                 PreemptionPolicy::LowerPriority, 0)),
      ClusterQueueBuilder("q_borrowing")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_same_cohort")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{CohortBuilder("r"),
                                  CohortBuilder("c").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "2")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted_borrowing", "")
          .priority(-10)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow),
      WorkloadBuilder("evicted_same_cohort", "")
          .priority(-1)
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("q_same_cohort")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "1")),
              kNow)
          .condition(Condition{"Evicted", "True", "", "", kNow, 0})};
  c.incoming = base_incoming().clone().priority(0).request("cpu", "1");
  c.target_cq = "q";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  // Already evicted: IssuePreemptions counts it, no Preempted condition names a reason.
  c.want = {{"/evicted_same_cohort", ""}};
  check(c);
}

TEST_CASE("Kueue hierarchical preemption: respect lending limits", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q")
          .cohort("c")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "3", "", "2")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q_borrowing")
          .cohort("r")
          .resource_group({FlavorQuotasBuilder("default")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{CohortBuilder("r"),
                                  CohortBuilder("c").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "2")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted_borrowing", "")
          .priority(0)
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("q_borrowing")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "4")),
              kNow)};
  c.incoming = base_incoming().clone().priority(-2).request("cpu", "5");
  c.target_cq = "q";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 1;
  c.want = {{"/admitted_borrowing", "InCohortReclamation"}};
  check(c);
}

TEST_CASE("Kueue hierarchical preemption: reclaim in complex hierarchy", "[kueue][preemption]") {
  PreemptionCase c;
  c.cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("q1").cohort("c12").preemption(preemption(
          PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never, PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q2").cohort("c23").preemption(preemption(
          PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never, PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q3").cohort("c22").preemption(preemption(
          PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never, PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q4").cohort("c32").preemption(preemption(
          PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never, PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("q5").cohort("c31").preemption(
          preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                     PreemptionPolicy::LowerPriority))};
  c.cohorts = std::vector<Cohort>{CohortBuilder("r"),
                                  CohortBuilder("c11").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "4")}),
                                  CohortBuilder("c12").parent("r").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "4")}),
                                  CohortBuilder("c21").parent("c11").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "4")}),
                                  CohortBuilder("c22").parent("c11").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "4")}),
                                  CohortBuilder("c23").parent("c11").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "4")}),
                                  CohortBuilder("c31").parent("c21").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "4")}),
                                  CohortBuilder("c32").parent("c21").resource_group(
                                      {FlavorQuotasBuilder("default").resource("cpu", "4")})};
  c.admitted = std::vector<Workload>{
      WorkloadBuilder("admitted_borrowing_1", "")
          .priority(-6)
          .request("cpu", "4")
          .reserve_quota_at(AdmissionBuilder("q1").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "4")),
                            kNow),
      WorkloadBuilder("admitted_borrowing_2", "")
          .priority(-5)
          .request("cpu", "4")
          .reserve_quota_at(AdmissionBuilder("q1").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "4")),
                            kNow),
      WorkloadBuilder("admitted_borrowing_3", "")
          .priority(-9)
          .request("cpu", "4")
          .reserve_quota_at(AdmissionBuilder("q2").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "4")),
                            kNow),
      WorkloadBuilder("admitted_borrowing_4", "")
          .priority(-10)
          .request("cpu", "4")
          .reserve_quota_at(AdmissionBuilder("q2").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "4")),
                            kNow),
      WorkloadBuilder("admitted_borrowing_5", "")
          .priority(-4)
          .request("cpu", "4")
          .reserve_quota_at(AdmissionBuilder("q3").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "4")),
                            kNow),
      WorkloadBuilder("admitted_borrowing_6", "")
          .priority(-3)
          .request("cpu", "3")
          .reserve_quota_at(AdmissionBuilder("q3").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "3")),
                            kNow),
      WorkloadBuilder("admitted_borrowing_7", "")
          .priority(4)
          .request("cpu", "2")
          .reserve_quota_at(AdmissionBuilder("q4").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
                            kNow),
      WorkloadBuilder("admitted_borrowing_8", "")
          .priority(2)
          .request("cpu", "3")
          .reserve_quota_at(AdmissionBuilder("q4").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "3")),
                            kNow)};
  c.incoming = base_incoming().clone().priority(-2).request("cpu", "7");
  c.target_cq = "q5";
  c.assignment = {{"main", 1, {{"cpu", "default", AssignmentMode::Preempt}}}};
  c.want_preempted = 2;
  c.want = {{"/admitted_borrowing_1", "InCohortReclamation"},
            {"/admitted_borrowing_4", "InCohortReclamation"}};
  check(c);
}

}  // namespace
}  // namespace gpusched::kueue
