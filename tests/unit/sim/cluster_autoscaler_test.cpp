// The cluster autoscaler model: scale-up for unschedulable pods within maxCount, nodes on their
// way counted, scale-down of empty nodes after the unneeded time, and a loop that ends.
#include <catch2/catch.hpp>

#include <string>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

std::string autoscaled(const std::string& autoscaling, const std::string& pods,
                       std::int32_t count = 0, const std::string& extra = "") {
  return R"({"name": "ca", "scheduler": {"seed": 1}, )" + extra + R"("nodePools": [
      {"count": )" +
         std::to_string(count) + R"(, "autoscaling": )" + autoscaling + R"(,
       "provisioning": {"launchDelay": "1m"},
       "node": {"kind": "Node", "metadata": {"name": "g"},
                "status": {"capacity": {"cpu": "16", "memory": "64Gi", "nvidia.com/gpu": "4"}}}}],
    "cluster": [)" +
         pods + "]}";
}

std::string job(int pods, int gpus, const std::string& duration) {
  return R"({"kind": "Job", "metadata": {"name": "j"}, "spec": {"parallelism": )" +
         std::to_string(pods) + R"(, "completions": )" + std::to_string(pods) +
         R"(, "template": {"metadata": {"annotations": {"gpusched.io/run-duration": ")" + duration +
         R"("}}, "spec": {"restartPolicy": "Never", "containers": [{"name": "c",
           "resources": {"limits": {"nvidia.com/gpu": )" +
         std::to_string(gpus) + "}}}]}}}}";
}

std::size_t bound_pods(const SimulationResult& result) {
  std::size_t n = 0;
  for (const PodRecord& pod : result.pods) n += pod.scheduled ? 1 : 0;
  return n;
}

TEST_CASE("pods that fit together share a new node; nodes leave once empty long enough",
          "[sim][autoscaler]") {
  // Four 2-GPU pods pack onto two 4-GPU nodes.
  const SimulationResult result =
      simulate(io::parse_scenario(autoscaled(R"({"maxCount": 5})", job(4, 2, "20m")), "ca.json"));
  REQUIRE(result.provisioning.size() == 2);
  for (const NodeProvisioning& node : result.provisioning) {
    CHECK(node.requested == 10'000);   // the loop's tick after the scheduler marked the pods
    CHECK(node.registered == 70'000);  // + launchDelay
    // The pods start a second later (their backoff), run 20 minutes and end at 21m11s; the next
    // tick (21m20s) finds the nodes empty, and 10 minutes later they go.
    CHECK(node.removed == (21 * 60 + 20) * 1000 + 10 * 60'000);
  }
  CHECK(bound_pods(result) == 4);
  CHECK(result.time == (31 * 60 + 20) * 1000);
}

TEST_CASE("maxCount bounds the scale-up and the loop stops when nothing can change",
          "[sim][autoscaler]") {
  // Three 4-GPU pods, at most two nodes: one pod waits for a node to empty.
  const SimulationResult result =
      simulate(io::parse_scenario(autoscaled(R"({"maxCount": 2})", job(3, 4, "10m")), "ca.json"));
  CHECK(result.provisioning.size() == 2);
  CHECK(bound_pods(result) == 3);
  // A pod no template can hold never triggers anything, and the run still ends.
  const SimulationResult too_big =
      simulate(io::parse_scenario(autoscaled(R"({"maxCount": 2})", job(1, 8, "10m")), "big.json"));
  CHECK(too_big.provisioning.empty());
  CHECK(bound_pods(too_big) == 0);
  CHECK(too_big.time < 60'000);
}

TEST_CASE("minCount keeps empty nodes, and later scale-ups take new names", "[sim][autoscaler]") {
  const std::string extra = R"("clusterAutoscaler": {"scaleDownUnneededTime": "1m",
      "scaleDownDelayAfterAdd": "0s"}, )";
  const SimulationResult kept = simulate(io::parse_scenario(
      autoscaled(R"({"minCount": 1, "maxCount": 3})", job(2, 4, "5m"), 1, extra), "min.json"));
  // g-0 (the pool's count) and g-1 (added for the second pod) both end empty; the one empty the
  // longest goes, and minCount keeps the other.
  REQUIRE(kept.provisioning.size() == 2);
  CHECK(kept.provisioning[0].node == "g-0");
  CHECK(kept.provisioning[0].removed);
  CHECK_FALSE(kept.provisioning[1].removed);
  // A node added after one was removed takes a new name: names are never reused.
  const std::string text = autoscaled(R"({"maxCount": 3})", job(1, 4, "2m"), 0, extra);
  std::string with_late = text;
  with_late.insert(with_late.rfind('}'), R"(, "timeline": [{"at": "30m", "apply": {"kind": "Pod",
      "metadata": {"name": "late"}, "spec": {"restartPolicy": "Never", "containers": [{"name": "c",
      "resources": {"limits": {"nvidia.com/gpu": 4}}}]}}}])");
  const SimulationResult two = simulate(io::parse_scenario(with_late, "waves.json"));
  REQUIRE(two.provisioning.size() == 2);
  CHECK(two.provisioning[0].node == "g-0");
  CHECK(two.provisioning[0].removed);
  CHECK(two.provisioning[1].node == "g-1");
  CHECK(two.provisioning[1].requested > 30 * 60'000);
  CHECK(bound_pods(two) == 2);
}

TEST_CASE("the loop skips idle ticks and honours newPodScaleUpDelay", "[sim][autoscaler]") {
  // A pod running a year: ticking every 10 s would be three million loops; the loop only runs
  // when something it watches changes, so this replays in milliseconds.
  const SimulationResult year = simulate(
      io::parse_scenario(autoscaled(R"({"maxCount": 1})", job(1, 4, "8760h")), "year.json"));
  REQUIRE(year.provisioning.size() == 1);
  CHECK(year.provisioning[0].removed ==
        10'000 + 60'000 + 1'000 + 8760LL * 3'600'000 + 9'000 + 10 * 60'000);
  // The pod must be 45 s old before it counts: the tick at 50 s scales up.
  const SimulationResult delayed = simulate(
      io::parse_scenario(autoscaled(R"({"maxCount": 1})", job(1, 4, "1m"), 0,
                                    R"("clusterAutoscaler": {"newPodScaleUpDelay": "45s"}, )"),
                         "delay.json"));
  REQUIRE(delayed.provisioning.size() == 1);
  CHECK(delayed.provisioning[0].requested == 50'000);
}

TEST_CASE("autoscaling settings are validated with their place", "[sim][autoscaler][io]") {
  auto error = [](const std::string& text) {
    try {
      (void)io::parse_scenario(text, "ca.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(error(autoscaled(R"({"minCount": 2, "maxCount": 3})", "", 1)),
             Catch::Contains(
                 "/nodePools/0/autoscaling: the pool's count 1 must be from minCount to maxCount"));
  CHECK_THAT(
      error(autoscaled(R"({"minCount": 4, "maxCount": 3})", "", 4)),
      Catch::Contains("/nodePools/0/autoscaling/maxCount: maxCount must be at least minCount"));
  CHECK_THAT(error(autoscaled(R"({"minCount": 0})", "")),
             Catch::Contains("autoscaling: missing required key \"maxCount\""));
  CHECK_THAT(error(autoscaled(R"({"maxCount": 100001})", "")),
             Catch::Contains("must be between 0 and 100000"));
  CHECK_THAT(error(autoscaled(R"({"maxCount": 2})", "", 0,
                              R"("clusterAutoscaler": {"scanInterval": "0s"}, )")),
             Catch::Contains("/clusterAutoscaler/scanInterval: scanInterval must be above 0"));
  CHECK_THAT(error(autoscaled(R"({"maxCount": 2})", "", 0,
                              R"("clusterAutoscaler": {"expander": "random"}, )")),
             Catch::Contains("unknown key \"expander\""));
  std::string reserved = autoscaled(R"({"maxCount": 2})", "");
  reserved.insert(reserved.find(R"("provisioning")"), R"("reservation": {"start": "0s"}, )");
  CHECK_THAT(error(reserved), Catch::Contains("a pool with a reservation does not autoscale"));
  // A library caller's count outside the bounds is refused by the simulation itself.
  Scenario outside = io::parse_scenario(autoscaled(R"({"maxCount": 2})", ""), "ca.json");
  outside.node_pools[0].count = 3;
  CHECK_THROWS_WITH(
      simulate(outside),
      Catch::Contains("starts with 3 nodes, outside its autoscaling minCount and maxCount"));
  // A cluster Node named like a node the pool may add later is a duplicate.
  CHECK_THAT(
      error(autoscaled(R"({"maxCount": 3})", R"({"kind": "Node", "metadata": {"name": "g-2"}})")),
      Catch::Contains("duplicate Node \"g-2\""));
}

}  // namespace
}  // namespace gpusched
