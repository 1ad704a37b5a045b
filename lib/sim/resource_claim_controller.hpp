#pragma once
// The resourceclaim controller (pkg/controller/resourceclaim/controller.go, 1.35/1.36): a pod
// that names a ResourceClaimTemplate gets its own ResourceClaim from it when the pod is created
// (syncPod), named `<pod>-<pod claim>-<5 characters>`, controlled by the pod and recorded in
// the pod's status.resourceClaimStatuses; when a pod ends or is gone it leaves the reservedFor
// of its claims, a claim left without consumers is deallocated, and a claim generated for a pod
// that is done is deleted (syncClaim). A user's claim stays, deallocated, for the next pod.

#include <string>
#include <string_view>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/model/dra.hpp"
#include "gpusched/model/pod.hpp"
#include "gpusched/scheduler/scheduler.hpp"
#include "sim/api_server.hpp"
#include "sim/event_recorder.hpp"

namespace gpusched::sim {

class ResourceClaimController {
 public:
  ResourceClaimController(ClusterState& cluster, ApiServer& api, Scheduler& scheduler,
                          EventRecorder& events, const TimeMs& now)
      : cluster_(cluster), api_(api), scheduler_(scheduler), events_(events), now_(now) {}

  /// syncPod for a pod about to be created: the claims of its template references, and their
  /// names in `pod`'s status. A template that does not exist yet leaves the reference
  /// unresolved (FailedResourceClaimCreation); the scheduler keeps the pod at PreEnqueue.
  void pod_created(Pod& pod);
  /// syncPod for an existing pod (a template it waits for was added): true when its status
  /// gained claim names (written to `pod`).
  bool sync_pod(Pod& pod);
  /// syncClaim for each claim of a pod that ended (Succeeded, Failed) or is gone, the claim
  /// of its extended resources (status.extendedResourceClaimStatus) included.
  void pod_done(const Pod& pod);
  /// The user deleted a claim: at once when no pod uses it, else it is marked being deleted
  /// (the delete-protection finalizer holds it) and goes with its last consumer. False when
  /// there is no such claim.
  bool delete_claim(std::string_view namespace_, std::string_view name);

 private:
  /// handleClaim: the claim for one template reference; "" when none could be made (an event
  /// says why).
  std::string create_claim(const Pod& pod, const PodResourceClaim& pod_claim);
  /// syncClaim of "ns/name" after `pod` stopped needing it.
  void sync_claim(const Pod& pod, const std::string& name);
  /// The scheduler hears of a claim's new status (ResourceClaim/Update).
  void updated(const dra::ResourceClaim& old_claim, const dra::ResourceClaim& claim);

  ClusterState& cluster_;
  ApiServer& api_;
  Scheduler& scheduler_;
  EventRecorder& events_;
  const TimeMs& now_;
};

}  // namespace gpusched::sim
