// Unknown fields of Kubernetes objects: ignored, and listed as Scenario::warnings for --strict
// (io/api_fields.hpp, JsonNode::note_unknown_keys).

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/snapshot.hpp"
#include "support/temp_dir.hpp"

namespace gpusched {
namespace {

namespace fs = std::filesystem;

const fs::path kScenarios = fs::path(GPUSCHED_SOURCE_DIR) / "scenarios";

/// A Deployment (typos on lines 6, 13, 18 and 22) and a Pod (lines 30 and 36), as YAML.
constexpr const char* kTyposYaml = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replica: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      nodeSelecter: {gpu: "true"}
      containers:
      - name: main
        image: nginx:1.27
        resources:
          limit: {nvidia.com/gpu: 1}
      tolerations:
      - key: gpu
        operator: Exists
        efect: NoSchedule
---
apiVersion: v1
kind: Pod
metadata:
  name: p
  labels:
    app: x
  namespce: default
spec:
  containers:
  - name: c
    ports:
    - containerPort: 80
      hostport: 8080
)";

/// A scenario including typos.yaml, with typos of its own on lines 5, 7, 9, 11 and 15.
constexpr const char* kTyposJson = R"({
  "name": "typos",
  "include": ["typos.yaml"],
  "cluster": [
    {"kind": "Node", "metadata": {"name": "w1", "lables": {"a": "b"}},
     "spec": {"taints": [{"key": "gpu", "effect": "NoSchedule",
                          "valeu": "x"}]},
     "status": {"capacity": {"cpu": "4"}, "conditions": [{"type": "Ready", "status": "True",
                                                          "reasn": "KubeletReady"}]}},
    {"kind": "List", "items": [],
     "metdata": {}}
  ],
  "timeline": [
    {"at": "1s", "apply": {"kind": "PriorityClass", "metadata": {"name": "high"}, "value": 10,
                           "globaldefault": false}}
  ]
})";

TEST_CASE("the bundled scenarios, manifests and snapshots name only API fields", "[io][strict]") {
  std::size_t loaded = 0;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(kScenarios)) {
    const fs::path ext = entry.path().extension();
    if (ext != ".json" && ext != ".yaml" && ext != ".yml") continue;
    if (io::is_manifest_file(entry.path())) continue;
    INFO(entry.path().string());
    CHECK(io::load_scenario(entry.path()).warnings.empty());
    ++loaded;
  }
  CHECK(loaded > 40);
  // Real dumps (`kubectl get -o json`) full of fields gpusched does not model: managedFields,
  // status.containerStatuses, nodeInfo, volumes, securityContext, ...
  for (const char* snapshot : {"snapshots/gpu-lab.json", "manifests/kind-cluster.json"}) {
    for (const char* addition :
         {"manifests/inference-deployment.yaml", "manifests/gpu-device-plugin-daemonset.yaml",
          "manifests/training-job.yaml"}) {
      INFO(snapshot << " + " << addition);
      io::SnapshotOptions options;
      options.additions = {kScenarios / addition};
      CHECK(io::load_snapshot(kScenarios / snapshot, options).scenario.warnings.empty());
    }
  }
}

TEST_CASE("unknown fields are warnings naming the file, line and pointer", "[io][strict]") {
  const test::TempDir dir;
  const std::string yaml = dir.write("typos.yaml", kTyposYaml);
  const std::string json = dir.write("typos.json", kTyposJson);
  const Scenario scenario = io::load_scenario(json);
  // In the order the loader meets them: the scenario's `kind: List` entry while collecting the
  // cluster, the cluster's objects (the scenario's own, then the included file's), the timeline.
  const std::vector<std::string> expected = {
      json + ":11: /cluster/1/metdata: unknown field \"metdata\"",
      json + ":5: /cluster/0/metadata/lables: unknown field \"lables\"",
      json + ":7: /cluster/0/spec/taints/0/valeu: unknown field \"valeu\"",
      json + ":9: /cluster/0/status/conditions/0/reasn: unknown field \"reasn\"",
      yaml + ":6: /0/spec/replica: unknown field \"replica\"",
      yaml + ":13: /0/spec/template/spec/nodeSelecter: unknown field \"nodeSelecter\"",
      yaml + ":18: /0/spec/template/spec/containers/0/resources/limit: unknown field \"limit\"",
      yaml + ":22: /0/spec/template/spec/tolerations/0/efect: unknown field \"efect\"",
      yaml + ":30: /1/metadata/namespce: unknown field \"namespce\"",
      yaml + ":36: /1/spec/containers/0/ports/0/hostport: unknown field \"hostport\"",
      json + ":15: /timeline/0/apply/globaldefault: unknown field \"globaldefault\"",
  };
  CHECK(scenario.warnings == expected);
  // Ignored, as the API server ignores them: the typo's intent is lost.
  CHECK(std::get<Deployment>(scenario.cluster[1]).replicas == 1);
}

TEST_CASE("a snapshot's and its additions' unknown fields are warnings", "[io][strict]") {
  const test::TempDir dir;
  const std::string snapshot = dir.write("snap.json", R"({"kind": "List", "items": [
  {"kind": "Node", "metadata": {"name": "w1"},
   "status": {"capacity": {"cpu": "4"}, "allocatabel": {"cpu": "4"}}}
]})");
  const std::string addition = dir.write("typos.yaml", kTyposYaml);
  io::SnapshotOptions options;
  options.additions = {addition};
  const std::vector<std::string> warnings = io::load_snapshot(snapshot, options).scenario.warnings;
  REQUIRE(warnings.size() == 7);
  CHECK(warnings[0] == snapshot + ":3: /items/0/status/allocatabel: unknown field \"allocatabel\"");
  CHECK(warnings[1] == addition + ":6: /0/spec/replica: unknown field \"replica\"");
}

}  // namespace
}  // namespace gpusched
