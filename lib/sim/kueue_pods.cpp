// Kueue's pod integration (Kueue v0.19.2 pkg/controller/jobs/pod): plain pods and pod groups as
// generic jobs of the KueueController, beside the batch/v1 Job integration.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "gpusched/model/validation.hpp"
#include "kueue/pod_role_hash.hpp"
#include "kueue/workload_name.hpp"
#include "kueue/workload_status.hpp"
#include "sim/kueue_controller.hpp"

namespace gpusched::sim {

namespace {

std::optional<std::string> meta_value(const Labels& map, std::string_view key) {
  auto it = map->find(key);
  if (it == map->end()) return std::nullopt;
  return it->second;
}

bool gated(const Pod& pod) {
  const auto& gates = pod.spec.scheduling_gates;
  return std::find(gates.begin(), gates.end(), kueue::kAdmissionGate) != gates.end();
}

/// The group's kueue.x-k8s.io/pod-group-total-count (groupTotalCount); the webhook refused an
/// invalid one at load, a controller's pod may still carry one: nullopt then.
std::optional<std::int32_t> total_count(const Pod& pod) {
  const std::optional<std::string> text =
      meta_value(pod.metadata.annotations, kueue::kPodGroupTotalCountAnnotation);
  if (!text || text->empty()) return std::nullopt;
  char* end = nullptr;
  const long long value = std::strtoll(text->c_str(), &end, 10);
  if (*end != '\0' || value < 1 || value > std::numeric_limits<std::int32_t>::max())
    return std::nullopt;
  return static_cast<std::int32_t>(value);
}

/// isPodRunnableOrSucceeded: not Failed, and not deleted before it got a node.
bool runnable_or_succeeded(const Pod& pod) {
  if (pod.metadata.deletion_ms && pod.spec.node_name.empty()) return false;
  return pod.status.phase != PodPhase::Failed;
}

/// Ready: Running and not terminating (gpusched has no readiness probes).
bool ready(const Pod& pod) {
  return pod.status.phase == PodPhase::Running && !pod.metadata.deletion_ms;
}

}  // namespace

void KueueController::default_pod(Pod& pod) {
  if (!pod.spec.node_name.empty() || pod.terminated()) return;  // bound already: not created now
  const ApiServer& api = context_.api();
  const std::string& ns = pod.metadata.namespace_;
  // FindAncestorJobManagedByKueue: a pod of a Job Kueue manages is the Job's.
  for (const OwnerReference& ref : *pod.metadata.owner_references) {
    if (!ref.controller || ref.kind != "Job") continue;
    if (auto job = api.jobs.find(ns + "/" + ref.name);
        job != api.jobs.end() && manages(job->second.job))
      return;
  }
  const std::optional<std::string> queue = meta_value(pod.metadata.labels, kueue::kQueueLabel);
  const std::string key = ns + "/" + pod.metadata.name;
  if (!config_.enabled("pod")) {
    // SetupWebhook is a no-op for a framework not enabled: the pod runs unmanaged.
    if (queue && noticed_.insert("pod " + key).second) {
      notices_.push_back("Pod " + key +
                         " has the kueue.x-k8s.io/queue-name label, but Kueue's pod integration "
                         "is not enabled (integrations.frameworks lacks \"pod\"; Kueue's default "
                         "is [\"batch/job\"]): Kueue does not manage it and it is scheduled at "
                         "once");
    }
    return;
  }
  // The webhook's namespaceSelector and managedJobsNamespaceSelector's default both leave out
  // kube-system and kueue-system.
  if (ns == "kube-system" || ns == "kueue-system") return;
  if (!queue && !config_.manage_jobs_without_queue_name) return;
  // Default: the managed label, the admission gate (utilpod.Gate appends it once) and the role
  // hash (addRoleHash keeps one already there). The kueue.x-k8s.io/managed finalizer is left
  // out: it only keeps a deleted pod in the API until Kueue has seen it end.
  pod.metadata.labels[std::string(kueue::kManagedLabel)] = "true";
  if (!gated(pod)) pod.spec.scheduling_gates.push_back(std::string(kueue::kAdmissionGate));
  const std::optional<std::string> group =
      meta_value(pod.metadata.labels, kueue::kPodGroupNameLabel);
  const bool in_group = group && !group->empty();
  if (!pod.metadata.annotations->contains(kueue::kRoleHashAnnotation)) {
    const kueue::RoleHash hash = kueue::role_hash(pod.spec);
    pod.metadata.annotations[std::string(kueue::kRoleHashAnnotation)] = hash.hash;
    if (in_group && !hash.exact && noticed_.insert("role-hash " + key).second) {
      notices_.push_back("Pod " + key +
                         " has a spec field gpusched cannot write as Go's encoding/json does "
                         "(affinity, topology spread constraints, overhead, resource claims, "
                         "pod-level resources, or a toleration's operator): its role hash " +
                         hash.hash + ", the name of its pod set in group " + *group +
                         "'s Workload, may differ from Kueue's");
    }
  }
  const std::string owner_key = in_group ? "PodGroup/" + ns + "/" + *group : "Pod/" + key;
  PodOwner& owner = pod_owners_[owner_key];
  owner.namespace_ = ns;
  owner.name = in_group ? *group : pod.metadata.name;
  owner.group = in_group;
  owner.pods.insert(pod.metadata.name);
  owner.grew = true;
}

std::vector<PodInfo*> KueueController::pods_of(const PodOwner& owner) const {
  std::vector<PodInfo*> out;
  for (const std::string& name : owner.pods) {
    if (PodInfo* pod = context_.api().cluster().find_pod(owner.namespace_, name))
      out.push_back(pod);
  }
  return out;
}

void KueueController::reconcile_pods() {
  std::vector<std::string> gone;
  for (auto& [key, owner] : pod_owners_) {
    reconcile_pod_owner(key, owner);
    if (owner.pods.empty()) gone.push_back(key);
  }
  for (const std::string& key : gone) pod_owners_.erase(key);
}

void KueueController::reconcile_pod_owner(const std::string& key, PodOwner& owner) {
  ApiServer& api = context_.api();
  for (auto it = owner.pods.begin(); it != owner.pods.end();) {
    it = api.cluster().find_pod(owner.namespace_, *it) == nullptr ? owner.pods.erase(it) : ++it;
  }
  auto wl_key = workload_of_pods_.find(key);
  if (owner.pods.empty()) {
    // Every owner of the Workload is gone: the garbage collector deletes it.
    if (wl_key != workload_of_pods_.end()) {
      release(wl_key->second);
      api.kueue.workloads.erase(wl_key->second);
      evicted_.erase(wl_key->second);
      pods_of_workload_.erase(wl_key->second);
      workload_of_pods_.erase(wl_key);
    }
    return;
  }
  const bool grew = std::exchange(owner.grew, false);
  const std::vector<PodInfo*> pods = pods_of(owner);
  // The object the reconciler records on: the pod, or the group's first (p.list.Items[0]; the
  // informer's order, by name here).
  const std::string object = "Pod/" + owner.namespace_ + "/" + pods.front()->pod.metadata.name;
  if (wl_key == workload_of_pods_.end()) {
    // A Workload only for pods still gated (IsSuspended).
    if (std::none_of(pods.begin(), pods.end(), [](const PodInfo* p) { return gated(p->pod); }))
      return;
    if (owner.group) {
      const std::optional<std::int32_t> total = total_count(pods.front()->pod);
      const auto runnable = std::count_if(
          pods.begin(), pods.end(), [](const PodInfo* p) { return runnable_or_succeeded(p->pod); });
      if (total && runnable < *total) {
        // validatePodGroupMetadata: the group waits for its pods; the reconcile of each pod's
        // arrival records the error.
        if (grew) {
          context_.record_series_event(
              object, "Warning", "ErrWorkloadCompose",
              "'" + owner.name + "' group has fewer runnable pods than expected");
        }
        return;
      }
      // The pods must agree on their queue and count; Kueue also deletes pods beyond the count
      // (removeExcessPods). Neither is modelled: the group is left gated, named in a notice.
      const std::optional<std::string> queue =
          meta_value(pods.front()->pod.metadata.labels, kueue::kQueueLabel);
      const bool agree = total && std::all_of(pods.begin(), pods.end(), [&](const PodInfo* p) {
                           return p->pod.status.phase == PodPhase::Failed ||
                                  (total_count(p->pod) == total &&
                                   meta_value(p->pod.metadata.labels, kueue::kQueueLabel) == queue);
                         });
      if (!agree || runnable > *total) {
        if (noticed_.insert("group " + key).second) {
          notices_.push_back(
              "Pod group " + owner.namespace_ + "/" + owner.name +
              (agree ? " has more runnable pods than its kueue.x-k8s.io/pod-group-total-count: "
                       "Kueue would delete the excess pods"
                     : "'s pods differ in their queue name or kueue.x-k8s.io/pod-group-total-count "
                       "(or a count is invalid): Kueue would refuse to compose its Workload") +
              "; gpusched does not model this and leaves the group gated");
        }
        return;
      }
    }
    create_pod_workload(key, owner, pods);
    return;
  }
  kueue::Workload& wl = api.kueue.workloads.at(wl_key->second);
  if (kueue::is_finished(wl)) return;
  // jobframework step 3: Pod.Finished.
  if (!owner.group) {
    const Pod& pod = pods.front()->pod;
    if (pod.terminated()) {
      finish_workload(wl_key->second, wl, pod.status.phase == PodPhase::Succeeded,
                      pod.status.message, object);
      return;
    }
  } else {
    const std::optional<std::int32_t> total = total_count(pods.front()->pod);
    std::int32_t succeeded = 0;
    bool active = false;
    bool unretriable = false;
    for (const PodInfo* p : pods) {
      if (p->pod.status.phase == PodPhase::Succeeded) ++succeeded;
      if (!p->pod.terminated()) active = true;
      if (meta_value(p->pod.metadata.annotations, kueue::kRetriableInGroupAnnotation) == "false")
        unretriable = true;
    }
    if (total && (succeeded == *total || (!active && unretriable))) {
      // Finished reports success either way.
      finish_workload(
          wl_key->second, wl, true,
          "Pods succeeded: " + std::to_string(succeeded) + "/" + std::to_string(*total) + ".",
          object);
      return;
    }
  }
  // jobframework: an admitted Workload whose pods are gated starts them (a pod that joined
  // after the admission).
  if (kueue::is_admitted(wl) && !kueue::condition_true(wl.conditions, kueue::kEvicted))
    start_pods(wl_key->second, key);
  // Pod.PodsReady: the pod is ready; a group has all its pods and every one ready.
  std::optional<TimeMs> since;
  bool all_ready = true;
  for (const PodInfo* p : pods) {
    if (!ready(p->pod)) {
      all_ready = false;
      continue;
    }
    const TimeMs started = p->pod.status.start_ms.value_or(context_.now());
    since = since ? std::max(*since, started) : started;
  }
  if (owner.group) {
    const std::optional<std::int32_t> total = total_count(pods.front()->pod);
    all_ready = all_ready && total && static_cast<std::int64_t>(pods.size()) >= *total;
  }
  sync_pods_ready(wl_key->second, wl, all_ready, since);
}

void KueueController::create_pod_workload(const std::string& owner_key, const PodOwner& owner,
                                          const std::vector<PodInfo*>& pods) {
  ApiServer& api = context_.api();
  const Pod& first = pods.front()->pod;
  kueue::Workload wl;
  wl.metadata.namespace_ = owner.namespace_;
  // workloadName: GetWorkloadNameForPod for a single pod, the group's name for a group.
  wl.metadata.name = owner.group ? owner.name
                                 : kueue::workload_name_for_owner(first.metadata.name,
                                                                  first.metadata.uid, "Pod", "");
  wl.metadata.uid = api.new_uid();
  wl.metadata.creation_ms = context_.now();
  std::vector<OwnerReference> owners;
  for (const PodInfo* p : pods) {
    // The reconciled pod is the controller; a group's other pods are owners too.
    owners.push_back(
        OwnerReference{"Pod", p->pod.metadata.name, p->pod.metadata.uid, p == pods.front()});
  }
  wl.metadata.owner_references = std::move(owners);
  if (owner.group) {
    wl.metadata.annotations[std::string(kueue::kIsGroupWorkloadAnnotation)] = "true";
    // constructGroupPodSets: one pod set per role hash, counting the runnable pods, by name.
    std::map<std::string, kueue::PodSet> roles;
    for (const PodInfo* p : pods) {
      if (!runnable_or_succeeded(p->pod)) continue;
      const std::string role =
          meta_value(p->pod.metadata.annotations, kueue::kRoleHashAnnotation).value_or("");
      auto [it, added] = roles.try_emplace(role);
      if (added) {
        it->second.name = role;
        it->second.count = 1;
        it->second.template_.spec = p->pod.spec;
      } else {
        ++it->second.count;
      }
    }
    for (auto& [role, ps] : roles) wl.pod_sets.push_back(std::move(ps));
  } else {
    // ConstructWorkload: the pod's UID as a label, one pod set "main" of the pod's spec.
    if (first.metadata.uid.size() <= 63 && matches_label_value(first.metadata.uid))
      wl.metadata.labels[std::string(kueue::kJobUidLabel)] = first.metadata.uid;
    kueue::PodSet ps;
    ps.name = std::string(kueue::kDefaultPodSetName);
    ps.template_.spec = first.spec;
    wl.pod_sets.push_back(std::move(ps));
  }
  const std::string wl_key = key_of(wl.metadata);
  const std::string priority_class = wl.pod_sets.front().template_.spec.priority_class_name;
  add_workload(std::move(wl), first.metadata, priority_class,
               "Pod/" + owner.namespace_ + "/" + first.metadata.name);
  workload_of_pods_[owner_key] = wl_key;
  pods_of_workload_[wl_key] = owner_key;
}

void KueueController::start_pods(const std::string& wl_key, const std::string& owner_key) {
  ApiServer& api = context_.api();
  auto wl = api.kueue.workloads.find(wl_key);
  auto owner = pod_owners_.find(owner_key);
  if (wl == api.kueue.workloads.end() || !wl->second.admission || owner == pod_owners_.end())
    return;
  // startJob's message; Pod.Run records it on each pod it starts.
  const std::string message = "Admitted by clusterQueue " + wl->second.admission->cluster_queue;
  for (PodInfo* pod : pods_of(owner->second)) {
    if (!gated(pod->pod) || pod->pod.terminated()) continue;
    Pod updated = pod->pod;
    // prepare: podset.Merge of the pod's pod set (its role's in a group), then Ungate.
    const std::string pod_set =
        owner->second.group
            ? meta_value(pod->pod.metadata.annotations, kueue::kRoleHashAnnotation).value_or("")
            : "";
    merge_flavors(wl->second, pod_set, updated.spec);
    apply_check_updates(wl->second, updated.metadata);
    if (gated(updated)) std::erase(updated.spec.scheduling_gates.mut(), kueue::kAdmissionGate);
    const std::string object = "Pod/" + key_of(pod->pod.metadata);
    context_.update_pod(*pod, std::move(updated));
    context_.record_series_event(object, "Normal", "Started", message);
  }
}

bool KueueController::stop_pods(const std::string& owner_key, const std::string& message) {
  auto owner = pod_owners_.find(owner_key);
  if (owner == pod_owners_.end()) return false;
  // Pod.Stop: each pod neither terminating nor suspended (gated or ended) is deleted with its
  // grace period (the TerminationTarget condition it gets first is not kept), and the
  // reconciler records Stopped on it (before the kubelet's Killing, which comes later).
  for (PodInfo* pod : pods_of(owner->second)) {
    if (pod->pod.metadata.deletion_ms || gated(pod->pod) || pod->pod.terminated()) continue;
    const std::string object = "Pod/" + key_of(pod->pod.metadata);
    context_.record_series_event(object, "Normal", "Stopped", message);
    context_.delete_pod(*pod, pod->pod.spec.termination_grace_period_seconds);
  }
  // Pod.IsActive: a single pod never; a group while one of its pods is Running (terminating
  // ones too, FastQuotaReleaseInPodIntegration being off).
  if (!owner->second.group) return false;
  const std::vector<PodInfo*> pods = pods_of(owner->second);
  return std::any_of(pods.begin(), pods.end(),
                     [](const PodInfo* p) { return p->pod.status.phase == PodPhase::Running; });
}

}  // namespace gpusched::sim
