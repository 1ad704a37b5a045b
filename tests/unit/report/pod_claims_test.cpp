// The claims a report shows beside a pod: those its spec.resourceClaims name, by name or
// through the status a template's claim is recorded in, and their devices in one cell.
#include "report/pod_claims.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace gpusched::report {
namespace {

ResourceClaimRecord claim(const std::string& name, std::vector<ClaimDeviceRecord> devices = {}) {
  ResourceClaimRecord out;
  out.namespace_ = "ml";
  out.name = name;
  out.allocated = !devices.empty();
  out.devices = std::move(devices);
  return out;
}

TEST_CASE("a pod's claims are those its spec names, in its order", "[report][dra]") {
  const std::vector<ResourceClaimRecord> claims = {claim("shared"), claim("p-gpu-x1y2z"),
                                                   claim("other")};
  const ClaimsByName by_name = claims_by_name(claims);
  Pod pod;
  pod.metadata.namespace_ = "ml";
  pod.metadata.name = "p";
  PodResourceClaim from_template;
  from_template.name = "gpu";
  from_template.resource_claim_template_name = "one-gpu";
  PodResourceClaim by_claim_name;
  by_claim_name.name = "nic";
  by_claim_name.resource_claim_name = "shared";
  pod.spec.resource_claims = {from_template, by_claim_name};
  // The template's claim is not made yet: only the named one.
  std::vector<const ResourceClaimRecord*> found = pod_claims(pod, by_name);
  REQUIRE(found.size() == 1);
  CHECK(found[0]->name == "shared");
  pod.status.resource_claim_statuses = {{"gpu", "p-gpu-x1y2z"}};
  found = pod_claims(pod, by_name);
  REQUIRE(found.size() == 2);
  CHECK(found[0]->name == "p-gpu-x1y2z");
  CHECK(found[1]->name == "shared");
  // In another namespace the names find nothing.
  pod.metadata.namespace_ = "web";
  CHECK(pod_claims(pod, by_name).empty());
}

TEST_CASE("a claim's devices read request=driver/pool/device", "[report][dra]") {
  CHECK(devices_text(claim("none")).empty());
  CHECK(devices_text(claim("two", {{"gpus", "gpu.nvidia.com", "n1", "gpu-0"},
                                   {"gpus", "gpu.nvidia.com", "n1", "gpu-1"}})) ==
        "gpus=gpu.nvidia.com/n1/gpu-0, gpus=gpu.nvidia.com/n1/gpu-1");
}

}  // namespace
}  // namespace gpusched::report
