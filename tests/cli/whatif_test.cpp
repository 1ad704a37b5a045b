// `gpusched whatif` and `gpusched snapshot` on the bundled live-cluster snapshot.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
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
const std::string kTerminatedNote =
    "gpusched: warning: " + kSnapshot +
    ": 1 terminated pod (Succeeded or Failed) left out: they hold no resources\n";

TEST_CASE("whatif says where each added pod lands and whom it preempts", "[cli][whatif]") {
  const auto result = run_cli({"whatif", "--cluster", kSnapshot, "--add", kInference});
  CHECK(result.code == 0);
  CHECK(result.err == kTerminatedNote);
  const std::string expected =
      "What if on snapshot gpu-lab.json taken at 2026-11-30T08:05:02Z (17 objects), settled at "
      "30s\n"
      "\n"
      "ADDED PODS\n"
      "NAMESPACE   NAME                  STATUS    NODE     NOMINATED NODE   VICTIMS\n"
      "serving     llm-68655b5fb-bqpwp   Running   gpu-b1   <none>           0\n"
      // The default release (1.36) clears a nomination when the pod binds.
      "serving     llm-68655b5fb-ljlfw   Running   gpu-a1   <none>           1\n"
      "\n"
      "PODS WAITING IN THE SNAPSHOT\n"
      "NAMESPACE   NAME           STATUS    NODE     NOMINATED NODE   VICTIMS\n"
      "research    notebook-lee   Pending   <none>   <none>           0\n"
      "\n"
      "WHY NOT SCHEDULED\n"
      "research/notebook-lee: 0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 "
      "Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/3 nodes are "
      "available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for "
      "incoming pod.\n"
      "\n"
      "PREEMPTIONS\n"
      "serving/llm-68655b5fb-ljlfw  on gpu-a1  evicts ml/train-a-0-7wx89  (priority 100, 2 GPUs, "
      "ran 3h2m51s)\n"
      "\n"
      "2 of 2 added pods would get a node\n";
  CHECK(result.out == expected);
}

TEST_CASE("whatif exits 1 when an added pod gets no node, and says why", "[cli][whatif]") {
  const TempDir dir;
  const std::string big = dir.write("big.yaml", R"(apiVersion: v1
kind: Pod
metadata:
  name: big
  namespace: research
spec:
  tolerations:
  - {key: nvidia.com/gpu, operator: Exists}
  containers:
  - name: main
    image: x
    resources:
      limits: {nvidia.com/gpu: 8}
)");
  const auto result = run_cli({"whatif", "--cluster", kSnapshot, "--add", big, "-o", "json"});
  CHECK(result.code == 1);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["allAddedBound"] == false);
  REQUIRE(json["pods"].size() == 2);
  const auto& pod = json["pods"][0];
  CHECK(pod["pod"] == "research/big");
  CHECK(pod["added"] == true);
  CHECK(pod["status"] == "Pending");
  CHECK(pod["node"].is_null());
  CHECK(pod["reason"] == "Unschedulable");
  // 1.36 (the default): 8 GPUs exceed every node's allocatable, so preemption cannot help.
  CHECK(pod["message"] ==
        "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient "
        "nvidia.com/gpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 "
        "Preemption is not helpful for scheduling.");
  CHECK(json["pods"][1]["pod"] == "research/notebook-lee");
  CHECK(json["pods"][1]["added"] == false);
}

TEST_CASE("whatif needs a cluster and an addition, and refuses bad input with exit 2",
          "[cli][whatif]") {
  const TempDir dir;
  CHECK(run_cli({"whatif", "--cluster", kSnapshot}).code == 2);
  CHECK(run_cli({"whatif", "--add", kInference}).code == 2);
  CHECK(
      run_cli({"whatif", "--cluster", kSnapshot, "--add", kInference, "--taken-at", "noon"}).code ==
      2);
  const std::string broken = dir.write("broken.yaml", "kind: Pod\nmetadata: [1\n");
  const auto result = run_cli({"whatif", "--cluster", kSnapshot, "--add", broken});
  CHECK(result.code == 2);
  CHECK(result.out.empty());
  CHECK(result.err.find("gpusched: error: " + broken + ":") != std::string::npos);
}

TEST_CASE("snapshot summarizes what the cluster holds", "[cli][snapshot]") {
  const auto result = run_cli({"snapshot", kSnapshot});
  CHECK(result.code == 0);
  CHECK(result.out ==
        "snapshot gpu-lab.json taken at 2026-11-30T08:05:02Z (17 objects)\n"
        "nodes: 3, nvidia.com/gpu allocatable: 8, requested by bound pods: 6\n"
        "pods bound: 8\n"
        "pods waiting for a node: 1\n");
}

TEST_CASE("snapshot --to-scenario writes a scenario that check passes", "[cli][snapshot]") {
  const auto written = run_cli({"snapshot", kSnapshot, "--to-scenario", "--add", kInference,
                                "--name", "gpu-lab-inference", "--seed", "7"});
  REQUIRE(written.code == 0);
  const auto json = nlohmann::json::parse(written.out);
  CHECK(json["name"] == "gpu-lab-inference");
  CHECK(json["startTime"] == "2026-11-30T08:05:02Z");
  CHECK(json["scheduler"]["seed"] == 7);
  CHECK(json["cluster"].size() == 18);
  // Each pod the replay placed, the waiting one, and the phase counts.
  REQUIRE(json["expect"].size() == 4);
  CHECK(json["expect"][3] ==
        nlohmann::json::parse(
            R"({"at": "end", "pods": "*/*", "phases": {"Pending": 1, "Running": 9}})"));
  const TempDir dir;
  const std::string file = dir.write("gpu-lab-inference.json", written.out);
  const auto checked = run_cli({"check", file});
  CHECK(checked.code == 0);
  CHECK(checked.out.find("PASS") == 0);
}

}  // namespace
}  // namespace gpusched::cli
