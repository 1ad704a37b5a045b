#pragma once
// workload.Info (Kueue v0.19.2 pkg/workload/workload.go): a Workload with its requests per pod
// set in Kueue's units, and the usage its admission holds.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/kueue.hpp"
#include "kueue/quota_tree.hpp"

namespace gpusched::kueue {

/// Requests: resource -> amount in Kueue's unit (cpu milli, the rest whole units).
using Requests = std::map<std::string, std::int64_t>;

/// PodSetResources: one pod set's total requests (a pod's times count).
struct PodSetResources {
  std::string name;
  Requests requests;
  std::int32_t count = 0;
  /// The flavor of each resource, once admitted.
  std::map<std::string, std::string> flavors;
};

/// The flavor scan's progress between cycles (AssignmentClusterQueueState).
struct AssignmentState {
  /// Per pod set: resource -> index of the last flavor tried (-1: start again at the first).
  std::vector<std::map<std::string, int>> last_tried_flavor_idx;
  std::int64_t cluster_queue_generation = 0;
  std::int64_t scheduling_cycle = 0;
  /// NextFlavorToTryForPodSetResource.
  [[nodiscard]] int next_flavor_to_try(std::size_t pod_set, const std::string& resource) const;
  /// PendingFlavors: some resource has flavors left to try.
  [[nodiscard]] bool pending_flavors() const;
};

struct WorkloadInfo {
  const Workload* obj = nullptr;
  std::string key;            ///< "ns/name"
  std::string cluster_queue;  ///< the queue it is (or would be) admitted in
  std::vector<PodSetResources> total_requests;
  std::optional<AssignmentState> last_assignment;
  /// Usage this workload's admission holds: each pod set's requests under its flavors.
  [[nodiscard]] FlavorResourceAmounts usage() const;
};

/// The key "ns/queue" of the LocalQueue a workload names (queue.KeyFromWorkload).
[[nodiscard]] inline std::string local_queue_key(const Workload& wl) {
  return wl.metadata.namespace_ + "/" + wl.queue_name;
}

/// A pod's requests in Kueue's units, limits standing in for missing requests
/// (resources.NewRequestsFromPodSpec after jobframework's UseLimitsAsMissingRequestsInPod).
[[nodiscard]] Requests pod_requests_of(const PodSpec& spec);

/// NewInfo: the totals of each pod set (negative requests floored to zero); when admitted, the
/// admission's usage, counts and flavors of each pod set instead.
[[nodiscard]] WorkloadInfo make_info(const Workload& wl, std::string key);

}  // namespace gpusched::kueue
