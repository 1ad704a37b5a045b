#include "plugins/gang_scheduling.hpp"

#include <algorithm>

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "model/go_text.hpp"

namespace gpusched::plugins {
namespace {

/// matchingWorkloadReference: the same namespace and the same reference, replica key included.
bool same_group(const Pod& a, const Pod& b) {
  return a.spec.workload_ref && b.spec.workload_ref &&
         a.metadata.namespace_ == b.metadata.namespace_ &&
         *a.spec.workload_ref == *b.spec.workload_ref;
}

}  // namespace

GangScheduling::GangScheduling(Handle& handle)
    : cluster_(handle.cluster), scheduler_(handle.scheduler) {}

GangScheduling::GroupKey GangScheduling::key_of(const PodInfo& pod) {
  const WorkloadReference& ref = *pod.pod.spec.workload_ref;
  return {pod.pod.metadata.namespace_, ref.name, ref.pod_group, ref.pod_group_replica_key};
}

Status GangScheduling::unresolvable(const std::string& message) const {
  return Status{Code::UnschedulableAndUnresolvable, kName, {cluster_.pool().intern(message)}};
}

PodGroupCounts GangScheduling::counts(const PodInfo& pod) const {
  // The workload manager's podGroupInfo: every pod of the group the scheduler's informers list
  // (terminated pods leave them), bound ones assigned, those past Reserve assumed.
  PodGroupCounts out;
  const auto it = assumed_.find(key_of(pod));
  for (const auto& [key, other] : cluster_.pods()) {
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

Status GangScheduling::pre_enqueue(const PodInfo& pod) const {
  const std::optional<WorkloadReference>& ref = pod.pod.spec.workload_ref;
  if (!ref) return Code::Success;
  const SchedulingWorkload* workload =
      cluster_.find_workload(pod.pod.metadata.namespace_, ref->name);
  if (workload == nullptr) {
    // The pod is unschedulable until its Workload object is created.
    return unresolvable("waiting for pods's workload " + go_quote(ref->name) +
                        " to appear in scheduling queue");
  }
  const WorkloadPodGroup* group = workload->pod_group(ref->pod_group);
  if (group == nullptr) {
    return unresolvable("pod group " + go_quote(ref->pod_group) + " doesn't exist for a workload " +
                        go_quote(workload->metadata.name));
  }
  // This plugin only cares about pods with a Gang scheduling policy.
  if (!group->gang_min_count) return Code::Success;
  if (counts(pod).all.size() < static_cast<std::size_t>(*group->gang_min_count)) {
    return unresolvable("waiting for minCount pods from a gang to appear in scheduling queue");
  }
  return Code::Success;
}

std::vector<ClusterEventWithHint> GangScheduling::events_to_register() const {
  // A new pod may complete a gang (workloadRef is immutable: no Pod/Update); a new Workload may
  // make a waiting gang schedulable (its PodGroups are immutable: no Workload/Update).
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
  // isSchedulableAfterWorkloadAdded.
  const std::optional<WorkloadReference>& ref = pod.pod.spec.workload_ref;
  const SchedulingWorkload* added = objects.workload;
  if (!ref || added == nullptr || added->metadata.namespace_ != pod.pod.metadata.namespace_ ||
      added->metadata.name != ref->name) {
    return QueueingHint::QueueSkip;
  }
  return QueueingHint::Queue;
}

Code GangScheduling::reserve(CycleState&, const PodInfo& pod, NodeInfo&) {
  if (pod.pod.spec.workload_ref) assumed_[key_of(pod)].insert(pod.pod.metadata.uid);
  return Code::Success;
}

void GangScheduling::unreserve(CycleState&, const PodInfo& pod, NodeInfo&) {
  if (!pod.pod.spec.workload_ref) return;
  const auto it = assumed_.find(key_of(pod));
  if (it == assumed_.end()) return;
  it->second.erase(pod.pod.metadata.uid);
  if (it->second.empty()) assumed_.erase(it);
}

Status GangScheduling::permit(CycleState&, const PodInfo& pod, const NodeInfo&, TimeMs& timeout) {
  const std::optional<WorkloadReference>& ref = pod.pod.spec.workload_ref;
  if (!ref) return Code::Success;
  const std::string& ns = pod.pod.metadata.namespace_;
  const SchedulingWorkload* workload = cluster_.find_workload(ns, ref->name);
  if (workload == nullptr) {
    // Returning an error retries the pod when the Workload is added again.
    return Status{Code::Error,
                  kName,
                  {cluster_.pool().intern("failed to get workload " + ns + "/" + ref->name +
                                          ": workloads.scheduling.k8s.io " + go_quote(ref->name) +
                                          " not found")}};
  }
  const WorkloadPodGroup* group = workload->pod_group(ref->pod_group);
  if (group == nullptr) {
    return Status{Code::Error,
                  kName,
                  {cluster_.pool().intern("pod group " + go_quote(ref->pod_group) +
                                          " doesn't exist for a workload " +
                                          go_quote(workload->metadata.name))}};
  }
  if (!group->gang_min_count) return Code::Success;
  const PodGroupCounts group_counts = counts(pod);
  const GroupKey key = key_of(pod);
  if (group_counts.assumed + group_counts.assigned <
      static_cast<std::size_t>(*group->gang_min_count)) {
    // Activate unscheduled pods from this pod group in case they were waiting for this pod.
    if (scheduler_ != nullptr) scheduler_->activate(group_counts.unscheduled);
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
