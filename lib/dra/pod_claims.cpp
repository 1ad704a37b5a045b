#include "dra/pod_claims.hpp"

namespace gpusched::dra {

PodClaimName pod_claim_name(const Pod& pod, const PodResourceClaim& claim) {
  PodClaimName out;
  if (claim.resource_claim_name) {
    out.name = claim.resource_claim_name;
    return out;
  }
  const std::string pod_key = pod.metadata.namespace_ + "/" + pod.metadata.name;
  if (claim.resource_claim_template_name) {
    for (const PodResourceClaimStatus& status : pod.status.resource_claim_statuses) {
      if (status.name == claim.name) {
        out.name = status.resource_claim_name;
        out.must_check_owner = true;
        return out;
      }
    }
    // ErrClaimNotFound.
    out.error = "pod \"" + pod_key + "\": ResourceClaim not created yet";
    out.not_created_yet = true;
    return out;
  }
  // ErrAPIUnsupported.
  out.error = "pod \"" + pod_key + "\", spec.resourceClaim \"" + claim.name +
              "\": none of the supported fields are set";
  return out;
}

std::string is_for_pod(const Pod& pod, const ResourceClaim& claim, int minor) {
  const std::string claim_key = claim.metadata.namespace_ + "/" + claim.metadata.name;
  const std::string pod_key = pod.metadata.namespace_ + "/" + pod.metadata.name;
  const bool same_namespace = pod.metadata.namespace_ == claim.metadata.namespace_;
  const OwnerReference* owner = claim.metadata.controller();
  const bool controlled = owner != nullptr && owner->uid == pod.metadata.uid;
  if (minor >= 36) {
    if (!same_namespace)
      return "ResourceClaim " + claim_key + " is not in the same namespace as Pod " + pod_key;
    if (!controlled)
      return "ResourceClaim " + claim_key + " was not created for Pod " + pod_key +
             " (Pod is not owner)";
    return {};
  }
  if (!same_namespace || !controlled)
    return "ResourceClaim " + claim_key + " was not created for pod " + pod_key +
           " (pod is not owner)";
  return {};
}

bool is_reserved_for_pod(const Pod& pod, const ResourceClaim& claim) {
  for (const ConsumerReference& ref : claim.status.reserved_for) {
    if (ref.uid == pod.metadata.uid) return true;
  }
  return false;
}

}  // namespace gpusched::dra
