// The StatefulSet controller (pkg/controller/statefulset), reacting at once: pods named
// `<set>-<ordinal>` for the ordinals spec.ordinals.start .. start + replicas - 1, created in
// ascending order, each only once its predecessors are Running and Ready (OrderedReady, the
// default) or all at once (Parallel); surplus ordinals deleted from the highest, under
// OrderedReady one at a time, each after the previous one has terminated; failed pods deleted and
// created again under their name. It syncs on apply, patch and scale, on pod deletion or
// completion (ControllerManager::sync_all) and when one of its pods starts (pod_started).
// Simplified: rolling updates are not modelled (a changed template is used for the pods created
// afterwards, as with updateStrategy OnDelete), orphans are not adopted, and volumeClaimTemplates
// make no claims (the loader warns).
#include "sim/statefulset_controller.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/disruption.hpp"
#include "model/names.hpp"
#include "sim/daemonset_util.hpp"

namespace gpusched::sim {
namespace {

// The component of its own event broadcaster (pkg/controller/statefulset/stateful_set.go).
constexpr std::string_view kEventSource = "statefulset-controller";

/// getParentNameAndOrdinal: the name is `<parent>-<digits>` (statefulPodRegex `(.*)-([0-9]+)$`),
/// the digits an int32 (strconv.ParseInt(s, 10, 32)). nullopt when the pod is not a member of
/// `set` (isMemberOf) or has no ordinal.
std::optional<std::int64_t> member_ordinal(const StatefulSet& set, const Pod& pod) {
  const std::string& name = pod.metadata.name;
  const auto dash = name.rfind('-');
  if (dash == std::string::npos || dash + 1 == name.size()) return std::nullopt;
  const std::string_view digits = std::string_view(name).substr(dash + 1);
  if (digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  if (std::string_view(name).substr(0, dash) != set.metadata.name) return std::nullopt;
  std::int64_t value = 0;
  for (const char c : digits) {
    value = value * 10 + (c - '0');
    if (value > INT32_MAX) return std::nullopt;
  }
  return value;
}

/// isRunningAndAvailable: Running and Ready for minReadySeconds (podutil.IsPodAvailable). A pod
/// is Ready from its start: gpusched has no readiness probes. Sets `available_at` when it will be.
bool running_and_available(const Pod& pod, std::int32_t min_ready_seconds, TimeMs now,
                           std::optional<TimeMs>* available_at = nullptr) {
  if (!running_and_ready(pod)) return false;
  if (min_ready_seconds == 0 || !pod.status.start_ms) return true;
  const TimeMs at = *pod.status.start_ms + TimeMs{min_ready_seconds} * 1000;
  if (available_at != nullptr) *available_at = at;
  return at <= now;
}

bool terminating(const PodInfo& pod) {
  return pod.pod.metadata.deletion_ms.has_value();
}

/// isUnavailable: not Running and Ready, terminating, or not yet available.
bool unavailable(const PodInfo& pod, std::int32_t min_ready_seconds, TimeMs now) {
  return terminating(pod) || !running_and_available(pod.pod, min_ready_seconds, now);
}

}  // namespace

void StatefulSetController::sync_all() {
  sync_keys(context_.api().statefulsets);
}

void StatefulSetController::sync(const std::string& key) {
  // A deletion enqueues the set again (deletePod): the next sync creates the replacement of a
  // pod that was gone at once (a failed or unbound one), or deletes the next surplus ordinal.
  // That sync's own deletions wait for the next trigger, as a pod the kubelet keeps rejecting is
  // replaced once a second (Simulation::admit_on_node), not in a loop within one instant.
  syncing_ = true;
  if (sync_once(key)) sync_once(key);
  syncing_ = false;
}

void StatefulSetController::pod_started(const PodInfo& pod) {
  const OwnerReference* owner = pod.pod.metadata.controller();
  if (owner == nullptr || owner->kind != "StatefulSet" || context_.api().loading()) return;
  const std::string key = pod.pod.metadata.namespace_ + "/" + owner->name;
  // A pod created bound starts within the sync that creates it: the set syncs again after it.
  if (syncing_) {
    sync_at(key, context_.now());
  } else {
    sync(key);
  }
}

void StatefulSetController::create(const StatefulSet& set, const std::string& key,
                                   std::int64_t ordinal) {
  const std::string name = set.metadata.name + "-" + std::to_string(ordinal);
  if (context_.api().cluster().find_pod(set.metadata.namespace_, name) != nullptr) return;
  // newVersionedStatefulSetPod: GetPodFromTemplate, initIdentity (the pod-name and pod-index
  // labels), setPodRevision. The revision is ControllerRevisionName(set, hash): gpusched's
  // template hash (names.hpp) stands for HashControllerRevision.
  Pod pod = controlled_pod(set.template_, set.metadata,
                           controller_reference(set.metadata, "StatefulSet"), name);
  auto& labels = pod.metadata.labels.mut();
  labels[std::string(kStatefulSetPodNameLabel)] = name;
  labels[std::string(kPodIndexLabel)] = std::to_string(ordinal);
  labels[std::string(kControllerRevisionHashLabel)] =
      set.metadata.name + "-" + pod_template_hash(set.template_);
  context_.create_pod(std::move(pod), set.metadata.name + "-");
  // recordPodEvent("create", ...).
  context_.record_event(
      kEventSource, "StatefulSet/" + key, "Normal", "SuccessfulCreate",
      "create Pod " + name + " in StatefulSet " + set.metadata.name + " successful");
}

void StatefulSetController::remove(const std::string& key, PodInfo& pod) {
  const std::string name = pod.pod.metadata.name;
  const std::string set = key.substr(key.find('/') + 1);
  context_.delete_pod(pod, pod.pod.spec.termination_grace_period_seconds);
  context_.record_event(kEventSource, "StatefulSet/" + key, "Normal", "SuccessfulDelete",
                        "delete Pod " + name + " in StatefulSet " + set + " successful");
}

// updateStatefulSet (stateful_set_control.go) up to the update strategy, which is not modelled.
bool StatefulSetController::sync_once(const std::string& key) {
  ApiServer& api = context_.api();
  auto it = api.statefulsets.find(key);
  if (it == api.statefulsets.end()) return false;
  const StatefulSet set = it->second;  // creating pods must not invalidate it
  const TimeMs now = context_.now();
  const std::int32_t min_ready = set.min_ready_seconds;
  const bool monotonic = set.pod_management_policy != "Parallel";  // !allowsBurst
  const std::int64_t start = set.ordinals_start;
  const std::int64_t end = start + set.replicas - 1;

  // The pods in [start, end] by ordinal; the others, condemned, by descending ordinal.
  std::vector<PodInfo*> replicas(static_cast<std::size_t>(set.replicas), nullptr);
  std::vector<std::pair<std::int64_t, PodInfo*>> condemned;
  for (PodInfo* pod : owned_pods(set.metadata.uid)) {
    const std::optional<std::int64_t> ordinal = member_ordinal(set, pod->pod);
    if (!ordinal) continue;
    if (*ordinal >= start && *ordinal <= end) {
      replicas[static_cast<std::size_t>(*ordinal - start)] = pod;
    } else {
      condemned.emplace_back(*ordinal, pod);
    }
  }
  std::sort(condemned.begin(), condemned.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });

  // A pod not yet available under minReadySeconds holds OrderedReady back until it is.
  auto wait_until_available = [&](const PodInfo& pod) {
    std::optional<TimeMs> at;
    if (running_and_available(pod.pod, min_ready, now, &at) || !at) return false;
    sync_at(key, *at);
    return true;
  };

  bool deleted = false;
  // processReplica for each ordinal, in order; under OrderedReady the first that is missing,
  // failed, terminating or not Running and Ready ends the sync.
  for (std::size_t i = 0; i < replicas.size(); ++i) {
    PodInfo* pod = replicas[i];
    if (pod == nullptr) {
      create(set, key, start + static_cast<std::int64_t>(i));
      if (monotonic) return deleted;
      continue;
    }
    if (pod->pod.terminated()) {
      // Failed or Succeeded: deleted, and created again by the next sync once it is gone.
      if (!terminating(*pod)) {
        remove(key, *pod);
        deleted = true;
      }
      if (monotonic) return deleted;
      continue;
    }
    if (!monotonic) continue;
    if (terminating(*pod) || !running_and_ready(pod->pod) || wait_until_available(*pod)) {
      return deleted;
    }
  }

  // processCondemned, from the highest ordinal. Parallel deletes them all at once.
  if (!monotonic) {
    for (const auto& [ordinal, pod] : condemned) {
      if (terminating(*pod)) continue;
      remove(key, *pod);
      deleted = true;
    }
    return deleted;
  }
  // OrderedReady got here with every replica Running and available: the first unavailable pod
  // is the condemned one of lowest ordinal that is not. One deletion per sync, none while a
  // surplus pod is still terminating; an unavailable one is deleted only if it is that first one
  // (upstream's rule: two unavailable surplus pods block each other).
  const PodInfo* first_unavailable = nullptr;
  for (auto c = condemned.rbegin(); first_unavailable == nullptr && c != condemned.rend(); ++c) {
    if (unavailable(*c->second, min_ready, now)) first_unavailable = c->second;
  }
  for (const auto& [ordinal, pod] : condemned) {
    if (terminating(*pod)) return deleted;
    if (pod != first_unavailable && (!running_and_ready(pod->pod) || wait_until_available(*pod))) {
      return deleted;
    }
    remove(key, *pod);
    return true;
  }
  return deleted;
}

}  // namespace gpusched::sim
