// `gpusched snapshot` and `gpusched whatif` on a snapshot holding Dynamic Resource Allocation's
// objects (scenarios/snapshots/dra-lab.json, as `kubectl get
// nodes,pods,resourceslices,resourceclaims,resourceclaimtemplates,deviceclasses -A -o json`
// prints it): one node whose ResourceSlice publishes two GPUs, one running pod holding gpu-0
// through a claim made from a template. Of two pods added with the same template
// (scenarios/manifests/dra-training-pods.yaml), the first gets gpu-1, the second none.
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
const std::string kSnapshot = kSource + "/scenarios/snapshots/dra-lab.json";
const std::string kPods = kSource + "/scenarios/manifests/dra-training-pods.yaml";
// DynamicResources' Filter rejects the node (UnschedulableAndUnresolvable), its PostFilter has
// no claim to deallocate ("still not schedulable"), and DefaultPreemption finds preemption
// cannot help (plugins/dynamic_resources.cpp).
const std::string kNoDevice =
    "0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, preemption: "
    "0/1 nodes are available: 1 Preemption is not helpful for scheduling.";

TEST_CASE("snapshot counts the DRA objects, the devices published and those allocated",
          "[cli][snapshot][dra]") {
  const auto result = run_cli({"snapshot", kSnapshot});
  CHECK(result.code == 0);
  CHECK(result.err.empty());
  CHECK(result.out ==
        "snapshot dra-lab.json taken at 2026-12-02T09:59:41Z (6 objects)\n"
        "nodes: 1, nvidia.com/gpu allocatable: 0, requested by bound pods: 0\n"
        "pods bound: 1\n"
        "resource.k8s.io: 1 DeviceClass, 1 ResourceClaim, 1 ResourceClaimTemplate, 1 "
        "ResourceSlice\n"
        "DRA devices published: 2, allocated to claims: 1\n");
}

TEST_CASE("whatif gives the free GPU to the first pod's claim and says why the second waits",
          "[cli][whatif][dra]") {
  const auto result = run_cli({"whatif", "--cluster", kSnapshot, "--add", kPods});
  CHECK(result.code == 1);
  CHECK(result.err.empty());
  CHECK(result.out ==
        "What if on snapshot dra-lab.json taken at 2026-12-02T09:59:41Z (6 objects), settled at "
        "0s\n"
        "\n"
        "ADDED PODS\n"
        "NAMESPACE   NAME      STATUS    NODE         NOMINATED NODE   VICTIMS\n"
        "ml          train-b   Running   dra-h100-1   <none>           0\n"
        "ml          train-c   Pending   <none>       <none>           0\n"
        "\n"
        "RESOURCE CLAIMS\n"
        "POD          CLAIM               ALLOCATED   NODE         DEVICES\n"
        "ml/train-b   train-b-gpu-vr4mz   true        dra-h100-1   "
        "gpu=gpu.nvidia.com/dra-h100-1/gpu-1\n"
        "ml/train-c   train-c-gpu-8lt7m   false       <none>       <none>\n"
        "\n"
        "WHY NOT SCHEDULED\n"
        "ml/train-c: " +
            kNoDevice +
            "\n"
            "\n"
            "1 of 2 added pods would get a node\n");
}

TEST_CASE("whatif --output json lists each added pod's claims as the result does",
          "[cli][whatif][dra]") {
  const auto result = run_cli({"whatif", "--cluster", kSnapshot, "--add", kPods, "-o", "json"});
  CHECK(result.code == 1);
  const auto json = nlohmann::json::parse(result.out);
  REQUIRE(json["pods"].size() == 2);
  const auto& b = json["pods"][0];
  CHECK(b["pod"] == "ml/train-b");
  CHECK(b["node"] == "dra-h100-1");
  CHECK(b["resourceClaims"] == nlohmann::json::parse(R"([{"namespace": "ml",
    "name": "train-b-gpu-vr4mz", "owner": "Pod/ml/train-b", "allocated": true,
    "node": "dra-h100-1", "devices": [{"request": "gpu", "driver": "gpu.nvidia.com",
    "pool": "dra-h100-1", "device": "gpu-1"}], "reservedFor": ["Pod/ml/train-b"]}])"));
  const auto& c = json["pods"][1];
  CHECK(c["pod"] == "ml/train-c");
  CHECK(c["status"] == "Pending");
  CHECK(c["reason"] == "Unschedulable");
  CHECK(c["message"] == kNoDevice);
  REQUIRE(c["resourceClaims"].size() == 1);
  CHECK(c["resourceClaims"][0]["allocated"] == false);
  CHECK(c["resourceClaims"][0]["devices"].empty());
}

TEST_CASE("snapshot --to-scenario pins the devices of the claims the replay allocated",
          "[cli][snapshot][dra]") {
  const auto written = run_cli({"snapshot", kSnapshot, "--to-scenario", "--add", kPods});
  REQUIRE(written.code == 0);
  const auto json = nlohmann::json::parse(written.out);
  // The running pod's claim is the snapshot's: not pinned again, and not made anew.
  CHECK(json["expect"] == nlohmann::json::parse(R"([
    {"at": "end", "pod": "ml/train-b", "phase": "Running", "node": "dra-h100-1"},
    {"at": "end", "pod": "ml/train-c", "phase": "Pending", "node": null,
     "message": ")" + kNoDevice + R"("},
    {"at": "end", "claim": "ml/train-b-gpu-vr4mz", "allocated": true, "node": "dra-h100-1",
     "devices": [{"request": "gpu", "driver": "gpu.nvidia.com", "pool": "dra-h100-1",
                  "device": "gpu-1"}],
     "reservedFor": ["Pod/ml/train-b"]},
    {"at": "end", "claim": "ml/train-c-gpu-8lt7m", "allocated": false, "node": null,
     "devices": [], "reservedFor": []},
    {"at": "end", "pods": "*/*", "phases": {"Pending": 1, "Running": 2}}])"));
  const TempDir dir;
  const auto checked = run_cli({"check", dir.write("dra-lab.json", written.out)});
  CHECK(checked.code == 0);
  CHECK(checked.out.find("PASS") == 0);
}

}  // namespace
}  // namespace gpusched::cli

namespace gpusched::cli {
namespace {

TEST_CASE("whatif says a pod waits for a claim its template cannot make", "[cli][whatif][dra]") {
  // The template is not in the dump: the resourceclaim controller's event is the only word on
  // it, and the scheduler never tries the pod (PreEnqueue).
  const test::TempDir dir;
  const std::string pod = dir.write("trainer.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: trainer, namespace: default}
spec:
  resourceClaims: [{name: gpu, resourceClaimTemplateName: missing}]
  containers: [{name: c}]
)");
  const auto result = run_cli({"whatif", "--cluster", kSnapshot, "--add", pod});
  CHECK(result.code == 1);
  CHECK(
      result.out.find("WHY NOT SCHEDULED\n"
                      "default/trainer: waits for its ResourceClaim: PodResourceClaim gpu: "
                      "resource claim template \"missing\": resourceclaimtemplate.resource.k8s.io "
                      "\"missing\" not found\n") != std::string::npos);
}

}  // namespace
}  // namespace gpusched::cli
