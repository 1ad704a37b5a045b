// Queue wait: creation to first bind, nearest-rank percentiles, per priority class and
// namespace; pods never bound are counted apart.
#include "gpusched/report/metrics.hpp"

#include <catch2/catch.hpp>

#include <string>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched::report {
namespace {

TEST_CASE("queue wait of pods queued behind one GPU", "[report][metrics]") {
  // One GPU; a Job runs three 1-GPU pods of 60 s one after another (0, 60 s and 120 s of
  // waiting); a pod of another class and namespace asks for two GPUs and never gets a node.
  const std::string text = R"({"name": "wait", "until": "10m", "cluster": [
      {"kind": "Node", "metadata": {"name": "n"},
       "status": {"allocatable": {"cpu": "8", "nvidia.com/gpu": "1"}}},
      {"kind": "PriorityClass", "metadata": {"name": "batch"}, "value": 10},
      {"kind": "Job", "metadata": {"name": "train"},
       "spec": {"parallelism": 3, "completions": 3,
                "template": {"metadata": {"annotations": {"gpusched.io/run-duration": "60s"}},
                             "spec": {"restartPolicy": "Never", "priorityClassName": "batch",
                                      "containers": [{"name": "c",
                                        "resources": {"limits": {"nvidia.com/gpu": 1}}}]}}}},
      {"kind": "Pod", "metadata": {"name": "big", "namespace": "research"},
       "spec": {"containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": 2}}}]}}]})";
  const SimulationResult result = simulate(io::parse_scenario(text, "wait.json"));
  const QueueWait wait = queue_wait(result);
  CHECK(wait.all.pods == 3);
  CHECK(wait.all.p50 == 60'000);
  CHECK(wait.all.p95 == 120'000);
  CHECK(wait.all.p99 == 120'000);
  CHECK(wait.all.max == 120'000);
  REQUIRE(wait.by_priority_class.contains("batch"));
  CHECK(wait.by_priority_class.at("batch").pods == 3);
  CHECK_FALSE(wait.by_priority_class.contains(""));  // the only pod without a class never ran
  REQUIRE(wait.by_namespace.contains("default"));
  CHECK(wait.by_namespace.at("default").max == 120'000);
  CHECK_FALSE(wait.by_namespace.contains("research"));
  CHECK(wait.never_bound == 1);
  CHECK(wait.longest_pending == 600'000);
}

TEST_CASE("nearest-rank percentiles over a hundred waits", "[report][metrics]") {
  SimulationResult result;
  for (int i = 1; i <= 100; ++i) {
    PodRecord record;
    record.pod.metadata.namespace_ = "default";
    record.created = 0;
    record.scheduled = i * 1000;  // waits of 1 s .. 100 s
    result.pods.push_back(std::move(record));
  }
  const QueueWait wait = queue_wait(result);
  CHECK(wait.all.p50 == 50'000);
  CHECK(wait.all.p95 == 95'000);
  CHECK(wait.all.p99 == 99'000);
  CHECK(wait.all.max == 100'000);
  CHECK(wait.never_bound == 0);
  CHECK(queue_wait(SimulationResult{}).all.pods == 0);
}

}  // namespace
}  // namespace gpusched::report
