// Kueue v0.19.2's scheduler tables that involve preemption (pkg/scheduler/scheduler_test.go
// TestSchedule) or fair sharing (scheduler_fs_test.go TestScheduleForFairSharing), transcribed case
// by case with upstream's names and run through one cycle of the admission scheduler
// (lib/kueue/admission_scheduler.cpp). Compared: the workloads in the cache after the cycle
// (wantAssignments), the Preempted condition's reason and message of each workload upstream
// preempts and no Preempted condition elsewhere, the QuotaReserved=False message of those left
// pending, and the workloads left in the queues (wantLeft and wantInadmissibleLeft: still queued).

#include <set>

#include "kueue/admission_scheduler.hpp"
#include "kueue/workload_info.hpp"
#include "kueue/workload_status.hpp"
#include "kueue_test_support.hpp"

namespace gpusched::kueue {
namespace {

using namespace testing;  // NOLINT: the builders read like upstream's utiltestingapi

constexpr TimeMs kNow = 1'000'000'000;

/// MakeLocalQueue(name, namespace).ClusterQueue(cq).
struct LocalQueueSpec {
  std::string namespace_;
  std::string name;
  std::string cluster_queue;
};

/// A workload of wantWorkloads: its Preempted condition's reason and message ("" when none),
/// and its QuotaReserved=False message ("" when none).
struct WantWorkload {
  std::string key;
  std::string preempted_reason;
  std::string preempted_message;
  std::string pending_message;
};

struct ScheduleCase {
  std::vector<ClusterQueue> extra_cluster_queues;
  std::vector<LocalQueueSpec> extra_local_queues;
  std::vector<Cohort> cohorts;
  std::vector<Workload> workloads;
  std::vector<WantWorkload> want_workloads;
  std::set<std::string> want_assignments;
  std::set<std::string> want_left;
  std::set<std::string> want_inadmissible_left;
  /// The flavors (resource -> flavor) of the first pod set of workloads in the cache.
  std::map<std::string, std::map<std::string, std::string>> want_flavors;
  bool fair_sharing = false;  ///< enableFairSharing (TestScheduleForFairSharing)
};

std::vector<ClusterQueue> schedule_cluster_queues() {
  return std::vector<ClusterQueue>{
      ClusterQueueBuilder("sales")
          .namespace_selector(selector_in("dep", {"sales"}))
          .queueing_strategy(QueueingStrategy::StrictFIFO)
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "50", "0")}),
      ClusterQueueBuilder("eng-alpha")
          .cohort("eng")
          .namespace_selector(selector_in("dep", {"eng"}))
          .queueing_strategy(QueueingStrategy::StrictFIFO)
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "50", "50"),
                           FlavorQuotasBuilder("spot").resource("cpu", "100", "0")}),
      ClusterQueueBuilder("eng-beta")
          .cohort("eng")
          .namespace_selector(selector_in("dep", {"eng"}))
          .queueing_strategy(QueueingStrategy::StrictFIFO)
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "50", "10"),
                           FlavorQuotasBuilder("spot").resource("cpu", "0", "100")})
          .resource_group({FlavorQuotasBuilder("model-a").resource("example.com/gpu", "20", "0")}),
      ClusterQueueBuilder("flavor-nonexistent-cq")
          .queueing_strategy(QueueingStrategy::StrictFIFO)
          .resource_group({FlavorQuotasBuilder("nonexistent-flavor").resource("cpu", "50")}),
      ClusterQueueBuilder("lend-a")
          .cohort("lend")
          .namespace_selector(selector_in("dep", {"lend"}))
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "3", "", "2")}),
      ClusterQueueBuilder("lend-b")
          .cohort("lend")
          .namespace_selector(selector_in("dep", {"lend"}))
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "2", "", "2")})};
}

std::vector<LocalQueueSpec> schedule_local_queues() {
  return std::vector<LocalQueueSpec>{
      LocalQueueSpec{"sales", "main", "sales"},
      LocalQueueSpec{"sales", "blocked", "eng-alpha"},
      LocalQueueSpec{"eng-alpha", "main", "eng-alpha"},
      LocalQueueSpec{"eng-beta", "main", "eng-beta"},
      LocalQueueSpec{"sales", "flavor-nonexistent-queue", "flavor-nonexistent-cq"},
      LocalQueueSpec{"sales", "cq-nonexistent-queue", "nonexistent-cq"},
      LocalQueueSpec{"lend", "lend-a-queue", "lend-a"},
      LocalQueueSpec{"lend", "lend-b-queue", "lend-b"}};
}

struct NoEvents final : AdmissionSink {
  void workload_event(const std::string&, std::string_view, std::string_view,
                      std::string) override {}
  void admitted(const std::string&) override {}
  void preempted(const std::string&, const std::string&, const std::string&,
                 const std::string&) override {}
};

// TestSchedule's namespaces: "dep" labels.
std::optional<Labels> namespace_labels(const std::string& ns) {
  static const std::map<std::string, std::string> dep{{"eng-alpha", "eng"},
                                                      {"eng-beta", "eng"},
                                                      {"eng-gamma", "eng"},
                                                      {"sales", "sales"},
                                                      {"lend", "lend"}};
  if (ns != "default" && !dep.contains(ns)) return std::nullopt;
  Labels labels;
  labels[std::string("kubernetes.io/metadata.name")] = ns;
  if (auto it = dep.find(ns); it != dep.end()) labels[std::string("dep")] = it->second;
  return labels;
}

// runScheduleTestCases: queues and cache loaded with the workloads (pending ones in their
// LocalQueue, those with a reservation in their ClusterQueue), one scheduling cycle.
void check(const ScheduleCase& c) {
  std::map<std::string, ClusterQueue> cqs;
  for (const ClusterQueue& cq : schedule_cluster_queues()) cqs[cq.metadata.name] = cq;
  for (const ClusterQueue& cq : c.extra_cluster_queues) cqs[cq.metadata.name] = cq;
  std::map<std::string, Cohort> cohorts;
  for (const Cohort& cohort : c.cohorts) cohorts[cohort.metadata.name] = cohort;
  // resourceFlavors (the tainted ones unused by these cases).
  std::map<std::string, ResourceFlavor> flavors;
  for (const char* name : {"default", "on-demand", "spot", "model-a"})
    flavors[name].metadata.name = name;

  std::map<std::string, Workload> workloads;
  QuotaTree cache = QuotaTree::build(cqs, cohorts);
  QueueManager queues;
  KueueConfiguration config;
  if (c.fair_sharing) config.fair_sharing = KueueConfiguration::FairSharing{};
  AdmissionState state;
  state.workloads = &workloads;
  state.cache = &cache;
  state.queues = &queues;
  state.flavors = &flavors;
  state.config = &config;
  state.namespace_labels = namespace_labels;
  // A ClusterQueue naming a missing flavor is inactive.
  for (const auto& [name, cq] : cqs) {
    queues.set_cluster_queue(name, cq.queueing_strategy);
    for (const ResourceGroup& g : cq.resource_groups) {
      for (const FlavorQuotas& f : g.flavors) {
        if (!flavors.contains(f.name)) state.inactive.insert(name);
      }
    }
  }
  std::vector<LocalQueueSpec> lqs = schedule_local_queues();
  lqs.insert(lqs.end(), c.extra_local_queues.begin(), c.extra_local_queues.end());
  for (const LocalQueueSpec& lq : lqs)
    queues.set_local_queue(lq.namespace_ + "/" + lq.name, lq.cluster_queue);
  NoEvents events;
  AdmissionScheduler scheduler(state, events);
  for (const Workload& wl : c.workloads)
    workloads[wl.metadata.namespace_ + "/" + wl.metadata.name] = wl;
  for (const auto& [key, wl] : workloads) {
    if (wl.admission) {
      const WorkloadInfo info = make_info(wl, key);
      ClusterQueueNode* cq = cache.cluster_queue(info.cluster_queue);
      REQUIRE(cq != nullptr);
      cq->workloads.insert(key);
      cq->add_usage(info.usage());
    } else {
      queues.add_or_update(local_queue_key(wl), scheduler.queued(key, wl, kNow));
    }
  }

  scheduler.schedule(kNow);

  std::set<std::string> assigned;
  for (const auto& [name, cq] : cache.cluster_queues())
    assigned.insert(cq->workloads.begin(), cq->workloads.end());
  CHECK(assigned == c.want_assignments);
  for (const auto& [key, want] : c.want_flavors) {
    INFO(key);
    const Workload& wl = workloads.at(key);
    REQUIRE(wl.admission);
    REQUIRE_FALSE(wl.admission->pod_set_assignments.empty());
    CHECK(wl.admission->pod_set_assignments.front().flavors == want);
  }
  for (const WantWorkload& want : c.want_workloads) {
    INFO(want.key);
    const Workload& wl = workloads.at(want.key);
    const Condition* preempted = find_condition(wl.conditions, "Preempted");
    if (want.preempted_reason.empty()) {
      CHECK(preempted == nullptr);
    } else {
      REQUIRE(preempted != nullptr);
      CHECK(preempted->reason == want.preempted_reason);
      CHECK(preempted->message == want.preempted_message);
    }
    if (!want.pending_message.empty()) {
      const Condition* reserved = find_condition(wl.conditions, kQuotaReserved);
      REQUIRE(reserved != nullptr);
      CHECK(reserved->status == "False");
      CHECK(reserved->message == want.pending_message);
    }
  }
  for (const std::string& key : c.want_left) {
    INFO(key);
    CHECK(queues.queued(key));
  }
  for (const std::string& key : c.want_inadmissible_left) {
    INFO(key);
    CHECK(queues.queued(key));
  }
}

TEST_CASE("Kueue schedule: preempt workloads in ClusterQueue and cohort", "[kueue][preemption]") {
  ScheduleCase c;
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("preemptor", "eng-beta")
          .uid("wl-preemptor")
          .job_uid("job-preemptor")
          .queue("main")
          .request("cpu", "20"),
      WorkloadBuilder("use-all-spot", "eng-alpha")
          .request("cpu", "100")
          .reserve_quota_at(
              AdmissionBuilder("eng-alpha")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "spot", "100000m")),
              kNow),
      WorkloadBuilder("low-1", "eng-beta")
          .priority(-1)
          .request("cpu", "30")
          .reserve_quota_at(AdmissionBuilder("eng-beta")
                                .pod_sets(PodSetAssignmentBuilder("main").assignment(
                                    "cpu", "on-demand", "30000m")),
                            kNow),
      WorkloadBuilder("low-2", "eng-beta")
          .priority(-2)
          .request("cpu", "10")
          .reserve_quota_at(AdmissionBuilder("eng-beta")
                                .pod_sets(PodSetAssignmentBuilder("main").assignment(
                                    "cpu", "on-demand", "10000m")),
                            kNow),
      WorkloadBuilder("borrower", "eng-alpha")
          .request("cpu", "60")
          .reserve_quota_at(AdmissionBuilder("eng-alpha")
                                .pod_sets(PodSetAssignmentBuilder("main").assignment(
                                    "cpu", "on-demand", "60000m")),
                            kNow)};
  c.want_workloads = {{"eng-alpha/borrower", "InCohortReclamation",
                       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: "
                       "job-preemptor) due to reclamation within the cohort; preemptor path: "
                       "/eng/eng-beta; preemptee path: /eng/eng-alpha",
                       ""},
                      {"eng-alpha/use-all-spot", "", "", ""},
                      {"eng-beta/low-1", "", "", ""},
                      {"eng-beta/low-2", "InClusterQueue",
                       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: "
                       "job-preemptor) due to prioritization in the ClusterQueue; preemptor path: "
                       "/eng/eng-beta; preemptee path: /eng/eng-beta",
                       ""},
                      {"eng-beta/preemptor", "", "",
                       "couldn't assign flavors to pod set main: insufficient unused quota for cpu "
                       "in flavor on-demand, 20 more needed, insufficient unused quota for cpu in "
                       "flavor spot, 20 more needed. Pending the preemption of 2 workload(s)"}};
  c.want_assignments = {"eng-alpha/use-all-spot", "eng-beta/low-1", "eng-beta/low-2",
                        "eng-alpha/borrower"};
  c.want_left = {"eng-beta/preemptor"};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE("Kueue schedule: multiple CQs need preemption", "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("other-alpha")
          .cohort("other")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "50", "50")}),
      ClusterQueueBuilder("other-beta")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "50", "10")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-alpha", "other", "other-alpha"},
                                  LocalQueueSpec{"eng-beta", "other", "other-beta"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("preemptor", "eng-beta")
          .uid("wl-preemptor")
          .job_uid("job-preemptor")
          .priority(-1)
          .queue("other")
          .request("cpu", "1"),
      WorkloadBuilder("pending", "eng-alpha").priority(1).queue("other").request("cpu", "1"),
      WorkloadBuilder("use-all", "eng-alpha")
          .request("cpu", "100")
          .reserve_quota_at(
              AdmissionBuilder("other-alpha")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "100")),
              kNow)};
  c.want_workloads = {
      {"eng-alpha/pending", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
       "on-demand, 1 more needed"},
      {"eng-alpha/use-all", "InCohortReclamation",
       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: job-preemptor) due to "
       "reclamation within the cohort; preemptor path: /other/other-beta; preemptee path: "
       "/other/other-alpha",
       ""},
      {"eng-beta/preemptor", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
       "on-demand, 1 more needed. Pending the preemption of 1 workload(s)"}};
  c.want_assignments = {"eng-alpha/use-all"};
  c.want_left = {"eng-beta/preemptor"};
  c.want_inadmissible_left = {"eng-alpha/pending"};
  check(c);
}
TEST_CASE(
    "Kueue schedule: preemption while borrowing, workload waiting for preemption should not block "
    "a borrowing workload in another CQ",
    "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("cq_shared")
          .cohort("preemption-while-borrowing")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "4", "0")}),
      ClusterQueueBuilder("cq_a")
          .cohort("preemption-while-borrowing")
          .preemption(preemption(PreemptionPolicy::LowerPriority,
                                 BorrowWithinCohortPolicy::LowerPriority, PreemptionPolicy::Never))
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "0", "3")}),
      ClusterQueueBuilder("cq_b")
          .cohort("preemption-while-borrowing")
          .preemption(preemption(PreemptionPolicy::LowerPriority,
                                 BorrowWithinCohortPolicy::LowerPriority, PreemptionPolicy::Never))
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "0")})};
  c.extra_local_queues = std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-alpha", "lq_a", "cq_a"},
                                                     LocalQueueSpec{"eng-beta", "lq_b", "cq_b"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("a", "eng-alpha")
          .queue("lq_a")
          .creation((kNow + 1000))
          .pod_sets(PodSetBuilder("main", 1).request("cpu", "3")),
      WorkloadBuilder("b", "eng-beta")
          .queue("lq_b")
          .creation((kNow + (2) * 1000))
          .pod_sets(PodSetBuilder("main", 1).request("cpu", "1")),
      WorkloadBuilder("admitted_a", "eng-alpha")
          .queue("lq_a")
          .pod_sets(PodSetBuilder("main", 1).request("cpu", "2"))
          .reserve_quota_at(AdmissionBuilder("cq_a").pod_sets(
                                PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
                            kNow)};
  c.want_workloads = {{"eng-alpha/a", "", "",
                       "couldn't assign flavors to pod set main: insufficient unused quota for cpu "
                       "in flavor default, 2 more needed"},
                      {"eng-alpha/admitted_a", "", "", ""},
                      {"eng-beta/b", "", "", ""}};
  c.want_assignments = {"eng-alpha/admitted_a", "eng-beta/b"};
  c.want_left = {};
  c.want_inadmissible_left = {"eng-alpha/a"};
  check(c);
}
TEST_CASE("Kueue schedule: minimal preemptions when target queue is exhausted",
          "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("other-alpha")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "2")}),
      ClusterQueueBuilder("other-beta")
          .cohort("other")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "2")}),
      ClusterQueueBuilder("other-gamma")
          .cohort("other")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "2")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-alpha", "other", "other-alpha"},
                                  LocalQueueSpec{"eng-beta", "other", "other-beta"},
                                  LocalQueueSpec{"eng-gamma", "other", "other-gamma"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("a1", "eng-alpha")
          .priority(-2)
          .queue("other")
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("other-alpha")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "1")),
              kNow),
      WorkloadBuilder("a2", "eng-alpha")
          .priority(-2)
          .queue("other")
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("other-alpha")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "1")),
              kNow),
      WorkloadBuilder("a3", "eng-alpha")
          .priority(-1)
          .queue("other")
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("other-alpha")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "1")),
              kNow),
      WorkloadBuilder("b1", "eng-beta")
          .priority(0)
          .queue("other")
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("other-beta")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "1")),
              kNow),
      WorkloadBuilder("b2", "eng-beta")
          .priority(0)
          .queue("other")
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("other-beta")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "1")),
              kNow),
      WorkloadBuilder("b3", "eng-beta")
          .priority(0)
          .queue("other")
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("other-beta")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "1")),
              kNow),
      WorkloadBuilder("incoming", "eng-alpha")
          .uid("wl-incoming")
          .job_uid("job-incoming")
          .priority(0)
          .queue("other")
          .request("cpu", "2")};
  c.want_workloads = {
      {"eng-alpha/a1", "InClusterQueue",
       "Preempted to accommodate a workload (UID: wl-incoming, JobUID: job-incoming) due to "
       "prioritization in the ClusterQueue; preemptor path: /other/other-alpha; preemptee path: "
       "/other/other-alpha",
       ""},
      {"eng-alpha/a2", "InClusterQueue",
       "Preempted to accommodate a workload (UID: wl-incoming, JobUID: job-incoming) due to "
       "prioritization in the ClusterQueue; preemptor path: /other/other-alpha; preemptee path: "
       "/other/other-alpha",
       ""},
      {"eng-alpha/a3", "", "", ""},
      {"eng-alpha/incoming", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
       "on-demand, 2 more needed. Pending the preemption of 2 workload(s)"},
      {"eng-beta/b1", "", "", ""},
      {"eng-beta/b2", "", "", ""},
      {"eng-beta/b3", "", "", ""}};
  c.want_assignments = {"eng-alpha/a1", "eng-alpha/a2", "eng-alpha/a3",
                        "eng-beta/b1",  "eng-beta/b2",  "eng-beta/b3"};
  c.want_left = {"eng-alpha/incoming"};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE(
    "Kueue schedule: A workload is only eligible to do preemptions if it fits fully within nominal "
    "quota",
    "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("other-alpha")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "2")}),
      ClusterQueueBuilder("other-beta")
          .cohort("other")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "2")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-alpha", "other", "other-alpha"},
                                  LocalQueueSpec{"eng-beta", "other", "other-beta"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("a1", "eng-alpha")
          .priority(-1)
          .queue("other")
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("other-alpha")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "1")),
              kNow),
      WorkloadBuilder("b1", "eng-beta")
          .priority(-1)
          .queue("other")
          .request("cpu", "1")
          .reserve_quota_at(
              AdmissionBuilder("other-beta")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "1")),
              kNow),
      WorkloadBuilder("incoming", "eng-alpha").priority(1).queue("other").request("cpu", "3")};
  c.want_workloads = {{"eng-alpha/a1", "", "", ""},
                      {"eng-alpha/incoming", "", "",
                       "couldn't assign flavors to pod set main: insufficient unused quota for cpu "
                       "in flavor on-demand, 1 more needed"},
                      {"eng-beta/b1", "", "", ""}};
  c.want_assignments = {"eng-alpha/a1", "eng-beta/b1"};
  c.want_left = {};
  c.want_inadmissible_left = {"eng-alpha/incoming"};
  check(c);
}
TEST_CASE("Kueue schedule: multiple preemptions without borrowing", "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("other-alpha")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "2")}),
      ClusterQueueBuilder("other-beta")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "2")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-alpha", "other", "other-alpha"},
                                  LocalQueueSpec{"eng-beta", "other", "other-beta"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("a1", "eng-alpha")
          .priority(0)
          .queue("other")
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("other-alpha")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow),
      WorkloadBuilder("b1", "eng-beta")
          .priority(0)
          .queue("other")
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("other-beta")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow),
      WorkloadBuilder("preemptor", "eng-alpha")
          .uid("wl-preemptor")
          .job_uid("job-preemptor")
          .priority(100)
          .queue("other")
          .request("cpu", "2"),
      WorkloadBuilder("preemptor", "eng-beta")
          .uid("wl-preemptor")
          .job_uid("job-preemptor")
          .priority(100)
          .queue("other")
          .request("cpu", "2")};
  c.want_workloads = {
      {"eng-alpha/a1", "InClusterQueue",
       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: job-preemptor) due to "
       "prioritization in the ClusterQueue; preemptor path: /other/other-alpha; preemptee path: "
       "/other/other-alpha",
       ""},
      {"eng-alpha/preemptor", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
       "default, 2 more needed. Pending the preemption of 1 workload(s)"},
      {"eng-beta/b1", "InClusterQueue",
       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: job-preemptor) due to "
       "prioritization in the ClusterQueue; preemptor path: /other/other-beta; preemptee path: "
       "/other/other-beta",
       ""},
      {"eng-beta/preemptor", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
       "default, 2 more needed. Pending the preemption of 1 workload(s)"}};
  c.want_assignments = {"eng-alpha/a1", "eng-beta/b1"};
  c.want_left = {"eng-alpha/preemptor", "eng-beta/preemptor"};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE("Kueue schedule: multiple preemptions preemption possible after earlier workload fits",
          "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("other-alpha")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "1")}),
      ClusterQueueBuilder("other-beta")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "2")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-alpha", "other", "other-alpha"},
                                  LocalQueueSpec{"eng-beta", "other", "other-beta"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("b1", "eng-beta")
          .priority(0)
          .queue("other")
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("other-beta")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow),
      WorkloadBuilder("fit", "eng-alpha").priority(100).queue("other").request("cpu", "1"),
      WorkloadBuilder("preemptor", "eng-beta")
          .uid("wl-preemptor")
          .job_uid("job-preemptor")
          .priority(99)
          .queue("other")
          .request("cpu", "2")};
  c.want_workloads = {
      {"eng-alpha/fit", "", "", ""},
      {"eng-beta/b1", "InClusterQueue",
       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: job-preemptor) due to "
       "prioritization in the ClusterQueue; preemptor path: /other/other-beta; preemptee path: "
       "/other/other-beta",
       ""},
      {"eng-beta/preemptor", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
       "default, 1 more needed. Pending the preemption of 1 workload(s)"}};
  c.want_assignments = {"eng-alpha/fit", "eng-beta/b1"};
  c.want_left = {"eng-beta/preemptor"};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE("Kueue schedule: multiple preemptions skip preemption when shared limited resource",
          "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("other-alpha")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::LowerPriority,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "2")}),
      ClusterQueueBuilder("other-beta")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::LowerPriority,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "2")}),
      ClusterQueueBuilder("resource-bank")
          .cohort("other")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "1")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-alpha", "other", "other-alpha"},
                                  LocalQueueSpec{"eng-beta", "other", "other-beta"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("a1", "eng-alpha")
          .priority(0)
          .queue("other")
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("other-alpha")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow),
      WorkloadBuilder("b1", "eng-beta")
          .priority(0)
          .queue("other")
          .request("cpu", "2")
          .reserve_quota_at(
              AdmissionBuilder("other-beta")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "2")),
              kNow),
      WorkloadBuilder("preemptor", "eng-alpha")
          .uid("wl-preemptor")
          .job_uid("job-preemptor")
          .priority(100)
          .queue("other")
          .request("cpu", "3"),
      WorkloadBuilder("pretending-preemptor", "eng-beta")
          .priority(99)
          .queue("other")
          .request("cpu", "3")};
  c.want_workloads = {{"eng-alpha/a1", "InClusterQueue",
                       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: "
                       "job-preemptor) due to prioritization in the ClusterQueue; preemptor path: "
                       "/other/other-alpha; preemptee path: /other/other-alpha",
                       ""},
                      {"eng-alpha/preemptor", "", "",
                       "couldn't assign flavors to pod set main: insufficient unused quota for cpu "
                       "in flavor default, 2 more needed. Pending the preemption of 1 workload(s)"},
                      {"eng-beta/b1", "", "", ""},
                      {"eng-beta/pretending-preemptor", "", "",
                       "Workload no longer fits after processing another workload"}};
  c.want_assignments = {"eng-alpha/a1", "eng-beta/b1"};
  c.want_left = {"eng-alpha/preemptor", "eng-beta/pretending-preemptor"};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE("Kueue schedule: prefer reclamation over cq priority based preemption",
          "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("other-alpha")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::LowerPriority, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("gpu", "10"),
                           FlavorQuotasBuilder("spot").resource("gpu", "10")}),
      ClusterQueueBuilder("other-beta")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::LowerPriority, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("gpu", "0"),
                           FlavorQuotasBuilder("spot").resource("gpu", "0")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-alpha", "other", "other-alpha"},
                                  LocalQueueSpec{"eng-beta", "other", "other-beta"}};
  c.workloads = std::vector<Workload>{WorkloadBuilder("a1", "eng-alpha")
                                          .priority(50)
                                          .queue("other")
                                          .request("gpu", "5")
                                          .simple_reserve_quota("other-alpha", "on-demand", kNow),
                                      WorkloadBuilder("b1", "eng-beta")
                                          .priority(50)
                                          .queue("other")
                                          .request("gpu", "5")
                                          .simple_reserve_quota("other-beta", "spot", kNow),
                                      WorkloadBuilder("preemptor", "eng-alpha")
                                          .uid("wl-preemptor")
                                          .job_uid("job-preemptor")
                                          .priority(100)
                                          .queue("other")
                                          .request("gpu", "6")};
  c.want_workloads = {{"eng-alpha/a1", "", "", ""},
                      {"eng-alpha/preemptor", "", "",
                       "couldn't assign flavors to pod set main: insufficient unused quota for gpu "
                       "in flavor on-demand, 1 more needed, insufficient unused quota for gpu in "
                       "flavor spot, 1 more needed. Pending the preemption of 1 workload(s)"},
                      {"eng-beta/b1", "InCohortReclamation",
                       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: "
                       "job-preemptor) due to reclamation within the cohort; preemptor path: "
                       "/other/other-alpha; preemptee path: /other/other-beta",
                       ""}};
  c.want_assignments = {"eng-alpha/a1", "eng-beta/b1"};
  c.want_left = {"eng-alpha/preemptor"};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE(
    "Kueue schedule: prefer first preemption flavor when second flavor requires both reclaim and "
    "cq priority preemption",
    "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("other-alpha")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::LowerPriority, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("gpu", "10"),
                           FlavorQuotasBuilder("spot").resource("gpu", "10")}),
      ClusterQueueBuilder("other-beta")
          .cohort("other")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("gpu", "0"),
                           FlavorQuotasBuilder("spot").resource("gpu", "0")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-alpha", "other", "other-alpha"},
                                  LocalQueueSpec{"eng-beta", "other", "other-beta"}};
  c.workloads = std::vector<Workload>{WorkloadBuilder("a1", "eng-alpha")
                                          .priority(50)
                                          .queue("other")
                                          .request("gpu", "5")
                                          .simple_reserve_quota("other-alpha", "on-demand", kNow),
                                      WorkloadBuilder("a2", "eng-alpha")
                                          .priority(50)
                                          .queue("other")
                                          .request("gpu", "5")
                                          .simple_reserve_quota("other-alpha", "spot", kNow),
                                      WorkloadBuilder("b1", "eng-beta")
                                          .priority(50)
                                          .queue("other")
                                          .request("gpu", "5")
                                          .simple_reserve_quota("other-beta", "spot", kNow),
                                      WorkloadBuilder("preemptor", "eng-alpha")
                                          .uid("wl-preemptor")
                                          .job_uid("job-preemptor")
                                          .priority(100)
                                          .queue("other")
                                          .request("gpu", "6")};
  c.want_workloads = {{"eng-alpha/a1", "InClusterQueue",
                       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: "
                       "job-preemptor) due to prioritization in the ClusterQueue; preemptor path: "
                       "/other/other-alpha; preemptee path: /other/other-alpha",
                       ""},
                      {"eng-alpha/a2", "", "", ""},
                      {"eng-alpha/preemptor", "", "",
                       "couldn't assign flavors to pod set main: insufficient unused quota for gpu "
                       "in flavor on-demand, 1 more needed, insufficient unused quota for gpu in "
                       "flavor spot, 6 more needed. Pending the preemption of 1 workload(s)"},
                      {"eng-beta/b1", "", "", ""}};
  c.want_assignments = {"eng-alpha/a1", "eng-alpha/a2", "eng-beta/b1"};
  c.want_left = {"eng-alpha/preemptor"};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE(
    "Kueue schedule: prefer first preemption flavor when second flavor also requires cq preemption",
    "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("other-alpha")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::LowerPriority, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("gpu", "10"),
                           FlavorQuotasBuilder("spot").resource("gpu", "10")}),
      ClusterQueueBuilder("other-beta")
          .cohort("other")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("gpu", "0"),
                           FlavorQuotasBuilder("spot").resource("gpu", "0")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-alpha", "other", "other-alpha"},
                                  LocalQueueSpec{"eng-beta", "other", "other-beta"}};
  c.workloads = std::vector<Workload>{WorkloadBuilder("a1", "eng-alpha")
                                          .priority(50)
                                          .queue("other")
                                          .request("gpu", "6")
                                          .simple_reserve_quota("other-alpha", "on-demand", kNow),
                                      WorkloadBuilder("a2", "eng-alpha")
                                          .priority(50)
                                          .queue("other")
                                          .request("gpu", "5")
                                          .simple_reserve_quota("other-alpha", "spot", kNow),
                                      WorkloadBuilder("b1", "eng-beta")
                                          .priority(9001)
                                          .queue("other")
                                          .request("gpu", "5")
                                          .simple_reserve_quota("other-beta", "spot", kNow),
                                      WorkloadBuilder("preemptor", "eng-alpha")
                                          .uid("wl-preemptor")
                                          .job_uid("job-preemptor")
                                          .priority(100)
                                          .queue("other")
                                          .request("gpu", "5")};
  c.want_workloads = {{"eng-alpha/a1", "InClusterQueue",
                       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: "
                       "job-preemptor) due to prioritization in the ClusterQueue; preemptor path: "
                       "/other/other-alpha; preemptee path: /other/other-alpha",
                       ""},
                      {"eng-alpha/a2", "", "", ""},
                      {"eng-alpha/preemptor", "", "",
                       "couldn't assign flavors to pod set main: insufficient unused quota for gpu "
                       "in flavor on-demand, 1 more needed, insufficient unused quota for gpu in "
                       "flavor spot, 5 more needed. Pending the preemption of 1 workload(s)"},
                      {"eng-beta/b1", "", "", ""}};
  c.want_assignments = {"eng-alpha/a1", "eng-alpha/a2", "eng-beta/b1"};
  c.want_left = {"eng-alpha/preemptor"};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE("Kueue schedule: don't assign flavor if there are no candidates for preemption",
          "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("cq1")
          .cohort("cohort")
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::LowerPriority,
                                 PreemptionPolicy::LowerPriority))
          .flavor_fungibility(fungibility(FlavorFungibilityPolicy::MayStopSearch,
                                          FlavorFungibilityPolicy::MayStopSearch))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "0", "1", ""),
                           FlavorQuotasBuilder("spot").resource("cpu", "0", "1", "")}),
      ClusterQueueBuilder("cq2").cohort("cohort").resource_group(
          {FlavorQuotasBuilder("on-demand").resource("cpu", "1", "", ""),
           FlavorQuotasBuilder("spot").resource("cpu", "1", "", "")})};
  c.extra_local_queues = std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-alpha", "lq1", "cq1"},
                                                     LocalQueueSpec{"eng-alpha", "lq2", "cq2"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("admitted", "eng-alpha")
          .queue("lq2")
          .request("cpu", "1")
          .simple_reserve_quota("cq2", "on-demand", (kNow - 1000))
          .admitted_at(true, kNow)
          .priority(0),
      WorkloadBuilder("new", "eng-alpha").queue("lq1").request("cpu", "1").priority(100)};
  c.want_workloads = {{"eng-alpha/admitted", "", "", ""}, {"eng-alpha/new", "", "", ""}};
  c.want_assignments = {"eng-alpha/new", "eng-alpha/admitted"};
  c.want_left = {};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE(
    "Kueue schedule: admit to second flavor when first needs preemption; WhenCanPreempt: "
    "TryNextFlavor",
    "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("preempt-attempts-cq")
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .flavor_fungibility(fungibility(FlavorFungibilityPolicy::MayStopSearch,
                                          FlavorFungibilityPolicy::TryNextFlavor))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "1"),
                           FlavorQuotasBuilder("spot").resource("cpu", "1")})};
  c.extra_local_queues = std::vector<LocalQueueSpec>{
      LocalQueueSpec{"eng-alpha", "preempt-attempts-lq", "preempt-attempts-cq"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("blocker", "eng-alpha")
          .queue("preempt-attempts-lq")
          .request("cpu", "1")
          .priority(50)
          .reserve_quota_at(
              AdmissionBuilder("preempt-attempts-cq")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "1")),
              kNow)
          .admitted_at(true, kNow),
      WorkloadBuilder("test-wl", "eng-alpha")
          .queue("preempt-attempts-lq")
          .request("cpu", "1")
          .priority(100)};
  c.want_workloads = {{"eng-alpha/blocker", "", "", ""}, {"eng-alpha/test-wl", "", "", ""}};
  c.want_assignments = {"eng-alpha/test-wl", "eng-alpha/blocker"};
  c.want_left = {};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE(
    "Kueue schedule: preempt when workload requests zero of a resource not defined in ClusterQueue",
    "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("preempt-zero-gpu-cq")
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "4")})};
  c.extra_local_queues = std::vector<LocalQueueSpec>{
      LocalQueueSpec{"sales", "preempt-zero-gpu-lq", "preempt-zero-gpu-cq"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("preemptor", "sales")
          .uid("wl-preemptor")
          .job_uid("job-preemptor")
          .queue("preempt-zero-gpu-lq")
          .request("cpu", "2")
          .request("example.com/gpu", "0"),
      WorkloadBuilder("low-priority", "sales")
          .priority(-1)
          .queue("preempt-zero-gpu-lq")
          .request("cpu", "4")
          .reserve_quota_at(
              AdmissionBuilder("preempt-zero-gpu-cq")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "default", "4000m")),
              kNow)};
  c.want_workloads = {
      {"sales/low-priority", "InClusterQueue",
       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: job-preemptor) due to "
       "prioritization in the ClusterQueue; preemptor path: /preempt-zero-gpu-cq; preemptee path: "
       "/preempt-zero-gpu-cq",
       ""},
      {"sales/preemptor", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
       "default, 2 more needed. Pending the preemption of 1 workload(s)"}};
  c.want_assignments = {"sales/low-priority"};
  c.want_left = {"sales/preemptor"};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE(
    "Kueue schedule: PreemptionOverBorrowing preference: preempt in first flavor instead of "
    "borrowing in second",
    "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("pob-cq")
          .cohort("pob-cohort")
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .flavor_fungibility(fungibility(FlavorFungibilityPolicy::TryNextFlavor,
                                          FlavorFungibilityPolicy::TryNextFlavor,
                                          FlavorFungibilityPreference::PreemptionOverBorrowing))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "5", "0"),
                           FlavorQuotasBuilder("spot").resource("cpu", "0", "5")}),
      ClusterQueueBuilder("pob-lender")
          .cohort("pob-cohort")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "0"),
                           FlavorQuotasBuilder("spot").resource("cpu", "5")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"default", "pob-queue", "pob-cq"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("low-pob", "default")
          .queue("pob-queue")
          .priority(-1)
          .request("cpu", "5")
          .reserve_quota_at(
              AdmissionBuilder("pob-cq").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "5000m")),
              kNow)
          .admitted_at(true, kNow),
      WorkloadBuilder("high-pob", "default")
          .uid("wl-high-pob")
          .job_uid("job-high-pob")
          .queue("pob-queue")
          .priority(0)
          .request("cpu", "5")};
  c.want_workloads = {
      {"default/high-pob", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
       "on-demand, 5 more needed. Pending the preemption of 1 workload(s)"},
      {"default/low-pob", "InClusterQueue",
       "Preempted to accommodate a workload (UID: wl-high-pob, JobUID: job-high-pob) due to "
       "prioritization in the ClusterQueue; preemptor path: /pob-cohort/pob-cq; preemptee path: "
       "/pob-cohort/pob-cq",
       ""}};
  c.want_assignments = {"default/low-pob"};
  c.want_left = {"default/high-pob"};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE(
    "Kueue schedule: PreemptionOverBorrowing preference: select fitting second flavor over first "
    "flavor with no preemption candidates",
    "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("nopc-cq")
          .cohort("nopc-mid")
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .flavor_fungibility(fungibility(FlavorFungibilityPolicy::TryNextFlavor,
                                          FlavorFungibilityPolicy::TryNextFlavor,
                                          FlavorFungibilityPreference::PreemptionOverBorrowing))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "5", "0", ""),
                           FlavorQuotasBuilder("spot").resource("cpu", "0")}),
      ClusterQueueBuilder("nopc-sibling")
          .cohort("nopc-mid")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "5"),
                           FlavorQuotasBuilder("spot").resource("cpu", "0")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"default", "nopc-queue", "nopc-cq"}};
  c.cohorts = std::vector<Cohort>{
      CohortBuilder("nopc-root")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "0"),
                           FlavorQuotasBuilder("spot").resource("cpu", "5")}),
      CohortBuilder("nopc-mid").parent("nopc-root")};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("admitted-nopc", "default")
          .queue("nopc-queue")
          .priority(0)
          .request("cpu", "5")
          .reserve_quota_at(
              AdmissionBuilder("nopc-cq").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "5000m")),
              kNow)
          .admitted_at(true, kNow),
      WorkloadBuilder("pending-nopc", "default")
          .queue("nopc-queue")
          .priority(0)
          .request("cpu", "5")};
  c.want_workloads = {{"default/admitted-nopc", "", "", ""}, {"default/pending-nopc", "", "", ""}};
  c.want_assignments = {"default/admitted-nopc", "default/pending-nopc"};
  c.want_left = {};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE(
    "Kueue schedule: BorrowingOverPreemption preference: borrow in second flavor instead of "
    "preempting in first",
    "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("bop-cq")
          .cohort("bop-cohort")
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .flavor_fungibility(fungibility(FlavorFungibilityPolicy::TryNextFlavor,
                                          FlavorFungibilityPolicy::TryNextFlavor,
                                          FlavorFungibilityPreference::BorrowingOverPreemption))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "5", "0"),
                           FlavorQuotasBuilder("spot").resource("cpu", "0", "5")}),
      ClusterQueueBuilder("bop-lender")
          .cohort("bop-cohort")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "0"),
                           FlavorQuotasBuilder("spot").resource("cpu", "5")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"default", "bop-queue", "bop-cq"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("low-bop", "default")
          .queue("bop-queue")
          .priority(-1)
          .request("cpu", "5")
          .reserve_quota_at(
              AdmissionBuilder("bop-cq").pod_sets(
                  PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "5000m")),
              kNow)
          .admitted_at(true, kNow),
      WorkloadBuilder("high-bop", "default").queue("bop-queue").priority(0).request("cpu", "5")};
  c.want_workloads = {{"default/high-bop", "", "", ""}, {"default/low-bop", "", "", ""}};
  c.want_assignments = {"default/low-bop", "default/high-bop"};
  c.want_left = {};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE(
    "Kueue schedule: not enough resources to borrow, fallback to next flavor; WhenCanPreempt: "
    "TryNextFlavor",
    "[kueue][preemption]") {
  ScheduleCase c;
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("new", "eng-alpha")
          .queue("main")
          .pod_sets(PodSetBuilder("one", 60).request("cpu", "1")),
      WorkloadBuilder("existing", "eng-beta")
          .pod_sets(PodSetBuilder("one", 45).request("cpu", "1"))
          .reserve_quota_at(AdmissionBuilder("eng-beta")
                                .pod_sets(PodSetAssignmentBuilder("one")
                                              .assignment("cpu", "on-demand", "45000m")
                                              .count(45)),
                            kNow)};
  c.want_workloads = {{"eng-alpha/new", "", "", ""}, {"eng-beta/existing", "", "", ""}};
  c.want_assignments = {"eng-alpha/new", "eng-beta/existing"};
  c.want_left = {};
  c.want_inadmissible_left = {};
  check(c);
}

TEST_CASE(
    "Kueue schedule: use second flavor when the first has no preemption candidates; "
    "WhenCanPreempt: MayStopSearch",
    "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("other-alpha")
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .flavor_fungibility(fungibility(FlavorFungibilityPolicy::MayStopSearch,
                                          FlavorFungibilityPolicy::MayStopSearch))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "50", "50"),
                           FlavorQuotasBuilder("spot").resource("cpu", "100", "0")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-alpha", "other", "other-alpha"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("admitted", "eng-alpha")
          .queue("other")
          .request("cpu", "50")
          .reserve_quota_at(
              AdmissionBuilder("other-alpha")
                  .pod_sets(PodSetAssignmentBuilder("main").assignment("cpu", "on-demand", "50")),
              kNow)
          .admitted_at(true, kNow),
      WorkloadBuilder("new", "eng-alpha").queue("other").request("cpu", "20")};
  c.want_workloads = {{"eng-alpha/admitted", "", "", ""}, {"eng-alpha/new", "", "", ""}};
  c.want_assignments = {"eng-alpha/admitted", "eng-alpha/new"};
  c.want_left = {};
  c.want_inadmissible_left = {};
  check(c);
}
TEST_CASE("Kueue schedule: no overadmission while borrowing", "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("eng-gamma")
          .cohort("eng")
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "50", "10"),
                           FlavorQuotasBuilder("spot").resource("cpu", "0", "100")})};
  c.extra_local_queues =
      std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-gamma", "main", "eng-gamma"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("new", "eng-beta")
          .queue("main")
          .creation((kNow + (-2) * 1000))
          .pod_sets(PodSetBuilder("one", 50).request("cpu", "1")),
      WorkloadBuilder("new-alpha", "eng-alpha")
          .queue("main")
          .creation((kNow - 1000))
          .pod_sets(PodSetBuilder("one", 1).request("cpu", "1")),
      WorkloadBuilder("new-gamma", "eng-gamma")
          .queue("main")
          .creation(kNow)
          .pod_sets(PodSetBuilder("one", 50).request("cpu", "1")),
      WorkloadBuilder("existing", "eng-gamma")
          .pod_sets(PodSetBuilder("borrow-on-demand", 51).request("cpu", "1"),
                    PodSetBuilder("use-all-spot", 100).request("cpu", "1"))
          .reserve_quota_at(AdmissionBuilder("eng-gamma")
                                .pod_sets(PodSetAssignmentBuilder("borrow-on-demand")
                                              .assignment("cpu", "on-demand", "51")
                                              .count(51),
                                          PodSetAssignmentBuilder("use-all-spot")
                                              .assignment("cpu", "spot", "100")
                                              .count(100)),
                            kNow)};
  c.want_workloads = {{"eng-alpha/new-alpha", "", "", ""},
                      {"eng-beta/new", "", "", ""},
                      {"eng-gamma/existing", "", "", ""},
                      {"eng-gamma/new-gamma", "", "",
                       "couldn't assign flavors to pod set one: insufficient unused quota for cpu "
                       "in flavor on-demand, 41 more needed, insufficient unused quota for cpu in "
                       "flavor spot, 50 more needed"}};
  c.want_assignments = {"eng-gamma/existing", "eng-beta/new", "eng-alpha/new-alpha"};
  c.want_left = {};
  c.want_inadmissible_left = {"eng-gamma/new-gamma"};
  check(c);
}
TEST_CASE("Kueue schedule: workload requiring reclaimation prioritized over wl in another full cq",
          "[kueue][preemption]") {
  ScheduleCase c;
  c.extra_cluster_queues = std::vector<ClusterQueue>{
      ClusterQueueBuilder("CQ1").cohort("other").resource_group(
          {FlavorQuotasBuilder("on-demand").resource("gpu", "10")}),
      ClusterQueueBuilder("CQ2")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::Never))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("gpu", "10")}),
      ClusterQueueBuilder("CQ3").cohort("other").resource_group(
          {FlavorQuotasBuilder("on-demand").resource("gpu", "0")})};
  c.extra_local_queues = std::vector<LocalQueueSpec>{LocalQueueSpec{"eng-alpha", "lq", "CQ1"},
                                                     LocalQueueSpec{"eng-beta", "lq", "CQ2"},
                                                     LocalQueueSpec{"eng-gamma", "lq", "CQ3"}};
  c.workloads = std::vector<Workload>{
      WorkloadBuilder("Admitted-Workload-1", "eng-alpha")
          .queue("lq")
          .request("gpu", "5")
          .simple_reserve_quota("CQ1", "on-demand", kNow),
      WorkloadBuilder("WL1", "eng-alpha").creation(kNow).queue("lq").request("gpu", "10"),
      WorkloadBuilder("WL2", "eng-beta")
          .uid("wl-WL2")
          .job_uid("job-WL2")
          .creation((kNow + 1000))
          .queue("lq")
          .request("gpu", "10"),
      WorkloadBuilder("Admitted-Workload-2", "eng-gamma")
          .queue("lq")
          .priority(0)
          .request("gpu", "5")
          .simple_reserve_quota("CQ3", "on-demand", kNow),
      WorkloadBuilder("Admitted-Workload-3", "eng-gamma")
          .queue("lq")
          .priority(1)
          .request("gpu", "5")
          .simple_reserve_quota("CQ3", "on-demand", kNow)};
  c.want_workloads = {
      {"eng-alpha/Admitted-Workload-1", "", "", ""},
      {"eng-alpha/WL1", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for gpu in flavor "
       "on-demand, 5 more needed"},
      {"eng-beta/WL2", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for gpu in flavor "
       "on-demand, 5 more needed. Pending the preemption of 1 workload(s)"},
      {"eng-gamma/Admitted-Workload-2", "InCohortReclamation",
       "Preempted to accommodate a workload (UID: wl-WL2, JobUID: job-WL2) due to reclamation "
       "within the cohort; preemptor path: /other/CQ2; preemptee path: /other/CQ3",
       ""},
      {"eng-gamma/Admitted-Workload-3", "", "", ""}};
  c.want_assignments = {"eng-alpha/Admitted-Workload-1", "eng-gamma/Admitted-Workload-2",
                        "eng-gamma/Admitted-Workload-3"};
  c.want_left = {"eng-beta/WL2"};
  c.want_inadmissible_left = {"eng-alpha/WL1"};
  check(c);
}

// TestScheduleForFairSharing (pkg/scheduler/scheduler_fs_test.go), every case but one. Not
// transcribable:
// "multiple preemptions within cq when fair sharing", whose ClusterQueues set only
// withinClusterQueue, leaving reclaimWithinCohort empty where the API's defaulting makes it Never;
// Kueue's canPreemptWhileBorrowing then lets them preempt while borrowing, which a ClusterQueue
// read from a manifest (reclaimWithinCohort Never) does not.

// A pending workload `name` in namespace eng-alpha, queue `queue`, one pod set "one" of `count`
// pods requesting `cpu` each.
Workload fs_pending(const std::string& name, const std::string& queue, std::string_view cpu,
                    std::int32_t count = 1) {
  return WorkloadBuilder(name, "eng-alpha")
      .queue(queue)
      .pod_sets(PodSetBuilder("one", count).request("cpu", cpu));
}

// The same, holding quota in `cq` (`total` CPUs of `flavor`).
Workload fs_admitted(const std::string& name, const std::string& queue, const std::string& cq,
                     std::string_view cpu, std::string_view total, std::int32_t count = 1,
                     const std::string& flavor = "on-demand") {
  return WorkloadBuilder(name, "eng-alpha")
      .queue(queue)
      .pod_sets(PodSetBuilder("one", count).request("cpu", cpu))
      .reserve_quota_at(
          AdmissionBuilder(cq).pod_sets(
              PodSetAssignmentBuilder("one").assignment("cpu", flavor, total).count(count)),
          kNow);
}

// Cohort A lending `cpu` CPUs of on-demand to ClusterQueues b and c (no quota of their own,
// the weight given), with LocalQueues eng-alpha/lq-b and eng-alpha/lq-c.
void two_queues_in_cohort(ScheduleCase& c, std::string_view cpu, std::string_view weight = "",
                          bool reclaim = false) {
  c.fair_sharing = true;
  c.cohorts = {
      CohortBuilder("A").resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", cpu)})};
  for (const char* name : {"b", "c"}) {
    ClusterQueueBuilder cq(name);
    cq.cohort("A").resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "0")});
    if (!weight.empty()) cq.fair_weight(weight);
    if (reclaim) cq.preemption(preemption(PreemptionPolicy::Any));
    c.extra_cluster_queues.push_back(cq);
  }
  c.extra_local_queues = {LocalQueueSpec{"eng-alpha", "lq-b", "b"},
                          LocalQueueSpec{"eng-alpha", "lq-c", "c"}};
}

constexpr const char* kNoLongerFits = "Workload no longer fits after processing another workload";

TEST_CASE(
    "TestScheduleForFairSharing: with fair sharing: schedule workload with lowest share first",
    "[kueue][fair_sharing]") {
  ScheduleCase c;
  c.fair_sharing = true;
  c.extra_cluster_queues = {
      ClusterQueueBuilder("eng-shared")
          .cohort("eng")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "10", "0")})};
  Workload older_new = fs_pending("older_new", "main", "1");
  older_new.metadata.namespace_ = "eng-beta";
  older_new.metadata.creation_ms = kNow - 60'000;
  Workload borrowing = fs_admitted("borrowing", "main", "eng-beta", "1", "55", 55);
  borrowing.metadata.namespace_ = "eng-beta";
  c.workloads = {fs_admitted("all_nominal", "main", "eng-alpha", "1", "50", 50), borrowing,
                 older_new, fs_pending("new", "main", "1", 5)};
  c.want_workloads = {{"eng-beta/older_new", "", "", kNoLongerFits}};
  c.want_assignments = {"eng-alpha/all_nominal", "eng-beta/borrowing", "eng-alpha/new"};
  c.want_left = {"eng-beta/older_new"};
  check(c);
}

TEST_CASE(
    "TestScheduleForFairSharing: fair sharing schedule workload with lowest drf after "
    "admission",
    "[kueue][fair_sharing]") {
  ScheduleCase c;
  two_queues_in_cohort(c, "100");
  c.workloads = {fs_admitted("b0", "lq-b", "b", "10", "10"), fs_pending("b1", "lq-b", "50"),
                 fs_pending("c1", "lq-c", "75")};
  c.want_workloads = {{"eng-alpha/c1", "", "", kNoLongerFits}};
  c.want_assignments = {"eng-alpha/b0", "eng-alpha/b1"};
  c.want_left = {"eng-alpha/c1"};
  check(c);
}

TEST_CASE(
    "TestScheduleForFairSharing: fair sharing two queues with weight 0 schedules workload "
    "which borrows less",
    "[kueue][fair_sharing]") {
  ScheduleCase c;
  two_queues_in_cohort(c, "8", "0", true);
  Workload b1 = fs_pending("b1", "lq-b", "4");
  b1.priority = 9001;
  c.workloads = {fs_admitted("b0", "lq-b", "b", "4", "4"), b1, fs_pending("c1", "lq-c", "4")};
  c.want_workloads = {{"eng-alpha/b1", "", "", kNoLongerFits}};
  c.want_assignments = {"eng-alpha/b0", "eng-alpha/c1"};
  c.want_left = {"eng-alpha/b1"};
  check(c);
}

TEST_CASE(
    "TestScheduleForFairSharing: fair sharing two queues with high weight schedules "
    "workload which borrows less",
    "[kueue][fair_sharing]") {
  ScheduleCase c;
  two_queues_in_cohort(c, "8", "123456789", true);
  Workload b1 = fs_pending("b1", "lq-b", "4");
  b1.priority = 9001;
  c.workloads = {fs_admitted("b0", "lq-b", "b", "4", "4"), b1, fs_pending("c1", "lq-c", "4")};
  c.want_workloads = {{"eng-alpha/b1", "", "", kNoLongerFits}};
  c.want_assignments = {"eng-alpha/b0", "eng-alpha/c1"};
  c.want_left = {"eng-alpha/b1"};
  check(c);
}

TEST_CASE("TestScheduleForFairSharing: fair sharing schedule singleton cqs and cq without cohort",
          "[kueue][fair_sharing]") {
  // Cohort A lends 10 CPUs to a (no quota of its own); b is alone in cohort B; c has no cohort:
  // each queue's head is admitted in the same cycle.
  ScheduleCase c;
  c.fair_sharing = true;
  c.cohorts = {
      CohortBuilder("A").resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "10")}),
      CohortBuilder("B")};
  c.extra_cluster_queues = {ClusterQueueBuilder("a").cohort("A").resource_group(
                                {FlavorQuotasBuilder("on-demand").resource("cpu", "0")}),
                            ClusterQueueBuilder("b").cohort("B").resource_group(
                                {FlavorQuotasBuilder("on-demand").resource("cpu", "10")}),
                            ClusterQueueBuilder("c").resource_group(
                                {FlavorQuotasBuilder("on-demand").resource("cpu", "10")})};
  c.extra_local_queues = {LocalQueueSpec{"eng-alpha", "lq-a", "a"},
                          LocalQueueSpec{"eng-alpha", "lq-b", "b"},
                          LocalQueueSpec{"eng-alpha", "lq-c", "c"}};
  c.workloads = {fs_pending("a1", "lq-a", "10"), fs_pending("b1", "lq-b", "10"),
                 fs_pending("c1", "lq-c", "10")};
  c.want_assignments = {"eng-alpha/a1", "eng-alpha/b1", "eng-alpha/c1"};
  check(c);
}

TEST_CASE(
    "TestScheduleForFairSharing: hierarchical fair sharing schedule workload which wins "
    "tournament",
    "[kueue][fair_sharing]") {
  // Cohort A (200 CPUs) with children B {d, e} and C {f, g}, none with quota of its own. B
  // borrows 30, C 100: the tournament picks B's side, and in B d (10 borrowed) over e (20); d1
  // is admitted and the other heads no longer fit.
  ScheduleCase c;
  c.fair_sharing = true;
  c.cohorts = {
      CohortBuilder("A").resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "200")}),
      CohortBuilder("B").parent("A"), CohortBuilder("C").parent("A")};
  for (const auto& [name, cohort] : std::vector<std::pair<std::string, std::string>>{
           {"d", "B"}, {"e", "B"}, {"f", "C"}, {"g", "C"}}) {
    c.extra_cluster_queues.push_back(ClusterQueueBuilder(name).cohort(cohort).resource_group(
        {FlavorQuotasBuilder("on-demand").resource("cpu", "0")}));
    c.extra_local_queues.push_back(LocalQueueSpec{"eng-alpha", "lq-" + name, name});
  }
  c.workloads = {fs_admitted("d0", "lq-d", "d", "10", "10"),
                 fs_admitted("e0", "lq-e", "e", "20", "20"),
                 fs_admitted("g0", "lq-g", "g", "100", "100"),
                 fs_pending("d1", "lq-d", "70"),
                 fs_pending("e1", "lq-e", "61"),
                 fs_pending("f1", "lq-f", "1"),
                 fs_pending("g1", "lq-g", "1")};
  c.want_workloads = {{"eng-alpha/e1", "", "", kNoLongerFits},
                      {"eng-alpha/f1", "", "", kNoLongerFits},
                      {"eng-alpha/g1", "", "", kNoLongerFits}};
  c.want_assignments = {"eng-alpha/d0", "eng-alpha/e0", "eng-alpha/g0", "eng-alpha/d1"};
  c.want_left = {"eng-alpha/e1", "eng-alpha/f1", "eng-alpha/g1"};
  check(c);
}

TEST_CASE(
    "TestScheduleForFairSharing: with fair sharing: nominal-first ordering admits workload "
    "fitting within nominal despite higher CQ DRS",
    "[kueue][fair_sharing]") {
  // fs-nom-a borrows 30 spot CPUs (a high share) but nom-wl fits its on-demand nominal quota;
  // borrow-wl, older, would borrow in fs-nom-b: the one that does not borrow goes first.
  ScheduleCase c;
  c.fair_sharing = true;
  c.extra_cluster_queues = {
      ClusterQueueBuilder("fs-nom-a")
          .cohort("fs-nom")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "50", "0")})
          .resource_group({FlavorQuotasBuilder("spot").resource("cpu", "50", "50")}),
      ClusterQueueBuilder("fs-nom-b")
          .cohort("fs-nom")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "10", "50")})
          .resource_group({FlavorQuotasBuilder("spot").resource("cpu", "50", "0")})};
  c.extra_local_queues = {LocalQueueSpec{"eng-alpha", "fs-nom", "fs-nom-a"},
                          LocalQueueSpec{"eng-beta", "fs-nom", "fs-nom-b"}};
  const Workload spot_heavy =
      WorkloadBuilder("spot-heavy", "eng-alpha")
          .queue("fs-nom")
          .pod_sets(PodSetBuilder("one", 80).request("cpu", "1"))
          .reserve_quota_at(
              AdmissionBuilder("fs-nom-a")
                  .pod_sets(
                      PodSetAssignmentBuilder("one").assignment("cpu", "spot", "80").count(80)),
              kNow);
  const Workload light_usage =
      WorkloadBuilder("light-usage", "eng-beta")
          .queue("fs-nom")
          .pod_sets(PodSetBuilder("one", 5).request("cpu", "1"))
          .reserve_quota_at(
              AdmissionBuilder("fs-nom-b")
                  .pod_sets(
                      PodSetAssignmentBuilder("one").assignment("cpu", "on-demand", "5").count(5)),
              kNow);
  const Workload borrow_wl = WorkloadBuilder("borrow-wl", "eng-beta")
                                 .queue("fs-nom")
                                 .creation(kNow - 60'000)
                                 .pod_sets(PodSetBuilder("one", 15).request("cpu", "1"));
  const Workload nom_wl = WorkloadBuilder("nom-wl", "eng-alpha")
                              .queue("fs-nom")
                              .creation(kNow)
                              .pod_sets(PodSetBuilder("one", 45).request("cpu", "1"));
  c.workloads = {spot_heavy, light_usage, borrow_wl, nom_wl};
  c.want_workloads = {{"eng-beta/borrow-wl", "", "", kNoLongerFits}};
  c.want_assignments = {"eng-alpha/spot-heavy", "eng-beta/light-usage", "eng-alpha/nom-wl"};
  c.want_left = {"eng-beta/borrow-wl"};
  check(c);
}

// The hierarchical nominal-first cases: cohort root over Cohort-A (lending 10 on-demand CPUs,
// through `sub_a` when given) with cq-a, and Cohort-B with cq-b (5 CPUs) and cq-c (none, holding
// c0's 10). wl-a (5 CPUs, cq-a) keeps its subtree within its quota; wl-b (5 CPUs, cq-b) makes
// Cohort-B borrow: at the root, wl-a goes first and wl-b no longer fits.
void hierarchical_nominal_first(bool sub_a) {
  ScheduleCase c;
  c.fair_sharing = true;
  const FlavorQuotas lend = FlavorQuotasBuilder("on-demand").resource("cpu", "10");
  c.cohorts = {CohortBuilder("root"), CohortBuilder("Cohort-B").parent("root")};
  if (sub_a) {
    c.cohorts.push_back(CohortBuilder("Cohort-A").parent("root"));
    c.cohorts.push_back(CohortBuilder("SUB-A").resource_group({lend}).parent("Cohort-A"));
  } else {
    c.cohorts.push_back(CohortBuilder("Cohort-A").resource_group({lend}).parent("root"));
  }
  c.extra_cluster_queues = {
      ClusterQueueBuilder("cq-a")
          .cohort(sub_a ? "SUB-A" : "Cohort-A")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "0")}),
      ClusterQueueBuilder("cq-b")
          .cohort("Cohort-B")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "5")}),
      ClusterQueueBuilder("cq-c")
          .cohort("Cohort-B")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "0")})};
  c.extra_local_queues = {LocalQueueSpec{"eng-alpha", "lq-a", "cq-a"},
                          LocalQueueSpec{"eng-alpha", "lq-b", "cq-b"},
                          LocalQueueSpec{"eng-alpha", "lq-c", "cq-c"}};
  c.workloads = {fs_admitted("c0", "lq-c", "cq-c", "10", "10"), fs_pending("wl-a", "lq-a", "5"),
                 fs_pending("wl-b", "lq-b", "5")};
  c.want_workloads = {{"eng-alpha/wl-b", "", "", kNoLongerFits}};
  c.want_assignments = {"eng-alpha/c0", "eng-alpha/wl-a"};
  c.want_left = {"eng-alpha/wl-b"};
  check(c);
}

TEST_CASE(
    "TestScheduleForFairSharing: with fair sharing: hierarchical nominal-first prefers "
    "non-borrowing subtree",
    "[kueue][fair_sharing]") {
  hierarchical_nominal_first(false);
}

TEST_CASE(
    "TestScheduleForFairSharing: with fair sharing: hierarchical nominal-first with deeper "
    "nesting",
    "[kueue][fair_sharing]") {
  hierarchical_nominal_first(true);
}

TEST_CASE(
    "TestScheduleForFairSharing: with fair sharing: hierarchical nominal-first with mixed CQ "
    "and cohort quotas",
    "[kueue][fair_sharing]") {
  // Cohort-A (10 CPUs of its own) with cq-a1 (5) and cq-a2 (3, holding 6); Cohort-B (10) with
  // cq-b (5) and cq-c (3, holding 20). wl-a1 (7 CPUs) keeps Cohort-A within its subtree's 18;
  // wl-b (4) would take Cohort-B to 24 of 18: wl-a1 goes first, wl-b no longer fits.
  ScheduleCase c;
  c.fair_sharing = true;
  const FlavorQuotas ten = FlavorQuotasBuilder("on-demand").resource("cpu", "10");
  c.cohorts = {CohortBuilder("root"),
               CohortBuilder("Cohort-A").resource_group({ten}).parent("root"),
               CohortBuilder("Cohort-B").resource_group({ten}).parent("root")};
  const auto cq = [](const char* name, const char* cohort, const char* cpu) {
    return ClusterQueueBuilder(name).cohort(cohort).resource_group(
        {FlavorQuotasBuilder("on-demand").resource("cpu", cpu)});
  };
  c.extra_cluster_queues = {cq("cq-a1", "Cohort-A", "5"), cq("cq-a2", "Cohort-A", "3"),
                            cq("cq-b", "Cohort-B", "5"), cq("cq-c", "Cohort-B", "3")};
  c.extra_local_queues = {
      LocalQueueSpec{"eng-alpha", "lq-a1", "cq-a1"}, LocalQueueSpec{"eng-alpha", "lq-a2", "cq-a2"},
      LocalQueueSpec{"eng-alpha", "lq-b", "cq-b"}, LocalQueueSpec{"eng-alpha", "lq-c", "cq-c"}};
  c.workloads = {fs_admitted("a2-admitted", "lq-a2", "cq-a2", "6", "6"),
                 fs_admitted("c-admitted", "lq-c", "cq-c", "20", "20"),
                 fs_pending("wl-a1", "lq-a1", "7"), fs_pending("wl-b", "lq-b", "4")};
  c.want_workloads = {{"eng-alpha/wl-b", "", "", kNoLongerFits}};
  c.want_assignments = {"eng-alpha/a2-admitted", "eng-alpha/c-admitted", "eng-alpha/wl-a1"};
  c.want_left = {"eng-alpha/wl-b"};
  check(c);
}

TEST_CASE(
    "TestScheduleForFairSharing: with fair sharing: hierarchical nominal-first per-flavor "
    "ignores cross-flavor borrowing",
    "[kueue][fair_sharing]") {
  // Cohort-A lends 10 on-demand CPUs and borrows 5 spot; Cohort-B lends 10 spot and borrows 3
  // on-demand. Both pending workloads want on-demand: Cohort-A does not borrow on-demand, so
  // wl-a goes first, and the 7 on-demand CPUs left do not hold wl-b.
  ScheduleCase c;
  c.fair_sharing = true;
  c.cohorts = {CohortBuilder("root"),
               CohortBuilder("Cohort-A")
                   .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "10")})
                   .parent("root"),
               CohortBuilder("Cohort-B")
                   .resource_group({FlavorQuotasBuilder("spot").resource("cpu", "10")})
                   .parent("root")};
  c.extra_cluster_queues = {
      ClusterQueueBuilder("cq-a")
          .cohort("Cohort-A")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "0"),
                           FlavorQuotasBuilder("spot").resource("cpu", "0")}),
      ClusterQueueBuilder("cq-b")
          .cohort("Cohort-B")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "5"),
                           FlavorQuotasBuilder("spot").resource("cpu", "0")})};
  c.extra_local_queues = {LocalQueueSpec{"eng-alpha", "lq-a", "cq-a"},
                          LocalQueueSpec{"eng-alpha", "lq-b", "cq-b"}};
  c.workloads = {fs_admitted("spot-admitted", "lq-a", "cq-a", "5", "5", 1, "spot"),
                 fs_admitted("od-admitted", "lq-b", "cq-b", "8", "8"),
                 fs_pending("wl-a", "lq-a", "4"), fs_pending("wl-b", "lq-b", "4")};
  c.want_workloads = {{"eng-alpha/wl-b", "", "", kNoLongerFits}};
  c.want_assignments = {"eng-alpha/spot-admitted", "eng-alpha/od-admitted", "eng-alpha/wl-a"};
  c.want_left = {"eng-alpha/wl-b"};
  check(c);
}

// "prefer flavor with most local capacity", with and without fair sharing: child-cohort (5
// on-demand, 7 spot GPUs) under root-cohort (2 on-demand); queue1 (3 and 3) holds a1 (8 on-demand:
// the root's too) and a2 (3 spot, its own). a3 (1 GPU) could borrow either: it takes spot, where
// the child cohort still has capacity of its own.
void prefer_flavor_with_most_local_capacity(bool fair_sharing) {
  ScheduleCase c;
  c.fair_sharing = fair_sharing;
  c.cohorts = {CohortBuilder("root-cohort")
                   .resource_group({FlavorQuotasBuilder("on-demand").resource("gpu", "2"),
                                    FlavorQuotasBuilder("spot").resource("gpu", "0")}),
               CohortBuilder("child-cohort")
                   .parent("root-cohort")
                   .resource_group({FlavorQuotasBuilder("on-demand").resource("gpu", "5"),
                                    FlavorQuotasBuilder("spot").resource("gpu", "7")})};
  c.extra_cluster_queues = {
      ClusterQueueBuilder("queue1")
          .cohort("child-cohort")
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .flavor_fungibility(fungibility(FlavorFungibilityPolicy::TryNextFlavor,
                                          FlavorFungibilityPolicy::TryNextFlavor))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("gpu", "3"),
                           FlavorQuotasBuilder("spot").resource("gpu", "3")})};
  c.extra_local_queues = {LocalQueueSpec{"default", "queue1", "queue1"}};
  c.workloads = {WorkloadBuilder("a1", "default")
                     .queue("queue1")
                     .request("gpu", "8")
                     .simple_reserve_quota("queue1", "on-demand", kNow),
                 WorkloadBuilder("a2", "default")
                     .queue("queue1")
                     .request("gpu", "3")
                     .simple_reserve_quota("queue1", "spot", kNow),
                 WorkloadBuilder("a3", "default").queue("queue1").request("gpu", "1")};
  c.want_assignments = {"default/a1", "default/a2", "default/a3"};
  c.want_flavors = {{"default/a1", {{"gpu", "on-demand"}}},
                    {"default/a2", {{"gpu", "spot"}}},
                    {"default/a3", {{"gpu", "spot"}}}};
  check(c);
}

TEST_CASE("TestScheduleForFairSharing: prefer flavor with most local capacity",
          "[kueue][fair_sharing]") {
  prefer_flavor_with_most_local_capacity(true);
}

TEST_CASE("TestScheduleForFairSharing: prefer flavor with most local capacity (FS=false)",
          "[kueue][fair_sharing]") {
  prefer_flavor_with_most_local_capacity(false);
}

TEST_CASE(
    "TestScheduleForFairSharing: PreemptionOverBorrowing with fair sharing: preempt in first "
    "flavor instead of borrowing in second",
    "[kueue][fair_sharing]") {
  // fs-pob-cq (5 on-demand, may borrow 5 spot from fs-pob-lender) holds fs-low-pob (5
  // on-demand, priority -1); fs-high-pob (5 CPUs, priority 0) prefers preempting it to borrowing
  // spot.
  ScheduleCase c;
  c.fair_sharing = true;
  c.extra_cluster_queues = {
      ClusterQueueBuilder("fs-pob-cq")
          .fair_weight("1")
          .cohort("fs-pob-cohort")
          .preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .flavor_fungibility(fungibility(FlavorFungibilityPolicy::TryNextFlavor,
                                          FlavorFungibilityPolicy::TryNextFlavor,
                                          FlavorFungibilityPreference::PreemptionOverBorrowing))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "5", "0"),
                           FlavorQuotasBuilder("spot").resource("cpu", "0", "5")}),
      ClusterQueueBuilder("fs-pob-lender")
          .fair_weight("1")
          .cohort("fs-pob-cohort")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "0"),
                           FlavorQuotasBuilder("spot").resource("cpu", "5")})};
  c.extra_local_queues = {LocalQueueSpec{"default", "fs-pob-queue", "fs-pob-cq"}};
  c.workloads = {WorkloadBuilder("fs-low-pob", "default")
                     .queue("fs-pob-queue")
                     .priority(-1)
                     .request("cpu", "5")
                     .reserve_quota_at(AdmissionBuilder("fs-pob-cq")
                                           .pod_sets(PodSetAssignmentBuilder("main").assignment(
                                               "cpu", "on-demand", "5")),
                                       kNow)
                     .admitted_at(true, kNow),
                 WorkloadBuilder("fs-high-pob", "default")
                     .uid("wl-fs-high-pob")
                     .job_uid("job-fs-high-pob")
                     .queue("fs-pob-queue")
                     .priority(0)
                     .request("cpu", "5")};
  c.want_workloads = {
      {"default/fs-high-pob", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
       "on-demand, 5 more needed. Pending the preemption of 1 workload(s)"},
      {"default/fs-low-pob", "InClusterQueue",
       "Preempted to accommodate a workload (UID: wl-fs-high-pob, JobUID: job-fs-high-pob) due "
       "to prioritization in the ClusterQueue; preemptor path: /fs-pob-cohort/fs-pob-cq; "
       "preemptee path: /fs-pob-cohort/fs-pob-cq",
       ""}};
  c.want_assignments = {"default/fs-low-pob"};
  c.want_left = {"default/fs-high-pob"};
  check(c);
}

TEST_CASE(
    "TestScheduleForFairSharing: with fair sharing: prefer reclamation over cq priority based "
    "preemption; with preemption while borrowing",
    "[kueue][fair_sharing]") {
  // The preemptor (8 GPUs) needs a priority-based preemption of a1 in on-demand, or reclaims
  // spot from other-beta's b1: fair sharing lets it preempt while borrowing, and reclamation is
  // the better assignment.
  ScheduleCase c;
  c.fair_sharing = true;
  c.extra_cluster_queues = {
      ClusterQueueBuilder("other-alpha")
          .cohort("other")
          .preemption(preemption(PreemptionPolicy::LowerPriority, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority))
          .resource_group({FlavorQuotasBuilder("on-demand").resource("gpu", "7"),
                           FlavorQuotasBuilder("spot").resource("gpu", "7")}),
      ClusterQueueBuilder("other-beta")
          .cohort("other")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("gpu", "3"),
                           FlavorQuotasBuilder("spot").resource("gpu", "3")})};
  c.extra_local_queues = {LocalQueueSpec{"eng-alpha", "other", "other-alpha"},
                          LocalQueueSpec{"eng-beta", "other", "other-beta"}};
  c.workloads = {WorkloadBuilder("a1", "eng-alpha")
                     .priority(50)
                     .queue("other")
                     .request("gpu", "5")
                     .simple_reserve_quota("other-alpha", "on-demand", kNow),
                 WorkloadBuilder("b1", "eng-beta")
                     .priority(50)
                     .queue("other")
                     .request("gpu", "5")
                     .simple_reserve_quota("other-beta", "spot", kNow),
                 WorkloadBuilder("preemptor", "eng-alpha")
                     .uid("wl-preemptor")
                     .job_uid("job-preemptor")
                     .priority(100)
                     .queue("other")
                     .request("gpu", "8")};
  c.want_workloads = {
      {"eng-alpha/a1", "", "", ""},
      {"eng-alpha/preemptor", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for gpu in flavor "
       "on-demand, 3 more needed, insufficient unused quota for gpu in flavor spot, 3 more "
       "needed. Pending the preemption of 1 workload(s)"},
      {"eng-beta/b1", "InCohortFairSharing",
       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: job-preemptor) due to "
       "Fair Sharing within the cohort; preemptor path: /other/other-alpha; preemptee path: "
       "/other/other-beta",
       ""}};
  c.want_assignments = {"eng-alpha/a1", "eng-beta/b1"};
  c.want_left = {"eng-alpha/preemptor"};
  check(c);
}

TEST_CASE("TestScheduleForFairSharing: multiple preemptions skip overlapping preemption targets",
          "[kueue][fair_sharing]") {
  // other-gamma uses all of resource-bank's 9 CPUs; the preemptors in other-alpha and other-beta
  // each need 3 and one of their own queue's resource. The higher-priority one (alpha) preempts
  // a1 and c1; beta's would preempt c1 too, so it waits ("overlapping preemption targets").
  ScheduleCase c;
  c.fair_sharing = true;
  const std::vector<std::string> names = {"alpha", "beta", "gamma"};
  for (const std::string& name : names) {
    c.extra_cluster_queues.push_back(
        ClusterQueueBuilder("other-" + name)
            .cohort("other")
            .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                   PreemptionPolicy::LowerPriority))
            .resource_group({FlavorQuotasBuilder("default")
                                 .resource("cpu", "0")
                                 .resource(name + "-resource", "1")}));
    c.extra_local_queues.push_back(LocalQueueSpec{"eng-" + name, "other", "other-" + name});
  }
  c.extra_cluster_queues.push_back(
      ClusterQueueBuilder("resource-bank")
          .cohort("other")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "9")}));
  const auto holding = [](const std::string& cq, const std::string& resource, std::string_view q) {
    return AdmissionBuilder(cq).pod_sets(
        PodSetAssignmentBuilder("main").assignment(resource, "default", q));
  };
  c.workloads = {WorkloadBuilder("a1", "eng-alpha")
                     .priority(0)
                     .queue("other")
                     .request("alpha-resource", "1")
                     .reserve_quota_at(holding("other-alpha", "alpha-resource", "1"), kNow),
                 WorkloadBuilder("b1", "eng-beta")
                     .priority(0)
                     .queue("other")
                     .request("beta-resource", "1")
                     .reserve_quota_at(holding("other-beta", "beta-resource", "1"), kNow),
                 WorkloadBuilder("c1", "eng-gamma")
                     .priority(0)
                     .queue("other")
                     .request("cpu", "9")
                     .request("gamma-resource", "1")
                     .reserve_quota_at(holding("other-gamma", "cpu", "9"), kNow),
                 WorkloadBuilder("preemptor", "eng-alpha")
                     .uid("wl-preemptor")
                     .job_uid("job-preemptor")
                     .priority(100)
                     .queue("other")
                     .request("cpu", "3")
                     .request("alpha-resource", "1"),
                 WorkloadBuilder("pretending-preemptor", "eng-beta")
                     .priority(99)
                     .queue("other")
                     .request("cpu", "3")
                     .request("beta-resource", "1")};
  c.want_workloads = {
      {"eng-alpha/a1", "InClusterQueue",
       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: job-preemptor) due to "
       "prioritization in the ClusterQueue; preemptor path: /other/other-alpha; preemptee path: "
       "/other/other-alpha",
       ""},
      {"eng-alpha/preemptor", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for alpha-resource in "
       "flavor default, 1 more needed, insufficient unused quota for cpu in flavor default, 3 "
       "more needed. Pending the preemption of 2 workload(s)"},
      {"eng-beta/b1", "", "", ""},
      {"eng-beta/pretending-preemptor", "", "",
       "Workload has overlapping preemption targets with another workload"},
      {"eng-gamma/c1", "InCohortFairSharing",
       "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: job-preemptor) due to "
       "Fair Sharing within the cohort; preemptor path: /other/other-alpha; preemptee path: "
       "/other/other-gamma",
       ""}};
  c.want_assignments = {"eng-alpha/a1", "eng-beta/b1", "eng-gamma/c1"};
  c.want_left = {"eng-alpha/preemptor", "eng-beta/pretending-preemptor"};
  check(c);
}

TEST_CASE(
    "TestScheduleForFairSharing: with fair sharing: preempt workload from CQ with the highest "
    "share",
    "[kueue][fair_sharing]") {
  ScheduleCase c;
  c.fair_sharing = true;
  c.extra_cluster_queues = {
      ClusterQueueBuilder("eng-gamma")
          .cohort("eng")
          .resource_group({FlavorQuotasBuilder("on-demand").resource("cpu", "50", "0")})};
  auto reserved = [](const std::string& name, const std::string& ns, std::string_view cpu,
                     const std::string& flavor) {
    return WorkloadBuilder(name, ns)
        .uid(name)
        .request("cpu", cpu)
        .simple_reserve_quota(ns, flavor, kNow);
  };
  c.workloads = {WorkloadBuilder("all_spot", "eng-alpha")
                     .request("cpu", "100")
                     .simple_reserve_quota("eng-alpha", "spot", kNow),
                 reserved("alpha1", "eng-alpha", "20", "on-demand"),
                 reserved("alpha2", "eng-alpha", "20", "on-demand"),
                 reserved("alpha3", "eng-alpha", "20", "on-demand"),
                 reserved("alpha4", "eng-alpha", "20", "on-demand"),
                 reserved("gamma1", "eng-gamma", "10", "on-demand"),
                 reserved("gamma2", "eng-gamma", "20", "on-demand"),
                 reserved("gamma3", "eng-gamma", "20", "on-demand"),
                 reserved("gamma4", "eng-gamma", "20", "on-demand"),
                 WorkloadBuilder("preemptor", "eng-beta")
                     .uid("wl-preemptor")
                     .job_uid("job-preemptor")
                     .queue("main")
                     .request("cpu", "30")};
  auto reclaimed = [](const std::string& cq) {
    return "Preempted to accommodate a workload (UID: wl-preemptor, JobUID: job-preemptor) due "
           "to reclamation within the cohort; preemptor path: /eng/eng-beta; preemptee path: "
           "/eng/" +
           cq;
  };
  c.want_workloads = {
      {"eng-alpha/alpha1", "InCohortReclamation", reclaimed("eng-alpha"), ""},
      {"eng-alpha/alpha2", "", "", ""},
      {"eng-gamma/gamma1", "InCohortReclamation", reclaimed("eng-gamma"), ""},
      {"eng-gamma/gamma2", "", "", ""},
      {"eng-beta/preemptor", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
       "on-demand, 30 more needed, insufficient unused quota for cpu in flavor spot, 30 more "
       "needed. Pending the preemption of 2 workload(s)"}};
  c.want_assignments = {"eng-alpha/all_spot", "eng-alpha/alpha1", "eng-alpha/alpha2",
                        "eng-alpha/alpha3",   "eng-alpha/alpha4", "eng-gamma/gamma1",
                        "eng-gamma/gamma2",   "eng-gamma/gamma3", "eng-gamma/gamma4"};
  c.want_left = {"eng-beta/preemptor"};
  check(c);
}

TEST_CASE("TestScheduleForFairSharing: not enough resources with fair sharing enabled",
          "[kueue][fair_sharing]") {
  ScheduleCase c;
  c.fair_sharing = true;
  c.workloads = {WorkloadBuilder("new", "sales")
                     .queue("main")
                     .pod_sets(PodSetBuilder("one", 1).request("cpu", "100"))};
  c.want_workloads = {
      {"sales/new", "", "",
       "couldn't assign flavors to pod set one: insufficient quota for cpu in flavor default, "
       "previously considered podsets requests (0) + current podset request (100) > maximum "
       "capacity (50)"}};
  c.want_left = {"sales/new"};
  check(c);
}

TEST_CASE(
    "TestScheduleForFairSharing: fair sharing: in-CQ preemption for CQ without cohort; repro "
    "for nil pointer panic",
    "[kueue][fair_sharing]") {
  ScheduleCase c;
  c.fair_sharing = true;
  ClusterQueueBuilder cq("no-cohort-cq");
  cq.preemption(preemption(PreemptionPolicy::Never, BorrowWithinCohortPolicy::Never,
                           PreemptionPolicy::LowerPriority))
      .resource_group({FlavorQuotasBuilder("default").resource("cpu", "4")});
  c.extra_cluster_queues = {cq};
  c.extra_local_queues = {LocalQueueSpec{"default", "no-cohort-queue", "no-cohort-cq"}};
  c.workloads = {WorkloadBuilder("nc-low", "default")
                     .queue("no-cohort-queue")
                     .priority(-1)
                     .request("cpu", "4")
                     .reserve_quota_at(AdmissionBuilder("no-cohort-cq")
                                           .pod_sets(PodSetAssignmentBuilder("main").assignment(
                                               "cpu", "default", "4")),
                                       kNow),
                 WorkloadBuilder("nc-high", "default")
                     .uid("wl-nc-high")
                     .job_uid("job-nc-high")
                     .queue("no-cohort-queue")
                     .priority(100)
                     .request("cpu", "4")};
  const std::string message =
      "Preempted to accommodate a workload (UID: wl-nc-high, JobUID: job-nc-high) due to "
      "prioritization in the ClusterQueue; preemptor path: /no-cohort-cq; preemptee path: "
      "/no-cohort-cq";
  c.want_workloads = {
      {"default/nc-high", "", "",
       "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
       "default, 4 more needed. Pending the preemption of 1 workload(s)"},
      {"default/nc-low", "InClusterQueue", message, ""}};
  c.want_assignments = {"default/nc-low"};
  c.want_left = {"default/nc-high"};
  check(c);
}

TEST_CASE("TestScheduleForFairSharing: fair sharing schedule highest priority first",
          "[kueue][fair_sharing]") {
  ScheduleCase c;
  two_queues_in_cohort(c, "10");
  Workload b1 = fs_pending("b1", "lq-b", "10");
  b1.priority = 99;
  Workload c1 = fs_pending("c1", "lq-c", "10");
  c1.priority = 101;
  c.workloads = {b1, c1};
  c.want_workloads = {{"eng-alpha/b1", "", "", kNoLongerFits}};
  c.want_assignments = {"eng-alpha/c1"};
  c.want_left = {"eng-alpha/b1"};
  check(c);
}

TEST_CASE("TestScheduleForFairSharing: fair sharing schedule earliest timestamp first",
          "[kueue][fair_sharing]") {
  ScheduleCase c;
  two_queues_in_cohort(c, "10");
  Workload b1 = fs_pending("b1", "lq-b", "10");
  b1.priority = 101;
  b1.metadata.creation_ms = kNow + 1000;
  Workload c1 = fs_pending("c1", "lq-c", "10");
  c1.priority = 101;
  c1.metadata.creation_ms = kNow;
  c.workloads = {b1, c1};
  c.want_workloads = {{"eng-alpha/b1", "", "", kNoLongerFits}};
  c.want_assignments = {"eng-alpha/c1"};
  c.want_left = {"eng-alpha/b1"};
  check(c);
}

}  // namespace
}  // namespace gpusched::kueue
