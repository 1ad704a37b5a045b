// The result lists pods in ClusterState's key order ("namespace/name" compared as one string),
// whatever order the storage hands them over in, and pods asking the same request (from one
// template, or written alike) share it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

TEST_CASE("result pods are in key order and pods asking alike share one request", "[sim][result]") {
  const std::string text = R"({"name": "order", "cluster": [
      {"kind": "Node", "metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "8"}}},
      {"kind": "Pod", "metadata": {"name": "z", "namespace": "a"},
       "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}]}},
      {"kind": "Pod", "metadata": {"name": "x", "namespace": "a-b"},
       "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}]}},
      {"kind": "Pod", "metadata": {"name": "y", "namespace": "a"},
       "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "200m"}}}]}},
      {"kind": "ReplicaSet", "metadata": {"name": "rs", "namespace": "b"},
       "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "w"}},
                "template": {"metadata": {"labels": {"app": "w"}},
                             "spec": {"containers": [{"name": "c",
                               "resources": {"requests": {"cpu": "300m"}}}]}}}}]})";
  const SimulationResult result = simulate(io::parse_scenario(text, "order.json"));
  std::vector<std::string> keys;
  for (const PodRecord& r : result.pods) keys.push_back(r.pod.key());
  REQUIRE(keys.size() == 6);
  // '-' sorts before '/': "a-b/x" comes before "a/y".
  CHECK(std::vector<std::string>(keys.begin(), keys.begin() + 3) ==
        std::vector<std::string>{"a-b/x", "a/y", "a/z"});
  for (std::size_t i = 3; i < 6; ++i) CHECK(keys[i].starts_with("b/rs-"));
  CHECK(std::is_sorted(keys.begin(), keys.end()));
  CHECK(result.pods[1].requests.at("cpu").milli() == 200);
  CHECK(result.pods[3].requests.at("cpu").milli() == 300);
  CHECK(result.pods[3].requests.shares(result.pods[4].requests));
  CHECK(result.pods[4].requests.shares(result.pods[5].requests));
  // a/z and a-b/x, written alike and created one after the other, share theirs too; a/y does
  // not ask the same.
  CHECK(result.pods[0].requests.shares(result.pods[2].requests));
  CHECK_FALSE(result.pods[1].requests.shares(result.pods[0].requests));
  CHECK_FALSE(result.pods[1].requests.shares(result.pods[2].requests));
}

TEST_CASE("a result's node records list their pods in bind order, as the live view does",
          "[sim][result]") {
  // The result fills its node records' pod keys in after the pods became records (by each
  // pod's place in key order); the live view reads them from the pods: both give bind order,
  // which here is creation order, not key order.
  const std::string text = R"({"name": "bind-order", "cluster": [
      {"kind": "Node", "metadata": {"name": "n1", "labels": {"kubernetes.io/hostname": "n1"}},
       "status": {"allocatable": {"cpu": "1"}}},
      {"kind": "Node", "metadata": {"name": "n2", "labels": {"kubernetes.io/hostname": "n2"}},
       "status": {"allocatable": {"cpu": "1"}}},
      {"kind": "Pod", "metadata": {"name": "z", "namespace": "a"},
       "spec": {"nodeSelector": {"kubernetes.io/hostname": "n2"},
                "containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}]}},
      {"kind": "Pod", "metadata": {"name": "x", "namespace": "a-b"},
       "spec": {"nodeSelector": {"kubernetes.io/hostname": "n2"},
                "containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}]}},
      {"kind": "Pod", "metadata": {"name": "w"},
       "spec": {"nodeSelector": {"kubernetes.io/hostname": "n1"},
                "containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}]}},
      {"kind": "Pod", "metadata": {"name": "y", "namespace": "a"},
       "spec": {"nodeSelector": {"kubernetes.io/hostname": "n2"},
                "containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}]}}]})";
  Simulator simulator(io::parse_scenario(text, "bind-order.json"));
  while (simulator.step()) {
  }
  const std::vector<NodeRecord> live = simulator.nodes();
  const SimulationResult result = simulator.finish();
  REQUIRE(result.nodes.size() == 2);
  CHECK(result.nodes[0].node.metadata.name == "n1");
  CHECK(result.nodes[0].pods == std::vector<std::string>{"default/w"});
  CHECK(result.nodes[1].pods == std::vector<std::string>{"a/z", "a-b/x", "a/y"});
  REQUIRE(live.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) CHECK(live[i].pods == result.nodes[i].pods);
  // Pods that name no namespace, or "default", share the default's text.
  CHECK(result.pods.back().pod.metadata.name == "w");
  CHECK(result.pods.back().pod.metadata.namespace_.shares(pod_defaults().default_namespace));
}

}  // namespace
}  // namespace gpusched
