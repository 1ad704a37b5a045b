#include "sim/simulation.hpp"

#include <algorithm>
#include <functional>
#include <string_view>

#include "gpusched/error.hpp"
#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/model/pod_requests.hpp"
#include "gpusched/model/well_known.hpp"
#include "model/disruption.hpp"
#include "model/priority_admission.hpp"

namespace gpusched::sim {
namespace {

SchedulerConfig effective_config(const Scenario& scenario, const SimulationOptions& options) {
  SchedulerConfig config = scenario.scheduler;
  if (options.seed) config.seed = *options.seed;
  if (options.kubernetes_version) config.kubernetes_version = *options.kubernetes_version;
  config.reference_engine = options.reference;
  return config;
}

std::string key_of(const ObjectMeta& meta) {
  return meta.namespace_ + "/" + meta.name;
}

// framework.NodeSchedulingPropertiesChange (pkg/scheduler/framework/events.go): one event per
// changed group, in upstream's order. A cordon sends nothing; an uncordon counts as a taint change.
std::vector<ClusterEvent> node_change_events(const Node& old_node, const Node& new_node) {
  std::vector<ClusterEvent> out;
  if (old_node.unschedulable && !new_node.unschedulable) {
    out.push_back({EventResource::Node, action::kUpdateNodeTaint, "NodeSpecUnschedulableChange"});
  }
  if (old_node.allocatable != new_node.allocatable) {
    out.push_back({EventResource::Node, action::kUpdateNodeAllocatable, "NodeAllocatableChange"});
  }
  if (old_node.metadata.labels != new_node.metadata.labels) {
    out.push_back({EventResource::Node, action::kUpdateNodeLabel, "NodeLabelChange"});
  }
  if (old_node.effective_taints() != new_node.effective_taints()) {
    out.push_back({EventResource::Node, action::kUpdateNodeTaint, "NodeTaintChange"});
  }
  if (old_node.conditions != new_node.conditions) {
    out.push_back({EventResource::Node, action::kUpdateNodeCondition, "NodeConditionChange"});
  }
  if (old_node.metadata.annotations != new_node.metadata.annotations) {
    out.push_back({EventResource::Node, action::kUpdateNodeAnnotation, "NodeAnnotationChange"});
  }
  return out;
}

}  // namespace

Simulation::Simulation(const Scenario& scenario, const SimulationOptions& options)
    : scenario_(scenario),
      config_(effective_config(scenario, options)),
      until_(options.until ? options.until : scenario.until),
      on_progress_(options.progress),
      observer_(options.observer),
      rng_(config_.seed),
      scheduler_(config_, cluster_, rng_, *this, options.plugins),
      record_spans_(options.record_pod_spans) {
  cluster_.set_node_observer([this](const NodeInfo& node, NodeChange change) {
    usage_.observe(node, change);
    // The cluster autoscaler watches its pools' nodes: one may have just emptied or filled.
    if (autoscaling_ && autoscaled_node(node)) wake_autoscaler(now_);
  });
}

void Simulation::input_error(const std::string& pointer, const std::string& reason) const {
  throw InputError(scenario_.source, pointer, reason);
}

std::string Simulation::new_uid() {
  // Deterministic and UUID-shaped: one counter for every object, in creation order.
  char buf[40];
  std::snprintf(buf, sizeof buf, "00000000-0000-4000-8000-%012llx",
                static_cast<unsigned long long>(++uid_counter_));
  return buf;
}

void Simulation::schedule(TimeMs time, Kind kind, std::size_t index, std::string pod_key,
                          std::string pod_uid) {
  pending_.insert(Pending{time, kind, ++seq_, index, std::move(pod_key), std::move(pod_uid)});
}

void Simulation::object_event(const std::string& object, std::string_view type,
                              std::string_view reason, std::string message) {
  // The scheduler's event recorder counts repeats of one event instead of storing them again.
  std::size_t hash = 0;
  for (std::string_view part : {std::string_view(object), type, reason, std::string_view(message)})
    hash = hash * 31 + std::hash<std::string_view>{}(part);
  for (auto [it, end] = event_index_.equal_range(hash); it != end; ++it) {
    EventRecord& e = events_[it->second];
    if (e.object == object && e.type == type && e.reason == reason && e.message == message) {
      ++e.count;
      e.last_time = now_;
      if (observer_.event) observer_.event(e);
      return;
    }
  }
  event_index_.emplace(hash, events_.size());
  events_.push_back(EventRecord{now_, now_, 1, std::string(type), std::string(reason), object,
                                std::move(message)});
  if (observer_.event) observer_.event(events_.back());
}

void Simulation::recorded_event(const std::string& object, std::string_view type,
                                std::string_view reason, std::string message) {
  EventCorrelator::Outcome out =
      correlator_.correlate(now_, object, type, reason, std::move(message));
  if (out.skip) return;
  if (*out.stored != EventCorrelator::kNoEvent) {
    // The recorder patches the Event it created (or creates it again when it was never stored).
    EventRecord& e = events_[*out.stored];
    e.count = out.count;
    e.last_time = now_;
    e.message = std::move(out.message);
    if (observer_.event) observer_.event(e);
    return;
  }
  *out.stored = events_.size();
  events_.push_back(EventRecord{out.first_time, now_, out.count, std::string(type),
                                std::string(reason), object, std::move(out.message)});
  if (observer_.event) observer_.event(events_.back());
}

void Simulation::record_event(const PodInfo& pod, std::string_view type, std::string_view reason,
                              std::string message) {
  if (reason == "FailedScheduling") note_unschedulable(pod, message);
  object_event("Pod/" + key_of(pod.pod.metadata), type, reason, std::move(message));
}

void Simulation::note_unschedulable(const PodInfo& pod, std::string_view message) {
  // The cluster autoscaler watches for unschedulable pods.
  wake_autoscaler(now_);
  end_unschedulable(pod);
  unschedulable_[pod.sequence] = Unschedulable{now_, fit_error_reasons(message)};
}

void Simulation::end_unschedulable(const PodInfo& pod) {
  auto it = unschedulable_.find(pod.sequence);
  if (it == unschedulable_.end()) return;
  count_unschedulable(it->second);
  unschedulable_.erase(it);
}

void Simulation::count_unschedulable(const Unschedulable& open) {
  for (const std::string& reason : open.reasons) unschedulable_time_[reason] += now_ - open.since;
}

// ---- objects -------------------------------------------------------------------------------

void Simulation::apply(Object object, const std::string& pointer) {
  ObjectMeta& meta = meta_of(object);
  if (std::holds_alternative<Node>(object)) {
    apply_node(std::get<Node>(std::move(object)), pointer);
  } else if (std::holds_alternative<Pod>(object)) {
    apply_pod(std::get<Pod>(std::move(object)), pointer);
  } else if (auto* d = std::get_if<Deployment>(&object)) {
    const std::string key = key_of(meta);
    auto it = deployments_.find(key);
    stamp(meta, it == deployments_.end() ? nullptr : &it->second.metadata);
    deployments_[key] = std::move(*d);
    reconcile_deployment(key);
  } else if (auto* rs = std::get_if<ReplicaSet>(&object)) {
    const std::string key = key_of(meta);
    auto it = replicasets_.find(key);
    stamp(meta, it == replicasets_.end() ? nullptr : &it->second.metadata);
    replicasets_[key] = std::move(*rs);
    reconcile_replicaset(key);
  } else if (auto* ds = std::get_if<DaemonSet>(&object)) {
    apply_daemon_set(std::move(*ds));
  } else if (auto* pc = std::get_if<PriorityClass>(&object)) {
    apply_priority_class(std::move(*pc), pointer);
  } else if (auto* pdb = std::get_if<PodDisruptionBudget>(&object)) {
    const std::string key = key_of(meta);
    auto it = budgets_.find(key);
    stamp(meta, it == budgets_.end() ? nullptr : &it->second.metadata);
    budgets_[key] = std::move(*pdb);
  } else if (auto* ns = std::get_if<Namespace>(&object)) {
    // Cluster-scoped; its labels feed pod affinity namespaceSelectors.
    stamp(meta, cluster_.find_namespace(meta.name));
    cluster_.apply_namespace(std::move(ns->metadata));
  } else if (auto* job = std::get_if<Job>(&object)) {
    const std::string key = key_of(meta);
    auto it = jobs_.find(key);
    stamp(meta, it == jobs_.end() ? nullptr : &it->second.job.metadata);
    if (it != jobs_.end()) {
      it->second.job = std::move(*job);
    } else {
      jobs_[key] = JobState{std::move(*job), 0, false, false, std::nullopt};
    }
    reconcile_job(key);
  }
}

void Simulation::check_declared_pods() const {
  // What the objects ask for at once: a Deployment's or ReplicaSet's replicas and a Job's
  // parallelism (the largest a controller is ever given, by apply or scale), each bare pod, one
  // pod per node for each DaemonSet. Checked before the run, so that `replicas: 1000000` on a few
  // objects fails at once instead of after filling memory; kMaxPodsPerRun also bounds what
  // controllers create over time.
  std::map<ObjectRef, std::uint64_t> controllers;
  std::uint64_t controller_pods = 0;
  std::uint64_t pods = 0;
  std::uint64_t nodes = 0;
  std::uint64_t daemon_sets = 0;
  auto ask = [&](const ObjectRef& ref, std::int32_t replicas, const std::string& pointer) {
    std::uint64_t& most = controllers[ref];
    const auto wanted = static_cast<std::uint64_t>(std::max(replicas, 0));
    if (wanted > most) {
      controller_pods += wanted - most;
      most = wanted;
    }
    if (controller_pods + pods + nodes * daemon_sets > kMaxPodsPerRun) {
      input_error(pointer, "the scenario asks for more than " + std::to_string(kMaxPodsPerRun) +
                               " pods at once (gpusched limit)");
    }
  };
  auto count = [&](const Object& object, const std::string& pointer) {
    std::int32_t replicas = 0;
    if (const auto* d = std::get_if<Deployment>(&object)) {
      replicas = d->replicas;
    } else if (const auto* rs = std::get_if<ReplicaSet>(&object)) {
      replicas = rs->replicas;
    } else if (const auto* job = std::get_if<Job>(&object)) {
      replicas = job->parallelism;
    } else if (std::holds_alternative<Pod>(object)) {
      ++pods;
    } else if (std::holds_alternative<Node>(object)) {
      ++nodes;
    } else if (std::holds_alternative<DaemonSet>(object)) {
      ++daemon_sets;
    }
    ask(ref_of(object), replicas, pointer);
  };
  // Pools are counted like the nodes they make; a library caller may have set any count.
  std::int64_t pool_nodes = 0;
  for (const NodePool& pool : scenario_.node_pools) {
    pool_nodes += std::max(pool.count, pool.max_count());
    if (pool.autoscaling &&
        (pool.count < pool.autoscaling->min || pool.count > pool.autoscaling->max)) {
      input_error(pool.pointer, "node pool \"" + pool.name + "\" starts with " +
                                    std::to_string(pool.count) +
                                    " nodes, outside its autoscaling minCount and maxCount");
    }
    if (pool.count < 0 || pool_nodes > kMaxPoolNodes) {
      input_error(pool.pointer, "node pool \"" + pool.name + "\" asks for " +
                                    std::to_string(pool.count) +
                                    " nodes; the pools may hold 0 to " +
                                    std::to_string(kMaxPoolNodes) + " (gpusched limit)");
    }
    nodes += static_cast<std::uint64_t>(pool.max_count());
  }
  for (std::size_t i = 0; i < scenario_.cluster.size(); ++i) {
    count(scenario_.cluster[i],
          i < scenario_.cluster_pointers.size() ? scenario_.cluster_pointers[i] : "/cluster");
  }
  for (const Action& action : scenario_.timeline) {
    for (const Object& object : action.objects) count(object, action.pointer);
    if (action.verb == Verb::Scale) ask(action.target, action.replicas, action.pointer);
  }
}

void Simulation::stamp(ObjectMeta& meta, const ObjectMeta* existing) {
  meta.uid = existing != nullptr ? existing->uid : new_uid();
  // An object of the starting cluster keeps the creation time it was exported with.
  if (existing != nullptr) {
    meta.creation_ms = existing->creation_ms;
  } else if (!loading_cluster_) {
    meta.creation_ms = now_;
  }
}

void Simulation::apply_priority_class(PriorityClass pc, const std::string& pointer) {
  auto it =
      std::find_if(priority_classes_.begin(), priority_classes_.end(),
                   [&](const PriorityClass& c) { return c.metadata.name == pc.metadata.name; });
  if (auto error = admit_priority_class(pc, priority_classes_)) input_error(pointer, *error);
  stamp(pc.metadata, it == priority_classes_.end() ? nullptr : &it->metadata);
  if (it == priority_classes_.end()) {
    priority_classes_.push_back(std::move(pc));
    return;
  }
  // ValidatePriorityClassUpdate: the value and the preemption policy are immutable.
  const std::string prefix =
      "PriorityClass.scheduling.k8s.io \"" + pc.metadata.name + "\" is invalid: ";
  if (pc.value != it->value)
    input_error(pointer, prefix + "value: Forbidden: may not be changed in an update.");
  if (pc.preemption_policy != it->preemption_policy) {
    input_error(pointer, prefix + "preemptionPolicy: Invalid value: \"" + pc.preemption_policy +
                             "\": field is immutable");
  }
  *it = std::move(pc);
}

PdbStatus Simulation::budget_status(const PodDisruptionBudget& pdb) const {
  // getExpectedScale: a ReplicaSet owned by a Deployment counts the Deployment's replicas.
  const ControllerScale scale = [this](const OwnerReference& owner,
                                       std::string_view ns) -> std::optional<std::int32_t> {
    if (owner.kind != "ReplicaSet") return std::nullopt;
    auto rs = replicasets_.find(std::string(ns) + "/" + owner.name);
    if (rs == replicasets_.end() || rs->second.metadata.uid != owner.uid) return std::nullopt;
    if (const OwnerReference* d = rs->second.metadata.controller();
        d != nullptr && d->kind == "Deployment") {
      auto dep = deployments_.find(std::string(ns) + "/" + d->name);
      if (dep != deployments_.end()) return dep->second.replicas;
    }
    return rs->second.replicas;
  };
  std::vector<const Pod*> pods;
  for (const auto& [key, pod] : cluster_.pods()) {
    if (pod->pod.metadata.namespace_ == pdb.metadata.namespace_) pods.push_back(&pod->pod);
  }
  return pdb_status(pdb, pods, scale);
}

void Simulation::refresh_budgets() {
  if (budgets_.empty()) return;
  std::vector<BudgetInfo> infos;
  for (const auto& [key, pdb] : budgets_) {
    // The scheduler reads budgets through filterPodsWithPDBViolation, where a nil selector
    // matches nothing: an empty LabelSelector stands for it.
    infos.push_back(BudgetInfo{pdb.metadata.namespace_, pdb.selector.value_or(LabelSelector{}),
                               budget_status(pdb).disruptions_allowed});
  }
  cluster_.set_budgets(std::move(infos));
}

void Simulation::apply_node(Node node, const std::string& pointer) {
  NodeInfo* existing = cluster_.find_node(node.metadata.name);
  stamp(node.metadata, existing == nullptr ? nullptr : &existing->node.metadata);
  node = publish_devices(node, pointer);
  if (existing != nullptr) {
    update_node(*existing, std::move(node));
    return;
  }
  NodeInfo& info = cluster_.add_node(std::move(node));
  // Pods bound to this name before it existed start now.
  for (PodInfo* pod : info.pods) {
    if (pod->pod.status.phase == PodPhase::Pending && admit_on_node(*pod)) start_running(*pod);
  }
  scheduler_.cluster_event({EventResource::Node, action::kAdd, "NodeAdd"},
                           EventObjects{nullptr, &info, nullptr}, now_);
  // addNode: the DaemonSet controller creates the new node's daemon pods.
  reconcile_daemonsets();
}

void Simulation::update_node(NodeInfo& info, Node node) {
  const Node old_node = info.node;
  cluster_.update_node(info, std::move(node));
  for (const ClusterEvent& event : node_change_events(old_node, info.node)) {
    scheduler_.cluster_event(event, EventObjects{&old_node, &info, nullptr}, now_);
  }
  // updateNode: new labels or taints may change where daemon pods belong.
  reconcile_daemonsets();
}

void Simulation::apply_pod(Pod pod, const std::string& pointer) {
  PodInfo* existing = cluster_.find_pod(pod.metadata.namespace_, pod.metadata.name);
  if (existing == nullptr) {
    create_pod(std::move(pod), pointer);
    return;
  }
  // An update keeps what the cluster decided: uid, binding, status.
  if (!pod.spec.node_name.empty() && pod.spec.node_name != existing->pod.spec.node_name) {
    input_error(pointer, "Pod \"" + key_of(pod.metadata) +
                             "\" is invalid: spec.nodeName: may not change once set");
  }
  stamp(pod.metadata, &existing->pod.metadata);
  pod.metadata.deletion_ms = existing->pod.metadata.deletion_ms;
  pod.metadata.owner_references = existing->pod.metadata.owner_references;
  pod.spec.node_name = existing->pod.spec.node_name;
  pod.status = existing->pod.status;
  const Pod old_pod = existing->pod;
  cluster_.update_pod(*existing, std::move(pod));
  scheduler_.pod_updated(*existing, old_pod, now_);
}

Simulation::PodTimes& Simulation::times_of(const PodInfo& pod) {
  // ClusterState numbers pods from 1 in the order they are added.
  const auto index = static_cast<std::size_t>(pod.sequence - 1);
  if (index >= pod_times_.size()) pod_times_.resize(index + 1);
  return pod_times_[index];
}

PodSpan* Simulation::span_of(const PodInfo& pod) {
  if (!record_spans_) return nullptr;
  const auto index = static_cast<std::size_t>(pod.sequence - 1);
  if (index >= spans_.size()) spans_.resize(index + 1);
  return &spans_[index];
}

PodInfo& Simulation::create_pod(Pod pod, const std::string& pointer,
                                const std::string& generate_name) {
  // The Priority admission plugin resolves priorityClassName into spec.priority on create.
  if (auto error = admit_priority(pod, priority_classes_, generate_name))
    input_error(pointer, *error);
  if (++pods_created_ > kMaxPodsPerRun) {
    input_error("", "the scenario creates more than " + std::to_string(kMaxPodsPerRun) +
                        " pods by " + format_duration(now_) + " (gpusched limit)");
  }
  if (pod.metadata.uid.empty()) pod.metadata.uid = new_uid();
  if (!loading_cluster_) pod.metadata.creation_ms = now_;
  const bool prebound = !pod.spec.node_name.empty();
  PodInfo& info = cluster_.add_pod(std::move(pod));
  times_of(info).created = info.pod.metadata.creation_ms;
  if (PodSpan* span = span_of(info)) span->pod = info.pod.key();
  if (info.pod.terminated()) return info;
  if (const auto& deletion = info.pod.metadata.deletion_ms) {
    // Exported while terminating: it holds its node until its deletionTimestamp.
    schedule(std::max(now_, *deletion), Kind::TerminationDone, 0, key_of(info.pod.metadata),
             info.pod.metadata.uid);
    return info;
  }
  if (prebound) {
    // Bound in the manifest: no scheduling; it runs once its node exists. The scheduler's cache
    // learns of it at once (addPodToCache, then AssignedPodAdded).
    if (info.node != nullptr && admit_on_node(info)) start_running(info);
    if (!info.pod.terminated()) scheduler_.assigned_pod_added(info, now_);
    return info;
  }
  scheduler_.pod_added(info, now_);
  return info;
}

void Simulation::start_running(PodInfo& pod) {
  pod.pod.status.phase = PodPhase::Running;
  // A pod of the starting cluster keeps the start time it was exported with.
  if (!loading_cluster_ || !pod.pod.status.start_ms) pod.pod.status.start_ms = now_;
  PodTimes& times = times_of(pod);
  if (!times.scheduled) {
    times.scheduled = *pod.pod.status.start_ms;
    if (PodSpan* span = span_of(pod)) {
      span->node = pod.pod.spec.node_name;
      span->gpus = held_gpus(pod);
    }
  }
  // gpusched.io/run-duration: the containers exit 0 after that long; with restartPolicy Always
  // the kubelet restarts them, so the pod never completes.
  auto it = pod.pod.metadata.annotations.find(well_known::kRunDurationAnnotation);
  if (it == pod.pod.metadata.annotations.end() || pod.pod.spec.restart_policy == "Always") return;
  std::string error;
  // The loader validated the annotation: a duration ("180s") or a number of seconds ("180").
  // Skipping it instead would leave the pod running forever, a wrong answer without a word.
  const auto duration = parse_time_text(it->second, &error);
  GPUSCHED_CHECK(duration.has_value(), "a pod's run-duration annotation parses");
  schedule(now_ + *duration, Kind::PodFinished, 0, key_of(pod.pod.metadata), pod.pod.metadata.uid);
}

void Simulation::cycle_done() {
  constexpr std::uint64_t kCyclesPerReport = 4096;
  if (++progress_.cycles % kCyclesPerReport == 0) report_progress(now_);
}

void Simulation::report_progress(TimeMs now) {
  if (!on_progress_) return;
  progress_.now = now;
  progress_.pods = cluster_.pods().size();
  on_progress_(progress_);
}

void Simulation::bound(PodInfo& pod) {
  ++progress_.bound;
  if (observer_.bound) observer_.bound({now_, key_of(pod.pod.metadata), pod.pod.spec.node_name});
  end_unschedulable(pod);
  if (admit_on_node(pod)) start_running(pod);
}

void Simulation::end_pod(PodInfo& pod, PodPhase phase) {
  pod.pod.status.phase = phase;
  release_devices(pod);
  times_of(pod).finished = now_;
  cluster_.release(pod);
  // The scheduler's informer only lists non-terminated pods: the end looks like a deletion.
  scheduler_.cluster_event({EventResource::Pod, action::kDelete, "AssignedPodDelete"},
                           EventObjects{nullptr, nullptr, &pod}, now_);
}

void Simulation::finish_pod(PodInfo& pod) {
  end_pod(pod, PodPhase::Succeeded);
  reconcile_all();
}

void Simulation::delete_pod(PodInfo& pod, std::int64_t grace_seconds) {
  // The API server deletes at once a pod that never got a node or has terminated; a running pod
  // terminates gracefully and holds its resources until then.
  if (pod.pod.spec.node_name.empty() || pod.pod.terminated() || grace_seconds == 0) {
    remove_pod(pod);
    return;
  }
  begin_termination(pod, grace_seconds);
}

void Simulation::begin_termination(PodInfo& pod, std::int64_t grace_seconds) {
  if (pod.pod.metadata.deletion_ms) return;  // already terminating
  pod.pod.metadata.deletion_ms = now_ + grace_seconds * 1000;
  schedule(*pod.pod.metadata.deletion_ms, Kind::TerminationDone, 0, key_of(pod.pod.metadata),
           pod.pod.metadata.uid);
  recorded_event("Pod/" + key_of(pod.pod.metadata), "Normal", "Killing",
                 "Stopping container " + (pod.pod.spec.containers.empty()
                                              ? std::string("main")
                                              : pod.pod.spec.containers.front().name));
}

void Simulation::remove_pod(PodInfo& pod) {
  const bool held = pod.node != nullptr;
  PodTimes& times = times_of(pod);
  if (!times.finished) times.finished = now_;
  removed_pod_keys_.insert(key_of(pod.pod.metadata));
  end_unschedulable(pod);
  release_devices(pod);
  if (held) cluster_.release(pod);
  scheduler_.pod_removed(pod);
  if (held) {
    scheduler_.cluster_event({EventResource::Pod, action::kDelete, "AssignedPodDelete"},
                             EventObjects{nullptr, nullptr, &pod}, now_);
  }
  cluster_.remove_pod(pod);
}

// The sink of DefaultPreemption's choice: prepareCandidate's effects.
void Simulation::preempt(const PodInfo& preemptor, const NodeInfo& node,
                         const std::vector<PodInfo*>& victims) {
  PreemptionRecord record{now_, key_of(preemptor.pod.metadata), node.node.metadata.name, {}};
  std::vector<PodInfo*> evicted;
  for (PodInfo* victim : victims) {
    // A victim already terminating needs no second deletion (prepareCandidateAsync skips the API
    // call), and its lost work was counted when its deletion began.
    if (victim->pod.metadata.deletion_ms) continue;
    const auto requests = pod_requests(victim->pod.spec);
    auto gpu = requests.find(resource::kGpu);
    record.victims.push_back(
        VictimRecord{key_of(victim->pod.metadata), victim->priority,
                     gpu == requests.end() ? 0 : gpu->second.value(),
                     victim->pod.status.start_ms ? now_ - *victim->pod.status.start_ms : 0});
    evicted.push_back(victim);
  }
  if (probe_preemption_ != nullptr) {
    // A one-shot question's dry run: the choice is the answer, nothing is evicted.
    *probe_preemption_ = std::move(record);
    return;
  }
  for (PodInfo* victim : evicted) {
    // prepareCandidate: DisruptionTarget condition, the Preempted event, a graceful deletion.
    victim->pod.status.conditions.push_back(PodCondition{
        "DisruptionTarget", "True", "PreemptionByScheduler",
        preemptor.pod.spec.scheduler_name + ": preempting to accommodate a higher priority pod",
        now_});
    object_event(
        "Pod/" + key_of(victim->pod.metadata), "Normal", "Preempted",
        "Preempted by pod " + preemptor.pod.metadata.uid + " on node " + node.node.metadata.name);
    // Deleted through the API after the cycle: even with no grace period the victim is gone only
    // after the preemptor's failure was recorded, so its deletion requeues the preemptor.
    begin_termination(*victim, victim->pod.spec.termination_grace_period_seconds);
  }
  if (observer_.preemption) observer_.preemption(record);
  preemptions_.push_back(std::move(record));
  reconcile_all();
  // prepareCandidate: lower-priority pods nominated to the node may no longer fit there.
  // A copy: nominate() edits the list.
  const std::span<PodInfo* const> listed = cluster_.nominated_pods(node.name);
  const std::vector<PodInfo*> nominated(listed.begin(), listed.end());
  for (PodInfo* other : nominated) {
    if (other != &preemptor && other->priority < preemptor.priority) cluster_.nominate(*other, "");
  }
}

void Simulation::remove_node(NodeInfo& node) {
  // The pod garbage collector removes pods bound to a node that is gone.
  const std::vector<PodInfo*> pods = node.pods;
  for (PodInfo* pod : pods) remove_pod(*pod);
  const std::string name = node.node.metadata.name;
  declared_nodes_.erase(name);
  device_managers_.erase(name);
  unhealthy_gpus_.erase(name);
  cluster_.remove_node(node);
  reconcile_all();
}

void Simulation::delete_object(const ObjectRef& ref, std::int64_t grace_seconds,
                               const std::string& pointer) {
  const std::string key = ref.namespace_ + "/" + ref.name;
  if (ref.kind == "Node") {
    NodeInfo* node = cluster_.find_node(ref.name);
    if (node == nullptr)
      input_error(pointer, "Node \"" + ref.name + "\" does not exist at " + format_duration(now_));
    remove_node(*node);
    return;
  }
  if (ref.kind == "Pod") {
    PodInfo* pod = cluster_.find_pod(ref.namespace_, ref.name);
    if (pod == nullptr)
      input_error(pointer, "Pod \"" + key + "\" does not exist at " + format_duration(now_));
    delete_pod(*pod, grace_seconds);
    reconcile_all();
    return;
  }
  // Controllers: the garbage collector deletes what they own, with the same grace period.
  std::string uid;
  if (ref.kind == "Deployment") {
    auto it = deployments_.find(key);
    if (it == deployments_.end())
      input_error(pointer, "Deployment \"" + key + "\" does not exist at " + format_duration(now_));
    uid = it->second.metadata.uid;
    deployments_.erase(it);
    for (auto rs = replicasets_.begin(); rs != replicasets_.end();) {
      const OwnerReference* owner = rs->second.metadata.controller();
      if (owner != nullptr && owner->uid == uid) {
        for (PodInfo* pod : owned_pods(rs->second.metadata.uid)) delete_pod(*pod, grace_seconds);
        rs = replicasets_.erase(rs);
      } else {
        ++rs;
      }
    }
  } else if (ref.kind == "ReplicaSet") {
    auto it = replicasets_.find(key);
    if (it == replicasets_.end())
      input_error(pointer, "ReplicaSet \"" + key + "\" does not exist at " + format_duration(now_));
    uid = it->second.metadata.uid;
    replicasets_.erase(it);
  } else if (ref.kind == "PriorityClass") {
    auto it = std::find_if(priority_classes_.begin(), priority_classes_.end(),
                           [&](const PriorityClass& c) { return c.metadata.name == ref.name; });
    if (it == priority_classes_.end())
      input_error(pointer,
                  "PriorityClass \"" + ref.name + "\" does not exist at " + format_duration(now_));
    priority_classes_.erase(it);
    return;
  } else if (ref.kind == "Namespace") {
    // gpusched keeps the namespace's pods (upstream's namespace controller would delete them);
    // the name then exists implicitly again, with only kubernetes.io/metadata.name.
    if (!cluster_.remove_namespace(ref.name))
      input_error(pointer,
                  "Namespace \"" + ref.name + "\" does not exist at " + format_duration(now_));
    return;
  } else if (ref.kind == "PodDisruptionBudget") {
    if (budgets_.erase(key) == 0)
      input_error(pointer,
                  "PodDisruptionBudget \"" + key + "\" does not exist at " + format_duration(now_));
    return;
  } else if (ref.kind == "Job") {
    auto it = jobs_.find(key);
    if (it == jobs_.end())
      input_error(pointer, "Job \"" + key + "\" does not exist at " + format_duration(now_));
    uid = it->second.job.metadata.uid;
    jobs_.erase(it);
  } else if (ref.kind == "DaemonSet") {
    auto it = daemonsets_.find(key);
    if (it == daemonsets_.end())
      input_error(pointer, "DaemonSet \"" + key + "\" does not exist at " + format_duration(now_));
    uid = it->second.ds.metadata.uid;
    daemonsets_.erase(it);
  } else {
    input_error(pointer, "cannot delete kind \"" + ref.kind + "\"");
  }
  for (PodInfo* pod : owned_pods(uid)) delete_pod(*pod, grace_seconds);
  reconcile_all();
}

void Simulation::patch_object(const Action& action) {
  const ObjectRef& ref = action.target;
  Object current;
  if (ref.kind == "Node") {
    NodeInfo* node = cluster_.find_node(ref.name);
    if (node == nullptr)
      input_error(action.pointer,
                  "Node \"" + ref.name + "\" does not exist at " + format_duration(now_));
    current = declared_node(*node);
  } else if (ref.kind == "Pod") {
    PodInfo* pod = cluster_.find_pod(ref.namespace_, ref.name);
    if (pod == nullptr)
      input_error(action.pointer, "Pod \"" + ref.namespace_ + "/" + ref.name +
                                      "\" does not exist at " + format_duration(now_));
    current = pod->pod;
  } else if (ref.kind == "Deployment" && deployments_.contains(ref.namespace_ + "/" + ref.name)) {
    current = deployments_.at(ref.namespace_ + "/" + ref.name);
  } else if (ref.kind == "ReplicaSet" && replicasets_.contains(ref.namespace_ + "/" + ref.name)) {
    current = replicasets_.at(ref.namespace_ + "/" + ref.name);
  } else if (ref.kind == "Job" && jobs_.contains(ref.namespace_ + "/" + ref.name)) {
    current = jobs_.at(ref.namespace_ + "/" + ref.name).job;
  } else if (ref.kind == "DaemonSet" && daemonsets_.contains(ref.namespace_ + "/" + ref.name)) {
    current = daemonsets_.at(ref.namespace_ + "/" + ref.name).ds;
  } else if (const ObjectMeta* ns = cluster_.find_namespace(ref.name);
             ref.kind == "Namespace" && ns != nullptr) {
    current = Namespace{*ns};
  } else if (ref.kind == "PodDisruptionBudget" &&
             budgets_.contains(ref.namespace_ + "/" + ref.name)) {
    current = budgets_.at(ref.namespace_ + "/" + ref.name);
  } else if (auto pc =
                 std::find_if(priority_classes_.begin(), priority_classes_.end(),
                              [&](const PriorityClass& c) { return c.metadata.name == ref.name; });
             ref.kind == "PriorityClass" && pc != priority_classes_.end()) {
    current = *pc;
  } else {
    input_error(action.pointer, ref.kind + " \"" + ref.namespace_ + "/" + ref.name +
                                    "\" does not exist at " + format_duration(now_));
  }
  Object patched = action.patch->apply(current, scenario_.source, action.pointer);
  if (auto* node = std::get_if<Node>(&patched)) {
    NodeInfo* info = cluster_.find_node(ref.name);
    // Looked up at the top of this function; applying the patch changes no cluster state.
    GPUSCHED_CHECK(info != nullptr, "a patched node still exists after its patch is applied");
    update_node(*info, publish_devices(*node, action.pointer));
  } else {
    apply(std::move(patched), action.pointer);
  }
}

void Simulation::run_action(const Action& action) {
  switch (action.verb) {
    case Verb::Apply:
      for (const Object& object : action.objects) apply(object, action.pointer);
      break;
    case Verb::Delete:
      delete_object(action.target, action.grace_period_seconds.value_or(0), action.pointer);
      break;
    case Verb::Patch:
      patch_object(action);
      break;
    case Verb::Cordon:
    case Verb::Uncordon: {
      NodeInfo* node = cluster_.find_node(action.target.name);
      if (node == nullptr) {
        input_error(action.pointer, "Node \"" + action.target.name + "\" does not exist at " +
                                        format_duration(now_));
      }
      Node copy = declared_node(*node);
      copy.unschedulable = action.verb == Verb::Cordon;
      update_node(*node, publish_devices(copy, action.pointer));
      break;
    }
    case Verb::GpuHealth:
      set_gpu_health(action);
      break;
    case Verb::Scale: {
      const std::string key = action.target.namespace_ + "/" + action.target.name;
      if (action.target.kind == "Deployment" && deployments_.contains(key)) {
        deployments_[key].replicas = action.replicas;
        reconcile_deployment(key);
      } else if (action.target.kind == "ReplicaSet" && replicasets_.contains(key)) {
        replicasets_[key].replicas = action.replicas;
        reconcile_replicaset(key);
      } else {
        input_error(action.pointer, action.target.kind + " \"" + key + "\" does not exist at " +
                                        format_duration(now_));
      }
      break;
    }
  }
}

// ---- the clock -----------------------------------------------------------------------------

void Simulation::start() {
  check_declared_pods();
  loading_cluster_ = true;
  start_pools();
  for (std::size_t i = 0; i < scenario_.cluster.size(); ++i) {
    apply(scenario_.cluster[i],
          i < scenario_.cluster_pointers.size() ? scenario_.cluster_pointers[i] : "/cluster");
  }
  loading_cluster_ = false;
  for (std::size_t i = 0; i < scenario_.timeline.size(); ++i)
    schedule(scenario_.timeline[i].at, Kind::Action, i);
  expectation_results_.assign(scenario_.expect.size(), std::nullopt);
  for (std::size_t i = 0; i < scenario_.expect.size(); ++i) {
    if (scenario_.expect[i].at) schedule(*scenario_.expect[i].at, Kind::Expect, i);
  }
}

std::optional<TimeMs> Simulation::next_time() const {
  // The first instant is 0, when the scheduler first sees the starting cluster.
  std::optional<TimeMs> next;
  if (!stepped_) {
    next = 0;
  } else {
    if (!pending_.empty()) next = pending_.begin()->time;
    const auto timer = scheduler_.next_timer(now_);
    // Queue timers only matter while a retry could still change something.
    if (timer && !scheduler_.quiescent() && (!next || *timer < *next)) next = timer;
  }
  if (next && until_ && *next > *until_) return std::nullopt;
  return next;
}

bool Simulation::step() {
  const std::optional<TimeMs> next = next_time();
  if (!next) return false;
  stepped_ = true;
  // The queue timers due by the new instant, as seen before its events.
  const auto timer = scheduler_.next_timer(now_);
  if (*next != now_) report_progress(*next);
  now_ = *next;
  while (!pending_.empty() && pending_.begin()->time == now_ &&
         pending_.begin()->kind != Kind::Expect) {
    const Pending p = *pending_.begin();
    pending_.erase(pending_.begin());
    if (p.kind == Kind::Action) {
      run_action(scenario_.timeline[p.index]);
      continue;
    }
    if (p.kind == Kind::Provision) {
      advance_node(p.index);
      continue;
    }
    if (p.kind == Kind::ReservationEnd) {
      end_reservation(p.index);
      continue;
    }
    if (p.kind == Kind::Autoscale) {
      autoscale();
      continue;
    }
    if (p.kind == Kind::Resync) {
      // A DaemonSet's or ("Job/<key>") a Job's delayed sync, or (no key) every controller after a
      // kubelet rejection.
      if (p.pod_key.empty()) {
        reconcile_all();
      } else if (p.pod_key.starts_with("Job/")) {
        reconcile_job(p.pod_key.substr(4));
      } else {
        reconcile_daemonset(p.pod_key);
      }
      continue;
    }
    const auto slash = p.pod_key.find('/');
    PodInfo* pod = cluster_.find_pod(p.pod_key.substr(0, slash), p.pod_key.substr(slash + 1));
    if (pod == nullptr || pod->pod.metadata.uid != p.pod_uid) continue;  // already gone
    if (p.kind == Kind::PodFinished) {
      if (!pod->pod.terminated()) finish_pod(*pod);
    } else {
      remove_pod(*pod);
      reconcile_all();
    }
  }
  if (timer && *timer <= now_) scheduler_.on_timer(now_);
  refresh_budgets();
  {
    // The ReplicaSet lister PodTopologySpread's default constraints read.
    ClusterState::SelectorMap selectors;
    for (const auto& [key, rs] : replicasets_) selectors.emplace(key, rs.selector);
    cluster_.set_replica_set_selectors(std::move(selectors));
  }
  scheduler_.run(now_);
  while (!pending_.empty() && pending_.begin()->time == now_ &&
         pending_.begin()->kind == Kind::Expect) {
    const std::size_t index = pending_.begin()->index;
    pending_.erase(pending_.begin());
    expectation_results_[index] = check(index);
  }
  return true;
}

SimulationResult Simulation::finish() {
  while (step()) {
  }
  // Expectations after the last change see the final state, at their own time.
  if (until_) now_ = std::max(now_, *until_);
  for (const Pending& p : pending_) {
    if (p.kind == Kind::Expect && (!until_ || p.time <= *until_))
      expectation_results_[p.index] = check(p.index);
  }
  for (std::size_t i = 0; i < scenario_.expect.size(); ++i) {
    if (!expectation_results_[i]) expectation_results_[i] = check(i);
  }
  return take_result();
}

SimulationResult Simulation::run() {
  start();
  return finish();
}

}  // namespace gpusched::sim
