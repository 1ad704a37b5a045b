// NVIDIA's DRA kubelet plugin in a replay, as the scenario's `nvidiaDraDriver` feature gates
// configure it: what a node labelled nvidia.com/dra-kubelet-plugin=true publishes, seen through
// the claims DynamicResources can allocate from it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"
#include "unit/sim/result_lookup.hpp"

namespace gpusched {
namespace {

using testing::pod_named;

// One H100 (MIG off, no nvidia.com/mig.config) served by the DRA driver; a pod claiming a
// 1g.10gb MIG device through mig.nvidia.com, then one claiming the full GPU through
// gpu.nvidia.com.
constexpr const char* kCluster = R"(
  {"kind": "Node", "metadata": {"name": "h100", "labels": {
     "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3", "nvidia.com/gpu.count": "1",
     "nvidia.com/gpu.memory": "81559", "nvidia.com/dra-kubelet-plugin": "true"}},
   "status": {"capacity": {"cpu": "32", "memory": "256Gi", "pods": "110"}}},
  {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
   "metadata": {"name": "mig", "namespace": "default"},
   "spec": {"devices": {"requests": [{"name": "mig", "exactly": {"deviceClassName": "mig.nvidia.com",
     "selectors": [{"cel": {"expression": "device.attributes['gpu.nvidia.com'].profile == '1g.10gb'"}}]}}]}}},
  {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
   "metadata": {"name": "full", "namespace": "default"},
   "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.nvidia.com"}}]}}},
  {"kind": "Pod", "metadata": {"name": "small", "namespace": "default"},
   "spec": {"resourceClaims": [{"name": "mig", "resourceClaimName": "mig"}],
            "containers": [{"name": "c", "resources": {"claims": [{"name": "mig"}]}}]}},
  {"kind": "Pod", "metadata": {"name": "whole", "namespace": "default"},
   "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimName": "full"}],
            "containers": [{"name": "c", "resources": {"claims": [{"name": "gpu"}]}}]}})";

SimulationResult run(const std::string& driver) {
  return simulate(io::parse_scenario(
      R"({"name": "t", "scheduler": {"seed": 1, "kubernetesVersion": "1.36"}, "until": "1m",)" +
          driver + R"("cluster": [)" + kCluster + "]}",
      "t.json"));
}

const ResourceClaimRecord& claim_named(const SimulationResult& result, const std::string& name) {
  const auto it = std::find_if(result.resource_claims.begin(), result.resource_claims.end(),
                               [&](const ResourceClaimRecord& r) { return r.name == name; });
  REQUIRE(it != result.resource_claims.end());
  return *it;
}

constexpr const char* kUnallocatable =
    "0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, preemption: "
    "0/1 nodes are available: 1 Preemption is not helpful for scheduling.";

TEST_CASE("DynamicMIG publishes MIG partitions on counters; off, the whole GPU",
          "[sim][dra][nvidia_dra_driver]") {
  SECTION("on: the 1g.10gb partition takes counters the full GPU needs") {
    const SimulationResult result =
        run(R"("nvidiaDraDriver": {"featureGates": {"DynamicMIG": true}},)");
    CHECK(pod_named(result, "small").pod.status.phase == PodPhase::Running);
    const ResourceClaimRecord& mig = claim_named(result, "mig");
    CHECK(mig.allocated);
    REQUIRE(mig.devices.size() == 1);
    CHECK(mig.devices[0].driver == "gpu.nvidia.com");
    CHECK(mig.devices[0].pool == "h100");
    CHECK(mig.devices[0].device == "gpu-0-mig-1g10gb-19-0");
    // gpu-0 is published too, but consumes every counter of gpu-0-counter-set.
    CHECK(pod_named(result, "whole").pod.status.phase == PodPhase::Pending);
    REQUIRE(pod_named(result, "whole").pod.message() != nullptr);
    CHECK(*pod_named(result, "whole").pod.message() == kUnallocatable);
    CHECK_FALSE(claim_named(result, "full").allocated);
  }
  for (const char* driver :
       {"", R"("nvidiaDraDriver": {"featureGates": {"DynamicMIG": false}},)"}) {
    DYNAMIC_SECTION("off (" << driver << "): no MIG device, the whole GPU") {
      const SimulationResult result = run(driver);
      CHECK(pod_named(result, "small").pod.status.phase == PodPhase::Pending);
      REQUIRE(pod_named(result, "small").pod.message() != nullptr);
      CHECK(*pod_named(result, "small").pod.message() == kUnallocatable);
      CHECK_FALSE(claim_named(result, "mig").allocated);
      CHECK(pod_named(result, "whole").pod.status.phase == PodPhase::Running);
      const ResourceClaimRecord& full = claim_named(result, "full");
      REQUIRE(full.devices.size() == 1);
      CHECK(full.devices[0].device == "gpu-0");
    }
  }
}

}  // namespace
}  // namespace gpusched
