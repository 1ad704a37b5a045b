// Kubernetes 1.36's PodGroup scheduling cycle end to end (pkg/scheduler/schedule_one_podgroup.go,
// after TestPodGroupSchedulingDefaultAlgorithm and TestSubmitPodGroupAlgorithmResult): the
// group's pods tried in one snapshot, bound together, or failed together with the group's status.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

// A pod of the group asking for one GPU.
struct GroupPod {
  GroupPod(const char* name_, const char* scheduler_ = "default-scheduler")  // NOLINT
      : name(name_), scheduler(scheduler_) {}
  std::string name;
  std::string scheduler;
};

// Nodes of one GPU each, a gang PodGroup of `min_count` (a basic one when 0), its pods; a second
// profile and a timeline when given.
Scenario group_scenario(int nodes, int min_count, const std::vector<GroupPod>& pods,
                        const std::string& extra_scheduler = "", const std::string& timeline = "") {
  std::string cluster;
  for (int i = 0; i < nodes; ++i) {
    cluster +=
        std::string(i > 0 ? ", " : "") + R"({"kind": "Node", "metadata": {"name": "gpu-)" +
        std::to_string(i) +
        R"("}, "status": {"capacity": {"cpu": "8", "memory": "64Gi", "nvidia.com/gpu": "1"}}})";
  }
  const std::string policy = min_count > 0
                                 ? R"({"gang": {"minCount": )" + std::to_string(min_count) + "}}"
                                 : R"({"basic": {}})";
  cluster += R"(, {"apiVersion": "scheduling.k8s.io/v1alpha2", "kind": "PodGroup",
      "metadata": {"name": "pg", "namespace": "default"}, "spec": {"schedulingPolicy": )" +
             policy + "}}";
  for (const GroupPod& p : pods) {
    cluster += R"(, {"kind": "Pod", "metadata": {"name": ")" + p.name +
               R"(", "namespace": "default"}, "spec": {"schedulerName": ")" + p.scheduler +
               R"(", "schedulingGroup": {"podGroupName": "pg"}, "containers": [{"name": "c",
               "resources": {"limits": {"nvidia.com/gpu": 1}}}]}})";
  }
  const std::string profiles =
      extra_scheduler.empty()
          ? ""
          : R"(, "profiles": [{"schedulerName": "default-scheduler"}, {"schedulerName": ")" +
                extra_scheduler + R"("}])";
  return io::parse_scenario(
      R"({"name": "pg", "scheduler": {"kubernetesVersion": "1.36", "seed": 1, "featureGates":
          {"GenericWorkload": true, "GangScheduling": true})" +
          profiles + R"(}, "cluster": [)" + cluster + "]" +
          (timeline.empty() ? "" : R"(, "timeline": )" + timeline) + "}",
      "pg.json");
}

const Pod& pod_of(const SimulationResult& result, const std::string& name) {
  for (const PodRecord& p : result.pods) {
    if (p.pod.metadata.name == name) return p.pod;
  }
  FAIL("no pod " << name);
  return result.pods.front().pod;
}

const PodCondition& scheduled(const SimulationResult& result, const std::string& name) {
  const PodCondition* c = pod_of(result, name).status.condition("PodScheduled");
  REQUIRE(c != nullptr);
  return *c;
}

const Condition& group_condition(const SimulationResult& result) {
  REQUIRE(result.pod_groups.size() == 1);
  REQUIRE(result.pod_groups[0].conditions.size() == 1);
  CHECK(result.pod_groups[0].conditions[0].type == "PodGroupScheduled");
  return result.pod_groups[0].conditions[0];
}

// The messages of a pod's FailedScheduling events (alike ones are counted on one record).
std::vector<std::string> failures_of(const SimulationResult& result, const std::string& pod) {
  std::vector<std::string> out;
  for (const EventRecord& e : result.events) {
    if (e.object == "Pod/default/" + pod && e.reason == "FailedScheduling")
      out.push_back(e.message);
  }
  return out;
}

const std::string kWaiting =
    "pod group is unschedulable, waiting for minCount pods from a gang to be scheduled, one or "
    "more plugins asked to wait and no plugin rejected pod";
const std::string kNoGpu =
    "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. no new claims to deallocate, "
    "preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.";

TEST_CASE("PodGroup cycle: a gang that fits binds in one cycle, none waiting at Permit",
          "[scheduler][podgroup]") {
  const SimulationResult result = simulate(group_scenario(2, 2, {{"w-0"}, {"w-1"}}));
  CHECK(pod_of(result, "w-0").spec.node_name == "gpu-0");
  CHECK(pod_of(result, "w-1").spec.node_name == "gpu-1");
  CHECK(failures_of(result, "w-0").empty());
  CHECK(failures_of(result, "w-1").empty());
  const Condition& c = group_condition(result);
  CHECK(c.status == "True");
  CHECK(c.reason == "Scheduled");
  CHECK(c.message.empty());
  CHECK(c.observed_generation == 1);
}

TEST_CASE("PodGroup cycle: a gang that does not fit fails as a group, holding no node",
          "[scheduler][podgroup]") {
  const SimulationResult result = simulate(group_scenario(2, 3, {{"w-0"}, {"w-1"}, {"w-2"}}));
  for (const char* name : {"w-0", "w-1", "w-2"}) {
    INFO(name);
    CHECK(pod_of(result, name).spec.node_name.empty());
    CHECK(pod_of(result, name).status.nominated_node_name.empty());
    CHECK(scheduled(result, name).reason == "Unschedulable");
  }
  // The pods that fit carry the group's status and their Permit's message; the one that did
  // not, its own FitError.
  CHECK(scheduled(result, "w-0").message == kWaiting);
  CHECK(scheduled(result, "w-1").message == kWaiting);
  CHECK(scheduled(result, "w-2").message == kNoGpu);
  for (const NodeRecord& node : result.nodes) CHECK(node.pods.empty());
  const Condition& c = group_condition(result);
  CHECK(c.status == "False");
  CHECK(c.reason == "Unschedulable");
  CHECK(c.message == "pod group is unschedulable");
}

TEST_CASE("PodGroup cycle: a quorum met binds the pods that fit, the others fail on their own",
          "[scheduler][podgroup]") {
  const SimulationResult result = simulate(group_scenario(2, 2, {{"w-0"}, {"w-1"}, {"w-2"}}));
  CHECK(pod_of(result, "w-0").spec.node_name == "gpu-0");
  CHECK(pod_of(result, "w-1").spec.node_name == "gpu-1");
  CHECK(pod_of(result, "w-2").spec.node_name.empty());
  CHECK(scheduled(result, "w-2").message == kNoGpu);
  // Later cycles of w-2 alone find the group unschedulable (its own FitError again); the
  // condition stays True.
  CHECK(failures_of(result, "w-2") == std::vector<std::string>{kNoGpu});
  const Condition& c = group_condition(result);
  CHECK(c.status == "True");
  CHECK(c.reason == "Scheduled");
}

TEST_CASE("PodGroup cycle: a group a plugin rejected is retried as soon as the cluster changes",
          "[scheduler][podgroup]") {
  // Its pods wait after backoff (1 s doubling to 10 s: tries at 0s, 1s, 3s, 7s, 15s, 25s, ...),
  // but upstream retries a PodGroup's pod rejected by a plugin whenever the active queue is
  // empty: the node added at 91s, between two tries, is taken at once.
  const SimulationResult result = simulate(
      group_scenario(2, 3, {{"w-0"}, {"w-1"}, {"w-2"}}, "",
                     R"([{"at": "91s", "apply": {"kind": "Node", "metadata": {"name": "gpu-2"},
          "status": {"capacity": {"cpu": "8", "memory": "64Gi", "nvidia.com/gpu": "1"}}}}])"));
  for (const char* name : {"w-0", "w-1", "w-2"}) {
    INFO(name);
    CHECK_FALSE(pod_of(result, name).spec.node_name.empty());
    CHECK(scheduled(result, name).status == "True");
    CHECK(scheduled(result, name).last_transition_ms == 91'000);
  }
  const Condition& c = group_condition(result);
  CHECK(c.status == "True");
  CHECK(c.last_transition_time == 91'000);
}

TEST_CASE("PodGroup cycle: a group's pods must share a scheduler name", "[scheduler][podgroup]") {
  const SimulationResult result =
      simulate(group_scenario(2, 2, {{"w-0"}, {"w-1", "gang-scheduler"}}, "gang-scheduler"));
  const std::string message =
      "all pods in a single pod group should have the same .spec.schedulerName set, got: "
      "\"gang-scheduler\" and \"default-scheduler\"";
  for (const char* name : {"w-0", "w-1"}) {
    INFO(name);
    CHECK(pod_of(result, name).spec.node_name.empty());
    CHECK(scheduled(result, name).reason == "SchedulerError");
    CHECK(scheduled(result, name).message == message);
  }
  // No cycle ran the algorithm: the PodGroup has no condition.
  REQUIRE(result.pod_groups.size() == 1);
  CHECK(result.pod_groups[0].conditions.empty());
}

}  // namespace
}  // namespace gpusched
