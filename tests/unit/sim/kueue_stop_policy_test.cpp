// A stopped LocalQueue or ClusterQueue in a replay (lib/sim/kueue_controller.cpp), ported from
// Kueue v0.19.2's pkg/controller/core/workload_controller_eviction_test.go ("should set the
// Evicted condition with ClusterQueueStopped / LocalQueueStopped reason when the StopPolicy is
// HoldAndDrain"), workload_controller_requeue_test.go ("should set the WorkloadRequeued
// condition to true on ClusterQueue / LocalQueue started") and
// pkg/controller/jobs/job/job_controller_test.go ("when workload is evicted due to cluster /
// local queue stopped, job gets suspended").
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"
#include "unit/sim/kueue_one_queue.hpp"

namespace gpusched {
namespace {

/// One 8-GPU node, the ClusterQueue `cq` (8 GPUs) and its LocalQueue ns/lq, a Job `job` admitted
/// at 0s, the ClusterQueue's (`kind` ClusterQueue) or the LocalQueue's stopPolicy set to `policy`
/// at 1m and back to None at 2m, replayed until `until`.
SimulationResult run(const std::string& kind, const std::string& policy, const std::string& until) {
  const std::string target =
      kind == "ClusterQueue" ? R"("name": "cq")" : R"("namespace": "ns", "name": "lq")";
  const std::string text =
      R"({"name": "stop", "scheduler": {"seed": 1}, "until": ")" + until + R"(", "cluster": [)" +
      testing::kueue_one_queue("8", 8, R"({"gpusched.io/run-duration": "1h"})") + R"(],
    "timeline": [
      {"at": "1m", "patch": {"kind": ")" +
      kind + R"(", )" + target + R"(, "merge": {"spec": {"stopPolicy": ")" + policy + R"("}}}},
      {"at": "2m", "patch": {"kind": ")" +
      kind + R"(", )" + target + R"(, "merge": {"spec": {"stopPolicy": "None"}}}}]})";
  return simulate(io::parse_scenario(text, "stop.json"));
}

const WorkloadRecord& workload(const SimulationResult& result) {
  REQUIRE(result.workloads.size() == 1);
  return result.workloads.front();
}

const kueue::Condition& condition(const WorkloadRecord& wl, const std::string& type) {
  auto it = std::find_if(wl.conditions.begin(), wl.conditions.end(),
                         [&](const kueue::Condition& c) { return c.type == type; });
  REQUIRE(it != wl.conditions.end());
  return *it;
}

bool has_event(const SimulationResult& result, const std::string& object, const std::string& reason,
               const std::string& message) {
  return std::any_of(result.events.begin(), result.events.end(), [&](const EventRecord& e) {
    return e.object.rfind(object, 0) == 0 && e.reason == reason && e.message == message;
  });
}

}  // namespace

TEST_CASE("HoldAndDrain on the ClusterQueue evicts its admitted workload until it is started",
          "[sim][kueue][stop-policy]") {
  const SimulationResult stopped = run("ClusterQueue", "HoldAndDrain", "90s");
  const WorkloadRecord& wl = workload(stopped);
  CHECK_FALSE(wl.admitted);
  const kueue::Condition& evicted = condition(wl, "Evicted");
  CHECK(evicted.status == "True");
  CHECK(evicted.reason == "ClusterQueueStopped");
  CHECK(evicted.message == "The ClusterQueue is stopped");
  CHECK(evicted.last_transition_time == 60'000);
  // The Job reconciler requeues it with Requeued=False: only a preemption requeues with True.
  const kueue::Condition& requeued = condition(wl, "Requeued");
  CHECK(requeued.status == "False");
  CHECK(requeued.reason == "ClusterQueueStopped");
  CHECK(requeued.message == "The ClusterQueue is stopped");
  // Then the workload controller's getQueueBlocker.
  const kueue::Condition& reserved = condition(wl, "QuotaReserved");
  CHECK(reserved.status == "False");
  CHECK(reserved.reason == "Inadmissible");
  CHECK(reserved.message == "ClusterQueue cq is inactive");
  CHECK(has_event(stopped, "Workload/ns/", "EvictedDueToClusterQueueStopped",
                  "The ClusterQueue is stopped"));
  CHECK(has_event(stopped, "Job/ns/job", "Stopped", "The ClusterQueue is stopped"));

  const SimulationResult started = run("ClusterQueue", "HoldAndDrain", "150s");
  const WorkloadRecord& again = workload(started);
  CHECK(again.admitted);
  CHECK(again.admitted_at == TimeMs{120'000});
  const kueue::Condition& restarted = condition(again, "Requeued");
  CHECK(restarted.status == "True");
  CHECK(restarted.reason == "ClusterQueueRestarted");
  CHECK(restarted.message == "The ClusterQueue was restarted after being stopped");
  CHECK(restarted.last_transition_time == 120'000);
}

TEST_CASE("HoldAndDrain on the LocalQueue evicts its admitted workload until it is started",
          "[sim][kueue][stop-policy]") {
  const SimulationResult stopped = run("LocalQueue", "HoldAndDrain", "90s");
  const WorkloadRecord& wl = workload(stopped);
  CHECK_FALSE(wl.admitted);
  const kueue::Condition& evicted = condition(wl, "Evicted");
  CHECK(evicted.reason == "LocalQueueStopped");
  CHECK(evicted.message == "The LocalQueue is stopped");
  const kueue::Condition& requeued = condition(wl, "Requeued");
  CHECK(requeued.status == "False");
  CHECK(requeued.reason == "LocalQueueStopped");
  CHECK(condition(wl, "QuotaReserved").message == "LocalQueue lq is inactive");
  CHECK(has_event(stopped, "Workload/ns/", "EvictedDueToLocalQueueStopped",
                  "The LocalQueue is stopped"));
  CHECK(has_event(stopped, "Job/ns/job", "Stopped", "The LocalQueue is stopped"));

  const SimulationResult started = run("LocalQueue", "HoldAndDrain", "150s");
  const WorkloadRecord& again = workload(started);
  CHECK(again.admitted);
  const kueue::Condition& restarted = condition(again, "Requeued");
  CHECK(restarted.status == "True");
  CHECK(restarted.reason == "LocalQueueRestarted");
  CHECK(restarted.message == "The LocalQueue was restarted after being stopped");
}

TEST_CASE("Hold keeps the admitted workload", "[sim][kueue][stop-policy]") {
  for (const std::string kind : {"ClusterQueue", "LocalQueue"}) {
    const SimulationResult stopped = run(kind, "Hold", "90s");
    const WorkloadRecord& wl = workload(stopped);
    CHECK(wl.admitted);
    CHECK(wl.admitted_at == TimeMs{0});
    CHECK(std::none_of(wl.conditions.begin(), wl.conditions.end(),
                       [](const kueue::Condition& c) { return c.type == "Evicted"; }));
  }
}

}  // namespace gpusched
