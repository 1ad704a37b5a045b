// The StatefulSet controller end to end through gpusched::simulate
// (pkg/controller/statefulset: stateful_set_control.go updateStatefulSet, processReplica,
// processCondemned; stateful_set_utils.go; stateful_pod_control.go recordPodEvent).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/snapshot.hpp"
#include "gpusched/sim/simulator.hpp"
#include "support/temp_dir.hpp"

namespace gpusched {
namespace {

/// A node with `cpu` CPUs.
std::string node(const std::string& name, const std::string& cpu = "4") {
  return R"({"kind": "Node", "metadata": {"name": ")" + name +
         R"("}, "status": {"capacity": {"cpu": ")" + cpu + R"(", "memory": "16Gi"}}})";
}

/// A StatefulSet "web" whose pods ask one CPU; `spec` is added to its spec.
std::string stateful_set(const std::string& spec = "", const std::string& meta = "") {
  return R"({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "web")" + meta +
         R"(}, "spec": {)" + spec + (spec.empty() ? "" : ", ") +
         R"("selector": {"matchLabels": {"app": "web"}},
             "template": {"metadata": {"labels": {"app": "web"}},
                          "spec": {"containers": [{"name": "c",
                                                   "resources": {"requests": {"cpu": "1"}}}]}}}})";
}

SimulationResult run(const std::string& cluster, const std::string& timeline = "",
                     std::optional<TimeMs> until = std::nullopt) {
  const std::string text =
      R"({"name": "sts", "cluster": [)" + cluster + R"(], "timeline": [)" + timeline + "]}";
  SimulationOptions options;
  options.until = until;
  return simulate(io::parse_scenario(text, "sts.json"), options);
}

/// The StatefulSet's pods by name.
std::map<std::string, const PodRecord*> set_pods(const SimulationResult& result) {
  std::map<std::string, const PodRecord*> out;
  for (const PodRecord& p : result.pods) {
    const OwnerReference* owner = p.pod.metadata.controller();
    if (owner != nullptr && owner->kind == "StatefulSet") out.emplace(p.pod.metadata.name, &p);
  }
  return out;
}

std::map<std::string, PodPhase> phases(const SimulationResult& result) {
  std::map<std::string, PodPhase> out;
  for (const auto& [name, pod] : set_pods(result)) out.emplace(name, pod->pod.status.phase);
  return out;
}

/// The messages of the set's events with `reason`, with the time of each.
std::vector<std::pair<TimeMs, std::string>> events(const SimulationResult& result,
                                                   const std::string& reason) {
  std::vector<std::pair<TimeMs, std::string>> out;
  for (const EventRecord& e : result.events) {
    if (e.reason == reason && e.object == "StatefulSet/default/web")
      out.emplace_back(e.time, e.message);
  }
  return out;
}

constexpr PodPhase kRunning = PodPhase::Running;
constexpr PodPhase kPending = PodPhase::Pending;

TEST_CASE("StatefulSet pods: ordinal names, identity labels, controller reference",
          "[sim][statefulset]") {
  const SimulationResult result =
      run(node("w1") + "," + stateful_set(R"("replicas": 2, "ordinals": {"start": 3})"));
  const auto pods = set_pods(result);
  REQUIRE(pods.size() == 2);
  std::string revision;
  for (const auto& [name, ordinal] : {std::pair{"web-3", "3"}, std::pair{"web-4", "4"}}) {
    REQUIRE(pods.count(name) == 1);
    const Pod& pod = pods.at(name)->pod;
    CHECK(pod.status.phase == kRunning);
    // newStatefulSetPod: the template's labels, then initIdentity's and setPodRevision's.
    CHECK(pod.metadata.labels.at("app") == "web");
    CHECK(pod.metadata.labels.at("statefulset.kubernetes.io/pod-name") == name);
    CHECK(pod.metadata.labels.at("apps.kubernetes.io/pod-index") == ordinal);
    const std::string& hash = pod.metadata.labels.at("controller-revision-hash");
    CHECK(hash.starts_with("web-"));
    if (revision.empty()) revision = hash;
    CHECK(hash == revision);  // one template, one revision
    REQUIRE(pod.metadata.owner_references.size() == 1);
    const OwnerReference& owner = pod.metadata.owner_references.front();
    CHECK(owner.kind == "StatefulSet");
    CHECK(owner.name == "web");
    CHECK(owner.controller);
    CHECK_FALSE(owner.uid.empty());
  }
  CHECK(events(result, "SuccessfulCreate") ==
        std::vector<std::pair<TimeMs, std::string>>{
            {0, "create Pod web-3 in StatefulSet web successful"},
            {0, "create Pod web-4 in StatefulSet web successful"}});
}

TEST_CASE("OrderedReady waits for each ordinal to run; Parallel does not", "[sim][statefulset]") {
  // Two CPUs for four one-CPU replicas.
  SECTION("OrderedReady: the Pending ordinal holds back every later one") {
    const SimulationResult result = run(node("w1", "2") + "," + stateful_set(R"("replicas": 4)"));
    CHECK(phases(result) == std::map<std::string, PodPhase>{
                                {"web-0", kRunning}, {"web-1", kRunning}, {"web-2", kPending}});
  }
  SECTION("Parallel: every ordinal at once") {
    const SimulationResult result =
        run(node("w1", "2") + "," +
            stateful_set(R"("replicas": 4, "podManagementPolicy": "Parallel")"));
    CHECK(phases(result) ==
          std::map<std::string, PodPhase>{
              {"web-0", kRunning}, {"web-1", kRunning}, {"web-2", kPending}, {"web-3", kPending}});
  }
  SECTION("OrderedReady with minReadySeconds: each ordinal waits for the last to be available") {
    const SimulationResult result =
        run(node("w1") + "," + stateful_set(R"("replicas": 3, "minReadySeconds": 10)"));
    const auto pods = set_pods(result);
    REQUIRE(pods.size() == 3);
    CHECK(*pods.at("web-0")->created == 0);
    CHECK(*pods.at("web-1")->created == 10'000);
    CHECK(*pods.at("web-2")->created == 20'000);
  }
  SECTION("the next ordinal is created when the Pending one gets a node") {
    const SimulationResult result = run(node("w1", "2") + "," + stateful_set(R"("replicas": 3)"),
                                        R"({"at": "1m", "apply": )" + node("w2", "1") + "}");
    const auto pods = set_pods(result);
    REQUIRE(pods.size() == 3);
    CHECK(pods.at("web-2")->pod.spec.node_name == "w2");
    CHECK(*pods.at("web-2")->scheduled == 60'000);
  }
}

TEST_CASE("StatefulSet scale down removes the highest ordinals first", "[sim][statefulset]") {
  const std::string timeline =
      R"({"at": "10s", "scale": {"kind": "StatefulSet", "name": "web", "replicas": 1}})";
  SECTION("OrderedReady: one at a time, each after the previous has terminated") {
    const SimulationResult result =
        run(node("w1") + "," + stateful_set(R"("replicas": 3)"), timeline);
    CHECK(events(result, "SuccessfulDelete") ==
          std::vector<std::pair<TimeMs, std::string>>{
              {10'000, "delete Pod web-2 in StatefulSet web successful"},
              {40'000, "delete Pod web-1 in StatefulSet web successful"}});
    CHECK(phases(result) == std::map<std::string, PodPhase>{{"web-0", kRunning}});
  }
  SECTION("Parallel: all at once") {
    const SimulationResult result =
        run(node("w1") + "," + stateful_set(R"("replicas": 3, "podManagementPolicy": "Parallel")"),
            timeline);
    CHECK(events(result, "SuccessfulDelete") ==
          std::vector<std::pair<TimeMs, std::string>>{
              {10'000, "delete Pod web-2 in StatefulSet web successful"},
              {10'000, "delete Pod web-1 in StatefulSet web successful"}});
  }
  SECTION("OrderedReady: a Pending surplus ordinal goes first, at once") {
    const SimulationResult result =
        run(node("w1", "2") + "," + stateful_set(R"("replicas": 3)"),
            R"({"at": "10s", "patch": {"kind": "StatefulSet", "name": "web",
                                    "merge": {"spec": {"replicas": 1}}}})");
    CHECK(events(result, "SuccessfulDelete") ==
          std::vector<std::pair<TimeMs, std::string>>{
              {10'000, "delete Pod web-2 in StatefulSet web successful"},
              {10'000, "delete Pod web-1 in StatefulSet web successful"}});
    CHECK(phases(result) == std::map<std::string, PodPhase>{{"web-0", kRunning}});
  }
}

TEST_CASE("StatefulSet pods are created again under their names", "[sim][statefulset]") {
  SECTION("a deleted pod") {
    const SimulationResult result =
        run(node("w1") + "," + stateful_set(R"("replicas": 2)"),
            R"({"at": "30s", "delete": {"kind": "Pod", "name": "web-0"}})");
    const auto pods = set_pods(result);
    REQUIRE(pods.size() == 2);
    CHECK(*pods.at("web-0")->created == 30'000);
    CHECK(pods.at("web-0")->pod.status.phase == kRunning);
  }
  SECTION("the pods of a node that is gone, elsewhere") {
    const SimulationResult result =
        run(node("w1") + "," + node("w2") + "," + stateful_set(R"("replicas": 2)"),
            R"({"at": "30s", "delete": {"kind": "Node", "name": "w1"}})");
    for (const auto& [name, pod] : set_pods(result)) {
      CHECK(pod->pod.spec.node_name == "w2");
      CHECK(pod->pod.status.phase == kRunning);
    }
  }
  SECTION("a failed pod is deleted, then created again") {
    // The starting cluster's set keeps the uid it carries, so the failed pod is its own.
    const std::string failed = R"({"kind": "Pod", "metadata": {"name": "web-0",
        "labels": {"app": "web"},
        "ownerReferences": [{"kind": "StatefulSet", "name": "web", "uid": "set-uid",
                             "controller": true}]},
        "spec": {"nodeName": "w1", "containers": [{"name": "c"}]}, "status": {"phase": "Failed"}})";
    const SimulationResult result =
        run(node("w1") + "," + stateful_set(R"("replicas": 1)", R"(, "uid": "set-uid")") + "," +
            failed);
    CHECK(events(result, "SuccessfulDelete") ==
          std::vector<std::pair<TimeMs, std::string>>{
              {0, "delete Pod web-0 in StatefulSet web successful"}});
    const auto pods = set_pods(result);
    REQUIRE(pods.size() == 1);
    CHECK(pods.at("web-0")->pod.status.phase == kRunning);
    CHECK(pods.at("web-0")->pod.metadata.owner_references.front().uid == "set-uid");
  }
}

TEST_CASE("a snapshot's StatefulSet keeps its pods and replaces what goes missing",
          "[sim][statefulset]") {
  const test::TempDir dir;
  auto pod = [](const std::string& name) {
    return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + name +
           R"(", "namespace": "serving", "uid": "uid-)" + name + R"(",
        "creationTimestamp": "2026-11-30T08:00:00Z", "labels": {"app": "web"},
        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "web",
                             "uid": "7f1c", "controller": true, "blockOwnerDeletion": true}]},
        "spec": {"nodeName": "w1", "containers": [{"name": "c",
                 "resources": {"requests": {"cpu": "1"}}}]},
        "status": {"phase": "Running", "startTime": "2026-11-30T08:00:05Z",
                   "conditions": [{"type": "Ready", "status": "True"}]}})";
  };
  const std::string set = R"({"apiVersion": "apps/v1", "kind": "StatefulSet",
      "metadata": {"name": "web", "namespace": "serving", "uid": "7f1c",
                   "creationTimestamp": "2026-11-30T07:59:00Z"},
      "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
               "template": {"metadata": {"labels": {"app": "web"}},
                            "spec": {"containers": [{"name": "c",
                                     "resources": {"requests": {"cpu": "1"}}}]}}},
      "status": {"replicas": 2, "readyReplicas": 2}})";
  // web-2 is missing from the dump (being created when it was taken).
  const std::string file =
      dir.write("snap.json", R"({"apiVersion": "v1", "kind": "List", "items": [)" + node("w1") +
                                 "," + pod("web-0") + "," + set + "," + pod("web-1") + "]}");
  const io::Snapshot snapshot = io::load_snapshot(file);
  CHECK(snapshot.notes.empty());
  const SimulationResult result = simulate(snapshot.scenario);
  std::map<std::string, std::string> uids;
  for (const PodRecord& p : result.pods) uids.emplace(p.pod.metadata.name, p.pod.metadata.uid);
  CHECK(uids.size() == 3);
  CHECK(uids.at("web-0") == "uid-web-0");
  CHECK(uids.at("web-1") == "uid-web-1");
  std::vector<std::string> created;
  for (const EventRecord& e : result.events) {
    if (e.reason == "SuccessfulCreate") created.push_back(e.message);
  }
  CHECK(created == std::vector<std::string>{"create Pod web-2 in StatefulSet web successful"});
}

TEST_CASE("a PodDisruptionBudget over a StatefulSet counts its replicas", "[sim][statefulset]") {
  // getExpectedScale reads the StatefulSet's spec.replicas (getPodStatefulSet): maxUnavailable 1
  // of 3 with only 2 pods running (the third Pending) leaves no disruption allowed.
  const Scenario scenario = io::parse_scenario(
      R"({"name": "pdb", "cluster": [)" + node("w1", "2") + "," +
          stateful_set(R"("replicas": 3, "podManagementPolicy": "Parallel")") + R"(,
        {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "web"},
         "spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app": "web"}}}}],
       "expect": [{"at": "end", "pdb": "default/web", "expectedPods": 3, "currentHealthy": 2,
                   "desiredHealthy": 2, "disruptionsAllowed": 0}]})",
      "pdb.json");
  const SimulationResult result = simulate(scenario);
  REQUIRE(result.expectations.size() == 1);
  INFO(result.expectations[0].message);
  CHECK(result.expectations[0].ok);
}

}  // namespace
}  // namespace gpusched
