#include "plugins/gang_scheduling.hpp"

#include <algorithm>

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "model/go_text.hpp"

namespace gpusched::plugins {

GangScheduling::GangScheduling(Handle& handle)
    : cluster_(handle.cluster),
      scheduler_(handle.scheduler),
      pod_groups_(handle.version.minor >= 36) {}

bool GangScheduling::in_group(const Pod& pod) const noexcept {
  return pod_groups_ ? pod.spec.scheduling_group.has_value() : pod.spec.workload_ref.has_value();
}

bool GangScheduling::same_group(const Pod& a, const Pod& b) const noexcept {
  if (a.metadata.namespace_ != b.metadata.namespace_) return false;
  // 1.36: MatchingSchedulingGroup (plugins/helper); 1.35: matchingWorkloadReference, the
  // replica key included.
  if (pod_groups_) {
    return a.spec.scheduling_group && b.spec.scheduling_group &&
           *a.spec.scheduling_group == *b.spec.scheduling_group;
  }
  return a.spec.workload_ref && b.spec.workload_ref && *a.spec.workload_ref == *b.spec.workload_ref;
}

GangScheduling::GroupKey GangScheduling::key_of(const PodInfo& pod) const {
  if (pod_groups_) return {pod.pod.metadata.namespace_, {}, *pod.pod.spec.scheduling_group, {}};
  const WorkloadReference& ref = *pod.pod.spec.workload_ref;
  return {pod.pod.metadata.namespace_, ref.name, ref.pod_group, ref.pod_group_replica_key};
}

Status GangScheduling::unresolvable(const std::string& message) const {
  return Status{Code::UnschedulableAndUnresolvable, kName, {cluster_.pool().intern(message)}};
}

Status GangScheduling::error(const std::string& message) const {
  return Status{Code::Error, kName, {cluster_.pool().intern(message)}};
}

std::optional<Status> GangScheduling::find_policy(const PodInfo& pod, bool at_permit,
                                                  std::optional<std::int32_t>& policy) const {
  const std::string& ns = pod.pod.metadata.namespace_;
  if (pod_groups_) {
    const std::string& name = *pod.pod.spec.scheduling_group;
    const PodGroup* group = cluster_.find_pod_group(ns, name);
    if (group == nullptr) {
      // PreEnqueue: the pod is unschedulable until its PodGroup object is created. Permit:
      // returning an error retries the pod when the PodGroup is added again.
      if (at_permit) {
        return error("failed to get podGroup " + ns + "/" + name +
                     ": podgroups.scheduling.k8s.io " + go_quote(name) + " not found");
      }
      return unresolvable("waiting for pods's pod group " + go_quote(name) +
                          " to appear in scheduling queue");
    }
    policy = group->gang_min_count;
    return std::nullopt;
  }
  const WorkloadReference& ref = *pod.pod.spec.workload_ref;
  const SchedulingWorkload* workload = cluster_.find_workload(ns, ref.name);
  if (workload == nullptr) {
    if (at_permit) {
      return error("failed to get workload " + ns + "/" + ref.name +
                   ": workloads.scheduling.k8s.io " + go_quote(ref.name) + " not found");
    }
    return unresolvable("waiting for pods's workload " + go_quote(ref.name) +
                        " to appear in scheduling queue");
  }
  const WorkloadPodGroup* group = workload->pod_group(ref.pod_group);
  if (group == nullptr) {
    const std::string message = "pod group " + go_quote(ref.pod_group) +
                                " doesn't exist for a workload " +
                                go_quote(workload->metadata.name);
    return at_permit ? error(message) : unresolvable(message);
  }
  policy = group->gang_min_count;
  return std::nullopt;
}

PodGroupCounts GangScheduling::counts(const PodInfo& pod) const {
  // The workload manager's podGroupInfo (1.35) / the cache's pod group state (1.36): every pod
  // of the group the scheduler's informers list (terminated pods leave them), bound ones
  // assigned, those past Reserve assumed.
  PodGroupCounts out;
  const auto it = assumed_.find(key_of(pod));
  for (PodInfo* other : cluster_.pods()) {
    if (other->pod.terminated() || !same_group(other->pod, pod.pod)) continue;
    out.all.push_back(other);
    if (!other->pod.spec.node_name.empty()) {
      ++out.assigned;
    } else if (it != assumed_.end() && it->second.contains(other->pod.metadata.uid)) {
      ++out.assumed;
    } else {
      out.unscheduled.push_back(other);
    }
  }
  return out;
}

std::optional<TimeMs> GangScheduling::deadline(const PodInfo& pod) const {
  const auto it = deadlines_.find(key_of(pod));
  if (it == deadlines_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::int32_t> GangScheduling::min_count(const PodInfo& pod) const {
  std::optional<std::int32_t> policy;
  if (find_policy(pod, false, policy)) return std::nullopt;
  return policy;
}

Status GangScheduling::pre_enqueue(const PodInfo& pod) const {
  if (!in_group(pod.pod)) return Code::Success;
  std::optional<std::int32_t> min;
  if (std::optional<Status> missing = find_policy(pod, false, min)) return *missing;
  // This plugin only cares about pods with a Gang scheduling policy.
  if (!min) return Code::Success;
  if (counts(pod).all.size() < static_cast<std::size_t>(*min)) {
    return unresolvable("waiting for minCount pods from a gang to appear in scheduling queue");
  }
  return Code::Success;
}

std::vector<ClusterEventWithHint> GangScheduling::events_to_register() const {
  // A new pod may complete a gang (the pod's group is immutable: no Pod/Update). 1.35: a new
  // Workload may make a waiting gang schedulable (its PodGroups are immutable: no
  // Workload/Update). 1.36: likewise a new PodGroup (its policy is immutable).
  if (pod_groups_) {
    return {{{EventResource::Pod, action::kAdd, "Pod"}, true},
            {{EventResource::PodGroup, action::kAdd, "PodGroup"}, true}};
  }
  return {{{EventResource::Pod, action::kAdd, "Pod"}, true},
          {{EventResource::Workload, action::kAdd, "Workload"}, true}};
}

QueueingHint GangScheduling::queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                           const EventObjects& objects) const {
  if (event.resource == EventResource::Pod) {
    // isSchedulableAfterPodAdded.
    return objects.pod != nullptr && same_group(pod.pod, objects.pod->pod)
               ? QueueingHint::Queue
               : QueueingHint::QueueSkip;
  }
  const std::string& ns = pod.pod.metadata.namespace_;
  if (event.resource == EventResource::PodGroup) {
    // isSchedulableAfterPodGroupAdded (1.36).
    const SharedOptional<std::string>& name = pod.pod.spec.scheduling_group;
    const PodGroup* added = objects.pod_group;
    return name && added != nullptr && added->metadata.namespace_ == ns &&
                   added->metadata.name == *name
               ? QueueingHint::Queue
               : QueueingHint::QueueSkip;
  }
  // isSchedulableAfterWorkloadAdded (1.35).
  const SharedOptional<WorkloadReference>& ref = pod.pod.spec.workload_ref;
  const SchedulingWorkload* added = objects.workload;
  if (!ref || added == nullptr || added->metadata.namespace_ != ns ||
      added->metadata.name != ref->name) {
    return QueueingHint::QueueSkip;
  }
  return QueueingHint::Queue;
}

Code GangScheduling::reserve(CycleState&, const PodInfo& pod, NodeInfo&) {
  if (in_group(pod.pod)) assumed_[key_of(pod)].insert(pod.pod.metadata.uid);
  return Code::Success;
}

void GangScheduling::unreserve(CycleState&, const PodInfo& pod, NodeInfo&) {
  if (!in_group(pod.pod)) return;
  const auto it = assumed_.find(key_of(pod));
  if (it == assumed_.end()) return;
  it->second.erase(pod.pod.metadata.uid);
  if (it->second.empty()) assumed_.erase(it);
}

Status GangScheduling::permit(CycleState&, const PodInfo& pod, const NodeInfo&, TimeMs& timeout) {
  if (!in_group(pod.pod)) return Code::Success;
  std::optional<std::int32_t> min;
  if (std::optional<Status> missing = find_policy(pod, true, min)) return *missing;
  if (!min) return Code::Success;
  const PodGroupCounts group_counts = counts(pod);
  const GroupKey key = key_of(pod);
  if (group_counts.assumed + group_counts.assigned < static_cast<std::size_t>(*min)) {
    // Activate unscheduled pods from this pod group in case they were waiting for this pod.
    if (scheduler_ != nullptr) scheduler_->activate(group_counts.unscheduled);
    if (pod_groups_) {
      // permitTimeoutDuration: each pod waits 5 minutes from its own Permit.
      timeout = kGangSchedulingTimeout;
      return Status{
          Code::Wait,
          kName,
          {cluster_.pool().intern("waiting for minCount pods from a gang to be scheduled")}};
    }
    // SchedulingTimeout: a new deadline when there is none or the last one has passed. A
    // deadline equal to the virtual now has passed: the timers that fired at it ran first.
    const TimeMs now = scheduler_ != nullptr ? scheduler_->now() : 0;
    auto [it, added] = deadlines_.try_emplace(key, now + kGangSchedulingTimeout);
    if (!added && it->second <= now) it->second = now + kGangSchedulingTimeout;
    timeout = it->second - now;
    return Status{
        Code::Wait,
        kName,
        {cluster_.pool().intern("waiting for minCount pods from a gang to be waiting on permit")}};
  }
  // The quorum is met: allow every other waiting pod of the gang.
  if (scheduler_ != nullptr) {
    const auto it = assumed_.find(key);
    if (it != assumed_.end()) {
      const std::vector<std::string> uids(it->second.begin(), it->second.end());
      for (const std::string& uid : uids) scheduler_->allow_waiting_pod(uid, kName);
    }
  }
  return Code::Success;
}

}  // namespace gpusched::plugins
