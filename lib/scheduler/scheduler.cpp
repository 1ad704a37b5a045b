#include "gpusched/scheduler/scheduler.hpp"

#include <algorithm>

#include "gpusched/config/feature_gates.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/framework/rng.hpp"
#include "plugins/inter_pod_affinity.hpp"
#include "plugins/pod_topology_spread.hpp"
#include "plugins/registry.hpp"
#include "scheduler/cycle.hpp"
#include "scheduler/scheduling_queue.hpp"

namespace gpusched {
namespace {

constexpr std::size_t kNoteLengthLimit = 1024;  // validation.NoteLengthLimit

// truncateMessage: events are cut, the PodScheduled condition keeps the whole message.
std::string truncate_message(const std::string& message) {
  if (message.size() <= kNoteLengthLimit) return message;
  const std::string suffix = " ...";
  return message.substr(0, kNoteLengthLimit - suffix.size()) + suffix;
}

// podutil.UpdatePodCondition: the transition time moves only when the status changes.
void set_condition(Pod& pod, PodCondition condition) {
  for (PodCondition& c : pod.status.conditions) {
    if (c.type != condition.type) continue;
    if (c.status == condition.status) condition.last_transition_ms = c.last_transition_ms;
    c = std::move(condition);
    return;
  }
  pod.status.conditions.push_back(std::move(condition));
}

}  // namespace

Scheduler::Scheduler(const SchedulerConfig& config, ClusterState& cluster, Rng& rng,
                     SchedulerHooks& hooks, const Registry& out_of_tree)
    : config_(config),
      cluster_(cluster),
      rng_(rng),
      hooks_(hooks),
      queue_(std::make_unique<SchedulingQueue>(config.pod_initial_backoff_ms,
                                               config.pod_max_backoff_ms)) {
  // scheduler.New: the in-tree registry merged with the out-of-tree one, whose names may not
  // repeat an in-tree plugin's.
  Registry registry = plugins::in_tree_registry();
  registry.merge(out_of_tree);
  for (std::size_t i = 0; i < config_.profiles.size(); ++i) {
    try {
      frameworks_.push_back(std::make_unique<Framework>(
          config_.profiles[i], Handle{cluster_, rng_, config_.kubernetes_version, config_, hooks_},
          registry));
    } catch (const ProfileError& e) {
      // The framework knows its profile, not which one of the configuration it is.
      throw ProfileError(i, e.reason());
    }
  }
}

Scheduler::~Scheduler() = default;

Framework* Scheduler::framework_for(const Pod& pod) const {
  for (const auto& fwk : frameworks_) {
    if (fwk->profile().scheduler_name == pod.spec.scheduler_name) return fwk.get();
  }
  return nullptr;
}

void Scheduler::pod_added(PodInfo& pod, TimeMs now) {
  // Pods for a scheduler no profile serves are left alone, as another scheduler's would be.
  if (Framework* fwk = framework_for(pod.pod)) queue_->add(pod, *fwk, now);
}

void Scheduler::pod_updated(PodInfo& pod, const Pod& old_pod, TimeMs now) {
  QueuedPod* queued = queue_->find(pod);
  if (queued == nullptr) return;
  // PodSchedulingPropertiesChange: the changes a rejecting plugin may care about.
  std::uint32_t actions = 0;
  if (pod.pod.metadata.labels != old_pod.metadata.labels) actions |= action::kUpdatePodLabel;
  if (pod.pod.spec.tolerations != old_pod.spec.tolerations) actions |= action::kUpdatePodToleration;
  if (!old_pod.spec.scheduling_gates.empty() && pod.pod.spec.scheduling_gates.empty())
    actions |= action::kUpdatePodSchedulingGatesEliminated;
  if (actions == 0) return;
  queue_->requeue_if_helped(*queued, ClusterEvent{EventResource::Pod, actions, "PodUpdate"},
                            EventObjects{nullptr, nullptr, &pod}, now);
}

void Scheduler::pod_removed(const PodInfo& pod) {
  queue_->remove(pod);
}

void Scheduler::cluster_event(const ClusterEvent& event, const EventObjects& objects, TimeMs now) {
  queue_->move_for_event(event, objects, now);
}

// AssignedPodAdded (backend/queue/scheduling_queue.go): the event goes only to the pods
// getUnschedulablePodsWithCrossTopologyTerm picks (rejected by PodTopologySpread in the added
// pod's namespace, or with a required pod affinity term the pod matches); their plugins' hints
// decide as for any event.
void Scheduler::assigned_pod_added(const PodInfo& pod, TimeMs now) {
  const Pod& added = pod.pod;
  const Labels& namespace_labels = cluster_.namespace_labels(added.metadata.namespace_);
  auto crosses_topology = [&](const QueuedPod& waiting) {
    const Pod& p = waiting.pod->pod;
    if (waiting.unschedulable_plugins.contains(plugins::PodTopologySpread::kName) &&
        p.metadata.namespace_ == added.metadata.namespace_) {
      return true;
    }
    return plugins::required_affinity_matches(p, added, namespace_labels, cluster_.pool());
  };
  queue_->move_for_event({EventResource::Pod, action::kAdd, "AssignedPodAdd"},
                         EventObjects{nullptr, nullptr, &pod}, now, crosses_topology);
}

// eventhandlers.go (PR #129058, 1.33+): pods of equal or lower priority counted a nominated pod
// on its node as if it were bound there, so its nomination moving, ending, or the pod's deletion
// is for them an AssignedPodDelete of the pod as it was.
void Scheduler::nomination_released(const PodInfo& old_pod, TimeMs now) {
  const std::int32_t priority = old_pod.priority;
  queue_->move_for_event(
      {EventResource::Pod, action::kDelete, "AssignedPodDelete"},
      EventObjects{nullptr, nullptr, &old_pod}, now,
      [priority](const QueuedPod& waiting) { return waiting.pod->priority <= priority; });
}

bool Scheduler::keeps_nomination_after_failure() const {
  return config_.kubernetes_version.failure_keeps_nomination_with_expectation() &&
         config_.feature_gates.enabled(FeatureGate::NominatedNodeNameForExpectation,
                                       config_.kubernetes_version);
}

std::size_t Scheduler::run(TimeMs now) {
  std::size_t cycles = 0;
  while (queue_->has_ready()) {
    schedule_one(now);
    ++cycles;
    hooks_.cycle_done();
  }
  return cycles;
}

std::optional<TimeMs> Scheduler::next_timer(TimeMs now) const {
  return queue_->next_timer(now);
}

void Scheduler::on_timer(TimeMs now) {
  queue_->on_timer(now);
}

bool Scheduler::quiescent() const {
  if (queue_->has_ready()) return false;
  bool stale = true;
  queue_->for_each_waiting([&](const QueuedPod& qp) {
    stale = stale && qp.has_last_failure && qp.generation_seen == cluster_.generation();
  });
  return stale;
}

bool Scheduler::last_failure_current(const PodInfo& pod) const {
  const QueuedPod* qp = queue_->find(pod);
  return qp != nullptr && qp->has_last_failure && qp->generation_seen == cluster_.generation();
}

void Scheduler::schedule_one(TimeMs now) {
  QueuedPod* qp = queue_->pop();
  PodInfo& pod = *qp->pod;
  Framework& fwk = *qp->framework;
  const auto& all_nodes = cluster_.node_list();

  auto fail = [&](const std::string& message, const std::optional<std::string>& nominated) {
    hooks_.record_event(pod, "Warning", "FailedScheduling", truncate_message(message));
    set_condition(pod.pod, PodCondition{"PodScheduled", "False", "Unschedulable", message, now});
    // nominatingInfo: ModeOverride sets (or with "" clears) the nomination; nullopt is ModeNoop.
    // A nomination moved or given up releases the node it held (the pod update arrives after
    // AddUnschedulableIfNotPresent).
    const std::string& held = pod.pod.status.nominated_node_name;
    std::optional<PodInfo> released;
    if (nominated && !held.empty() && *nominated != held) released = cluster_.detached_pod(pod.pod);
    if (nominated) cluster_.nominate(pod, *nominated);
    queue_->add_unschedulable(*qp, now);
    if (released) nomination_released(*released, now);
  };

  // A retry against the very cluster state its last attempt saw gives the same answer: replay it
  // without filtering again (the search start still advances as it would).
  if (!config_.reference_engine && qp->has_last_failure &&
      qp->generation_seen == cluster_.generation()) {
    if (!all_nodes.empty()) {
      next_start_node_index_ =
          (next_start_node_index_ + qp->last_processed_nodes) % all_nodes.size();
    }
    qp->unschedulable_plugins = qp->last_unschedulable_plugins;
    qp->pending_plugins = qp->last_pending_plugins;
    fail(qp->last_message, qp->last_nomination);
    return;
  }
  const std::uint64_t generation = cluster_.generation();
  qp->has_last_failure = false;

  auto remember = [&](const std::string& message, const std::optional<std::string>& nominated,
                      std::size_t processed) {
    qp->has_last_failure = true;
    qp->generation_seen = generation;
    qp->last_message = message;
    qp->last_nomination = nominated;
    qp->last_processed_nodes = processed;
    qp->last_unschedulable_plugins = qp->unschedulable_plugins;
    qp->last_pending_plugins = qp->pending_plugins;
  };

  if (all_nodes.empty()) {
    // ErrNoNodesAvailable: not a FitError, so no plugin is blamed and no PostFilter runs; the
    // cycle returns clearNominatedNode (schedule_one.go schedulingCycle).
    // handleSchedulingFailure keeps it instead where a failure keeps nominations (1.34).
    const std::string message = "no nodes available to schedule pods";
    std::optional<std::string> cleared = std::string();
    if (keeps_nomination_after_failure()) cleared.reset();
    remember(message, cleared, 0);
    fail(message, cleared);
    return;
  }

  Cycle cycle(fwk, pod);
  find_nodes_that_fit(cycle, Search::Cycle, nullptr);
  if (cycle.feasible.empty()) {
    std::optional<std::string> nominated;
    if (fwk.has_post_filter_plugins()) {
      nominated = post_filter(cycle).nominated_node;
    } else if (config_.kubernetes_version.clears_nomination_without_post_filter()) {
      nominated = "";  // clearNominatedNode (PR #135007)
    }
    if (nominated && nominated->empty() && keeps_nomination_after_failure()) nominated.reset();
    const std::string message =
        fit_error_message(all_nodes.size(), cycle.diagnosis, cluster_.pool());
    qp->unschedulable_plugins = cycle.diagnosis.unschedulable_plugins;
    qp->pending_plugins = cycle.diagnosis.pending_plugins;
    // A successful preemption changes the cluster, so its generation differs on the next attempt.
    remember(message, nominated, cycle.processed);
    fail(message, nominated);
    return;
  }

  // One feasible node is taken without scoring.
  std::size_t chosen_at = 0;
  if (cycle.feasible.size() > 1) {
    std::vector<std::int64_t> totals(cycle.feasible.size());
    prioritize_nodes(cycle, totals, nullptr);
    chosen_at = select_host(totals);
  }
  NodeInfo* chosen = const_cast<NodeInfo*>(cycle.feasible[chosen_at]);
  CycleState& state = cycle.state;

  Status permit;
  if (fwk.run_reserve(state, pod, *chosen) != Code::Success ||
      !(permit = fwk.run_permit(state, pod, *chosen)).ok()) {
    fwk.run_unreserve(state, pod, *chosen);
    const std::string message = permit.message(cluster_.pool());
    fail(message.empty() ? "pod was rejected at reserve/permit" : message, std::nullopt);
    return;
  }
  if (fwk.run_bind(state, pod, *chosen) != Code::Success) {
    fwk.run_unreserve(state, pod, *chosen);
    fail("binding rejected", std::nullopt);
    return;
  }
  queue_->remove(pod);
  // The Binding subresource sets PodScheduled=True, and from 1.35 clears nominatedNodeName
  // (ClearingNominatedNodeNameAfterBinding, pkg/registry/core/pod/storage/storage.go); the
  // scheduler records the event.
  set_condition(pod.pod, PodCondition{"PodScheduled", "True", "", "", now});
  if (config_.feature_gates.enabled(FeatureGate::ClearingNominatedNodeNameAfterBinding,
                                    config_.kubernetes_version)) {
    cluster_.nominate(pod, "");
  }
  hooks_.record_event(pod, "Normal", "Scheduled",
                      "Successfully assigned " + pod.pod.metadata.namespace_ + "/" +
                          pod.pod.metadata.name + " to " + chosen->node.metadata.name);
  hooks_.bound(pod);
  // A pod the kubelet rejected at admission holds nothing: no pod was added to the node.
  if (!pod.pod.terminated()) assigned_pod_added(pod, now);
}

}  // namespace gpusched
