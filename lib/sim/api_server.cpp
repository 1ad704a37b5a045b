#include "sim/api_server.hpp"

#include <algorithm>
#include <cstdio>

#include "gpusched/error.hpp"
#include "model/names.hpp"
#include "model/priority_admission.hpp"

namespace gpusched::sim {

std::string ApiServer::new_uid() {
  char buf[40];
  std::snprintf(buf, sizeof buf, "00000000-0000-4000-8000-%012llx",
                static_cast<unsigned long long>(++uid_counter_));
  return buf;
}

void ApiServer::stamp(ObjectMeta& meta, const ObjectMeta* existing) {
  if (existing != nullptr) {
    meta.uid = existing->uid;
  } else if (!loading_ || meta.uid.empty()) {
    meta.uid = new_uid();
  }
  // An object of the starting cluster keeps the creation time it was exported with.
  if (existing != nullptr) {
    meta.creation_ms = existing->creation_ms;
  } else if (!loading_) {
    meta.creation_ms = now_;
  }
}

std::string ApiServer::generate_pod_name(const ObjectMeta& owner) {
  const std::string key = owner.namespace_ + "/" + owner.name;
  // The controllers' generateName is "<owner>-" (controller_utils getPodsPrefix), and
  // names.SimpleNameGenerator (k8s.io/apiserver/pkg/storage/names/generate.go) cuts it to
  // maxGeneratedNameLength (63 - 5 = 58) characters before adding the 5 random ones, so a
  // generated name never exceeds 63.
  constexpr std::size_t kMaxGeneratedNameLength = 58;
  std::string prefix = owner.name + "-";
  if (prefix.size() > kMaxGeneratedNameLength) prefix.resize(kMaxGeneratedNameLength);
  std::string name;
  do {
    name = prefix + generated_suffix(key, name_counters_[key]++);
  } while (
      cluster_.find_pod(owner.namespace_, name) != nullptr ||
      (!removed_pod_keys_.empty() && removed_pod_keys_.contains(owner.namespace_ + "/" + name)));
  return name;
}

std::vector<PodInfo*> ApiServer::owned_pods(const std::string& uid) const {
  std::vector<PodInfo*> out;
  auto it = owned_.find(uid);
  if (it == owned_.end()) return out;
  out.assign(it->second.begin(), it->second.end());
  return out;
}

void ApiServer::pod_added(PodInfo& pod) {
  if (const OwnerReference* owner = pod.pod.metadata.controller()) owned_[owner->uid].insert(pod);
  pod_changed(pod);
}

void ApiServer::pod_removed(const PodInfo& pod) {
  removed_pod_keys_.insert(key_of(pod.pod.metadata));
  if (const OwnerReference* owner = pod.pod.metadata.controller()) {
    if (auto it = owned_.find(owner->uid); it != owned_.end()) {
      // Its controller reference is the one it was added under: the API server keeps a pod's
      // ownerReferences on update.
      it->second.erase(pod);
      if (it->second.empty()) owned_.erase(it);
    }
  }
  pod_changed(pod);
}

void ApiServer::pod_changed(const PodInfo& pod) {
  const OwnerReference* owner = pod.pod.metadata.controller();
  if (owner == nullptr || owner->kind != "Job") return;
  const std::string key = pod.pod.metadata.namespace_ + "/" + owner->name;
  jobs_with_changed_pods_.insert(key);
  // The Job's status follows its pods, and Kueue's Job reconciler watches it.
  changed_jobs_.insert(key);
}

void ApiServer::pod_started(const PodInfo& pod) {
  const OwnerReference* owner = pod.pod.metadata.controller();
  if (owner != nullptr && owner->kind == "Job")
    changed_jobs_.insert(pod.pod.metadata.namespace_ + "/" + owner->name);
}

std::set<std::string> ApiServer::take_jobs_with_changed_pods() {
  std::set<std::string> out;
  out.swap(jobs_with_changed_pods_);
  return out;
}

std::set<std::string> ApiServer::take_changed_jobs() {
  std::set<std::string> out;
  out.swap(changed_jobs_);
  return out;
}

void ApiServer::check_owned_index() const {
  std::unordered_map<std::string, std::vector<PodInfo*>> scanned;
  for (PodInfo* pod : cluster_.pods()) {
    if (const OwnerReference* owner = pod->pod.metadata.controller())
      scanned[owner->uid].push_back(pod);
  }
  GPUSCHED_CHECK(scanned.size() == owned_.size(),
                 "the pods indexed by controller are the controlled pods of the store");
  for (const auto& [uid, pods] : scanned) {
    GPUSCHED_CHECK(owned_pods(uid) == pods,
                   "the pods indexed under a controller are its pods, in key order");
  }
}

std::optional<std::string> ApiServer::apply_priority_class(PriorityClass pc) {
  auto it =
      std::find_if(priority_classes.begin(), priority_classes.end(),
                   [&](const PriorityClass& c) { return c.metadata.name == pc.metadata.name; });
  if (auto error = admit_priority_class(pc, priority_classes)) return error;
  stamp(pc.metadata, it == priority_classes.end() ? nullptr : &it->metadata);
  if (it == priority_classes.end()) {
    priority_classes.push_back(std::move(pc));
    return std::nullopt;
  }
  // ValidatePriorityClassUpdate: the value and the preemption policy are immutable.
  const std::string prefix =
      "PriorityClass.scheduling.k8s.io \"" + pc.metadata.name + "\" is invalid: ";
  if (pc.value != it->value) return prefix + "value: Forbidden: may not be changed in an update.";
  if (pc.preemption_policy != it->preemption_policy) {
    return prefix + "preemptionPolicy: Invalid value: \"" + pc.preemption_policy +
           "\": field is immutable";
  }
  *it = std::move(pc);
  return std::nullopt;
}

std::string key_of(const ObjectMeta& meta) {
  return meta.namespace_ + "/" + meta.name;
}

std::string store_key(const ObjectRef& ref) {
  return ref.namespace_.empty() ? ref.name : ref.namespace_ + "/" + ref.name;
}

std::optional<Object> ApiServer::find(const ObjectRef& ref) const {
  const std::string key = ref.namespace_ + "/" + ref.name;
  std::optional<Object> found;
  // A "Workload" is the gang's (scheduling.k8s.io) when one has that name, else Kueue's.
  if (ref.kind == "Workload") {
    if (const SchedulingWorkload* w = cluster_.find_workload(ref.namespace_, ref.name)) return *w;
  }
  if (ref.kind == "PodGroup") {
    if (const PodGroup* group = cluster_.find_pod_group(ref.namespace_, ref.name)) return *group;
    return std::nullopt;
  }
  if (kueue.visit(ref.kind, [&](const auto& store) {
        if (auto it = store.find(store_key(ref)); it != store.end()) found = it->second;
      })) {
    return found;
  }
  if (ref.kind == "Node") {
    if (const NodeInfo* node = cluster_.find_node(ref.name)) return node->node;
  } else if (ref.kind == "Pod") {
    if (const PodInfo* pod = cluster_.find_pod(ref.namespace_, ref.name)) return pod->pod;
  } else if (ref.kind == "Deployment") {
    if (auto it = deployments.find(key); it != deployments.end()) return it->second;
  } else if (ref.kind == "ReplicaSet") {
    if (auto it = replicasets.find(key); it != replicasets.end()) return it->second;
  } else if (ref.kind == "Job") {
    if (auto it = jobs.find(key); it != jobs.end()) return it->second.job;
  } else if (ref.kind == "DaemonSet") {
    if (auto it = daemonsets.find(key); it != daemonsets.end()) return it->second.ds;
  } else if (ref.kind == "StatefulSet") {
    if (auto it = statefulsets.find(key); it != statefulsets.end()) return it->second;
  } else if (ref.kind == "Service") {
    if (auto it = services.find(key); it != services.end()) return it->second;
  } else if (ref.kind == "Namespace") {
    if (const ObjectMeta* ns = cluster_.find_namespace(ref.name)) return Namespace{*ns};
  } else if (ref.kind == "PodDisruptionBudget") {
    if (auto it = budgets.find(key); it != budgets.end()) return it->second;
  } else if (ref.kind == "DeviceClass") {
    if (const dra::DeviceClass* c = cluster_.dra().find_class(ref.name)) return *c;
  } else if (ref.kind == "ResourceSlice") {
    if (const dra::ResourceSlice* slice = cluster_.dra().find_slice(ref.name)) return *slice;
  } else if (ref.kind == "ResourceClaim") {
    if (const dra::ResourceClaim* claim = cluster_.dra().find_claim(ref.namespace_, ref.name))
      return *claim;
  } else if (ref.kind == "ResourceClaimTemplate") {
    if (const auto* t = cluster_.dra().find_template(ref.namespace_, ref.name)) return *t;
  } else if (ref.kind == "PriorityClass") {
    auto it = std::find_if(priority_classes.begin(), priority_classes.end(),
                           [&](const PriorityClass& c) { return c.metadata.name == ref.name; });
    if (it != priority_classes.end()) return *it;
  }
  return std::nullopt;
}

}  // namespace gpusched::sim
