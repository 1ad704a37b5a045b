#include "sim/resource_claim_controller.hpp"

#include <algorithm>
#include <utility>

#include "dra/pod_claims.hpp"
#include "gpusched/framework/dra_state.hpp"
#include "model/names.hpp"

namespace gpusched::sim {

namespace {

/// podResourceClaimAnnotation.
constexpr std::string_view kPodClaimNameAnnotation = "resource.kubernetes.io/pod-claim-name";

/// The generateName of a pod's claim: `<pod>-<pod claim>-`, both parts cut in proportion (by
/// bytes, integer division) when longer than 57 characters, then without a trailing hyphen.
std::string claim_generate_name(const std::string& pod, const std::string& pod_claim) {
  constexpr std::size_t kMaxBaseLen = 57;  // room for a hyphen and 5 characters in 63
  std::string name = pod + "-" + pod_claim + "-";
  if (name.size() > kMaxBaseLen) {
    const std::size_t total = name.size();
    name = pod.substr(0, pod.size() * kMaxBaseLen / total) + "-" +
           pod_claim.substr(0, pod_claim.size() * kMaxBaseLen / total);
  }
  return name;
}

}  // namespace

void ResourceClaimController::pod_created(Pod& pod) {
  sync_pod(pod);
}

bool ResourceClaimController::sync_pod(Pod& pod) {
  if (pod.metadata.deletion_ms || pod.terminated()) return false;
  bool changed = false;
  for (const PodResourceClaim& pod_claim : pod.spec.resource_claims) {
    if (!pod_claim.resource_claim_template_name) continue;
    const dra::PodClaimName resolved = dra::pod_claim_name(pod, pod_claim);
    if (!resolved.not_created_yet) {
      // podNeedsWork: created already; a claim that is gone is made again, one that is not the
      // pod's is left for the user to delete (the scheduler says so at PreEnqueue).
      if (!resolved.name) continue;
      if (cluster_.dra().find_claim(pod.metadata.namespace_, *resolved.name) != nullptr) continue;
    }
    std::string name = create_claim(pod, pod_claim);
    if (name.empty()) continue;
    auto& statuses = pod.status.resource_claim_statuses.mut();
    const auto it = std::find_if(statuses.begin(), statuses.end(),
                                 [&](const auto& s) { return s.name == pod_claim.name; });
    if (it != statuses.end()) {
      it->resource_claim_name = std::move(name);
    } else {
      statuses.push_back({pod_claim.name, std::move(name)});
    }
    changed = true;
  }
  return changed;
}

std::string ResourceClaimController::create_claim(const Pod& pod,
                                                  const PodResourceClaim& pod_claim) {
  const std::string& template_name = *pod_claim.resource_claim_template_name;
  const dra::ResourceClaimTemplate* claim_template =
      cluster_.dra().find_template(pod.metadata.namespace_, template_name);
  if (claim_template == nullptr) {
    // handleClaim's error, as the FailedResourceClaimCreation event words it.
    events_.recorded_event(
        "resource_claim", "Pod/" + pod.key(), "Warning", "FailedResourceClaimCreation",
        "PodResourceClaim " + pod_claim.name + ": resource claim template \"" + template_name +
            "\": resourceclaimtemplate.resource.k8s.io \"" + template_name + "\" not found");
    return {};
  }
  dra::ResourceClaim claim;
  claim.metadata.namespace_ = pod.metadata.namespace_;
  const std::string generate_name = claim_generate_name(pod.metadata.name, pod_claim.name);
  for (std::uint64_t attempt = 0;; ++attempt) {
    claim.metadata.name = generate_name + generated_suffix(generate_name, attempt);
    if (cluster_.dra().find_claim(claim.metadata.namespace_, claim.metadata.name) == nullptr) break;
  }
  claim.metadata.labels = claim_template->claim_labels;
  claim.metadata.annotations = claim_template->claim_annotations;
  claim.metadata.annotations[std::string(kPodClaimNameAnnotation)] = pod_claim.name;
  claim.metadata.owner_references =
      std::vector<OwnerReference>{{"Pod", pod.metadata.name, pod.metadata.uid, true}};
  claim.metadata.uid = api_.new_uid();
  api_.stamp(claim.metadata, nullptr);
  claim.spec = claim_template->spec;
  std::string name = claim.metadata.name;
  cluster_.edit_dra().apply_claim(claim);
  scheduler_.cluster_event({EventResource::ResourceClaim, action::kAdd, "ResourceClaimAdd"},
                           EventObjects{.claim = cluster_.dra().find_claim(
                                            claim.metadata.namespace_, claim.metadata.name)},
                           now_);
  return name;
}

void ResourceClaimController::pod_done(const Pod& pod) {
  for (const PodResourceClaim& pod_claim : pod.spec.resource_claims) {
    const dra::PodClaimName resolved = dra::pod_claim_name(pod, pod_claim);
    if (resolved.name) sync_claim(pod, *resolved.name);
  }
  // enqueuePod (PR #134312): the claim kube-scheduler made for the pod's extended resources is
  // known by the pod's status alone, whatever the gate says.
  if (const auto& extended = pod.status.extended_resource_claim_status)
    sync_claim(pod, extended->resource_claim_name);
}

void ResourceClaimController::sync_claim(const Pod& pod, const std::string& name) {
  const std::string& ns = pod.metadata.namespace_;
  const dra::ResourceClaim* seen = cluster_.dra().find_claim(ns, name);
  if (seen == nullptr) return;
  const bool reserved =
      std::any_of(seen->status.reserved_for.begin(), seen->status.reserved_for.end(),
                  [&](const dra::ConsumerReference& ref) {
                    return ref.resource == "pods" && ref.uid == pod.metadata.uid;
                  });
  DraState& dra = cluster_.edit_dra();
  if (reserved) {
    // Only a claim the pod leaves is written (and heard of by the scheduler).
    dra::ResourceClaim* claim = dra.edit_claim(ns, name);
    const dra::ResourceClaim old = *claim;
    std::erase_if(claim->status.reserved_for, [&](const dra::ConsumerReference& ref) {
      return ref.resource == "pods" && ref.uid == pod.metadata.uid;
    });
    // The last consumer gone: deallocated (every allocated claim carries the delete-protection
    // finalizer the scheduler adds). Status.devices is left alone, as upstream.
    if (claim->status.reserved_for.empty()) claim->status.allocation.reset();
    updated(old, *claim);
    seen = claim;
  }
  if (!seen->status.reserved_for.empty()) return;
  // A claim the user deleted while in use goes with its last consumer; a claim the pod owns
  // goes with the pod.
  const OwnerReference* owner = seen->metadata.controller();
  const bool owned = owner != nullptr && owner->kind == "Pod" && owner->uid == pod.metadata.uid;
  if (seen->metadata.deletion_ms || owned) dra.remove_claim(ns, name);
}

bool ResourceClaimController::delete_claim(std::string_view namespace_, std::string_view name) {
  DraState& dra = cluster_.edit_dra();
  dra::ResourceClaim* claim = dra.edit_claim(namespace_, name);
  if (claim == nullptr) return false;
  if (claim->status.reserved_for.empty()) {
    dra.remove_claim(namespace_, name);
    return true;
  }
  if (!claim->metadata.deletion_ms) claim->metadata.deletion_ms = now_;
  return true;
}

void ResourceClaimController::updated(const dra::ResourceClaim& old_claim,
                                      const dra::ResourceClaim& claim) {
  scheduler_.cluster_event({EventResource::ResourceClaim, action::kUpdate, "ResourceClaimUpdate"},
                           EventObjects{.old_claim = &old_claim, .claim = &claim}, now_);
}

}  // namespace gpusched::sim
