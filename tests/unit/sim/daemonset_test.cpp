// The DaemonSet controller end to end through gpusched::simulate
// (pkg/controller/daemon/daemon_controller.go: NodeShouldRunDaemonPod, podsShouldBeOnNode,
// syncNodes; its tests in daemon_controller_test.go).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"
#include "sim/daemonset_util.hpp"

namespace gpusched {
namespace {

std::string node(const std::string& name, const std::string& extra = "") {
  return R"({"kind": "Node", "metadata": {"name": ")" + name + R"(")" + extra +
         R"(}, "status": {"capacity": {"cpu": "4", "memory": "8Gi"}}})";
}

std::string node_with(const std::string& name, const std::string& spec_or_labels) {
  return R"({"kind": "Node", "metadata": {"name": ")" + name + R"("}, )" + spec_or_labels +
         R"(, "status": {"capacity": {"cpu": "4", "memory": "8Gi"}}})";
}

/// A DaemonSet "ds" in default whose template spec has `spec` added to one container.
std::string daemon_set(const std::string& spec = "") {
  return R"({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "ds"},
    "spec": {"selector": {"matchLabels": {"app": "ds"}},
             "template": {"metadata": {"labels": {"app": "ds"}},
                          "spec": {)" +
         spec + (spec.empty() ? "" : ", ") +
         R"("containers": [{"name": "agent", "resources": {"requests": {"cpu": "100m"}}}]}}}})";
}

SimulationResult run(const std::string& cluster, const std::string& timeline = "",
                     std::optional<TimeMs> until = std::nullopt) {
  const std::string text =
      R"({"name": "ds", "cluster": [)" + cluster + R"(], "timeline": [)" + timeline + "]}";
  SimulationOptions options;
  options.until = until;
  return simulate(io::parse_scenario(text, "ds.json"), options);
}

/// The DaemonSet's pods by the node they are for (bound or pinned).
std::map<std::string, const PodRecord*> daemon_pods(const SimulationResult& result) {
  std::map<std::string, const PodRecord*> out;
  for (const PodRecord& p : result.pods) {
    const OwnerReference* owner = p.pod.metadata.controller();
    if (owner == nullptr || owner->kind != "DaemonSet") continue;
    const std::optional<std::string> target = sim::target_node_name(p.pod);
    REQUIRE(target);
    CHECK(out.emplace(*target, &p).second);
  }
  return out;
}

std::vector<std::string> nodes_of(const SimulationResult& result) {
  std::vector<std::string> out;
  for (const auto& [target, pod] : daemon_pods(result)) {
    CHECK(pod->pod.spec.node_name == target);
    CHECK(pod->pod.status.phase == PodPhase::Running);
    out.push_back(target);
  }
  return out;
}

std::vector<std::string> messages(const SimulationResult& result, const std::string& reason) {
  std::vector<std::string> out;
  for (const EventRecord& e : result.events) {
    if (e.reason == reason && e.object == "DaemonSet/default/ds") out.push_back(e.message);
  }
  return out;
}

TEST_CASE("DaemonSet: one pod per eligible node", "[sim][daemonset]") {
  const std::string control_plane =
      node_with("cp", R"("spec": {"taints": [{"key": "node-role.kubernetes.io/control-plane",
                                   "effect": "NoSchedule"}]})");
  struct Row {
    const char* name;
    std::string cluster;
    std::vector<std::string> want;
  };
  const std::vector<Row> rows = {
      {"every node", daemon_set() + "," + node("w1") + "," + node("w2"), {"w1", "w2"}},
      {"nodes before the DaemonSet",
       node("w1") + "," + node("w2") + "," + daemon_set(),
       {"w1", "w2"}},
      {"an untolerated NoSchedule taint keeps it off",
       daemon_set() + "," + node("w1") + "," + control_plane,
       {"w1"}},
      {"a tolerated taint does not",
       daemon_set(R"("tolerations": [{"key": "node-role.kubernetes.io/control-plane",
                                      "operator": "Exists", "effect": "NoSchedule"}])") +
           "," + node("w1") + "," + control_plane,
       {"cp", "w1"}},
      {"an untolerated NoExecute taint keeps it off",
       daemon_set() + "," + node("w1") + "," +
           node_with("w2", R"("spec": {"taints": [{"key": "k", "value": "v",
                                                  "effect": "NoExecute"}]})"),
       {"w1"}},
      {"a PreferNoSchedule taint does not",
       daemon_set() + "," +
           node_with("w1", R"("spec": {"taints": [{"key": "k", "effect": "PreferNoSchedule"}]})"),
       {"w1"}},
      {"the nodeSelector excludes a node",
       daemon_set(R"("nodeSelector": {"nvidia.com/gpu.present": "true"})") + "," + node("w1") +
           "," + node("gpu1", R"(, "labels": {"nvidia.com/gpu.present": "true"})"),
       {"gpu1"}},
      {"required node affinity excludes a node",
       daemon_set(R"("affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
                       {"nodeSelectorTerms": [{"matchExpressions": [
                         {"key": "pool", "operator": "NotIn", "values": ["infra"]}]}]}}})") +
           "," + node("w1") + "," + node("w2", R"(, "labels": {"pool": "infra"})"),
       {"w1"}},
      {"the template's nodeName names the one node",
       daemon_set(R"("nodeName": "w2")") + "," + node("w1") + "," + node("w2"),
       {"w2"}},
      // The daemon tolerations cover the pressure and unschedulable taints...
      {"memory pressure and a cordon are tolerated",
       daemon_set() + "," + node_with("w1", R"("spec": {"unschedulable": true})") + "," +
           R"({"kind": "Node", "metadata": {"name": "w2"}, "status": {"capacity": {"cpu": "4"},
               "conditions": [{"type": "MemoryPressure", "status": "True"}]}})",
       {"w1", "w2"}},
      // ...but not-ready only with NoExecute: the NoSchedule not-ready taint keeps it off.
      {"a node that is not Ready gets none",
       daemon_set() + "," + node("w1") + "," +
           R"({"kind": "Node", "metadata": {"name": "w2"}, "status": {"capacity": {"cpu": "4"},
               "conditions": [{"type": "Ready", "status": "False"}]}})",
       {"w1"}},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const SimulationResult result = run(row.cluster);
      CHECK(nodes_of(result) == row.want);
      CHECK(messages(result, "SuccessfulCreate").size() == row.want.size());
    }
  }
}

TEST_CASE("DaemonSet pods are pinned as syncNodes writes them", "[sim][daemonset]") {
  const SimulationResult result =
      run(daemon_set(R"("tolerations": [{"key": "node.kubernetes.io/unreachable",
                          "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}],
                        "affinity": {"nodeAffinity": {
                          "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                            {"matchExpressions": [{"key": "pool", "operator": "Exists"}]},
                            {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}]},
                          "preferredDuringSchedulingIgnoredDuringExecution": [
                            {"weight": 5, "preference": {"matchExpressions": [
                              {"key": "fast", "operator": "Exists"}]}}]}})") +
          "," + node("w1", R"(, "labels": {"pool": "a"})"));
  const auto pods = daemon_pods(result);
  REQUIRE(pods.size() == 1);
  const Pod& pod = pods.at("w1")->pod;
  CHECK(pod.metadata.name.rfind("ds-", 0) == 0);
  CHECK(pod.metadata.name.size() == 8);
  CHECK(pod.metadata.labels.at("app") == "ds");
  CHECK(pod.metadata.labels.at("pod-template-generation") == "1");
  CHECK(pod.metadata.labels.at("controller-revision-hash").size() > 0);
  REQUIRE(pod.metadata.owner_references.size() == 1);
  const OwnerReference& owner = pod.metadata.owner_references.front();
  CHECK(owner.kind == "DaemonSet");
  CHECK(owner.name == "ds");
  CHECK(owner.controller);

  // ReplaceDaemonSetPodNodeNameNodeAffinity: one term, matchFields metadata.name In [w1]; the
  // template's required terms are gone, its preferred terms stay.
  REQUIRE(pod.spec.affinity->node_affinity);
  const NodeAffinity& affinity = *pod.spec.affinity->node_affinity;
  REQUIRE(affinity.required);
  REQUIRE(affinity.required->size() == 1);
  const NodeSelectorTerm& term = affinity.required->front();
  CHECK(term.match_expressions.empty());
  CHECK(term.match_fields ==
        std::vector<SelectorRequirement>{{"metadata.name", SelectorOperator::In, {"w1"}}});
  CHECK(affinity.preferred.size() == 1);

  // AddOrUpdateDaemonPodTolerations: the template's unreachable toleration loses its seconds.
  std::vector<std::string> keys;
  for (const Toleration& t : pod.spec.tolerations) {
    CHECK(t.op == TolerationOperator::Exists);
    CHECK_FALSE(t.toleration_seconds);
    keys.push_back(t.key + ":" + std::string(to_string(*t.effect)));
  }
  CHECK(keys == std::vector<std::string>{"node.kubernetes.io/unreachable:NoExecute",
                                         "node.kubernetes.io/not-ready:NoExecute",
                                         "node.kubernetes.io/disk-pressure:NoSchedule",
                                         "node.kubernetes.io/memory-pressure:NoSchedule",
                                         "node.kubernetes.io/pid-pressure:NoSchedule",
                                         "node.kubernetes.io/unschedulable:NoSchedule"});
  CHECK(messages(result, "SuccessfulCreate") ==
        std::vector<std::string>{"Created pod: " + pod.metadata.name});
}

TEST_CASE("DaemonSet follows nodes as they come, change and go", "[sim][daemonset]") {
  const std::string gpu_only = daemon_set(R"("nodeSelector": {"gpu": "true"})");
  SECTION("a node added later gets a pod") {
    const std::string cluster = daemon_set() + "," + node("w1");
    const std::string later = R"({"at": "10s", "apply": )" + node("w2") + "}";
    CHECK(nodes_of(run(cluster, later, 9'000)) == std::vector<std::string>{"w1"});
    const SimulationResult result = run(cluster, later);
    CHECK(nodes_of(result) == std::vector<std::string>{"w1", "w2"});
    CHECK(*daemon_pods(result).at("w2")->created == 10'000);
  }
  SECTION("a label that makes a node eligible creates its pod") {
    const std::string patch =
        R"({"at": "20s", "patch": {"kind": "Node", "name": "w1",
            "merge": {"metadata": {"labels": {"gpu": "true"}}}}})";
    CHECK(daemon_pods(run(gpu_only + "," + node("w1"), patch, 19'000)).empty());
    CHECK(nodes_of(run(gpu_only + "," + node("w1"), patch)) == std::vector<std::string>{"w1"});
  }
  SECTION("a label that no longer matches deletes the pod, bound or not") {
    const std::string cluster =
        gpu_only + "," + node("w1", R"(, "labels": {"gpu": "true"})") + "," +
        R"({"kind": "Node", "metadata": {"name": "small", "labels": {"gpu": "true"}},
            "status": {"capacity": {"cpu": "50m"}}})";
    // small's pod stays Pending (Insufficient cpu); both lose the label at 20s.
    const std::string timeline =
        R"({"at": "20s", "patch": {"kind": "Node", "name": "w1",
            "merge": {"metadata": {"labels": {"gpu": null}}}}},
           {"at": "20s", "patch": {"kind": "Node", "name": "small",
            "merge": {"metadata": {"labels": {"gpu": null}}}}})";
    const SimulationResult before = run(cluster, timeline, 19'000);
    REQUIRE(daemon_pods(before).size() == 2);
    CHECK(daemon_pods(before).at("small")->pod.status.phase == PodPhase::Pending);
    const SimulationResult at = run(cluster, timeline, 20'000);
    const auto pods = daemon_pods(at);
    // The bound pod terminates gracefully (30s); the pending one is deleted at once.
    REQUIRE(pods.size() == 1);
    CHECK(pods.at("w1")->terminating);
    CHECK(messages(at, "SuccessfulDelete").size() == 2);
    CHECK(daemon_pods(run(cluster, timeline)).empty());
  }
  SECTION("a NoSchedule taint keeps the pod, a NoExecute one deletes it") {
    const std::string taint = [](const char* effect) {
      return std::string(R"({"at": "10s", "patch": {"kind": "Node", "name": "w1",
            "merge": {"spec": {"taints": [{"key": "maintenance", "effect": ")") +
             effect + R"("}]}}}})";
    }("NoSchedule");
    CHECK(nodes_of(run(daemon_set() + "," + node("w1"), taint)) == std::vector<std::string>{"w1"});
    std::string no_execute = taint;
    no_execute.replace(no_execute.find("NoSchedule"), 10, "NoExecute");
    const SimulationResult result = run(daemon_set() + "," + node("w1"), no_execute);
    CHECK(daemon_pods(result).empty());
    CHECK(messages(result, "SuccessfulDelete").size() == 1);
  }
  SECTION("a deleted node's pending pod is deleted by the controller") {
    const std::string cluster =
        daemon_set() + "," + node("w1") + "," +
        R"({"kind": "Node", "metadata": {"name": "small"}, "status": {"capacity": {"cpu": "50m"}}})";
    const std::string timeline = R"({"at": "10s", "delete": {"kind": "Node", "name": "small"}})";
    const SimulationResult before = run(cluster, timeline, 9'000);
    REQUIRE(daemon_pods(before).count("small") == 1);
    const std::string pending = daemon_pods(before).at("small")->pod.metadata.name;
    const SimulationResult result = run(cluster, timeline);
    CHECK(nodes_of(result) == std::vector<std::string>{"w1"});
    CHECK(messages(result, "SuccessfulDelete") ==
          std::vector<std::string>{"Deleted pod: " + pending});
  }
}

TEST_CASE("DaemonSet replaces deleted and finished pods", "[sim][daemonset]") {
  SECTION("a deleted pod is recreated") {
    const std::string cluster = daemon_set() + "," + node("w1");
    const std::string first = daemon_pods(run(cluster)).at("w1")->pod.metadata.name;
    const std::string timeline =
        R"({"at": "30s", "delete": {"kind": "Pod", "name": ")" + first + R"("}})";
    const SimulationResult result = run(cluster, timeline);
    const auto pods = daemon_pods(result);
    REQUIRE(pods.size() == 1);
    CHECK(pods.at("w1")->pod.metadata.name != first);
    CHECK(*pods.at("w1")->created == 30'000);
    CHECK(pods.at("w1")->pod.status.phase == PodPhase::Running);
    CHECK(messages(result, "SuccessfulCreate").size() == 2);
  }
  SECTION("a pod deleted gracefully is replaced once it is gone") {
    const std::string cluster = daemon_set() + "," + node("w1");
    const std::string first = daemon_pods(run(cluster)).at("w1")->pod.metadata.name;
    const std::string timeline = R"({"at": "30s", "delete": {"kind": "Pod", "name": ")" + first +
                                 R"(", "gracePeriodSeconds": 10}})";
    CHECK(daemon_pods(run(cluster, timeline, 39'000)).at("w1")->pod.metadata.name == first);
    CHECK(*daemon_pods(run(cluster, timeline)).at("w1")->created == 40'000);
  }
  SECTION("a failed pod is deleted and replaced; deletions on a node back off") {
    // Two failed pods for w1, controlled by the DaemonSet (the first object: its uid is the
    // simulator's first). The first is deleted at 0s; the second waits out failedPodsBackoff
    // (1s), and only then does w1 get a new pod.
    auto failed = [](const std::string& name) {
      return R"({"kind": "Pod", "metadata": {"name": ")" + name + R"(", "labels": {"app": "ds"},
          "ownerReferences": [{"kind": "DaemonSet", "name": "ds", "controller": true,
                               "uid": "00000000-0000-4000-8000-000000000001"}]},
          "spec": {"nodeName": "w1", "containers": [{"name": "agent"}]},
          "status": {"phase": "Failed"}})";
    };
    const std::string cluster =
        daemon_set() + "," + failed("old-a") + "," + failed("old-b") + "," + node("w1");
    const SimulationResult at_zero = run(cluster, "", 999);
    CHECK(messages(at_zero, "FailedDaemonPod") ==
          std::vector<std::string>{
              "Found failed daemon pod default/old-a on node w1, will try to kill it"});
    CHECK(messages(at_zero, "SuccessfulCreate").empty());
    REQUIRE(daemon_pods(at_zero).size() == 1);
    CHECK(daemon_pods(at_zero).at("w1")->pod.metadata.name == "old-b");

    const SimulationResult result = run(cluster);
    CHECK(messages(result, "FailedDaemonPod").size() == 2);
    CHECK(messages(result, "SuccessfulDelete") ==
          std::vector<std::string>{"Deleted pod: old-a", "Deleted pod: old-b"});
    CHECK(nodes_of(result) == std::vector<std::string>{"w1"});
    CHECK(*daemon_pods(result).at("w1")->created == 1'000);
  }
}

TEST_CASE("DaemonSet apply, template change and delete", "[sim][daemonset]") {
  const std::string cluster = daemon_set() + "," + node("w1");
  SECTION("a changed template is used for new pods (no rolling update)") {
    std::string changed = daemon_set(R"("priorityClassName": "system-node-critical")");
    const std::string first = daemon_pods(run(cluster)).at("w1")->pod.metadata.name;
    const std::string timeline = R"({"at": "10s", "apply": )" + changed + R"(},
        {"at": "20s", "delete": {"kind": "Pod", "name": ")" +
                                 first + R"("}})";
    const SimulationResult at_19s = run(cluster, timeline, 19'000);
    const auto before = daemon_pods(at_19s);
    CHECK(before.at("w1")->pod.metadata.name == first);
    const SimulationResult result = run(cluster, timeline);
    const Pod& pod = daemon_pods(result).at("w1")->pod;
    CHECK(pod.metadata.labels.at("pod-template-generation") == "2");
    CHECK(pod.metadata.labels.at("controller-revision-hash") !=
          before.at("w1")->pod.metadata.labels.at("controller-revision-hash"));
    CHECK(pod.spec.priority == 2000001000);
  }
  SECTION("deleting the DaemonSet deletes its pods") {
    const SimulationResult result =
        run(cluster, R"({"at": "10s", "delete": {"kind": "DaemonSet", "name": "ds"}})");
    CHECK(daemon_pods(result).empty());
  }
}

}  // namespace
}  // namespace gpusched
