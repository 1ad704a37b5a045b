// The Simulator: stepping to the end gives simulate()'s result byte for byte, the observer sees
// every binding, event and preemption as it happens, and the one-shot questions answer from the
// cluster now without changing the replay.
#include <catch2/catch.hpp>

#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/report/writers.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

const std::string kScenarios = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/";

std::string json_of(const SimulationResult& result) {
  std::ostringstream out;
  report::write_json(out, result);
  return out.str();
}

// A pod asking for `gpus` whole GPUs (a limit alone, as users write it).
Pod gpu_pod(const std::string& name, std::int64_t gpus, const std::string& priority_class = "") {
  Pod pod;
  pod.metadata.name = name;
  Container c;
  c.name = "cuda";
  c.limits[std::string(resource::kGpu)] = Quantity::from_units(gpus);
  pod.spec.containers = std::vector<Container>{c};
  pod.spec.priority_class_name = priority_class;
  return pod;
}

// Nodes of `gpus` GPUs and 64 CPUs each, and pods holding `used[i]` of node i's GPUs and 4
// CPUs per GPU, bound in the file.
Scenario gpu_cluster(std::int64_t gpus, const std::vector<int>& used) {
  std::string cluster;
  for (std::size_t i = 0; i < used.size(); ++i) {
    const std::string node = "n" + std::to_string(i);
    cluster +=
        (i ? "," : "") + std::string(R"({"kind": "Node", "metadata": {"name": ")") + node +
        R"("}, "status": {"capacity": {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": ")" +
        std::to_string(gpus) + R"("}}})";
    if (used[i] > 0) {
      cluster += R"(, {"kind": "Pod", "metadata": {"name": "on-)" + node +
                 R"("}, "spec": {"nodeName": ")" + node +
                 R"(", "containers": [{"name": "c", "resources": {"limits": {"cpu": )" +
                 std::to_string(4 * used[i]) + R"(, "nvidia.com/gpu": )" + std::to_string(used[i]) +
                 "}}}]}}";
    }
  }
  return io::parse_scenario(
      R"({"name": "fits", "scheduler": {"seed": 3}, "cluster": [)" + cluster + "]}", "fits.json");
}

TEST_CASE("stepping a Simulator to the end gives simulate()'s result", "[sim][simulator]") {
  for (const char* name : {"serving-preempts-batch.json", "job-two-waves.json",
                           "reservation-slow-bringup.json", "autoscaler-gpu-burst.json"}) {
    INFO(name);
    const Scenario scenario = io::load_scenario(kScenarios + name);
    Simulator simulator(scenario);
    REQUIRE(simulator.next_time() == 0);
    std::size_t steps = 0;
    TimeMs last = -1;
    while (simulator.step()) {
      ++steps;
      CHECK(simulator.now() > last);  // each step is a later instant
      last = simulator.now();
    }
    CHECK(steps > 1);
    CHECK_FALSE(simulator.next_time());
    CHECK_FALSE(simulator.step());
    const SimulationResult stepped = simulator.finish();
    CHECK(json_of(stepped) == json_of(simulate(scenario)));
    // Misuse by the caller: an input error of the library call, not an internal one.
    CHECK_THROWS_AS(simulator.step(), InputError);
  }
}

TEST_CASE("an impossible action ends the Simulator", "[sim][simulator]") {
  const Scenario scenario = io::parse_scenario(
      R"({"name": "ghost", "cluster": [],
          "timeline": [{"at": "5s", "delete": {"kind": "Pod", "name": "ghost"}}]})",
      "ghost.json");
  Simulator simulator(scenario);
  CHECK(simulator.step());  // 0s
  CHECK_THROWS_WITH(simulator.step(),
                    Catch::Contains("/timeline/0: Pod \"default/ghost\" does not exist at 5s"));
  CHECK_THROWS_AS(simulator.step(), InputError);
  CHECK_THROWS_WITH(simulator.pods(),
                    "gpusched::Simulator: used after finish() or after an impossible action "
                    "ended the replay");
}

TEST_CASE("run_until stops at an instant and the view shows the cluster then", "[sim][simulator]") {
  Simulator simulator(io::load_scenario(kScenarios + "serving-preempts-batch.json"));
  simulator.run_until(60'000);
  CHECK(simulator.now() == 60'000);
  REQUIRE(simulator.next_time());
  CHECK(*simulator.next_time() > 60'000);
  const std::vector<PodRecord> pods = simulator.pods();
  REQUIRE(pods.size() == 2);
  // serving waits, nominated; trainer terminates on the node, still holding the GPU.
  CHECK(pods[0].pod.metadata.name == "serving");
  CHECK(pods[0].pod.status.nominated_node_name == "gpu-node");
  CHECK(pods[0].created == 60'000);
  CHECK_FALSE(pods[0].scheduled);
  CHECK(pods[1].pod.metadata.name == "trainer");
  CHECK(pods[1].terminating);
  const std::vector<NodeRecord> nodes = simulator.nodes();
  REQUIRE(nodes.size() == 1);
  CHECK(nodes[0].pods == std::vector<std::string>{"default/trainer"});
  CHECK(nodes[0].allocated.find(resource::kGpu)->second.value() == 1);
  simulator.run_until(90'000);
  CHECK(simulator.pods().size() == 1);
  CHECK(simulator.nodes()[0].pods == std::vector<std::string>{"default/serving"});
}

TEST_CASE("pod records carry their wait and their part in preemptions", "[sim][result]") {
  Scenario scenario = io::load_scenario(kScenarios + "serving-preempts-batch.json");
  scenario.until = 70'000;  // trainer still terminating
  const SimulationResult during = simulate(scenario);
  REQUIRE(during.pods.size() == 2);
  CHECK(during.pods[0].pod.metadata.name == "serving");
  CHECK(during.pods[0].preemptions == 1);
  CHECK_FALSE(during.pods[0].wait());
  CHECK(during.pods[1].preempted_by == "default/serving");
  CHECK(during.pods[1].preemptions == 0);
  CHECK(during.pods[1].wait() == 0);  // bound in the file when created
  scenario.until.reset();
  const SimulationResult after = simulate(scenario);
  REQUIRE(after.pods.size() == 1);  // trainer is gone
  CHECK(after.pods[0].preemptions == 1);
  CHECK(after.pods[0].wait() == 30'000);  // created at 1m, bound at 1m30s
  CHECK(after.pods[0].preempted_by.empty());
}

TEST_CASE("the observer sees each binding, preemption and event as it happens",
          "[sim][simulator]") {
  const Scenario scenario = io::load_scenario(kScenarios + "serving-preempts-batch.json");
  std::vector<Binding> bindings;
  std::vector<PreemptionRecord> preemptions;
  std::map<std::tuple<std::string, std::string, std::string>, EventRecord> latest;
  std::size_t event_calls = 0;
  SimulationOptions options;
  options.observer.bound = [&](const Binding& b) { bindings.push_back(b); };
  options.observer.preemption = [&](const PreemptionRecord& p) { preemptions.push_back(p); };
  options.observer.event = [&](const EventRecord& e) {
    ++event_calls;
    latest[{e.object, e.reason, e.message}] = e;
  };
  Simulator simulator(scenario, options);
  simulator.run_until(60'000);
  REQUIRE(preemptions.size() == 1);  // seen at 1m, before the end
  CHECK(preemptions[0].time == 60'000);
  CHECK(preemptions[0].preemptor == "default/serving");
  REQUIRE(preemptions[0].victims.size() == 1);
  CHECK(preemptions[0].victims[0].pod == "default/trainer");
  CHECK(bindings.empty());  // trainer was bound in the file, not by the scheduler
  const SimulationResult result = simulator.finish();
  REQUIRE(bindings.size() == 1);
  CHECK(bindings[0].time == 90'000);
  CHECK(bindings[0].pod == "default/serving");
  CHECK(bindings[0].node == "gpu-node");
  // The last call for each event carries what the result records.
  CHECK(event_calls >= result.events.size());
  REQUIRE(latest.size() == result.events.size());
  for (const EventRecord& e : result.events) {
    const EventRecord& seen = latest.at({e.object, e.reason, e.message});
    CHECK(seen.count == e.count);
    CHECK(seen.last_time == e.last_time);
  }
  CHECK(json_of(result) == json_of(simulate(scenario)));  // observing changes nothing
}

TEST_CASE("schedule_one gives the scheduler's message and each node's verdict",
          "[sim][simulator][one-shot]") {
  const Scenario scenario = io::load_scenario(kScenarios + "two-pods-one-gpu.json");
  Simulator simulator(scenario);
  simulator.run_until(0);
  const Placement placement = simulator.schedule_one(gpu_pod("third", 1));
  CHECK(placement.best.empty());
  CHECK(placement.message ==
        "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are "
        "available: 1 No preemption victims found for incoming pod.");
  CHECK(placement.nominated_node.empty());
  CHECK(placement.victims.empty());
  REQUIRE(placement.nodes.size() == 1);
  CHECK(placement.nodes[0].node == "gpu-node");
  CHECK_FALSE(placement.nodes[0].feasible);
  CHECK(placement.nodes[0].plugin == "NodeResourcesFit");
  CHECK(placement.nodes[0].reasons == std::vector<std::string>{"Insufficient nvidia.com/gpu"});
  // The question left the replay as it was.
  CHECK(json_of(simulator.finish()) == json_of(simulate(scenario)));
}

TEST_CASE("schedule_one ranks the feasible nodes and lists the ties",
          "[sim][simulator][one-shot]") {
  // NodeResourcesFit's default LeastAllocated weighs cpu and memory: the nodes with fewer CPUs
  // requested score higher.
  Simulator simulator(gpu_cluster(8, {6, 0, 0, 8}));
  const Placement placement = simulator.schedule_one(gpu_pod("probe", 2));
  CHECK(placement.message.empty());
  CHECK(placement.best == std::vector<std::string>{"n1", "n2"});
  REQUIRE(placement.nodes.size() == 4);
  CHECK(placement.nodes[0].feasible);
  CHECK(placement.nodes[1].feasible);
  CHECK(placement.nodes[1].score == placement.nodes[2].score);
  CHECK(placement.nodes[0].score < placement.nodes[1].score);
  CHECK_FALSE(placement.nodes[3].feasible);
  CHECK(placement.nodes[3].reasons == std::vector<std::string>{"Insufficient nvidia.com/gpu"});
}

TEST_CASE("schedule_one runs preemption as a dry run", "[sim][simulator][one-shot]") {
  const Scenario scenario = io::load_scenario(kScenarios + "serving-preempts-batch.json");
  Simulator simulator(scenario);
  simulator.run_until(30'000);
  const Placement high = simulator.schedule_one(gpu_pod("urgent", 1, "serving"));
  CHECK(high.best.empty());
  // Preemption succeeds, so the message has no "preemption:" part, as in the scenario at 1m.
  CHECK(high.message == "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
  CHECK(high.nominated_node == "gpu-node");
  CHECK(high.victims == std::vector<std::string>{"default/trainer"});
  const Placement low = simulator.schedule_one(gpu_pod("low", 1, "batch"));
  CHECK(low.message ==
        "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are "
        "available: 1 No preemption victims found for incoming pod.");
  CHECK(low.victims.empty());
  // Nothing was evicted: trainer still runs, and the rest of the replay is unchanged.
  const PodRecord trainer = simulator.pods().at(0);
  CHECK(trainer.pod.metadata.name == "trainer");
  CHECK_FALSE(trainer.terminating);
  for (const PodCondition& condition : trainer.pod.status.conditions)
    CHECK(condition.type != "DisruptionTarget");
  CHECK(json_of(simulator.finish()) == json_of(simulate(scenario)));
}

TEST_CASE("count_fits places copies one after another and leaves the cluster as it was",
          "[sim][simulator][one-shot]") {
  const Scenario scenario = gpu_cluster(8, {3, 8, 1});
  Simulator simulator(scenario);
  simulator.run_until(0);
  const FitCount two = simulator.count_fits(gpu_pod("replica", 2), 100);
  // n0 has 5 free (2 copies), n1 none, n2 7 free (3 copies).
  CHECK(two.count == 5);
  CHECK(two.per_node == std::vector<std::pair<std::string, std::int64_t>>{{"n0", 2}, {"n2", 3}});
  CHECK(two.stopped_by == "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
  const FitCount capped = simulator.count_fits(gpu_pod("replica", 1), 4);
  CHECK(capped.count == 4);
  CHECK(capped.stopped_by.empty());
  CHECK(simulator.count_fits(gpu_pod("replica", 1), 0).count == 0);
  CHECK(simulator.count_fits(gpu_pod("replica", 1), 1'000).count == 12);
  CHECK(simulator.count_fits(gpu_pod("big", 9), 10).count == 0);
  // Nothing stayed assumed.
  for (const NodeRecord& node : simulator.nodes()) CHECK(node.pods.size() <= 1);
  CHECK(json_of(simulator.finish()) == json_of(simulate(scenario)));
}

TEST_CASE("one-shot questions refuse invalid pods", "[sim][simulator][one-shot]") {
  Simulator simulator(gpu_cluster(8, {0}));
  Pod unequal = gpu_pod("unequal", 2);
  unequal.spec.containers.mut()[0].requests[std::string(resource::kGpu)] = Quantity::from_units(1);
  CHECK_THROWS_AS(simulator.schedule_one(unequal), InputError);
  Pod bound = gpu_pod("bound", 1);
  bound.spec.node_name = "n0";
  CHECK_THROWS_AS(simulator.schedule_one(bound), InputError);
  Pod other = gpu_pod("other", 1);
  other.spec.scheduler_name = "volcano";
  CHECK_THROWS_AS(simulator.count_fits(other, 1), InputError);
  CHECK_THROWS_AS(simulator.schedule_one(gpu_pod("p", 1, "no-such-class")), InputError);
  CHECK_THROWS_WITH(simulator.count_fits(gpu_pod("p", 1), -1),
                    "count_fits: the limit must be between 0 and 1000000");
  CHECK_THROWS_AS(simulator.count_fits(gpu_pod("p", 1), 1'000'001), InputError);
  CHECK(simulator.count_fits(gpu_pod("p", 1), 100).count == 8);  // still usable
}

}  // namespace
}  // namespace gpusched
