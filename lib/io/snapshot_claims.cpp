// The claims of absent pods, as pkg/controller/resourceclaim/controller.go's syncClaim
// (release-1.36) leaves them: a reservation for a pod that is gone, was replaced (another uid)
// or is done is invalid and removed; the transition to no reservation deallocates the claim
// (every allocation carries the delete-protection finalizer); a claim generated for such a pod
// and reserved by none is deleted, by the controller when the pod is done, by the garbage
// collector when the pod is gone. A snapshot leaves terminated pods out (they hold nothing), so
// their claims must not hold devices either.
#include "io/snapshot_claims.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "model/go_text.hpp"

namespace gpusched::io {

void release_claims_of_absent_pods(Snapshot& snapshot) {
  Scenario& scenario = snapshot.scenario;
  std::map<std::string, std::string, std::less<>> uids;  // "ns/name" -> uid of kept pods
  for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
    if (const auto* pod = std::get_if<Pod>(&scenario.cluster[i]))
      uids[pod->key()] = pod->metadata.uid;
  }
  // A dump without uids (written by hand) names its pods only: any uid matches.
  auto present = [&](const std::string& key, const std::string& uid) {
    const auto it = uids.find(key);
    return it != uids.end() && (it->second.empty() || it->second == uid);
  };
  for (std::size_t i = 0; i < snapshot.snapshot_objects;) {
    auto* claim = std::get_if<dra::ResourceClaim>(&scenario.cluster[i]);
    if (claim == nullptr) {
      ++i;
      continue;
    }
    const std::string ns = claim->metadata.namespace_;
    const std::string name = "ResourceClaim " + ns + "/" + claim->metadata.name;
    std::vector<std::string> absent;
    std::erase_if(claim->status.reserved_for, [&](const dra::ConsumerReference& ref) {
      // Other consumers than pods are left as they are, as upstream leaves them.
      if (ref.resource != "pods" || present(ns + "/" + ref.name, ref.uid)) return false;
      absent.push_back(ns + "/" + ref.name);
      return true;
    });
    const bool deallocated =
        !absent.empty() && claim->status.reserved_for.empty() && claim->status.allocation;
    if (deallocated) claim->status.allocation.reset();
    const OwnerReference* owner = claim->metadata.controller();
    if (claim->status.reserved_for.empty() && owner != nullptr && owner->kind == "Pod" &&
        !present(ns + "/" + owner->name, owner->uid)) {
      snapshot.notes.push_back(name + " belongs to pod " + ns + "/" + owner->name +
                               ", which is not in the snapshot (terminated or deleted): left "
                               "out, as Kubernetes deletes a claim made for a pod that is done "
                               "or gone");
      scenario.cluster.erase(scenario.cluster.begin() + static_cast<std::ptrdiff_t>(i));
      scenario.cluster_pointers.erase(scenario.cluster_pointers.begin() +
                                      static_cast<std::ptrdiff_t>(i));
      --snapshot.snapshot_objects;
      continue;
    }
    if (!absent.empty()) {
      snapshot.notes.push_back(name + " is reserved for " +
                               (absent.size() == 1 ? "pod " : "pods ") + joined(absent, ", ") +
                               ", not in the snapshot (terminated or deleted): " +
                               (deallocated ? "deallocated" : "the reservation is removed") +
                               ", as the resourceclaim controller does");
    }
    ++i;
  }
}

}  // namespace gpusched::io
