// DynamicResources and the resourceclaim controller in a replay: the paths the example scenarios
// do not take (deallocation at PostFilter, a claim the pod does not own, a claim deleted while in
// use, a claim in flight for another pod, the reservedFor limit), each with upstream's text.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"
#include "unit/sim/result_lookup.hpp"

namespace gpusched {
namespace {

using testing::has_event;
using testing::pod_named;

constexpr const char* kCluster = R"(
  {"kind": "Node", "metadata": {"name": "n1"},
   "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}},
  {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
   "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}]}},
  {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "n1-gpus"},
   "spec": {"driver": "gpu.example.com", "nodeName": "n1",
            "pool": {"name": "n1", "generation": 1, "resourceSliceCount": 1},
            "devices": [{"name": "gpu-0"}]}},
  {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
   "metadata": {"name": "one-gpu", "namespace": "default"},
   "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}}})";

std::string pod(const std::string& name, const std::string& claims,
                const std::string& status = "") {
  return R"({"kind": "Pod", "metadata": {"name": ")" + name +
         R"(", "namespace": "default", "uid": "uid-)" + name + R"("},
             "spec": {"resourceClaims": )" +
         claims + R"(, "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]})" +
         status + "}";
}

std::string claim(const std::string& name, const std::string& status = "") {
  return R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
             "metadata": {"name": ")" +
         name + R"(", "namespace": "default"},
             "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}})" +
         status + "}";
}

SimulationResult run(const std::string& objects, const std::string& version = "1.36",
                     const std::string& timeline = "[]", const std::string& until = "10m") {
  const Scenario scenario =
      io::parse_scenario(R"({"name": "t", "scheduler": {"seed": 1, "kubernetesVersion": ")" +
                             version + R"("}, "until": ")" + until + R"(", "cluster": [)" +
                             kCluster + "," + objects + R"(], "timeline": )" + timeline + "}",
                         "t.json");
  return simulate(scenario);
}

const ResourceClaimRecord* claim_named(const SimulationResult& result, const std::string& name) {
  const auto it = std::find_if(result.resource_claims.begin(), result.resource_claims.end(),
                               [&](const ResourceClaimRecord& r) { return r.name == name; });
  return it == result.resource_claims.end() ? nullptr : &*it;
}

TEST_CASE("PostFilter deallocates a claim allocated where no node can use it", "[sim][dra]") {
  // Allocated (an exported cluster) on a node that is gone, reserved by nobody: every node says
  // the claim is not available there, PostFilter deallocates it, the pod is tried again and the
  // claim allocated anew on n1.
  const std::string allocated = R"(, "status": {"allocation": {
      "devices": {"results": [{"request": "gpu", "driver": "gpu.example.com", "pool": "gone",
                               "device": "gpu-0"}]},
      "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
          {"key": "metadata.name", "operator": "In", "values": ["gone"]}]}]}}})";
  const SimulationResult result =
      run(claim("stale", allocated) + "," +
          pod("p", R"([{"name": "gpu", "resourceClaimName": "stale"}])"));
  CHECK(has_event(result, "FailedScheduling",
                  "0/1 nodes are available: 1 resourceclaim not available on the node. "
                  "deallocation of ResourceClaim completed, preemption: 0/1 nodes are available: "
                  "1 Preemption is not helpful for scheduling."));
  const PodRecord& p = pod_named(result, "p");
  CHECK(p.pod.status.phase == PodPhase::Running);
  const ResourceClaimRecord* c = claim_named(result, "stale");
  REQUIRE(c != nullptr);
  CHECK(c->node == std::optional<std::string>("n1"));
  CHECK(c->reserved_for == std::vector<std::string>{"Pod/default/p"});
}

TEST_CASE("a claim the pod does not own keeps it at PreEnqueue, worded per release", "[sim][dra]") {
  // The pod's status names a claim made for another pod: the scheduler refuses it and the
  // controller leaves it alone (podNeedsWork), until the user deletes that claim.
  const std::string owned_by_other =
      R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
          "metadata": {"name": "p-gpu-abcde", "namespace": "default",
                       "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "other",
                                            "uid": "uid-other", "controller": true}]},
          "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}})";
  const std::string status =
      R"(, "status": {"resourceClaimStatuses": [{"name": "gpu", "resourceClaimName": "p-gpu-abcde"}]})";
  const std::string p =
      pod("p", R"([{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}])", status);
  for (const char* version : {"1.35", "1.36"}) {
    INFO(version);
    const SimulationResult held = run(owned_by_other + "," + p, version);
    const PodRecord& record = pod_named(held, "p");
    CHECK(record.pod.status.phase == PodPhase::Pending);
    // The controller made no claim of its own; the scheduler never tried the pod.
    REQUIRE(held.resource_claims.size() == 1);
    CHECK_FALSE(held.resource_claims[0].allocated);
    CHECK(record.pod.message() == nullptr);
  }
  // Deleting the foreign claim: the controller makes the pod's own, which it then gets.
  const SimulationResult freed =
      run(owned_by_other + "," + p, "1.36",
          R"([{"at": "1m", "delete": {"kind": "ResourceClaim", "namespace": "default",
                                      "name": "p-gpu-abcde"}}])");
  CHECK(pod_named(freed, "p").pod.status.phase == PodPhase::Running);
  REQUIRE(freed.resource_claims.size() == 1);
  CHECK(freed.resource_claims[0].owner == std::optional<std::string>("Pod/default/p"));
  CHECK(freed.resource_claims[0].reserved_for == std::vector<std::string>{"Pod/default/p"});
}

TEST_CASE("a claim deleted while in use goes with its last consumer", "[sim][dra]") {
  const SimulationResult result =
      run(claim("shared") + "," + pod("p", R"([{"name": "gpu", "resourceClaimName": "shared"}])"),
          "1.36",
          R"([{"at": "1m", "delete": {"kind": "ResourceClaim", "namespace": "default",
                                      "name": "shared"}},
              {"at": "2m", "delete": {"kind": "Pod", "namespace": "default", "name": "p"}}])");
  CHECK(claim_named(result, "shared") == nullptr);
  const SimulationResult before =
      run(claim("shared") + "," + pod("p", R"([{"name": "gpu", "resourceClaimName": "shared"}])"),
          "1.36",
          R"([{"at": "1m", "delete": {"kind": "ResourceClaim", "namespace": "default",
                                      "name": "shared"}}])");
  const ResourceClaimRecord* held = claim_named(before, "shared");
  REQUIRE(held != nullptr);
  CHECK(held->allocated);
  CHECK(held->reserved_for == std::vector<std::string>{"Pod/default/p"});
}

TEST_CASE("a user's claim stays, deallocated, when its pod ends", "[sim][dra]") {
  const SimulationResult result =
      run(claim("mine") + "," +
          R"({"kind": "Pod", "metadata": {"name": "p", "namespace": "default",
              "annotations": {"gpusched.io/run-duration": "1m"}},
              "spec": {"restartPolicy": "Never",
                       "resourceClaims": [{"name": "gpu", "resourceClaimName": "mine"}],
                       "containers": [{"name": "c"}]}})");
  CHECK(pod_named(result, "p").pod.status.phase == PodPhase::Succeeded);
  const ResourceClaimRecord* c = claim_named(result, "mine");
  REQUIRE(c != nullptr);
  CHECK_FALSE(c->allocated);
  CHECK(c->reserved_for.empty());
}

TEST_CASE("the DRA driver's own slices of a node stand for what gpusched would publish",
          "[sim][dra]") {
  // A snapshot of a cluster where NVIDIA's DRA driver runs holds the slices it published; the
  // node's labels say the driver runs there too. Publishing gpusched's own slices beside them
  // would name every GPU of the pool twice (an invalid pool: nothing allocatable).
  const std::string node = R"({"kind": "Node", "metadata": {"name": "h1", "labels": {
      "nvidia.com/dra-kubelet-plugin": "true", "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",
      "nvidia.com/gpu.count": "2", "nvidia.com/gpu.memory": "81559"}},
      "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}})";
  const std::string slice = R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
      "metadata": {"name": "h1-gpu.nvidia.com-x7k2q"},
      "spec": {"driver": "gpu.nvidia.com", "nodeName": "h1",
               "pool": {"name": "h1", "generation": 1, "resourceSliceCount": 1},
               "devices": [{"name": "gpu-0", "attributes": {"type": {"string": "gpu"}}},
                           {"name": "gpu-1", "attributes": {"type": {"string": "gpu"}}}]}})";
  const std::string nv_template = R"({"apiVersion": "resource.k8s.io/v1",
      "kind": "ResourceClaimTemplate", "metadata": {"name": "nv-gpu", "namespace": "default"},
      "spec": {"spec": {"devices": {"requests": [{"name": "gpu",
               "exactly": {"deviceClassName": "gpu.nvidia.com"}}]}}}})";
  const std::string pods = pod("a", R"([{"name": "gpu", "resourceClaimTemplateName": "nv-gpu"}])") +
                           "," +
                           pod("b", R"([{"name": "gpu", "resourceClaimTemplateName": "nv-gpu"}])");
  const bool slice_first = GENERATE(true, false);
  CAPTURE(slice_first);
  const SimulationResult result =
      run((slice_first ? slice + "," + node : node + "," + slice) + "," + nv_template + "," + pods);
  std::vector<std::string> devices;
  for (const char* name : {"a", "b"}) {
    CHECK(pod_named(result, name).pod.spec.node_name == "h1");
    for (const ResourceClaimRecord& c : result.resource_claims) {
      if (c.owner == std::string("Pod/default/") + name) {
        REQUIRE(c.devices.size() == 1);
        devices.push_back(c.devices[0].pool + "/" + c.devices[0].device);
      }
    }
  }
  std::sort(devices.begin(), devices.end());
  CHECK(devices == std::vector<std::string>{"h1/gpu-0", "h1/gpu-1"});
}

}  // namespace
}  // namespace gpusched
