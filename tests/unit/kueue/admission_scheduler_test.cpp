// Kueue's admission cycle (lib/kueue/admission_scheduler.cpp) over the queues and the quota tree,
// with the texts Kueue v0.19.2 writes (pkg/scheduler/scheduler.go, flavorassigner.go).

#include "kueue/admission_scheduler.hpp"

#include <catch2/catch.hpp>

#include "kueue/preemptor.hpp"
#include "kueue/workload_name.hpp"
#include "kueue/workload_status.hpp"

namespace gpusched::kueue {
namespace {

ClusterQueue gpu_queue(std::string name, std::string cohort,
                       std::vector<std::pair<std::string, int>> flavors,
                       QueueingStrategy strategy = QueueingStrategy::BestEffortFIFO) {
  ClusterQueue cq;
  cq.metadata.name = std::move(name);
  cq.cohort_name = std::move(cohort);
  cq.queueing_strategy = strategy;
  cq.namespace_selector = LabelSelector{};
  ResourceGroup group;
  group.covered_resources = {"nvidia.com/gpu"};
  for (const auto& [flavor, gpus] : flavors) {
    group.flavors.push_back(FlavorQuotas{
        flavor, {ResourceQuota{"nvidia.com/gpu", Quantity::from_units(gpus), {}, {}}}});
  }
  cq.resource_groups.push_back(std::move(group));
  return cq;
}

Workload gpu_workload(std::string name, int pods, int gpus_per_pod, TimeMs created,
                      std::int32_t priority = 0) {
  Workload wl;
  wl.metadata.namespace_ = "team-a";
  wl.metadata.name = std::move(name);
  wl.metadata.uid = "uid-" + wl.metadata.name;
  wl.metadata.creation_ms = created;
  wl.queue_name = "team-a";
  wl.priority = priority;
  PodSet ps;
  ps.name = "main";
  ps.count = pods;
  Container c;
  c.name = "c";
  c.requests["nvidia.com/gpu"] = Quantity::from_units(gpus_per_pod);
  ps.template_.spec.containers.push_back(c);
  wl.pod_sets.push_back(std::move(ps));
  return wl;
}

struct Events final : AdmissionSink {
  std::vector<std::string> log;
  std::vector<std::string> admitted_keys;
  std::vector<std::string> evicted_keys;
  void workload_event(const std::string& key, std::string_view type, std::string_view reason,
                      std::string message) override {
    log.push_back(key + " " + std::string(type) + " " + std::string(reason) + ": " + message);
  }
  void admitted(const std::string& key) override { admitted_keys.push_back(key); }
  void preempted(const std::string& victim, const std::string& /*preemptor*/,
                 const std::string& /*reason*/, const std::string& /*message*/) override {
    evicted_keys.push_back(victim);
  }
};

/// A Kueue with some ClusterQueues and one LocalQueue team-a/team-a pointing at `lq_target`.
struct Fixture {
  std::map<std::string, ClusterQueue> cqs;
  std::map<std::string, Cohort> cohorts;
  std::map<std::string, ResourceFlavor> flavors;
  std::map<std::string, Workload> workloads;
  QuotaTree cache;
  QueueManager queues;
  KueueConfiguration config;
  AdmissionState state;
  Events events;
  std::unique_ptr<AdmissionScheduler> scheduler;

  Fixture(std::vector<ClusterQueue> queues_in, const std::string& lq_target) {
    for (ClusterQueue& cq : queues_in) {
      for (const ResourceGroup& g : cq.resource_groups) {
        for (const FlavorQuotas& f : g.flavors) flavors[f.name].metadata.name = f.name;
      }
      queues.set_cluster_queue(cq.metadata.name, cq.queueing_strategy);
      cqs[cq.metadata.name] = std::move(cq);
    }
    queues.set_local_queue("team-a/team-a", lq_target);
    cache = QuotaTree::build(cqs, cohorts);
    state.workloads = &workloads;
    state.cache = &cache;
    state.queues = &queues;
    state.flavors = &flavors;
    state.config = &config;
    state.namespace_labels = [](const std::string& ns) -> std::optional<Labels> {
      return Labels{{"kubernetes.io/metadata.name", ns}};
    };
    scheduler = std::make_unique<AdmissionScheduler>(state, events);
  }

  void add(Workload wl, TimeMs now = 0) {
    const std::string key = wl.metadata.namespace_ + "/" + wl.metadata.name;
    workloads[key] = std::move(wl);
    queues.add_or_update("team-a/team-a", scheduler->queued(key, workloads[key], now));
  }

  int run(TimeMs now) {
    int cycles = 0;
    while (scheduler->schedule(now)) ++cycles;
    return cycles;
  }
};

TEST_CASE("Kueue admits what fits and leaves the rest pending with its message", "[kueue]") {
  Fixture f({gpu_queue("research", "", {{"a100", 8}})}, "research");
  f.add(gpu_workload("first", 2, 2, 0));   // 4 GPUs
  f.add(gpu_workload("second", 3, 2, 1));  // 6 GPUs: 2 more than what is left
  f.run(5'000);

  const Workload& first = f.workloads.at("team-a/first");
  CHECK(is_admitted(first));
  REQUIRE(first.admission);
  CHECK(first.admission->cluster_queue == "research");
  CHECK(first.admission->pod_set_assignments.at(0).flavors.at("nvidia.com/gpu") == "a100");
  CHECK(find_condition(first.conditions, kQuotaReserved)->message ==
        "Quota reserved in ClusterQueue research");

  const Workload& second = f.workloads.at("team-a/second");
  CHECK_FALSE(is_admitted(second));
  const Condition* reserved = find_condition(second.conditions, kQuotaReserved);
  REQUIRE(reserved != nullptr);
  CHECK(reserved->status == "False");
  CHECK(reserved->reason == "Pending");
  CHECK(reserved->message ==
        "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in "
        "flavor a100, 2 more needed");
  CHECK(f.cache.cluster_queue("research")->resources.used({"a100", "nvidia.com/gpu"}) == Amount(4));

  REQUIRE(f.events.log.size() == 3);
  CHECK(f.events.log[0] ==
        "team-a/first Normal QuotaReserved: Quota reserved in ClusterQueue research, wait time "
        "since queued was 5s");
  CHECK(f.events.log[1] ==
        "team-a/first Normal Admitted: Admitted by ClusterQueue research, wait time since "
        "reservation was 0s");
  CHECK(f.events.log[2] ==
        "team-a/second Warning Pending: couldn't assign flavors to pod set main: insufficient "
        "unused quota for nvidia.com/gpu in flavor a100, 2 more needed");
}

TEST_CASE("With admission checks Kueue reserves quota and leaves the checks Pending",
          "[kueue][admission-checks]") {
  // scheduler.go prepareWorkload: no Admitted condition while the workload lacks the checks
  // its flavors need, and no Admitted event; the workload controller adds them as Pending.
  ClusterQueue cq = gpu_queue("research", "", {{"a100", 8}});
  cq.admission_checks = {{"prov", {}}, {"only-h100", {"h100"}}};
  Fixture f({cq}, "research");
  f.state.cluster_queues = &f.cqs;
  f.add(gpu_workload("first", 2, 2, 0));
  f.run(3'000);

  const Workload& wl = f.workloads.at("team-a/first");
  CHECK(has_quota_reservation(wl));
  CHECK_FALSE(is_admitted(wl));
  CHECK(find_condition(wl.conditions, kAdmitted) == nullptr);
  REQUIRE(wl.admission_checks.size() == 1);  // only-h100 is not on the admission's flavor
  CHECK(wl.admission_checks[0].name == "prov");
  CHECK(wl.admission_checks[0].state == "Pending");
  CHECK(wl.admission_checks[0].last_transition_time == 3'000);
  CHECK(f.events.admitted_keys == std::vector<std::string>{"team-a/first"});
  REQUIRE(f.events.log.size() == 1);
  CHECK(f.events.log[0] ==
        "team-a/first Normal QuotaReserved: Quota reserved in ClusterQueue research, wait time "
        "since queued was 3s");
  CHECK(f.cache.cluster_queue("research")->resources.used({"a100", "nvidia.com/gpu"}) == Amount(4));
}

TEST_CASE("Kueue never admits past the maximum capacity and says so", "[kueue]") {
  Fixture f({gpu_queue("research", "", {{"a100", 8}})}, "research");
  f.add(gpu_workload("huge", 5, 2, 0));  // 10 GPUs against a quota of 8
  f.run(0);
  const Condition* reserved =
      find_condition(f.workloads.at("team-a/huge").conditions, kQuotaReserved);
  REQUIRE(reserved != nullptr);
  CHECK(reserved->message ==
        "couldn't assign flavors to pod set main: insufficient quota for nvidia.com/gpu in flavor "
        "a100, previously considered podsets requests (0) + current podset request (10) > maximum "
        "capacity (8)");
}

TEST_CASE("Kueue takes the next flavor and names the ones considered", "[kueue]") {
  Fixture f({gpu_queue("research", "", {{"h100", 4}, {"a100", 8}})}, "research");
  f.add(gpu_workload("train", 3, 2, 0));  // 6 GPUs: more than h100's 4
  f.run(0);
  const Workload& wl = f.workloads.at("team-a/train");
  REQUIRE(wl.admission);
  CHECK(wl.admission->pod_set_assignments.at(0).flavors.at("nvidia.com/gpu") == "a100");
  REQUIRE_FALSE(f.events.log.empty());
  CHECK(f.events.log[0] ==
        "team-a/train Normal QuotaReserved: Quota reserved in ClusterQueue research, wait time "
        "since queued was 0s; Flavors considered: main: h100(NoFit;insufficient quota for "
        "nvidia.com/gpu in flavor h100, previously considered podsets requests (0) + current "
        "podset request (6) > maximum capacity (4))");
}

TEST_CASE("Kueue borrows unused quota of the cohort", "[kueue]") {
  Fixture f({gpu_queue("research", "ai", {{"a100", 4}}), gpu_queue("prod", "ai", {{"a100", 4}})},
            "research");
  f.add(gpu_workload("big", 3, 2, 0));  // 6 GPUs: 2 borrowed from prod's quota
  f.run(0);
  CHECK(is_admitted(f.workloads.at("team-a/big")));
  // Without lending limits every quota is pooled in the cohort (resource_node.go): the whole
  // usage counts there, against the cohort's 8.
  CHECK(f.cache.cohort("ai")->resources.used({"a100", "nvidia.com/gpu"}) == Amount(6));
  CHECK(f.cache.cluster_queue("prod")->available({"a100", "nvidia.com/gpu"}) == Amount(2));
}

TEST_CASE("StrictFIFO holds the queue behind its head, BestEffortFIFO does not", "[kueue]") {
  for (const QueueingStrategy strategy :
       {QueueingStrategy::StrictFIFO, QueueingStrategy::BestEffortFIFO}) {
    Fixture f({gpu_queue("research", "", {{"a100", 8}}, strategy)}, "research");
    f.add(gpu_workload("running", 3, 2, 0));  // 6 of 8
    f.run(0);
    f.add(gpu_workload("head", 2, 2, 1));   // 4: does not fit
    f.add(gpu_workload("small", 1, 1, 2));  // 1: fits
    f.run(10);
    const bool small_admitted = is_admitted(f.workloads.at("team-a/small"));
    if (strategy == QueueingStrategy::StrictFIFO) {
      CHECK_FALSE(small_admitted);
      CHECK(f.queues.pending("research") == 2);
    } else {
      CHECK(small_admitted);
      CHECK(f.queues.pending("research") == 1);
    }
  }
}

TEST_CASE("Higher priority goes first in its ClusterQueue", "[kueue]") {
  Fixture f({gpu_queue("research", "", {{"a100", 4}})}, "research");
  f.add(gpu_workload("low", 2, 2, 0, 10));
  f.add(gpu_workload("high", 2, 2, 5, 100));
  f.run(10);
  CHECK(is_admitted(f.workloads.at("team-a/high")));
  CHECK_FALSE(is_admitted(f.workloads.at("team-a/low")));
}

TEST_CASE("A ClusterQueue selecting no namespace admits nothing", "[kueue]") {
  ClusterQueue cq = gpu_queue("research", "", {{"a100", 8}});
  cq.namespace_selector.reset();  // null: no namespace
  Fixture f({cq}, "research");
  f.add(gpu_workload("w", 1, 1, 0));
  f.run(0);
  CHECK(find_condition(f.workloads.at("team-a/w").conditions, kQuotaReserved)->message ==
        "workload namespace doesn't match ClusterQueue selector");
}

TEST_CASE("Workload names are Kueue's: kind, owner name and a SHA-1 suffix", "[kueue]") {
  CHECK(sha1_hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d");
  CHECK(sha1_hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  // SHA-1("Job\nbatch\ntrain\nuid-1") = a6870eea...
  CHECK(workload_name_for_owner("train", "uid-1", "Job", "batch") == "job-train-a6870");
  const std::string long_name(300, 'x');
  CHECK(workload_name_for_owner(long_name, "u", "Job", "batch").size() == 253);
}

}  // namespace
}  // namespace gpusched::kueue
