// What real clusters' pods hold and the upstream rules around them: scheduling gates, pod-level
// resources, resource claims, the error backoff of a pod with no node to go to, nominations
// cleared when no node exists, and the pod garbage collector.
#include <catch2/catch.hpp>

#include <string>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

constexpr const char* kNode =
    R"({"kind": "Node", "metadata": {"name": "n1"},
        "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "nvidia.com/gpu": "1"}}})";

std::string gpu_pod(const std::string& name, const std::string& extra_spec = "") {
  return R"({"kind": "Pod", "metadata": {"name": ")" + name + R"(", "namespace": "default"},
             "spec": {)" +
         extra_spec + R"("containers": [{"name": "c",
               "resources": {"limits": {"cpu": "1", "nvidia.com/gpu": 1}}}]}})";
}

Scenario scenario_of(const std::string& cluster, const std::string& timeline = "[]",
                     const std::string& version = "1.35") {
  return io::parse_scenario(R"({"name": "t", "scheduler": {"seed": 1, "kubernetesVersion": ")" +
                                version + R"("}, "cluster": [)" + cluster + R"(], "timeline": )" +
                                timeline + "}",
                            "t.json");
}

const PodRecord* pod_named(const SimulationResult& result, const std::string& name) {
  for (const PodRecord& record : result.pods) {
    if (record.pod.metadata.name == name) return &record;
  }
  return nullptr;
}

const EventRecord* event_of(const SimulationResult& result, const std::string& reason,
                            const std::string& object) {
  for (const EventRecord& event : result.events) {
    if (event.reason == reason && event.object == object) return &event;
  }
  return nullptr;
}

TEST_CASE("a gated pod waits with no FailedScheduling and runs once its last gate goes",
          "[sim][schedulingGates]") {
  const std::string gates = R"("schedulingGates": [{"name": "a.io/x"}, {"name": "b.io/y"}], )";
  const Scenario gated = scenario_of(std::string(kNode) + "," + gpu_pod("p", gates));
  const SimulationResult held = simulate(gated);
  const PodRecord* p = pod_named(held, "p");
  REQUIRE(p != nullptr);
  CHECK(p->pod.status.phase == PodPhase::Pending);
  REQUIRE(p->pod.reason() != nullptr);
  CHECK(*p->pod.reason() == "SchedulingGated");
  CHECK(*p->pod.message() == "Scheduling is blocked due to non-empty scheduling gates");
  CHECK(event_of(held, "FailedScheduling", "Pod/default/p") == nullptr);

  const std::string remove_one =
      R"([{"at": "10s", "patch": {"kind": "Pod", "namespace": "default", "name": "p",
            "merge": {"spec": {"schedulingGates": [{"name": "b.io/y"}]}}}},
          {"at": "20s", "patch": {"kind": "Pod", "namespace": "default", "name": "p",
            "merge": {"spec": {"schedulingGates": null}}}}])";
  const SimulationResult released =
      simulate(scenario_of(std::string(kNode) + "," + gpu_pod("p", gates), remove_one));
  p = pod_named(released, "p");
  REQUIRE(p != nullptr);
  CHECK(p->pod.status.phase == PodPhase::Running);
  const EventRecord* scheduled = event_of(released, "Scheduled", "Pod/default/p");
  REQUIRE(scheduled != nullptr);
  CHECK(scheduled->time == 20000);  // queued at once when the last gate went
}

TEST_CASE("the API server refuses a new scheduling gate and a gated pod with a node",
          "[sim][schedulingGates]") {
  const std::string gates = R"("schedulingGates": [{"name": "a.io/x"}], )";
  const std::string add = R"([{"at": "10s", "patch": {"kind": "Pod", "namespace": "default",
      "name": "p", "merge": {"spec": {"schedulingGates": [{"name": "a.io/x"}, {"name": "c"}]}}}}])";
  try {
    (void)simulate(scenario_of(std::string(kNode) + "," + gpu_pod("p", gates), add));
    FAIL("adding a gate must be refused");
  } catch (const InputError& e) {
    CHECK(e.reason() ==
          "Pod \"p\" is invalid: spec.schedulingGates[1].name: Forbidden: only deletion is "
          "allowed, but found new scheduling gate 'c'");
  }
  try {
    (void)scenario_of(gpu_pod("p", gates + R"("nodeName": "n1", )"));
    FAIL("a gated pod with a node must be refused");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("spec.nodeName: Forbidden: cannot be set until all "
                                     "schedulingGates have been cleared") != std::string::npos);
  }
  try {
    (void)scenario_of(gpu_pod("p", R"("schedulingGates": [{"name": "x"}, {"name": "x"}], )"));
    FAIL("a repeated gate must be refused");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("Duplicate value: \"x\"") != std::string::npos);
  }
}

TEST_CASE("pod-level requests count from 1.34; 1.33 drops them", "[sim][podLevelResources]") {
  // The containers ask for 1 cpu, the pod as a whole for 6: more than the node's 4.
  const std::string pod_level = R"("resources": {"requests": {"cpu": "6"}}, )";
  const SimulationResult v134 =
      simulate(scenario_of(std::string(kNode) + "," + gpu_pod("p", pod_level), "[]", "1.34"));
  const PodRecord* p = pod_named(v134, "p");
  REQUIRE(p != nullptr);
  CHECK(p->pod.status.phase == PodPhase::Pending);
  CHECK(p->requests->at("cpu") == Quantity::from_units(6));
  REQUIRE(p->pod.message() != nullptr);
  CHECK(p->pod.message()->starts_with("0/1 nodes are available: 1 Insufficient cpu."));

  const SimulationResult v133 =
      simulate(scenario_of(std::string(kNode) + "," + gpu_pod("p", pod_level), "[]", "1.33"));
  p = pod_named(v133, "p");
  REQUIRE(p != nullptr);
  CHECK(p->pod.status.phase == PodPhase::Running);
  CHECK_FALSE(p->pod.spec.resources.has_value());
}

TEST_CASE("the PodLevelResources gate decides whether spec.resources counts",
          "[sim][podLevelResources]") {
  const std::string pod_level = R"("resources": {"requests": {"cpu": "6"}}, )";
  const Scenario off = io::parse_scenario(
      R"({"name": "t", "scheduler": {"kubernetesVersion": "1.34",
          "featureGates": {"PodLevelResources": false}}, "cluster": [)" +
          std::string(kNode) + "," + gpu_pod("p", pod_level) + "]}",
      "t.json");
  const SimulationResult result = simulate(off);
  CHECK(pod_named(result, "p")->pod.status.phase == PodPhase::Running);
  CHECK(off.notes.empty());  // a modelled gate: no warning
}

TEST_CASE("pod-level limits default the pod-level requests", "[sim][podLevelResources]") {
  // defaultPodRequests: cpu from the containers' requests (overcommittable), memory from the
  // pod-level limit when no container asks for it.
  const Scenario scenario =
      scenario_of(gpu_pod("p", R"("resources": {"limits": {"cpu": "3", "memory": "2Gi"}}, )"));
  const auto* pod = std::get_if<Pod>(&scenario.cluster.front());
  REQUIRE(pod != nullptr);
  REQUIRE(pod->spec.resources);
  CHECK(pod->spec.resources->requests.at("cpu") == Quantity::from_units(1));
  CHECK(pod->spec.resources->requests.at("memory") == pod->spec.resources->limits.at("memory"));
  try {
    (void)scenario_of(gpu_pod("q", R"("resources": {"requests": {"nvidia.com/gpu": "1"}}, )"));
    FAIL("a pod-level GPU request must be refused");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("Unsupported value: \"nvidia.com/gpu\": supported values: "
                                     "\"cpu\", \"hugepages-\", \"memory\"") != std::string::npos);
  }
}

TEST_CASE("a pod whose claim template does not exist waits at PreEnqueue", "[sim][dra]") {
  const std::string claims =
      R"("resourceClaims": [{"name": "gpus", "resourceClaimTemplateName": "two-gpus"}], )";
  const Scenario scenario = scenario_of(std::string(kNode) + "," + gpu_pod("p", claims));
  CHECK(scenario.notes.empty());
  const SimulationResult result = simulate(scenario);
  const PodRecord* p = pod_named(result, "p");
  REQUIRE(p != nullptr);
  CHECK(p->pod.status.phase == PodPhase::Pending);
  // The resourceclaim controller could not make the claim; the scheduler never tried the pod.
  CHECK(p->pod.message() == nullptr);
  CHECK(std::any_of(result.events.begin(), result.events.end(), [](const EventRecord& e) {
    return e.reason == "FailedResourceClaimCreation" &&
           e.message ==
               "PodResourceClaim gpus: resource claim template \"two-gpus\": "
               "resourceclaimtemplate.resource.k8s.io \"two-gpus\" not found";
  }));

  // 1.33's API server drops the claims (DynamicResourceAllocation is off by default).
  const SimulationResult v133 =
      simulate(scenario_of(std::string(kNode) + "," + gpu_pod("p", claims), "[]", "1.33"));
  CHECK(pod_named(v133, "p")->pod.status.phase == PodPhase::Running);
}

TEST_CASE("with no node at all a pod retries on its error backoff and loses its nomination",
          "[sim][queue]") {
  // No node until 3 s: attempts at 0 s and 2 s fail with ErrNoNodesAvailable; the node's arrival
  // moves nothing (no plugin rejected the pod), so the third attempt, at 5 s, binds it.
  const SimulationResult result =
      simulate(scenario_of(gpu_pod("p"), R"([{"at": "3s", "apply": )" + std::string(kNode) + "}]"));
  const EventRecord* failed = event_of(result, "FailedScheduling", "Pod/default/p");
  REQUIRE(failed != nullptr);
  CHECK(failed->message == "no nodes available to schedule pods");
  CHECK(failed->count == 2);
  CHECK(failed->last_time == 2000);
  const EventRecord* scheduled = event_of(result, "Scheduled", "Pod/default/p");
  REQUIRE(scheduled != nullptr);
  CHECK(scheduled->time == 5000);
}

TEST_CASE("a nominated pod that finds no node at all loses its nomination", "[sim][queue]") {
  // hi preempts victim on n1 and is nominated there; n1 is deleted while victim terminates, so
  // hi's next attempt meets ErrNoNodesAvailable, whose cycle clears the nomination.
  const std::string victim = R"({"kind": "Pod", "metadata": {"name": "victim", "namespace":
      "default"}, "spec": {"nodeName": "n1", "priority": 0, "terminationGracePeriodSeconds": 30,
      "containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": 1}}}]}})";
  const Scenario scenario =
      scenario_of(R"({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                      "metadata": {"name": "high"}, "value": 100},)" +
                      std::string(kNode) + "," + victim + "," +
                      gpu_pod("hi", R"("priorityClassName": "high", )"),
                  R"([{"at": "10s", "delete": {"kind": "Node", "name": "n1"}}])");
  Simulator simulator(scenario);
  simulator.run_until(5000);
  std::string nominated;
  for (const PodRecord& record : simulator.pods()) {
    if (record.pod.metadata.name == "hi") nominated = record.pod.status.nominated_node_name;
  }
  CHECK(nominated == "n1");
  const SimulationResult result = simulator.finish();
  const PodRecord* hi = pod_named(result, "hi");
  REQUIRE(hi != nullptr);
  CHECK(hi->pod.status.nominated_node_name.empty());
  CHECK(*hi->pod.message() == "no nodes available to schedule pods");
}

TEST_CASE("the pod garbage collector deletes the pods of a deleted node after its quarantine",
          "[sim][podgc]") {
  const std::string bound = R"({"kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
      "spec": {"nodeName": "n1", "containers": [{"name": "c"}]}})";
  const std::string delete_node = R"([{"at": "10s", "delete": {"kind": "Node", "name": "n1"}}])";
  Simulator simulator(scenario_of(std::string(kNode) + "," + bound, delete_node));
  // Seen on the 20 s pass after the deletion, deleted on the pass 40 s later.
  simulator.run_until(59000);
  bool present = false;
  for (const PodRecord& record : simulator.pods()) present |= record.pod.metadata.name == "p";
  CHECK(present);
  const SimulationResult result = simulator.finish();
  CHECK(result.time == 60000);
  CHECK(pod_named(result, "p") == nullptr);

  // A pod bound to a node that never exists: the pass at 0 s quarantines the name, the one at
  // 40 s deletes the pod.
  const SimulationResult never = simulate(scenario_of(bound));
  CHECK(pod_named(never, "p") == nullptr);
  CHECK(never.time == 40000);
}

}  // namespace
}  // namespace gpusched
