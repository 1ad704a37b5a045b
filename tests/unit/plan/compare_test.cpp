// compare: one workload under several scheduler configurations, or on several clusters.
#include "gpusched/plan/compare.hpp"

#include <catch2/catch.hpp>

#include <sstream>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/scheduler_config.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::plan {
namespace {

const std::string kRoot = std::string(GPUSCHED_SOURCE_DIR);

std::vector<Variant> spread_and_pack() {
  const Scenario scenario = io::load_scenario(kRoot + "/scenarios/gpu-fragmentation-spread.json");
  std::vector<Variant> variants;
  for (const char* name : {"least-allocated", "most-allocated"}) {
    Variant variant{name, scenario};
    variant.scenario.scheduler = io::load_scheduler_config(
        kRoot + "/examples/planning/" + name + ".yaml", scenario.scheduler);
    variants.push_back(std::move(variant));
  }
  return variants;
}

TEST_CASE("bin-packing GPUs lets the 8-GPU pod start at once", "[plan][compare]") {
  const Comparison comparison = compare(spread_and_pack(), 2, {});
  CHECK(comparison.names == std::vector<std::string>{"least-allocated", "most-allocated"});
  REQUIRE(comparison.metrics.size() == 2);
  CHECK(report::find_metric(comparison.metrics[0], "wait.max")->value == 3'590'000);
  CHECK(report::find_metric(comparison.metrics[1], "wait.max")->value == 0);
  CHECK(report::find_metric(comparison.metrics[1], "time")->value == 2 * 3'600'000 + 10'000);
  const auto train =
      std::find_if(comparison.differing.begin(), comparison.differing.end(),
                   [](const PodOutcomes& pod) { return pod.pod == "default/train"; });
  REQUIRE(train != comparison.differing.end());
  CHECK(train->outcomes[0] == "Succeeded on a100-0 from 1h");
  CHECK(train->outcomes[1] == "Succeeded on a100-1 from 10s");
  // The same run twice differs in nothing.
  const std::vector<Variant> twice{spread_and_pack()[0], spread_and_pack()[0]};
  CHECK(compare(twice, 1, {}).differing.empty());
}

TEST_CASE("the comparison table and JSON", "[plan][compare]") {
  const Comparison comparison = compare(spread_and_pack(), 1, {});
  std::ostringstream table;
  write_comparison_table(table, comparison);
  CHECK_THAT(table.str(), Catch::Contains("METRIC") && Catch::Contains("least-allocated") &&
                              Catch::Contains("59m50s") &&
                              Catch::Contains("Pods whose outcome differs: 3"));
  std::ostringstream json;
  write_comparison_json(json, comparison);
  CHECK_THAT(json.str(), Catch::Contains(R"("most-allocated": "Succeeded on a100-1 from 10s")"));
  std::ostringstream csv;
  write_comparison_csv(csv, comparison);
  CHECK(csv.str().starts_with("variant,"));
  CHECK_THAT(csv.str(),
             Catch::Contains("\nleast-allocated,") && Catch::Contains("\nmost-allocated,"));
}

TEST_CASE("scheduler configuration files", "[plan][compare][io]") {
  const test::TempDir dir;
  SchedulerConfig base;
  base.seed = 42;
  SECTION("seed and version come from the scenario unless the file sets them") {
    const SchedulerConfig config =
        io::load_scheduler_config(dir.write("c.yaml",
                                            "apiVersion: kubescheduler.config.k8s.io/v1\n"
                                            "kind: KubeSchedulerConfiguration\nparallelism: 16\n"
                                            "leaderElection: {leaderElect: false}\n"
                                            "percentageOfNodesToScore: 50\n"),
                                  base);
    CHECK(config.seed == 42);
    CHECK(config.percentage_of_nodes_to_score == 50);
    CHECK(io::load_scheduler_config(dir.write("s.yaml", "seed: 7\n"), base).seed == 7);
  }
  SECTION("wrong kind, version, extenders and unknown keys are refused with their place") {
    CHECK_THROWS_WITH(
        io::load_scheduler_config(dir.write("k.yaml", "kind: Pod\n"), base),
        Catch::Contains("k.yaml:1: /kind: kind \"Pod\" is not KubeSchedulerConfiguration"));
    CHECK_THROWS_WITH(
        io::load_scheduler_config(
            dir.write("v.yaml", "apiVersion: kubescheduler.config.k8s.io/v1beta3\n"), base),
        Catch::Contains("/apiVersion: apiVersion \"kubescheduler.config.k8s.io/v1beta3\""));
    CHECK_THROWS_WITH(
        io::load_scheduler_config(dir.write("e.yaml", "extenders:\n  - urlPrefix: http://x\n"),
                                  base),
        Catch::Contains("e.yaml:2: /extenders: gpusched does not model scheduler extenders"));
    CHECK_THROWS_WITH(io::load_scheduler_config(dir.write("u.yaml", "profilez: []\n"), base),
                      Catch::Contains("unknown key \"profilez\""));
    CHECK_THROWS_WITH(io::load_scheduler_config(dir.write("l.yaml", "- a\n"), base),
                      Catch::Contains("must be an object, got array"));
  }
}

TEST_CASE("two cluster variants: the device plugin preempts, DRA waits", "[plan][compare][dra]") {
  // The same node and pods on NVIDIA's device plugin and on its DRA driver (1.35): the serving
  // pod's Insufficient nvidia.com/gpu is resolved by preemption, its claim's "cannot allocate
  // all claims" is not, and the details say which devices and which message.
  const std::vector<Variant> variants{
      {"plugin", io::load_scenario(kRoot + "/scenarios/migrate-h100-device-plugin.json")},
      {"dra", io::load_scenario(kRoot + "/scenarios/migrate-h100-dra.json")}};
  const Comparison comparison = compare(variants, 2, {});
  REQUIRE(comparison.differing.size() == 2);
  const PodOutcomes& batch = comparison.differing[0];
  CHECK(batch.pod == "default/batch");
  CHECK(batch.outcomes == std::vector<std::string>{"absent", "Running on h100-0 from 0s"});
  CHECK(batch.details[0].empty());
  CHECK_THAT(batch.details[1],
             Catch::Matches("claim batch-gpu-[a-z0-9]{5}: gpu.nvidia.com/h100-0/gpu-0,"
                            "gpu.nvidia.com/h100-0/gpu-1"));
  const PodOutcomes& serving = comparison.differing[1];
  CHECK(serving.pod == "default/serving");
  CHECK(serving.outcomes == std::vector<std::string>{"Running on h100-0 from 40s", "Pending"});
  CHECK_THAT(serving.details[0], Catch::Matches("nvidia.com/gpu: GPU-[0-9a-f-]{36}"));
  CHECK(serving.details[1] ==
        "0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, "
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.");
  CHECK(report::find_metric(comparison.metrics[0], "preemptions")->value == 1);
  CHECK(report::find_metric(comparison.metrics[1], "preemptions")->value == 0);
  std::ostringstream table;
  write_comparison_table(table, comparison);
  CHECK_THAT(table.str(), Catch::Contains("POD               VARIANT   DETAIL\n") &&
                              Catch::Contains("default/serving   dra       0/1 nodes are"));
  std::ostringstream json;
  write_comparison_json(json, comparison);
  CHECK_THAT(json.str(), Catch::Contains(R"("details": {)") &&
                             Catch::Contains(R"("plugin": "")"));
}

TEST_CASE("pod_detail: preemptor, message, devices and claims", "[plan][compare]") {
  PodRecord record;
  record.pod.metadata.name = "p";
  record.pod.metadata.namespace_ = "default";
  CHECK(pod_detail(record, {}).empty());
  record.preempted_by = "default/q";
  record.pod.status.conditions.push_back(
      PodCondition{"PodScheduled", "False", "Unschedulable", "0/1 nodes are available.", 0});
  CHECK(pod_detail(record, {}) == "preempted by default/q; 0/1 nodes are available.");
  // A bound pod's PodScheduled message is history: not repeated.
  record.pod.spec.node_name = "n1";
  record.preempted_by.clear();
  record.devices["nvidia.com/gpu"] = {"GPU-a", "GPU-b"};
  ResourceClaimRecord mine{"default", "p-gpu-abcde", "Pod/default/p", true, "n1",
                           {{"gpu", "gpu.example.com", "n1", "gpu-0"}}, {"Pod/default/p"}};
  ResourceClaimRecord other = mine;
  other.reserved_for = {"Pod/default/q"};
  CHECK(pod_detail(record, {other, mine}) ==
        "nvidia.com/gpu: GPU-a,GPU-b; claim p-gpu-abcde: gpu.example.com/n1/gpu-0");
}

}  // namespace
}  // namespace gpusched::plan
