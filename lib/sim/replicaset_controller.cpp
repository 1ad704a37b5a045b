#include "sim/replicaset_controller.hpp"

#include <algorithm>

namespace gpusched::sim {
namespace {

// The component of its own event broadcaster (pkg/controller/replicaset/replica_set.go).
constexpr std::string_view kEventSource = "replicaset-controller";

}  // namespace

void ReplicaSetController::sync_all() {
  sync_keys(context_.api().replicasets);
}

void ReplicaSetController::sync(const std::string& key) {
  ApiServer& api = context_.api();
  auto it = api.replicasets.find(key);
  if (it == api.replicasets.end()) return;
  const ReplicaSet rs = it->second;
  std::vector<PodInfo*> pods = owned_pods(rs.metadata.uid);
  std::erase_if(pods, [](const PodInfo* p) { return !active(*p); });
  const auto have = static_cast<std::int64_t>(pods.size());
  const auto owned_by = controller_reference(rs.metadata, "ReplicaSet");
  for (std::int64_t i = have; i < rs.replicas; ++i) {
    Pod pod = controlled_pod(rs.template_, rs.metadata, owned_by);
    const std::string name = pod.metadata.name;
    context_.create_pod(std::move(pod), rs.metadata.name + "-");
    context_.record_event(kEventSource, "ReplicaSet/" + key, "Normal", "SuccessfulCreate",
                          "Created pod: " + name);
  }
  if (have <= rs.replicas) return;
  // getPodsToDelete / ActivePodsWithRanks: unassigned first, then not running, then the newest.
  std::stable_sort(pods.begin(), pods.end(), [](const PodInfo* a, const PodInfo* b) {
    const bool a_unassigned = a->pod.spec.node_name.empty(),
               b_unassigned = b->pod.spec.node_name.empty();
    if (a_unassigned != b_unassigned) return a_unassigned;
    const bool a_pending = a->pod.status.phase == PodPhase::Pending;
    const bool b_pending = b->pod.status.phase == PodPhase::Pending;
    if (a_pending != b_pending) return a_pending;
    return a->pod.metadata.creation_ms > b->pod.metadata.creation_ms ||
           (a->pod.metadata.creation_ms == b->pod.metadata.creation_ms &&
            a->sequence > b->sequence);
  });
  for (std::int64_t i = 0; i < have - rs.replicas; ++i) {
    PodInfo* pod = pods[static_cast<std::size_t>(i)];
    const std::string name = pod->pod.metadata.name;
    context_.delete_pod(*pod, pod->pod.spec.termination_grace_period_seconds);
    context_.record_event(kEventSource, "ReplicaSet/" + key, "Normal", "SuccessfulDelete",
                          "Deleted pod: " + name);
  }
}

}  // namespace gpusched::sim
