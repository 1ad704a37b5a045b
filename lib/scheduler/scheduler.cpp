#include "gpusched/scheduler/scheduler.hpp"

#include <algorithm>

#include "gpusched/config/feature_gates.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/framework/rng.hpp"
#include "model/go_text.hpp"
#include "plugins/gang_scheduling.hpp"
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
// The texts are the pod's own shared ones where they do not change (a pod that fails again
// keeps its reason's text).
void set_condition(Pod& pod, PodCondition condition) {
  for (PodCondition& c : pod.status.conditions) {
    if (c.type != condition.type) continue;
    if (c.status == condition.status) condition.last_transition_ms = c.last_transition_ms;
    if (c.reason == condition.reason) condition.reason = std::move(c.reason);
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
          config_.profiles[i],
          Handle{cluster_, rng_, config_.kubernetes_version, config_, hooks_, nullptr, this},
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
  Framework* fwk = framework_for(pod.pod);
  if (fwk == nullptr) return;
  queue_->add(pod, *fwk, now);
  // addPodToSchedulingQueue (1.35): with GangScheduling on, an unscheduled pod's add is an
  // event for the waiting pods too (it may complete their gang).
  if (config_.feature_gates.enabled(FeatureGate::GangScheduling, config_.kubernetes_version)) {
    queue_->move_for_event({EventResource::Pod, action::kAdd, "UnscheduledPodAdd"},
                           EventObjects{nullptr, nullptr, &pod}, now,
                           [&pod](const QueuedPod& waiting) { return waiting.pod != &pod; });
  }
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
  if (pod.pod.status.resource_claim_statuses != old_pod.status.resource_claim_statuses)
    actions |= action::kUpdatePodGeneratedResourceClaim;
  if (actions == 0) return;
  queue_->requeue_if_helped(*queued, ClusterEvent{EventResource::Pod, actions, "PodUpdate"},
                            EventObjects{nullptr, nullptr, &pod}, now);
}

void Scheduler::pod_removed(const PodInfo& pod) {
  // deletePodFromSchedulingQueue: a pod waiting at Permit is rejected; it leaves the cache.
  if (auto it = waiting_.find(pod.sequence); it != waiting_.end()) {
    WaitingPod waiting = std::move(it->second);
    waiting_.erase(it);
    const PodInfo assumed = forget_waiting(waiting);
    forgotten(assumed, pod, now_);
  }
  queue_->remove(pod);
}

std::optional<GangStatus> Scheduler::gang_status(const PodInfo& pod) const {
  const Framework* fwk = framework_for(pod.pod);
  const auto* gang = fwk == nullptr ? nullptr
                                    : dynamic_cast<const plugins::GangScheduling*>(
                                          fwk->find_plugin(plugins::GangScheduling::kName));
  if (gang == nullptr || !gang->in_group(pod.pod)) return std::nullopt;
  GangStatus out;
  if (const SharedOptional<WorkloadReference>& ref = pod.pod.spec.workload_ref) {
    out.workload = ref->name;
    out.pod_group = ref->pod_group;
    out.replica_key = ref->pod_group_replica_key;
  } else {
    out.pod_group = *pod.pod.spec.scheduling_group;  // 1.36: a PodGroup object
  }
  out.min_count = gang->min_count(pod);
  const plugins::PodGroupCounts counts = gang->counts(pod);
  out.known = counts.all.size();
  out.waiting = counts.assumed;
  out.bound = counts.assigned;
  out.deadline = gang->deadline(pod);
  if (auto it = waiting_.find(pod.sequence); it != waiting_.end()) out.waiting_on = it->second.node;
  if (const QueuedPod* qp = queue_->find(pod);
      qp != nullptr && qp->where == QueuedPod::Where::Gated &&
      qp->gating_plugin == plugins::GangScheduling::kName) {
    out.held = gang->pre_enqueue(pod).message(cluster_.pool());
  }
  return out;
}

bool Scheduler::waiting_on_permit(const PodInfo& pod) const {
  return waiting_.contains(pod.sequence);
}

void Scheduler::allow_waiting_pod(std::string_view uid, std::string_view plugin) {
  // waitingPod.Allow: once no plugin is pending the pod's binding cycle goes on.
  for (auto& [sequence, waiting] : waiting_) {
    if (waiting.queued->pod->pod.metadata.uid != uid) continue;
    if (auto it = waiting.pending.find(plugin); it != waiting.pending.end()) {
      waiting.pending.erase(it);
      if (waiting.pending.empty()) allowed_.push_back(sequence);
    }
    return;
  }
}

void Scheduler::activate(std::span<PodInfo* const> pods) {
  for (PodInfo* pod : pods) queue_->activate(*pod);
}

void Scheduler::wait_on_permit(QueuedPod& qp, CycleState state, NodeInfo& node,
                               const std::vector<PermitWait>& waits, TimeMs now) {
  PodInfo& pod = *qp.pod;
  // AssumePod: the pod holds the node in every later cycle while it waits.
  cluster_.hold_waiting(pod, node);
  WaitingPod waiting{&qp, std::move(state), node.node.metadata.name, {}};
  TimeMs deadline = now;
  for (const PermitWait& wait : waits) {
    waiting.pending[std::string(wait.plugin)] = {now + wait.timeout, wait.timeout};
    deadline =
        waiting.pending.size() == 1 ? now + wait.timeout : std::min(deadline, now + wait.timeout);
  }
  waiting_.emplace(pod.sequence, std::move(waiting));
  // bindingCycle (1.35): with NominatedNodeNameForExpectation the pod about to wait on Permit is
  // nominated to its node, for the components outside the scheduler.
  if (config_.feature_gates.enabled(FeatureGate::NominatedNodeNameForExpectation,
                                    config_.kubernetes_version)) {
    cluster_.nominate(pod, node.node.metadata.name);
  }
}

std::optional<TimeMs> Scheduler::next_permit_deadline() const {
  std::optional<TimeMs> next;
  for (const auto& [sequence, waiting] : waiting_) {
    for (const auto& [plugin, pending] : waiting.pending) {
      if (!next || pending.deadline < *next) next = pending.deadline;
    }
  }
  return next;
}

void Scheduler::bind_allowed(TimeMs now) {
  while (!allowed_.empty()) {
    const std::uint64_t sequence = allowed_.front();
    allowed_.erase(allowed_.begin());
    auto it = waiting_.find(sequence);
    if (it == waiting_.end()) continue;
    WaitingPod waiting = std::move(it->second);
    waiting_.erase(it);
    PodInfo& pod = *waiting.queued->pod;
    cluster_.release_waiting(pod);
    NodeInfo* node = cluster_.find_node(waiting.node);
    if (node == nullptr) {
      // Its node left while it waited: the binding fails (the API server refuses a missing node).
      handle_failure(*waiting.queued, "binding rejected", std::nullopt, now);
      continue;
    }
    binding_cycle(*waiting.queued, waiting.state, *node, now);
  }
}

PodInfo Scheduler::forget_waiting(WaitingPod& waiting) {
  PodInfo& pod = *waiting.queued->pod;
  // The pod as it held its node, for the other pods' queueing hints.
  Pod as_assumed = pod.pod;
  as_assumed.spec.node_name = waiting.node;
  PodInfo assumed = cluster_.detached_pod(std::move(as_assumed));
  if (NodeInfo* node = cluster_.find_node(waiting.node))
    waiting.queued->framework->run_unreserve(waiting.state, pod, *node);
  cluster_.release_waiting(pod);
  return assumed;
}

void Scheduler::forgotten(const PodInfo& assumed, const PodInfo& pod, TimeMs now) {
  // "Forget"ing an assumed pod in the binding cycle is a PodDelete for the others (never for
  // the pod itself).
  queue_->move_for_event({EventResource::Pod, action::kDelete, "AssignedPodDelete"},
                         EventObjects{nullptr, nullptr, &assumed}, now,
                         [&pod](const QueuedPod& other) { return other.pod != &pod; });
}

void Scheduler::reject_waiting(std::uint64_t sequence, std::string_view plugin,
                               const std::string& message, TimeMs now) {
  auto it = waiting_.find(sequence);
  WaitingPod waiting = std::move(it->second);
  waiting_.erase(it);
  QueuedPod& qp = *waiting.queued;
  // handleBindingCycleError: Unreserve and ForgetPod, then the failure handler, which clears
  // the nomination (clearNominatedNode); the others hear of the release after it.
  const PodInfo assumed = forget_waiting(waiting);
  // bindingCycle: a rejection at WaitOnPermit is a FitError over the one suggested node, the
  // rejecting plugin its unschedulable plugin.
  qp.unschedulable_plugins = {std::string(plugin)};
  qp.pending_plugins.clear();
  std::optional<std::string> cleared = std::string();
  if (keeps_nomination_after_failure()) cleared.reset();
  handle_failure(qp, "0/1 nodes are available: 1 " + message + ".", cleared, now);
  forgotten(assumed, *qp.pod, now);
}

void Scheduler::expire_waiting_pods(TimeMs now) {
  now_ = now;
  std::vector<QueuedPod*> rejected;
  std::vector<std::uint64_t> sequences;
  for (const auto& [sequence, waiting] : waiting_) sequences.push_back(sequence);
  for (std::uint64_t sequence : sequences) {
    auto it = waiting_.find(sequence);
    if (it == waiting_.end()) continue;
    // The first pending plugin whose timer fired (time.AfterFunc in newWaitingPod).
    const std::pair<const std::string, WaitingPod::Pending>* expired = nullptr;
    for (const auto& entry : it->second.pending) {
      if (entry.second.deadline <= now &&
          (expired == nullptr || entry.second.deadline < expired->second.deadline))
        expired = &entry;
    }
    if (expired == nullptr) continue;
    const std::string plugin = expired->first;
    const std::string message = "rejected due to timeout after waiting " +
                                go_duration(expired->second.wait) + " at plugin " + plugin;
    rejected.push_back(it->second.queued);
    reject_waiting(sequence, plugin, message, now);
  }
  // A retry of a gang that timed out against an unchanged cluster times out again: such pods
  // count as quiescent (they still go through Permit when retried).
  for (QueuedPod* qp : rejected) {
    qp->has_last_failure = true;
    qp->permit_rejected = true;
    qp->generation_seen = cluster_.generation();
    QueuedPod::Failure& last = qp->record_failure();
    last.message = qp->pod->pod.status.condition("PodScheduled") != nullptr
                       ? qp->pod->pod.status.condition("PodScheduled")->message.get()
                       : std::string();
    last.unschedulable_plugins = qp->unschedulable_plugins;
    last.pending_plugins = qp->pending_plugins;
  }
}

void Scheduler::handle_failure(QueuedPod& qp, const std::string& message,
                               const std::optional<std::string>& nominated, TimeMs now,
                               std::string_view reason) {
  PodInfo& pod = *qp.pod;
  hooks_.record_event(pod, "Warning", "FailedScheduling", truncate_message(message));
  set_condition(pod.pod, PodCondition{pod_defaults().pod_scheduled, pod_defaults().condition_false,
                                      reason, message, now});
  // nominatingInfo: ModeOverride sets (or with "" clears) the nomination; nullopt is ModeNoop.
  // A nomination moved or given up releases the node it held (the pod update arrives after
  // AddUnschedulableIfNotPresent).
  const std::string& held = pod.pod.status.nominated_node_name;
  std::optional<PodInfo> released;
  if (nominated && !held.empty() && *nominated != held) released = cluster_.detached_pod(pod.pod);
  if (nominated) cluster_.nominate(pod, *nominated);
  queue_->add_unschedulable(qp, now);
  if (released) nomination_released(*released, now);
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
  now_ = now;
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
  if (in_pod_group_cycle(qp->pod->pod)) {
    schedule_pod_group(*qp, now);
    return;
  }
  PodInfo& pod = *qp->pod;
  Framework& fwk = *qp->framework;
  const auto& all_nodes = cluster_.node_list();

  auto fail = [&](const std::string& message, const std::optional<std::string>& nominated) {
    handle_failure(*qp, message, nominated, now);
  };

  // A retry against the very cluster state its last attempt saw gives the same answer: replay it
  // without filtering again (the search start still advances as it would).
  if (!config_.reference_engine && qp->has_last_failure && !qp->permit_rejected &&
      qp->generation_seen == cluster_.generation()) {
    const QueuedPod::Failure& last = qp->last_failure();
    if (!all_nodes.empty()) {
      next_start_node_index_ = (next_start_node_index_ + last.processed_nodes) % all_nodes.size();
    }
    qp->unschedulable_plugins = last.unschedulable_plugins;
    qp->pending_plugins = last.pending_plugins;
    fail(last.message, last.nomination);
    return;
  }
  const std::uint64_t generation = cluster_.generation();
  qp->has_last_failure = false;
  qp->permit_rejected = false;

  Cycle cycle(fwk, pod);
  cycle.diagnosis = std::move(spare_diagnosis_);
  cycle.diagnosis.clear();
  cycle.feasible = std::move(spare_feasible_);
  cycle.feasible.clear();
  struct Recycle {
    Cycle& used;
    Scheduler& scheduler;
    ~Recycle() {
      scheduler.spare_diagnosis_ = std::move(used.diagnosis);
      scheduler.spare_feasible_ = std::move(used.feasible);
    }
  } recycle{cycle, *this};
  const AlgorithmResult result = scheduling_algorithm(cycle);
  if (result.error) {
    // handleSchedulingFailure with an error: no plugin rejected the pod, so it waits out a
    // backoff and retries.
    qp->unschedulable_plugins.clear();
    qp->pending_plugins.clear();
    handle_failure(*qp, result.message, std::nullopt, now, "SchedulerError");
    return;
  }
  if (result.host == nullptr) {
    qp->unschedulable_plugins = cycle.diagnosis.unschedulable_plugins;
    qp->pending_plugins = cycle.diagnosis.pending_plugins;
    // A successful preemption changes the cluster, so its generation differs on the next attempt.
    qp->has_last_failure = true;
    qp->generation_seen = generation;
    QueuedPod::Failure& last = qp->record_failure();
    last.message = result.message;
    last.nomination = result.nominated;
    last.processed_nodes = cycle.processed;
    last.unschedulable_plugins = qp->unschedulable_plugins;
    last.pending_plugins = qp->pending_plugins;
    fail(result.message, result.nominated);
    return;
  }
  prepare_for_binding(*qp, cycle.state, *result.host, now);
}

void Scheduler::prepare_for_binding(QueuedPod& qp, CycleState& state, NodeInfo& host, TimeMs now) {
  PodInfo& pod = *qp.pod;
  Framework& fwk = *qp.framework;
  Status permit;
  std::vector<PermitWait> waits;
  if (fwk.run_reserve(state, pod, host) != Code::Success ||
      (!(permit = fwk.run_permit(state, pod, host, waits)).ok() && permit.code != Code::Wait)) {
    fwk.run_unreserve(state, pod, host);
    const std::string message = permit.message(cluster_.pool());
    handle_failure(qp, message.empty() ? "pod was rejected at reserve/permit" : message,
                   std::nullopt, now);
    return;
  }
  // The waiting pods this Permit allowed were already waiting in their binding cycles: they bind
  // first.
  if (permit.code == Code::Wait) {
    wait_on_permit(qp, std::move(state), host, waits, now);
    bind_allowed(now);
    return;
  }
  bind_allowed(now);
  binding_cycle(qp, state, host, now);
}

Scheduler::AlgorithmResult Scheduler::scheduling_algorithm(Cycle& cycle) {
  AlgorithmResult result;
  const std::size_t num_nodes = cluster_.node_list().size();
  if (num_nodes == 0) {
    // ErrNoNodesAvailable: not a FitError, so no plugin is blamed and no PostFilter runs; the
    // cycle returns clearNominatedNode (schedule_one.go schedulingCycle).
    // handleSchedulingFailure keeps it instead where a failure keeps nominations (1.34).
    result.message = "no nodes available to schedule pods";
    result.nominated = std::string();
    if (keeps_nomination_after_failure()) result.nominated.reset();
    return result;
  }
  find_nodes_that_fit(cycle, Search::Cycle, nullptr);
  if (cycle.diagnosis.error) {
    result.message = *cycle.diagnosis.error;
    result.error = true;
    return result;
  }
  if (cycle.feasible.empty()) {
    if (cycle.fwk.has_post_filter_plugins()) {
      result.nominated = post_filter(cycle).nominated_node;
    } else if (config_.kubernetes_version.clears_nomination_without_post_filter()) {
      result.nominated = "";  // clearNominatedNode (PR #135007)
    }
    if (result.nominated && result.nominated->empty() && keeps_nomination_after_failure())
      result.nominated.reset();
    result.message = fit_error_message(num_nodes, cycle.diagnosis, cluster_.pool());
    return result;
  }
  // One feasible node is taken without scoring.
  std::size_t chosen_at = 0;
  if (cycle.feasible.size() > 1) {
    totals_.resize(cycle.feasible.size());
    // selectHost reads only the totals' order and ties.
    prioritize_nodes(cycle, totals_, nullptr, true);
    chosen_at = select_host(totals_);
  }
  result.host = const_cast<NodeInfo*>(cycle.feasible[chosen_at]);
  return result;
}

void Scheduler::binding_cycle(QueuedPod& qp, CycleState& state, NodeInfo& chosen_node, TimeMs now) {
  PodInfo& pod = *qp.pod;
  Framework& fwk = *qp.framework;
  NodeInfo* chosen = &chosen_node;
  // PreBind, then Bind (schedule_one.go bindingCycle); a PreBind failure is an error: the pod
  // is unreserved and retried after backoff.
  if (std::string error; fwk.run_pre_bind(state, pod, *chosen, error) != Code::Success) {
    fwk.run_unreserve(state, pod, *chosen);
    qp.unschedulable_plugins.clear();
    qp.pending_plugins.clear();
    handle_failure(qp, error, std::nullopt, now, "SchedulerError");
    return;
  }
  if (fwk.run_bind(state, pod, *chosen) != Code::Success) {
    fwk.run_unreserve(state, pod, *chosen);
    handle_failure(qp, "binding rejected", std::nullopt, now);
    return;
  }
  queue_->remove(pod);
  // The Binding subresource sets PodScheduled=True, and from 1.35 clears nominatedNodeName
  // (ClearingNominatedNodeNameAfterBinding, pkg/registry/core/pod/storage/storage.go); the
  // scheduler records the event.
  set_condition(
      pod.pod,
      PodCondition{pod_defaults().pod_scheduled, pod_defaults().condition_true, {}, {}, now});
  if (config_.feature_gates.enabled(FeatureGate::ClearingNominatedNodeNameAfterBinding,
                                    config_.kubernetes_version)) {
    cluster_.nominate(pod, "");
  }
  // Built at its exact size: a replay of a million pods keeps a million of these messages, and
  // the chain of `+` leaves each string with twice the capacity it uses.
  constexpr std::string_view kAssigned = "Successfully assigned ";
  constexpr std::string_view kTo = " to ";
  const ObjectMeta& meta = pod.pod.metadata;
  const std::string& node_name = chosen->node.metadata.name;
  std::string message;
  message.reserve(kAssigned.size() + meta.namespace_.size() + 1 + meta.name.size() + kTo.size() +
                  node_name.size());
  message.append(kAssigned).append(meta.namespace_).append(1, '/').append(meta.name);
  message.append(kTo).append(node_name);
  hooks_.record_event(pod, "Normal", "Scheduled", std::move(message));
  hooks_.bound(pod);
  // A pod the kubelet rejected at admission holds nothing: no pod was added to the node.
  if (!pod.pod.terminated()) assigned_pod_added(pod, now);
}

}  // namespace gpusched
