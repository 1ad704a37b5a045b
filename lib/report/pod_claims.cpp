#include "report/pod_claims.hpp"

#include "dra/pod_claims.hpp"

namespace gpusched::report {

ClaimsByName claims_by_name(const std::vector<ResourceClaimRecord>& claims) {
  ClaimsByName out;
  for (const ResourceClaimRecord& claim : claims)
    out.emplace(claim.namespace_ + "/" + claim.name, &claim);
  return out;
}

std::vector<const ResourceClaimRecord*> pod_claims(const Pod& pod, const ClaimsByName& claims) {
  std::vector<const ResourceClaimRecord*> out;
  for (const PodResourceClaim& pod_claim : pod.spec.resource_claims) {
    const dra::PodClaimName name = dra::pod_claim_name(pod, pod_claim);
    if (!name.name) continue;
    const auto it = claims.find(pod.metadata.namespace_ + "/" + *name.name);
    if (it != claims.end()) out.push_back(it->second);
  }
  if (const auto& extended = pod.status.extended_resource_claim_status) {
    const auto it = claims.find(pod.metadata.namespace_ + "/" + extended->resource_claim_name);
    if (it != claims.end()) out.push_back(it->second);
  }
  return out;
}

std::string devices_text(const ResourceClaimRecord& claim) {
  std::string out;
  for (const ClaimDeviceRecord& d : claim.devices) {
    out += (out.empty() ? "" : ", ") + d.request + "=" + d.driver + "/" + d.pool + "/" + d.device;
  }
  return out;
}

}  // namespace gpusched::report
