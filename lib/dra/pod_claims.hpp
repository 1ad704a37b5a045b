#pragma once
// How a pod's spec.resourceClaims name their ResourceClaims, and whether a claim belongs to or
// is reserved for a pod (k8s.io/dynamic-resource-allocation/resourceclaim/resourceclaim.go at
// v0.34.0, v0.35.0 and v0.36.0), shared by the DynamicResources plugin and the resourceclaim
// controller.

#include <optional>
#include <string>

#include "gpusched/model/dra.hpp"
#include "gpusched/model/pod.hpp"

namespace gpusched::dra {

/// resourceclaim.Name: the claim a pod claim refers to.
struct PodClaimName {
  /// The claim's name; nullopt when none is needed (a status entry without a name) or on error.
  std::optional<std::string> name;
  /// A template's claim: it must be controlled by the pod (IsForPod).
  bool must_check_owner = false;
  /// `pod "ns/p": ResourceClaim not created yet` (no status entry yet), or the
  /// ErrAPIUnsupported text; empty when resolved.
  std::string error;
  /// Whether the error is ErrClaimNotFound (the controller creates the claim then).
  bool not_created_yet = false;
};
[[nodiscard]] PodClaimName pod_claim_name(const Pod& pod, const PodResourceClaim& claim);

/// resourceclaim.IsForPod: "" when `claim` is in the pod's namespace and controlled by it (an
/// owner reference with controller true and the pod's uid); otherwise the error's text, which
/// 1.36 words differently.
[[nodiscard]] std::string is_for_pod(const Pod& pod, const ResourceClaim& claim, int minor);

/// resourceclaim.IsReservedForPod: some reservedFor entry has the pod's uid.
[[nodiscard]] bool is_reserved_for_pod(const Pod& pod, const ResourceClaim& claim);

/// resourceapi.Finalizer: the scheduler adds it before it writes an allocation; the controller
/// removes it once it deallocated the claim.
inline constexpr std::string_view kDeleteProtectionFinalizer =
    "resource.kubernetes.io/delete-protection";

}  // namespace gpusched::dra
