#pragma once
// The ResourceClaims a pod names, found among those a run left, and their devices as one cell:
// what the what-if answer and the HTML report show beside a pod.

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gpusched/sim/result.hpp"

namespace gpusched::report {

/// The run's claims by "ns/name".
using ClaimsByName = std::map<std::string, const ResourceClaimRecord*, std::less<>>;
[[nodiscard]] ClaimsByName claims_by_name(const std::vector<ResourceClaimRecord>& claims);

/// The claims `pod`'s spec.resourceClaims name, in that order (resourceclaim.Name: a
/// template's claim by the name the pod's status records), then the claim of its extended
/// resources (status.extendedResourceClaimStatus); one not made yet, or gone, is left out.
[[nodiscard]] std::vector<const ResourceClaimRecord*> pod_claims(const Pod& pod,
                                                                 const ClaimsByName& claims);

/// `<request>=<driver>/<pool>/<device>` of each allocated device, comma-separated (the device
/// as structured.DeviceID prints it); empty when none.
[[nodiscard]] std::string devices_text(const ResourceClaimRecord& claim);

}  // namespace gpusched::report
