// The PodGroup scheduling cycle of Kubernetes 1.36 (pkg/scheduler/schedule_one_podgroup.go, read
// at master 008b365, right after v1.36.0, with release-1.36's RunPermitPlugins and scheduling
// queue): every unscheduled pod of the group is popped, the pods are scheduled one after another
// in one snapshot, each assumed where it fits so that the next sees it, then all are forgotten;
// when any pod's Permit allows, the group is schedulable and the pods that fit go on to their
// binding cycles, else each pod fails. The default algorithm only: the placements of
// TopologyAwareWorkloadScheduling and WorkloadAwarePreemption (alpha gates) are not modelled.

#include <algorithm>

#include "gpusched/config/feature_gates.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "model/go_text.hpp"
#include "scheduler/cycle.hpp"
#include "scheduler/scheduling_queue.hpp"

namespace gpusched {
namespace {

// errPodGroupUnschedulable: a status carrying it reads "<error>, <reasons>" (Status.Message).
constexpr std::string_view kPodGroupUnschedulable = "pod group is unschedulable";
// schedulingapi.PodGroupScheduled and its reasons (pkg/apis/scheduling).
constexpr std::string_view kPodGroupScheduled = "PodGroupScheduled";

}  // namespace

struct Scheduler::GroupMember {
  explicit GroupMember(QueuedPod* queued) : qp(queued) {}
  QueuedPod* qp;
  std::optional<CycleState> state;  ///< the pod's cycle, kept for its binding cycle
  /// SuggestedHost: the node the pod fits, or its nominated node when it needs a preemption.
  NodeInfo* host = nullptr;
  bool requires_preemption = false;
  /// Passed the algorithm: Permit said Success or Wait (`permit` is its message).
  bool passed = false;
  bool error = false;
  std::string permit;
  /// The failure of a pod that did not pass (or needs a preemption), and its nominatingInfo.
  std::string message;
  std::optional<std::string> nominated;
};

bool Scheduler::in_pod_group_cycle(const Pod& pod) const {
  return pod.spec.scheduling_group.has_value() && config_.kubernetes_version.minor >= 36 &&
         config_.feature_gates.enabled(FeatureGate::GenericWorkload, config_.kubernetes_version);
}

void Scheduler::schedule_pod_group(QueuedPod& first, TimeMs now) {
  const Pod& pod = first.pod->pod;
  const std::string& group = *pod.spec.scheduling_group;
  // podGroupInfoForPod: the group's unscheduled pods (neither assumed, waiting at Permit, nor
  // bound) are popped from the queue where they wait ungated. Upstream's pod group state is a map
  // (no order); gpusched takes them by namespace and name.
  std::vector<GroupMember> members;
  members.emplace_back(&first);
  for (PodInfo* other : cluster_.pods()) {
    if (other == first.pod || other->pod.terminated() || other->node != nullptr ||
        !other->pod.spec.node_name.empty() ||
        other->pod.metadata.namespace_ != pod.metadata.namespace_ ||
        !other->pod.spec.scheduling_group || *other->pod.spec.scheduling_group != group)
      continue;
    if (QueuedPod* qp = queue_->pop_specific(*other)) members.emplace_back(qp);
  }
  // By priority, then by the first attempt (upstream's clock orders the pods first popped in
  // one cycle as they were popped).
  std::sort(members.begin(), members.end(), [](const GroupMember& a, const GroupMember& b) {
    if (a.qp->pod->priority != b.qp->pod->priority)
      return a.qp->pod->priority > b.qp->pod->priority;
    return a.qp->first_attempt < b.qp->first_attempt;
  });
  // A retry against the same cluster fails the same way: a failed pod counts as settled until
  // the cluster changes (Scheduler::quiescent).
  const std::uint64_t generation = cluster_.generation();
  for (GroupMember& m : members) {
    // determineSchedulingHintForInFlightPod: a PodGroup's pod goes back after backoff.
    m.qp->in_pod_group = true;
    m.qp->has_last_failure = false;
    m.qp->permit_rejected = false;
    m.qp->generation_seen = generation;
  }

  // frameworkForPodGroup: one profile for the whole group.
  Framework& fwk = *members.front().qp->framework;
  for (const GroupMember& m : members) {
    if (m.qp->framework == &fwk) continue;
    const std::string message =
        "all pods in a single pod group should have the same .spec.schedulerName set, got: " +
        go_quote(m.qp->pod->pod.spec.scheduler_name) + " and " +
        go_quote(members.front().qp->pod->pod.spec.scheduler_name);
    for (GroupMember& each : members) {
      each.qp->has_last_failure = true;
      handle_failure(*each.qp, message, std::string(), now, "SchedulerError");
    }
    return;
  }

  std::string error;
  const GroupOutcome outcome = pod_group_algorithm(fwk, members, error);
  submit_pod_group(members, outcome, error, now);
}

Scheduler::GroupOutcome Scheduler::pod_group_algorithm(Framework& fwk,
                                                       std::vector<GroupMember>& members,
                                                       std::string& error) {
  StringPool& pool = cluster_.pool();
  GroupOutcome outcome = GroupOutcome::Unschedulable;
  bool requires_preemption = false;
  std::vector<GroupMember*> assumed;
  // unreserveAndForget: Unreserve, and the snapshot's ForgetPod.
  auto forget = [&](GroupMember& m) {
    fwk.run_unreserve(*m.state, *m.qp->pod, *m.host);
    cluster_.release_in_cycle(*m.qp->pod);
  };
  for (GroupMember& m : members) {
    QueuedPod& qp = *m.qp;
    PodInfo& pod = *qp.pod;
    // podGroupPodSchedulingAlgorithm: schedulingAlgorithm, with its PostFilter.
    Cycle cycle(fwk, pod);
    cycle.diagnosis = std::move(spare_diagnosis_);
    cycle.diagnosis.clear();
    AlgorithmResult result = scheduling_algorithm(cycle);
    qp.unschedulable_plugins = cycle.diagnosis.unschedulable_plugins;
    qp.pending_plugins = cycle.diagnosis.pending_plugins;
    spare_diagnosis_ = std::move(cycle.diagnosis);
    m.message = std::move(result.message);
    m.nominated = std::move(result.nominated);
    m.host = result.host;
    if (result.error) {
      // schedulingAlgorithm's error (a plugin's Error) stops the group's algorithm too.
      m.error = true;
      error = "failed to schedule other pod from a pod group: " + m.message;
      outcome = GroupOutcome::Error;
      break;
    }
    if (m.host == nullptr) {
      // A pod that needs a preemption is treated as scheduled on its nominated node, so that the
      // pods after it see it there.
      if (!m.nominated || m.nominated->empty()) continue;
      m.host = cluster_.find_node(*m.nominated);
      if (m.host == nullptr) continue;
      m.requires_preemption = true;
    }
    CycleState& state = m.state.emplace(std::move(cycle.state));
    // assumeAndReserve: the snapshot's AssumePod, then Reserve.
    cluster_.hold_in_cycle(pod, *m.host);
    std::vector<PermitWait> waits;
    Status permit;
    if (fwk.run_reserve(state, pod, *m.host) != Code::Success) {
      forget(m);
      m.requires_preemption = false;
      m.message = "pod was rejected at reserve/permit";
      m.nominated = std::string();
      continue;
    }
    permit = fwk.run_permit(state, pod, *m.host, waits);
    if (!permit.ok() && permit.code != Code::Wait) {
      forget(m);
      m.requires_preemption = false;
      m.nominated = std::string();  // clearNominatedNode
      if (permit.code == Code::Error) {
        // An error stops the algorithm: no later pod is tried.
        m.error = true;
        m.message = permit.message(pool);
        error = "failed to schedule other pod from a pod group: " + m.message;
        outcome = GroupOutcome::Error;
        break;
      }
      // A rejection is a FitError over the one suggested node.
      qp.unschedulable_plugins = {std::string(permit.plugin)};
      qp.pending_plugins.clear();
      m.message = "0/1 nodes are available: 1 " + permit.message(pool) + ".";
      continue;
    }
    m.passed = true;
    m.permit = permit.message(pool);
    assumed.push_back(&m);
    requires_preemption = requires_preemption || m.requires_preemption;
    // Once any pod's Permit allows, the group is schedulable; if any pod needs a preemption, the
    // whole group waits for it.
    if (permit.ok())
      outcome = requires_preemption ? GroupOutcome::WaitingOnPreemption : GroupOutcome::Schedulable;
  }
  // Every pod assumed is forgotten again (deferred: the last first); those that fit go on to
  // their binding cycles from the queue's view, assumed anew.
  for (auto it = assumed.rbegin(); it != assumed.rend(); ++it) forget(**it);
  return outcome;
}

void Scheduler::submit_pod_group(std::vector<GroupMember>& members, GroupOutcome outcome,
                                 const std::string& error, TimeMs now) {
  const std::string group_unschedulable =
      outcome == GroupOutcome::WaitingOnPreemption
          ? std::string(kPodGroupUnschedulable) +
                ", pod group is waiting for preemption to complete"
          : std::string(kPodGroupUnschedulable);
  // The members' queue entries go once they bind: the group is named first.
  const Pod& first = members.front().qp->pod->pod;
  const std::string namespace_ = first.metadata.namespace_;
  const std::string name = *first.spec.scheduling_group;
  auto failure = [&](GroupMember& m, const std::string& message,
                     const std::optional<std::string>& nominated, std::string_view reason) {
    m.qp->has_last_failure = true;
    handle_failure(*m.qp, message, nominated, now, reason);
  };
  // A failure the group's status explains blames no plugin.
  auto group_failure = [&](GroupMember& m, const std::string& message,
                           const std::optional<std::string>& nominated, std::string_view reason) {
    m.qp->unschedulable_plugins.clear();
    m.qp->pending_plugins.clear();
    failure(m, message, nominated, reason);
  };
  for (GroupMember& m : members) {
    if (outcome == GroupOutcome::Error) {
      // Pods the algorithm never reached fail with the group's error, the one that erred with
      // its own.
      group_failure(m, m.error ? m.message : error, std::string(), "SchedulerError");
      continue;
    }
    if (m.passed && !m.requires_preemption) {
      switch (outcome) {
        case GroupOutcome::Schedulable:
          prepare_for_binding(*m.qp, *m.state, *m.host, now);
          break;
        case GroupOutcome::WaitingOnPreemption:
          group_failure(m, group_unschedulable, m.host->node.metadata.name, "Unschedulable");
          break;
        default:
          group_failure(m, std::string(kPodGroupUnschedulable) + ", " + m.permit, std::string(),
                        "Unschedulable");
          break;
      }
      continue;
    }
    if (m.requires_preemption && outcome != GroupOutcome::WaitingOnPreemption) {
      // The group cannot run, so the preemption's message no longer applies.
      group_failure(m, std::string(kPodGroupUnschedulable) + ", " + m.permit, std::string(),
                    "Unschedulable");
      continue;
    }
    failure(m, m.message, m.nominated, "Unschedulable");
  }
  // Waiting pods a Permit of the algorithm allowed go on to their binding cycles.
  bind_allowed(now);

  // updatePodGroupCondition: PodGroupScheduled, which never goes back from True.
  PodGroup* group = cluster_.find_pod_group(namespace_, name);
  if (group == nullptr) return;
  Condition condition{std::string(kPodGroupScheduled), "True", "Scheduled", "", now, 1};
  if (outcome == GroupOutcome::Error) {
    condition = {std::string(kPodGroupScheduled), "False", "SchedulerError", error, now, 1};
  } else if (outcome != GroupOutcome::Schedulable) {
    condition = {
        std::string(kPodGroupScheduled), "False", "Unschedulable", group_unschedulable, now, 1};
  }
  if (condition.status != "True" && condition_true(group->conditions, kPodGroupScheduled)) return;
  set_condition(group->conditions, std::move(condition));
}

}  // namespace gpusched
