// What `whatif` and `snapshot` read besides one dump: several dumps read as one, `--taken-at`,
// the GPU Operator's device-plugin ConfigMap; and what they say of pods and DaemonSets that the
// replay leaves alone.

#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::cli {
namespace {

using test::run_cli;
using test::TempDir;

const std::string kSource = GPUSCHED_SOURCE_DIR;
const std::string kSnapshot = kSource + "/scenarios/snapshots/gpu-lab.json";
const std::string kInference = kSource + "/scenarios/manifests/inference-deployment.yaml";

nlohmann::json read_json(const std::string& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

/// A List of `items`, as `kubectl get -o json` prints it, on one line.
std::string list_text(const nlohmann::json& items) {
  return nlohmann::json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}}.dump();
}

/// The bundled snapshot dumped in two runs: `kubectl get nodes` and then the rest.
struct SplitSnapshot {
  nlohmann::json nodes = nlohmann::json::array();
  nlohmann::json rest = nlohmann::json::array();
  SplitSnapshot() {
    const nlohmann::json snapshot = read_json(kSnapshot);
    for (const nlohmann::json& item : snapshot["items"])
      (item["kind"] == "Node" ? nodes : rest).push_back(item);
  }
};

TEST_CASE("whatif reads nodes and pods dumped in separate files as one snapshot", "[cli][whatif]") {
  const TempDir dir;
  const SplitSnapshot split;
  const std::string nodes = dir.write("nodes.json", list_text(split.nodes));
  const std::string pods = dir.write("pods.json", list_text(split.rest));
  const auto one = run_cli({"whatif", "--cluster", kSnapshot, "--add", kInference});
  const auto two = run_cli({"whatif", "--cluster", nodes, "--cluster", pods, "--add", kInference});
  CHECK(two.code == 0);
  CHECK(two.err == "gpusched: warning: " + nodes + ", " + pods +
                       ": 1 terminated pod (Succeeded or Failed) left out: they hold no "
                       "resources\n");
  // The same answer; only the files named differ.
  std::string expected = one.out;
  const std::string name = "snapshot gpu-lab.json taken";
  expected.replace(expected.find(name), name.size(), "snapshot nodes.json, pods.json taken");
  CHECK(two.out == expected);

  // `kubectl get nodes,pods` after `kubectl get nodes`: a node in both files, unchanged, is one
  // node.
  nlohmann::json again = split.rest;
  again.push_back(split.nodes[1]);
  const std::string overlapping = dir.write("overlapping.json", list_text(again));
  const auto overlap =
      run_cli({"whatif", "--cluster", nodes, "--cluster", overlapping, "--add", kInference});
  CHECK(overlap.code == 0);
  expected.replace(expected.find("pods.json"), 9, "overlapping.json");
  CHECK(overlap.out == expected);

  // Changed in between: two states of one node, and which one holds is unknown.
  again.back()["metadata"]["labels"]["team"] = "vision";
  const std::string changed = dir.write("changed.json", list_text(again));
  const auto differ = run_cli({"snapshot", nodes, changed});
  CHECK(differ.code == 2);
  CHECK(differ.out.empty());
  CHECK(differ.err == "gpusched: error: " + changed + ":1: /items/15: Node \"gpu-a1\" is also at " +
                          nodes +
                          ":1: /items/1, which differs at /metadata/labels/team: the dumps were "
                          "taken at different times; dump them again together, or leave it out "
                          "of one\n");
}

TEST_CASE("snapshot reads several dumps and says how many pods wait for a missing node",
          "[cli][snapshot]") {
  const TempDir dir;
  const SplitSnapshot split;
  const std::string nodes = dir.write("nodes.json", list_text(split.nodes));
  const std::string pods = dir.write("pods.json", list_text(split.rest));
  const auto both = run_cli({"snapshot", nodes, pods});
  CHECK(both.code == 0);
  CHECK(both.out ==
        "snapshot nodes.json, pods.json taken at 2026-11-30T08:05:02Z (17 objects)\n"
        "nodes: 3, nvidia.com/gpu allocatable: 8, requested by bound pods: 6\n"
        "pods bound: 8\n"
        "pods waiting for a node: 1\n");

  // The pods alone: their nodes are missing, one pod on one of them, several on the others.
  const auto alone = run_cli({"snapshot", pods});
  CHECK(alone.code == 0);
  CHECK(alone.err ==
        "gpusched: warning: " + pods +
            ": node \"cp-1\" is not in the snapshot: 3 pods"
            " bound to it run nowhere (phase Unknown) and the pod garbage collector deletes them "
            "once the node has been missing 40 s\n"
            "gpusched: warning: " +
            pods +
            ": node \"gpu-a1\" is not in the snapshot: 3 pods"
            " bound to it run nowhere (phase Unknown) and the pod garbage collector deletes them "
            "once the node has been missing 40 s\n"
            "gpusched: warning: " +
            pods +
            ": node \"gpu-b1\" is not in the snapshot: 2 pods"
            " bound to it run nowhere (phase Unknown) and the pod garbage collector deletes them "
            "once the node has been missing 40 s\n"
            "gpusched: warning: " +
            pods + ": 1 terminated pod (Succeeded or Failed) left out: they hold no resources\n");
  nlohmann::json one = nlohmann::json::array({split.rest[0]});
  const std::string single = dir.write("one.json", list_text(one));
  CHECK(run_cli({"snapshot", single}).err ==
        "gpusched: warning: " + single +
            ": node \"cp-1\" is not in the snapshot: 1 pod"
            " bound to it runs nowhere (phase Unknown) and the pod garbage collector deletes it "
            "once the node has been missing 40 s\n");
}

TEST_CASE("snapshot refuses a --taken-at before an object was created", "[cli][snapshot]") {
  const auto r = run_cli({"snapshot", kSnapshot, "--taken-at", "2026-11-30T07:00:00Z"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "gpusched: error: " + kSnapshot +
                     ":1541: /items/14/metadata/creationTimestamp: Pod \"ml/train-b-0-x8kq2\" was "
                     "created at 2026-11-30T07:44:50Z, after --taken-at 2026-11-30T07:00:00Z: it "
                     "could not be in a snapshot taken then; give a time at or after its "
                     "objects' timestamps, or leave --taken-at out to use the latest\n");
  // At or after every creation and start it is the instant asked for.
  const auto later = run_cli({"snapshot", kSnapshot, "--taken-at", "2026-11-30T09:00:00Z"});
  CHECK(later.code == 0);
  CHECK(
      later.out.starts_with("snapshot gpu-lab.json taken at 2026-11-30T09:00:00Z (17 objects)\n"));
}

TEST_CASE("whatif says when no scheduler profile serves a pod's schedulerName", "[cli][whatif]") {
  const TempDir dir;
  const std::string gang = dir.write("gang.yaml", R"(apiVersion: v1
kind: Pod
metadata:
  name: gang
  namespace: research
spec:
  schedulerName: volcano
  containers:
  - name: main
    image: x
)");
  const auto r = run_cli({"whatif", "--cluster", kSnapshot, "--add", gang});
  CHECK(r.code == 1);
  const std::string why =
      "research/gang: no scheduler profile serves its schedulerName \"volcano\" (this replay "
      "runs default-scheduler): kube-scheduler never tries it and leaves it Pending without a "
      "condition or event\n";
  CHECK(r.out.find("\nWHY NOT SCHEDULED\n" + why) != std::string::npos);
  CHECK(r.out.ends_with("0 of 1 added pods would get a node\n"));
  const auto json = nlohmann::json::parse(
      run_cli({"whatif", "--cluster", kSnapshot, "--add", gang, "-o", "json"}).out);
  CHECK(json["pods"][0]["reason"].is_null());
  CHECK(json["pods"][0]["message"] == why.substr(15, why.size() - 16));
}

TEST_CASE("whatif names a DaemonSet that matches no node", "[cli][whatif]") {
  const TempDir dir;
  const std::string agent = dir.write("agent.yaml", R"(apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: tpu-agent
  namespace: kube-system
spec:
  selector:
    matchLabels: {app: tpu-agent}
  template:
    metadata:
      labels: {app: tpu-agent}
    spec:
      nodeSelector: {cloud.google.com/gke-tpu-accelerator: tpu-v5-lite-podslice}
      containers:
      - name: agent
        image: x
)");
  const auto r = run_cli({"whatif", "--cluster", kSnapshot, "--add", agent});
  CHECK(r.code == 0);
  CHECK(r.err ==
        "gpusched: warning: " + kSnapshot +
            ": 1 terminated pod (Succeeded or Failed) left out: they hold no resources\n"
            "gpusched: notice: " +
            kSnapshot +
            ": DaemonSet kube-system/tpu-agent matched no node in the replay (its nodeName, "
            "nodeSelector and required node affinity against the nodes' labels, its tolerations "
            "against their taints), so it ran no pod\n");
}

/// The bundled snapshot with gpu-a1 time-sliced by the GPU Operator: its label selects the
/// config "ts2", and it advertises each of its 4 GPUs twice.
std::string time_sliced_snapshot(const TempDir& dir) {
  nlohmann::json snapshot = read_json(kSnapshot);
  nlohmann::json& node = snapshot["items"][1];
  REQUIRE(node["metadata"]["name"] == "gpu-a1");
  node["metadata"]["labels"]["nvidia.com/device-plugin.config"] = "ts2";
  node["status"]["capacity"]["nvidia.com/gpu"] = "8";
  node["status"]["allocatable"]["nvidia.com/gpu"] = "8";
  return dir.write("time-sliced.json", snapshot.dump());
}

// As `kubectl get configmap -n gpu-operator device-plugin-config -o yaml` prints it.
constexpr std::string_view kConfigMap = R"(apiVersion: v1
kind: ConfigMap
metadata:
  name: device-plugin-config
  namespace: gpu-operator
data:
  plain: |-
    version: v1
  ts2: |-
    version: v1
    sharing:
      timeSlicing:
        resources:
        - name: nvidia.com/gpu
          replicas: 2
)";

TEST_CASE("whatif and snapshot take the GPU Operator's device-plugin ConfigMap",
          "[cli][whatif][devices]") {
  const TempDir dir;
  const std::string snapshot = time_sliced_snapshot(dir);
  const std::string config_map = dir.write("device-plugin-config.yaml", std::string(kConfigMap));

  // Without it the node names a config gpusched does not have.
  const auto missing = run_cli({"whatif", "--cluster", snapshot, "--add", kInference});
  CHECK(missing.code == 2);
  CHECK(missing.err.ends_with(
      "gpusched: error: " + snapshot +
      ": /items/1: Node \"gpu-a1\": label nvidia.com/device-plugin.config: unknown device-plugin "
      "config \"ts2\" (no configs are given): the GPU Operator's config-manager stops with "
      "\"specified config ts2 does not exist\" and the device plugin does not start on the "
      "node\n"));

  // With it, gpu-a1's 8 shared GPUs have room for a replica without preempting.
  const auto r =
      run_cli({"whatif", "--cluster", snapshot, "--add", kInference, "--device-plugin-config",
               config_map, "--device-plugin-default", "plain"});
  CHECK(r.code == 0);
  CHECK(r.out.find("PREEMPTIONS") == std::string::npos);
  CHECK(r.out.ends_with("2 of 2 added pods would get a node\n"));

  // The scenario written keeps the configs, and replays as the run did.
  const auto written = run_cli({"snapshot", snapshot, "--to-scenario", "--add", kInference,
                                "--device-plugin-config", config_map});
  REQUIRE(written.code == 0);
  const auto json = nlohmann::json::parse(written.out);
  CHECK(json["devicePlugin"] == nlohmann::json::parse(R"({"configs": {
      "plain": {"version": "v1", "flags": {"migStrategy": "none", "plugin":
                {"deviceIDStrategy": "uuid", "sharedDevicesAllocationPolicy": "distributed"}}},
      "ts2": {"version": "v1", "flags": {"migStrategy": "none", "plugin":
                {"deviceIDStrategy": "uuid", "sharedDevicesAllocationPolicy": "distributed"}},
              "sharing": {"timeSlicing": {"renameByDefault": false,
                  "failRequestsGreaterThanOne": false,
                  "resources": [{"name": "nvidia.com/gpu", "replicas": 2}]}}}}})"));
  const std::string file = dir.write("time-sliced-scenario.json", written.out);
  CHECK(run_cli({"check", file}).code == 0);
}

TEST_CASE("a device-plugin ConfigMap's errors name the file, the key and the place in it",
          "[cli][whatif][devices]") {
  const TempDir dir;
  const std::string snapshot = time_sliced_snapshot(dir);
  std::string text(kConfigMap);
  text.replace(text.find("replicas: 2"), 11, "replicas: 1");
  const std::string bad = dir.write("bad.yaml", text);
  const auto r = run_cli(
      {"whatif", "--cluster", snapshot, "--add", kInference, "--device-plugin-config", bad});
  CHECK(r.code == 2);
  CHECK(r.err == "gpusched: error: " + bad +
                     ":9: /data/ts2: ts2:6: /sharing/timeSlicing/resources/0/replicas: number "
                     "of replicas must be >= 2\n");

  const std::string config_map = dir.write("device-plugin-config.yaml", std::string(kConfigMap));
  const auto unknown =
      run_cli({"whatif", "--cluster", snapshot, "--add", kInference, "--device-plugin-config",
               config_map, "--device-plugin-default", "ts4"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err ==
        "gpusched: error: --device-plugin-default: \"ts4\" is not a key of " + config_map + "\n");
}

}  // namespace
}  // namespace gpusched::cli
