#include "io/object_json.hpp"
#include "unit/io/object_text.hpp"

#include <catch2/catch.hpp>

#include <string>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"

namespace gpusched {
namespace {

Object parse(const std::string& text) {
  return test::parse_object_text(text);
}

const char* const kRichObjects = R"({"name": "rich", "cluster": [
  {"kind": "Node", "metadata": {"name": "w1", "uid": "u1", "labels": {"zone": "a"},
                                "annotations": {"note": "x"}},
   "spec": {"unschedulable": true, "taints": [{"key": "gpu", "effect": "NoExecute"}]},
   "status": {"capacity": {"cpu": "8", "memory": "32Gi"}, "allocatable": {"cpu": "7500m"},
              "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]}},
  {"kind": "Pod", "metadata": {"name": "p", "namespace": "ns",
     "ownerReferences": [{"kind": "ReplicaSet", "name": "rs", "uid": "9", "controller": true}]},
   "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "250m"},
                                                       "limits": {"nvidia.com/gpu": 1}},
                            "ports": [{"name": "http", "containerPort": 80, "hostPort": 80,
                                       "protocol": "UDP", "hostIP": "10.0.0.1"}]}],
            "initContainers": [{"name": "i", "restartPolicy": "Always",
                                "resources": {"requests": {"memory": "1Gi"}}}],
            "overhead": {"cpu": "100m"}, "nodeSelector": {"a": "b"},
            "affinity": {"nodeAffinity": {
              "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "k", "operator": "NotIn", "values": ["x", "y"]}]}]},
              "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 100, "preference": {"matchFields": [
                  {"key": "metadata.name", "operator": "NotIn", "values": ["w2"]}]}}]}},
            "tolerations": [{"key": "gpu", "operator": "Exists", "effect": "NoExecute",
                             "tolerationSeconds": 10}],
            "priority": -5, "priorityClassName": "low", "preemptionPolicy": "PreemptLowerPriority",
            "nodeName": "w1", "restartPolicy": "OnFailure", "terminationGracePeriodSeconds": 7},
   "status": {"phase": "Running", "nominatedNodeName": "w3",
              "conditions": [{"type": "PodScheduled", "status": "True"}]}},
  {"kind": "ReplicaSet", "metadata": {"name": "rs", "namespace": "ns"},
   "spec": {"replicas": 4,
            "selector": {"matchLabels": {"app": "a"},
                         "matchExpressions": [{"key": "tier", "operator": "Exists"}]},
            "template": {"metadata": {"labels": {"app": "a", "tier": "t"}},
                         "spec": {"containers": [{}]}}}},
  {"kind": "Deployment", "metadata": {"name": "d"},
   "spec": {"replicas": 0, "template": {"metadata": {"labels": {"app": "d"}},
                                        "spec": {"containers": [{}]}}}},
  {"kind": "Job", "metadata": {"name": "j"},
   "spec": {"parallelism": 2, "completions": 8,
            "template": {"metadata": {"annotations": {"gpusched.io/run-duration": "1m30s"}},
                         "spec": {"restartPolicy": "Never", "containers": [{}]}}}},
  {"kind": "DaemonSet", "metadata": {"name": "ds", "namespace": "kube-system"},
   "spec": {"selector": {"matchLabels": {"name": "ds"}},
            "template": {"metadata": {"labels": {"name": "ds"}},
                         "spec": {"priorityClassName": "system-node-critical",
                                  "nodeSelector": {"gpu": "true"},
                                  "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists",
                                                   "effect": "NoSchedule"}],
                                  "containers": [{"resources": {"requests": {"cpu": "50m"}}}]}}}}
]})";

TEST_CASE("objects survive parse -> to_json -> parse", "[io]") {
  const Scenario s = io::parse_scenario(kRichObjects, "rich.json");
  REQUIRE(s.cluster.size() == 6);
  for (const Object& object : s.cluster) {
    const std::string text = io::to_json_text(object);
    INFO(text);
    CHECK(parse(text) == object);
  }
}

TEST_CASE("to_json writes Kubernetes JSON", "[io]") {
  const Object pod = parse(
      R"({"kind": "Pod", "metadata": {"name": "p"},
          "spec": {"containers": [{"resources": {"limits": {"memory": 1073741824}}}]}})");
  const nlohmann::json json = io::to_json(pod);
  CHECK(json["apiVersion"] == "v1");
  CHECK(json["kind"] == "Pod");
  CHECK(json["metadata"] == nlohmann::json{{"name", "p"}, {"namespace", "default"}});
  CHECK(json["spec"]["containers"][0]["resources"]["requests"]["memory"] == "1073741824");
  CHECK(json["status"]["phase"] == "Pending");
  CHECK(io::to_json(parse(R"({"kind": "Job", "metadata": {"name": "j"},
      "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{}]}}}})"))
            ["apiVersion"] == "batch/v1");
}

TEST_CASE("apply_merge_patch merges, validates and keeps identity", "[io]") {
  Object node = parse(R"({"kind": "Node", "metadata": {"name": "w1", "labels": {"a": "1"}},
                          "spec": {"taints": [{"key": "t", "effect": "NoSchedule"}]},
                          "status": {"capacity": {"cpu": "4"}}})");
  meta_of(node).creation_ms = 1234;

  SECTION("adds a resource as a device plugin does") {
    const Object patched = io::apply_merge_patch(
        node, R"({"status": {"allocatable": {"nvidia.com/gpu": "2"}}})", "s.json", "/timeline/3");
    const Node& n = std::get<Node>(patched);
    CHECK(n.allocatable.at("nvidia.com/gpu") == Quantity::from_units(2));
    CHECK(n.allocatable.at("cpu") == Quantity::from_units(4));
    CHECK(n.capacity.count("nvidia.com/gpu") == 0);
    CHECK(n.metadata.creation_ms == 1234);
    CHECK(n.metadata.labels == Labels{{"a", "1"}});
  }
  SECTION("null removes a field and a list is replaced whole") {
    const Object patched = io::apply_merge_patch(
        node, R"({"metadata": {"labels": {"a": null, "b": "2"}}, "spec": {"taints": []}})",
        "s.json", "/timeline/3");
    const Node& n = std::get<Node>(patched);
    CHECK(n.metadata.labels == Labels{{"b", "2"}});
    CHECK(n.taints.empty());
  }
  SECTION("an invalid result is an error under /patch/merge") {
    try {
      (void)io::apply_merge_patch(node, R"({"status": {"allocatable": {"cpu": "-2"}}})", "s.json",
                                  "/timeline/3");
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK(e.file() == "s.json");
      CHECK(e.pointer() == "/timeline/3/patch/merge/status/allocatable/cpu");
      CHECK(e.line() == 0);
      CHECK(e.reason() ==
            "The Node \"w1\" is invalid: status.allocatable.cpu: Invalid value: \"-2\": must be "
            "greater than or equal to 0");
    }
  }
  SECTION("the name may not change") {
    try {
      (void)io::apply_merge_patch(node, R"({"metadata": {"name": "w2"}})", "s.json", "/timeline/3");
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK(e.pointer() == "/timeline/3/patch/merge/metadata/name");
      CHECK(e.reason() == "a patch may not change metadata.name");
    }
  }
  SECTION("a pod patch keeps its virtual times") {
    Object pod = parse(R"({"kind": "Pod", "metadata": {"name": "p"},
                           "spec": {"containers": [{}]},
                           "status": {"conditions": [{"type": "PodScheduled", "status": "True"}]}})");
    Pod& p = std::get<Pod>(pod);
    p.status.start_ms = 50;
    p.status.conditions[0].last_transition_ms = 40;
    const Object patched =
        io::apply_merge_patch(pod, R"({"spec": {"priority": 7}})", "s.json", "/timeline/0");
    const Pod& after = std::get<Pod>(patched);
    CHECK(after.spec.priority == 7);
    CHECK(after.status.start_ms == 50);
    CHECK(after.status.conditions.at(0).last_transition_ms == 40);
  }
}

}  // namespace
}  // namespace gpusched
