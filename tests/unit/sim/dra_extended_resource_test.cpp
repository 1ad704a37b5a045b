// The extended-resource bridge (DRAExtendedResource, beta and on in 1.36; upstream
// extendeddynamicresources.go, noderesources ShouldDelegateResourceToDRA): a container's
// `example.com/gpu` served by DRA devices through a DeviceClass that names it, on nodes that do
// not advertise it; the claim kube-scheduler creates at PreBind, its request names, the pod's
// status, and the claim's end with the pod.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "gpusched/framework/dra_state.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"
#include "unit/sim/result_lookup.hpp"

namespace gpusched {
namespace {

using testing::has_event;
using testing::pod_named;

/// n1 advertises no example.com/gpu; its driver publishes `devices` GPUs.
std::string cluster(int devices, const std::string& class_extra = "") {
  std::string list;
  for (int i = 0; i < devices; ++i)
    list += std::string(i ? "," : "") + R"({"name": "gpu-)" + std::to_string(i) + R"("})";
  return R"(
    {"kind": "Node", "metadata": {"name": "n1"},
     "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}},
    {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
     "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}],
              "extendedResourceName": "example.com/gpu")" +
         class_extra + R"(}},
    {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "n1-gpus"},
     "spec": {"driver": "gpu.example.com", "nodeName": "n1",
              "pool": {"name": "n1", "generation": 1, "resourceSliceCount": 1},
              "devices": [)" +
         list + "]}}";
}

std::string pod(const std::string& name, const std::string& containers,
                const std::string& extra = "") {
  return R"({"kind": "Pod", "metadata": {"name": ")" + name +
         R"(", "namespace": "default", "uid": "uid-)" + name + R"("}, "spec": {)" + extra +
         R"("containers": )" + containers + "}}";
}

std::string gpus(const std::string& container, int count, const std::string& more = "") {
  return R"({"name": ")" + container + R"(", "resources": {"limits": {"example.com/gpu": ")" +
         std::to_string(count) + R"("}})" + more + "}";
}

SimulationResult run(const std::string& objects, const std::string& version = "1.36",
                     const std::string& timeline = "[]") {
  const Scenario scenario = io::parse_scenario(
      R"({"name": "t", "scheduler": {"seed": 1, "kubernetesVersion": ")" + version +
          R"("}, "until": "2h", "cluster": [)" + objects + R"(], "timeline": )" + timeline + "}",
      "t.json");
  return simulate(scenario);
}

const ResourceClaimRecord* claim_of(const SimulationResult& result, const std::string& pod) {
  const auto it =
      std::find_if(result.resource_claims.begin(), result.resource_claims.end(),
                   [&](const ResourceClaimRecord& r) { return r.owner == "Pod/default/" + pod; });
  return it == result.resource_claims.end() ? nullptr : &*it;
}

std::vector<std::string> requests_of(const ResourceClaimRecord& claim) {
  std::vector<std::string> out;
  for (const ClaimDeviceRecord& d : claim.devices) out.push_back(d.request + "=" + d.device);
  return out;
}

TEST_CASE("an extended resource a DeviceClass names is served by DRA devices in 1.36",
          "[sim][dra]") {
  const SimulationResult result = run(cluster(2) + "," + pod("p", "[" + gpus("main", 2) + "]"));
  const PodRecord& p = pod_named(result, "p");
  CHECK(p.pod.status.phase == PodPhase::Running);
  CHECK(p.pod.spec.node_name == "n1");
  const ResourceClaimRecord* claim = claim_of(result, "p");
  REQUIRE(claim != nullptr);
  // generateName `<pod>-extended-resources-` and 5 characters.
  CHECK(claim->name.starts_with("p-extended-resources-"));
  CHECK(claim->name.size() == std::string("p-extended-resources-").size() + 5);
  CHECK(claim->allocated);
  CHECK(claim->node == std::optional<std::string>("n1"));
  CHECK(requests_of(*claim) ==
        std::vector<std::string>{"container-0-request-0=gpu-0", "container-0-request-0=gpu-1"});
  CHECK(claim->reserved_for == std::vector<std::string>{"Pod/default/p"});
  // patchPodExtendedResourceClaimStatus.
  REQUIRE(p.pod.status.extended_resource_claim_status);
  CHECK(p.pod.status.extended_resource_claim_status->resource_claim_name == claim->name);
  CHECK(p.pod.status.extended_resource_claim_status->request_mappings ==
        std::vector<ContainerExtendedResourceRequest>{
            {"main", "example.com/gpu", "container-0-request-0"}});
}

TEST_CASE("without DRAExtendedResource the request is an ordinary extended resource",
          "[sim][dra]") {
  const std::string objects = cluster(2) + "," + pod("p", "[" + gpus("main", 1) + "]");
  for (const char* version : {"1.34", "1.35"}) {
    INFO(version);
    const SimulationResult result = run(objects, version);
    CHECK(pod_named(result, "p").pod.status.phase == PodPhase::Pending);
    CHECK(result.resource_claims.empty());
    CHECK(has_event(result, "FailedScheduling",
                    "0/1 nodes are available: 1 Insufficient example.com/gpu. no new claims to "
                    "deallocate, preemption: 0/1 nodes are available: 1 Preemption is not "
                    "helpful for scheduling."));
  }
  // Turned off in 1.36 too.
  const Scenario off = io::parse_scenario(
      R"({"name": "t", "scheduler": {"seed": 1, "kubernetesVersion": "1.36",
          "featureGates": {"DRAExtendedResource": false}}, "cluster": [)" +
          objects + "]}",
      "t.json");
  const SimulationResult result = simulate(off);
  CHECK(pod_named(result, "p").pod.status.phase == PodPhase::Pending);
  CHECK(result.resource_claims.empty());
}

TEST_CASE("the alpha gate turned on in 1.35 follows 1.36's rules and says so", "[sim][dra]") {
  const Scenario on = io::parse_scenario(
      R"({"name": "t", "scheduler": {"seed": 1, "kubernetesVersion": "1.35",
          "featureGates": {"DRAExtendedResource": true}}, "cluster": [)" +
          cluster(1) + "," + pod("p", "[" + gpus("main", 1) + "]") + "]}",
      "t.json");
  const SimulationResult result = simulate(on);
  CHECK(pod_named(result, "p").pod.status.phase == PodPhase::Running);
  CHECK(std::any_of(result.notices.begin(), result.notices.end(), [](const std::string& n) {
    return n.starts_with("DRAExtendedResource is alpha in Kubernetes 1.35; gpusched serves");
  }));
}

TEST_CASE("a node that advertises the resource serves it itself: no claim", "[sim][dra]") {
  // n2 runs a device plugin for example.com/gpu; n1 has no devices left to offer.
  const std::string n2 = R"({"kind": "Node", "metadata": {"name": "n2"},
     "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110",
                                "example.com/gpu": "1"}}})";
  const SimulationResult result =
      run(cluster(0) + "," + n2 + "," + pod("p", "[" + gpus("main", 1) + "]"));
  const PodRecord& p = pod_named(result, "p");
  CHECK(p.pod.status.phase == PodPhase::Running);
  CHECK(p.pod.spec.node_name == "n2");
  CHECK(result.resource_claims.empty());
  CHECK_FALSE(p.pod.status.extended_resource_claim_status);
}

TEST_CASE("too few devices: cannot allocate all claims, and preemption does not help",
          "[sim][dra]") {
  const SimulationResult result = run(cluster(1) + "," + pod("p", "[" + gpus("main", 2) + "]"));
  CHECK(pod_named(result, "p").pod.status.phase == PodPhase::Pending);
  // The claim lived in the scheduler's memory only.
  CHECK(result.resource_claims.empty());
  CHECK(has_event(result, "FailedScheduling",
                  "0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, "
                  "preemption: 0/1 nodes are available: 1 Preemption is not helpful for "
                  "scheduling."));
}

TEST_CASE("a resource neither advertised nor served: NodeResourcesFit says Insufficient",
          "[sim][dra]") {
  const SimulationResult result =
      run(cluster(2) + "," +
          pod("p", R"([{"name": "main", "resources": {"limits": {"example.com/gpu": "1",
                                                             "other.com/fpga": "1"}}}])"));
  CHECK(pod_named(result, "p").pod.status.phase == PodPhase::Pending);
  CHECK(has_event(result, "FailedScheduling",
                  "0/1 nodes are available: 1 Insufficient other.com/fpga. still not schedulable, "
                  "preemption: 0/1 nodes are available: 1 Preemption is not helpful for "
                  "scheduling."));
}

TEST_CASE("a resource NodeResourcesFit ignores and nothing serves: cannot fit resource",
          "[sim][dra]") {
  // ignoredResources lets other.com/fpga past NodeResourcesFit; DynamicResources still finds
  // neither the node's allocatable nor a DeviceClass for it (filterExtendedResources).
  const Scenario scenario = io::parse_scenario(
      R"({"name": "t", "scheduler": {"seed": 1, "kubernetesVersion": "1.36",
          "profiles": [{"schedulerName": "default-scheduler", "pluginConfig": [
            {"name": "NodeResourcesFit", "args": {"ignoredResources": ["other.com/fpga"]}}]}]},
          "cluster": [)" +
          cluster(2) + "," +
          pod("p", R"([{"name": "main", "resources": {"limits": {"example.com/gpu": "1",
                                                                 "other.com/fpga": "1"}}}])") +
          "]}",
      "t.json");
  const SimulationResult result = simulate(scenario);
  CHECK(pod_named(result, "p").pod.status.phase == PodPhase::Pending);
  CHECK(has_event(result, "FailedScheduling",
                  "0/1 nodes are available: 1 cannot fit resource. still not schedulable, "
                  "preemption: 0/1 nodes are available: 1 Preemption is not helpful for "
                  "scheduling."));
}

TEST_CASE("a claim an earlier cycle made for the pod is deleted and the pod starts over",
          "[sim][dra]") {
  // A snapshot caught the pod between PreBind and binding: its extended-resource claim exists
  // with requests. Filter refuses it on every node, PostFilter deletes it, and the next attempt
  // (the unschedulable pool's flush at 5 minutes) makes a new one.
  const std::string stale = R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
      "metadata": {"name": "p-extended-resources-abcde", "namespace": "default",
        "annotations": {"resource.kubernetes.io/extended-resource-claim": "true"},
        "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "p", "uid": "uid-p",
                             "controller": true}]},
      "spec": {"devices": {"requests": [{"name": "container-0-request-0",
        "exactly": {"deviceClassName": "gpu"}}]}}})";
  const SimulationResult result =
      run(cluster(1) + "," + stale + "," + pod("p", "[" + gpus("main", 1) + "]"));
  CHECK(has_event(result, "FailedScheduling",
                  "0/1 nodes are available: 1 cannot schedule extended resource claim. deletion "
                  "of ResourceClaim completed, preemption: 0/1 nodes are available: 1 Preemption "
                  "is not helpful for scheduling."));
  const PodRecord& p = pod_named(result, "p");
  CHECK(p.pod.status.phase == PodPhase::Running);
  const ResourceClaimRecord* claim = claim_of(result, "p");
  REQUIRE(claim != nullptr);
  CHECK(claim->name != "p-extended-resources-abcde");
  CHECK(claim->allocated);
}

TEST_CASE("the class's implicit name deviceclass.resource.kubernetes.io/<class>", "[sim][dra]") {
  const SimulationResult result = run(cluster(3) + "," +
                                      pod("p",
                                          R"([{"name": "main", "resources": {"limits": {
                "deviceclass.resource.kubernetes.io/gpu": "2", "example.com/gpu": "1"}}}])"));
  const PodRecord& p = pod_named(result, "p");
  CHECK(p.pod.status.phase == PodPhase::Running);
  const ResourceClaimRecord* claim = claim_of(result, "p");
  REQUIRE(claim != nullptr);
  // One request per resource, indexed by the resource's place among the container's sorted
  // request names (upstream's implicit-name test: counts 2 and 1 for the same class).
  CHECK(requests_of(*claim) == std::vector<std::string>{"container-0-request-0=gpu-0",
                                                        "container-0-request-0=gpu-1",
                                                        "container-0-request-1=gpu-2"});
}

TEST_CASE("init containers reuse the devices of the containers after them", "[sim][dra]") {
  SECTION("an init container asking more than the main container gets only the difference") {
    // warmup (2) runs before main (1): main's request serves one, warmup asks one more.
    const SimulationResult result = run(cluster(4) + "," +
                                        pod("p", "[" + gpus("main", 1) + "]",
                                            R"("initContainers": [)" + gpus("warmup", 2) + "], "));
    const PodRecord& p = pod_named(result, "p");
    CHECK(p.pod.status.phase == PodPhase::Running);
    const ResourceClaimRecord* claim = claim_of(result, "p");
    REQUIRE(claim != nullptr);
    CHECK(requests_of(*claim) ==
          std::vector<std::string>{"container-0-request-0=gpu-0", "container-1-request-0=gpu-1"});
    REQUIRE(p.pod.status.extended_resource_claim_status);
    CHECK(p.pod.status.extended_resource_claim_status->request_mappings ==
          std::vector<ContainerExtendedResourceRequest>{
              {"main", "example.com/gpu", "container-1-request-0"},
              {"warmup", "example.com/gpu", "container-1-request-0"},
              {"warmup", "example.com/gpu", "container-0-request-0"}});
  }
  SECTION("a sidecar keeps its own devices; plain init containers share the largest request") {
    // init-a (1) is covered by the sidecar after it; init-b (3) by main (1) and one request of
    // 2; the sidecar (1) and main (1) keep theirs: 1 + 1 + 2 devices.
    const std::string init = R"("initContainers": [)" + gpus("init-a", 1) + "," +
                             gpus("sidecar", 1, R"(, "restartPolicy": "Always")") + "," +
                             gpus("init-b", 3) + "], ";
    const SimulationResult result =
        run(cluster(4) + "," + pod("p", "[" + gpus("main", 1) + "]", init));
    const PodRecord& p = pod_named(result, "p");
    CHECK(p.pod.status.phase == PodPhase::Running);
    const ResourceClaimRecord* claim = claim_of(result, "p");
    REQUIRE(claim != nullptr);
    CHECK(requests_of(*claim) ==
          std::vector<std::string>{"container-1-request-0=gpu-0", "container-2-request-0=gpu-1",
                                   "container-2-request-0=gpu-2", "container-3-request-0=gpu-3"});
  }
}

TEST_CASE("the claim goes with its pod and frees the devices for the next", "[sim][dra]") {
  const std::string first = R"({"kind": "Pod", "metadata": {"name": "first", "namespace": "default",
      "annotations": {"gpusched.io/run-duration": "30m"}},
      "spec": {"restartPolicy": "Never", "containers": [)" +
                            gpus("main", 1) + "]}}";
  const SimulationResult result =
      run(cluster(1) + "," + first + "," + pod("second", "[" + gpus("main", 1) + "]"));
  const PodRecord& second = pod_named(result, "second");
  CHECK(second.pod.status.phase == PodPhase::Running);
  REQUIRE(second.scheduled);
  CHECK(*second.scheduled == 30 * 60 * 1000);
  // The first pod's claim was deleted when it ended (its status named it); the second's holds
  // the device now.
  CHECK(claim_of(result, "first") == nullptr);
  const ResourceClaimRecord* claim = claim_of(result, "second");
  REQUIRE(claim != nullptr);
  CHECK(requests_of(*claim) == std::vector<std::string>{"container-0-request-0=gpu-0"});
}

TEST_CASE("a DeviceClass added later moves the waiting pod", "[sim][dra]") {
  // The slice is there from the start, the class that maps the resource comes at 10m: the
  // pod waits Insufficient until NodeResourcesFit's DeviceClass hint requeues it.
  const std::string slice = R"(
    {"kind": "Node", "metadata": {"name": "n1"},
     "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}},
    {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "n1-gpus"},
     "spec": {"driver": "gpu.example.com", "nodeName": "n1",
              "pool": {"name": "n1", "generation": 1, "resourceSliceCount": 1},
              "devices": [{"name": "gpu-0"}]}})";
  const std::string timeline = R"([{"at": "10m", "apply": [
    {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
     "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}],
              "extendedResourceName": "example.com/gpu"}}]}])";
  const SimulationResult result =
      run(slice + "," + pod("p", "[" + gpus("main", 1) + "]"), "1.36", timeline);
  const PodRecord& p = pod_named(result, "p");
  CHECK(p.pod.status.phase == PodPhase::Running);
  REQUIRE(p.scheduled);
  CHECK(*p.scheduled == 10 * 60 * 1000);
}

TEST_CASE("DeviceClassResolver: the newest class naming a resource serves it", "[dra]") {
  DraState dra;
  auto device_class = [](const std::string& name, std::int64_t created) {
    dra::DeviceClass c;
    c.metadata.name = name;
    c.metadata.creation_ms = created;
    c.extended_resource_name = "example.com/gpu";
    return c;
  };
  CHECK(dra.extended_resource_class("example.com/gpu") == nullptr);
  dra.apply_class(device_class("b-old", 1000));
  dra.apply_class(device_class("a-new", 2000));
  REQUIRE(dra.extended_resource_class("example.com/gpu") != nullptr);
  CHECK(dra.extended_resource_class("example.com/gpu")->metadata.name == "a-new");
  // Equal creation times: the lower name.
  dra.apply_class(device_class("0-new", 2000));
  CHECK(dra.extended_resource_class("example.com/gpu")->metadata.name == "0-new");
  dra.remove_class("0-new");
  dra.remove_class("a-new");
  CHECK(dra.extended_resource_class("example.com/gpu")->metadata.name == "b-old");
  // Every class serves its implicit name; nothing else.
  REQUIRE(dra.extended_resource_class("deviceclass.resource.kubernetes.io/b-old") != nullptr);
  CHECK(dra.extended_resource_class("deviceclass.resource.kubernetes.io/a-new") == nullptr);
  CHECK(dra.extended_resource_class("example.com/other") == nullptr);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST_CASE("GPU metrics count the GPUs NVIDIA's DRA driver publishes and claims hold",
          "[sim][dra]") {
  // Two GPUs served by the DRA driver (no device plugin there); a pod holds one through the
  // extended-resource bridge for 30 minutes of the hour.
  const Scenario scenario = io::parse_scenario(R"({"name": "t",
      "scheduler": {"seed": 1, "kubernetesVersion": "1.36"}, "until": "1h", "cluster": [
      {"kind": "Node", "metadata": {"name": "h100", "labels": {
         "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3", "nvidia.com/gpu.count": "2",
         "nvidia.com/gpu.memory": "81559", "nvidia.com/dra-kubelet-plugin": "true"}},
       "status": {"capacity": {"cpu": "32", "memory": "256Gi", "pods": "110"}}},
      {"kind": "Pod", "metadata": {"name": "p", "namespace": "default",
         "annotations": {"gpusched.io/run-duration": "30m"}},
       "spec": {"restartPolicy": "Never", "containers": [{"name": "main",
         "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}]})",
                                               "t.json");
  const SimulationResult result = simulate(scenario);
  REQUIRE(result.usage.size() == 1);
  const NodeUsage& usage = result.usage[0];
  CHECK(usage.allocatable_hours.at("nvidia.com/gpu") == Approx(2.0));
  // The pod's request is served by its claim: counted once.
  CHECK(usage.requested_hours.at("nvidia.com/gpu") == Approx(0.5));
  REQUIRE(usage.gpu_steps.size() == 2);
  CHECK(usage.gpu_steps[0].allocatable == 2);
  CHECK(usage.gpu_steps[0].allocated == 1);
  CHECK(usage.gpu_steps[1].allocated == 0);
}

}  // namespace
}  // namespace gpusched
