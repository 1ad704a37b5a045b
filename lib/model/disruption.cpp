// Mirrors pkg/controller/disruption/disruption.go (Kubernetes 1.33): trySync, getPodsForPdb,
// getExpectedPodCount, getExpectedScale, countHealthyPods and updatePdbStatus. gpusched does not
// evict through the API, so status.disruptedPods is always empty.
#include "model/disruption.hpp"

#include <algorithm>
#include <map>

namespace gpusched {
namespace {

struct ExpectedScale {
  std::int32_t count = 0;
  std::string error;
};

/// getExpectedScale: the sum of the scales of the distinct controllers of `pods`; pods without a
/// controller are unmanaged and add nothing (upstream warns with an UnmanagedPods event).
ExpectedScale expected_scale(const std::vector<const Pod*>& pods,
                             const ControllerScale& controller_scale) {
  ExpectedScale out;
  if (!controller_scale) {
    // gpusched's stand-in when the caller knows no scales: the selected pods themselves.
    out.count = static_cast<std::int32_t>(pods.size());
    return out;
  }
  std::map<std::string, std::int32_t> scales;  // by controller UID (kind/name when no UID)
  for (const Pod* pod : pods) {
    const OwnerReference* ref = pod->metadata.controller();
    if (ref == nullptr) continue;
    std::string key = ref->uid.empty() ? ref->kind + "/" + ref->name : ref->uid;
    if (scales.contains(key)) continue;
    std::optional<std::int32_t> scale = controller_scale(*ref, pod->metadata.namespace_);
    if (!scale) {
      out.error = "found no controllers for pod \"" + pod->metadata.name + "\"";
      return out;
    }
    scales.emplace(std::move(key), *scale);
  }
  for (const auto& [uid, scale] : scales) out.count += scale;
  return out;
}

}  // namespace

std::int32_t scaled_value(const IntOrPercent& value, std::int32_t total) noexcept {
  if (!value.percent) return value.value;
  // math.Ceil(float64(value) * float64(total) / 100) for the non-negative values validation
  // admits.
  const std::int64_t product = static_cast<std::int64_t>(value.value) * total;
  return static_cast<std::int32_t>((product + 99) / 100);
}

bool running_and_ready(const Pod& pod) noexcept {
  if (pod.status.phase != PodPhase::Running) return false;
  // apipod.IsPodReady: the Ready condition is True. gpusched sets no Ready condition itself.
  const PodCondition* ready = pod.status.condition("Ready");
  return ready == nullptr || ready->status == "True";
}

bool counts_as_healthy(const Pod& pod) noexcept {
  return !pod.metadata.deletion_ms && running_and_ready(pod);  // not being deleted
}

PdbStatus pdb_status(const PodDisruptionBudget& pdb,
                     const std::vector<const Pod*>& pods_in_namespace,
                     const ControllerScale& controller_scale) {
  // getPodsForPdb: LabelSelectorAsSelector(nil) is labels.Nothing(), an empty selector
  // labels.Everything().
  std::vector<const Pod*> pods;
  for (const Pod* pod : pods_in_namespace) {
    if (pod->metadata.namespace_ == pdb.metadata.namespace_ && pdb.selects(pod->metadata.labels)) {
      pods.push_back(pod);
    }
  }

  PdbStatus status;
  // getExpectedPodCount.
  if (pdb.max_unavailable) {
    ExpectedScale scale = expected_scale(pods, controller_scale);
    if (!scale.error.empty()) {
      status.sync_error = std::move(scale.error);  // failSafe: disruptionsAllowed = 0
      return status;
    }
    status.expected_pods = scale.count;
    status.desired_healthy =
        std::max(0, status.expected_pods - scaled_value(*pdb.max_unavailable, scale.count));
  } else if (pdb.min_available) {
    if (!pdb.min_available->percent) {
      status.desired_healthy = pdb.min_available->value;
      status.expected_pods = static_cast<std::int32_t>(pods.size());
    } else {
      ExpectedScale scale = expected_scale(pods, controller_scale);
      if (!scale.error.empty()) {
        status.sync_error = std::move(scale.error);
        return status;
      }
      status.expected_pods = scale.count;
      status.desired_healthy = scaled_value(*pdb.min_available, scale.count);
    }
  }

  // countHealthyPods.
  status.current_healthy = static_cast<std::int32_t>(std::count_if(
      pods.begin(), pods.end(), [](const Pod* pod) { return counts_as_healthy(*pod); }));

  // updatePdbStatus: no disruptions while the budget expects no pods.
  status.disruptions_allowed = status.current_healthy - status.desired_healthy;
  if (status.expected_pods <= 0 || status.disruptions_allowed <= 0) status.disruptions_allowed = 0;
  return status;
}

}  // namespace gpusched
