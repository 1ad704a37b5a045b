#include "sim/simulation.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <string_view>

#include "devices/nvidia_dra_driver.hpp"
#include "gpusched/config/feature_gates.hpp"
#include "gpusched/error.hpp"
#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/model/pod_requests.hpp"
#include "gpusched/model/well_known.hpp"
#include "model/priority_admission.hpp"
#include "sim/daemonset_controller.hpp"
#include "sim/deployment_controller.hpp"
#include "sim/job_controller.hpp"
#include "sim/kubelet_admission.hpp"
#include "sim/pod_strategy.hpp"
#include "sim/replicaset_controller.hpp"
#include "sim/statefulset_controller.hpp"
#include "sim/workload_api.hpp"
#include "sim/workload_strategy.hpp"

namespace gpusched::sim {
namespace {

// Kueue runs when the scenario has a `kueue` key (checked by the caller) or any kueue.x-k8s.io
// object, in the starting cluster or applied later.
bool uses_kueue(const Scenario& scenario) {
  const auto is_kueue = [](const Object& o) {
    return std::visit([](const auto& x) { return KueueStores::kHolds<std::decay_t<decltype(x)>>; },
                      o);
  };
  if (std::any_of(scenario.cluster.begin(), scenario.cluster.end(), is_kueue)) return true;
  return std::any_of(scenario.timeline.begin(), scenario.timeline.end(), [&](const Action& a) {
    return std::any_of(a.objects.begin(), a.objects.end(), is_kueue);
  });
}

SchedulerConfig effective_config(const Scenario& scenario, const SimulationOptions& options) {
  SchedulerConfig config = scenario.scheduler;
  if (options.seed) config.seed = *options.seed;
  if (options.kubernetes_version) config.kubernetes_version = *options.kubernetes_version;
  config.reference_engine = options.reference;
  // The loader checked the gates against the scenario's release; another one given here (the
  // CLI's --kubernetes-version) may lack or lock one of them.
  for (const auto& [name, value] : config.feature_gates.values) {
    if (auto error = feature_gate_error(name, value, config.kubernetes_version))
      throw InputError(scenario.source, "/scheduler/featureGates/" + name, *error);
  }
  return config;
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

class Simulation::ControllerHost final : public ControllerContext {
 public:
  explicit ControllerHost(Simulation& sim) : sim_(sim) {}
  [[nodiscard]] TimeMs now() const override { return sim_.now_; }
  [[nodiscard]] ApiServer& api() override { return sim_.api_; }
  [[nodiscard]] ControllerManager& controllers() override { return sim_.controllers_; }
  [[nodiscard]] EventQueue& clock() override { return sim_.event_queue_; }
  PodInfo& create_pod(Pod pod, const std::string& generate_name) override {
    return sim_.create_pod(std::move(pod), {}, generate_name);
  }
  void delete_pod(PodInfo& pod, std::int64_t grace_seconds) override {
    sim_.delete_pod(pod, grace_seconds);
  }
  void update_pod(PodInfo& pod, Pod updated) override { sim_.update_pod(pod, std::move(updated)); }
  [[nodiscard]] std::optional<TimeMs> finished(const PodInfo& pod) override {
    return sim_.times_of(pod).finished;
  }
  void record_event(std::string_view source, const std::string& object, std::string_view type,
                    std::string_view reason, std::string message) override {
    sim_.events_.recorded_event(source, object, type, reason, std::move(message));
  }
  void record_series_event(const std::string& object, std::string_view type,
                           std::string_view reason, std::string message) override {
    sim_.events_.series_event(object, type, reason, std::move(message));
  }
  bool wake_autoscaler() override { return sim_.autoscaler_.wake(sim_.now_); }

 private:
  Simulation& sim_;
};

Simulation::Simulation(const Scenario& scenario, const SimulationOptions& options)
    : scenario_(scenario),
      config_(effective_config(scenario, options)),
      until_(options.until ? options.until : scenario.until),
      on_progress_(options.progress),
      observer_(options.observer),
      rng_(config_.seed),
      scheduler_(config_, cluster_, rng_, *this, options.plugins),
      kubelets_(scenario.device_plugin, scenario.nvidia_dra_driver, scenario.source,
                config_.kubernetes_version.minor),
      events_(now_, options.observer.event),
      pools_(scenario, *this, cluster_, event_queue_, now_, rng_),
      autoscaler_(scenario, *this, pools_, cluster_, events_, event_queue_, now_,
                  api_.kueue.provisioning_requests),
      record_spans_(options.record_pod_spans) {
#ifdef NDEBUG
  if (options.check_invariants) invariants_.emplace();
#else
  invariants_.emplace();
#endif
  controller_host_ = std::make_unique<ControllerHost>(*this);
  // The controllers, in the order they sync after a change. A new controller is one line here.
  controllers_.add(std::make_unique<DeploymentController>(*controller_host_));
  controllers_.add(std::make_unique<ReplicaSetController>(*controller_host_));
  controllers_.add(std::make_unique<JobController>(*controller_host_));
  controllers_.add(std::make_unique<DaemonSetController>(*controller_host_));
  controllers_.add(std::make_unique<StatefulSetController>(*controller_host_));
  if (scenario.kueue || uses_kueue(scenario))
    kueue_ = std::make_unique<KueueController>(*controller_host_,
                                               scenario.kueue.value_or(KueueConfiguration{}));
  cluster_.set_node_observer([this](const NodeInfo& node, NodeChange change) {
    usage_.observe(node, change);
    shares_.observe(node, change);
    // The cluster autoscaler watches its pools' nodes: one may have just emptied or filled.
    if (autoscaler_.watches(node)) autoscaler_.wake(now_);
  });
}

Simulation::~Simulation() = default;

void Simulation::input_error(const std::string& pointer, const std::string& reason) const {
  throw InputError(scenario_.source, pointer, reason);
}

void Simulation::dispatch(Event& event) {
  // The one place each kind of event goes to the component that owns it.
  auto pod_of = [&](const std::string& key, const std::string& uid) -> PodInfo* {
    const std::string_view view = key;
    const auto slash = view.find('/');
    PodInfo* pod = cluster_.find_pod(view.substr(0, slash), view.substr(slash + 1));
    return pod == nullptr || pod->pod.metadata.uid != uid ? nullptr : pod;  // already gone
  };
  std::visit(Overloaded{
                 [&](PodFinished& e) {
                   if (PodInfo* pod = pod_of(e.pod_key, e.pod_uid); pod && !pod->pod.terminated())
                     finish_pod(*pod);
                 },
                 [&](TerminationDone& e) {
                   if (PodInfo* pod = pod_of(e.pod_key, e.pod_uid)) {
                     remove_pod(*pod);
                     controllers_.sync_all();
                   }
                 },
                 [&](ReservationEnd& e) { pools_.end_reservation(e.pool); },
                 [&](Provision& e) { pools_.advance(e.staged); },
                 [&](Autoscale&) { autoscaler_.run(); },
                 [&](ControllerSync& e) {
                   // A controller's delayed sync of a key, or (no controller) every controller's
                   // after a kubelet rejection.
                   if (e.controller.empty()) {
                     controllers_.sync_all();
                   } else {
                     controllers_.sync(e.controller, e.key);
                   }
                 },
                 [&](PodGc&) { collect_orphans(); },
                 [&](PermitTimeout&) {
                   permit_timeout_queued_ = false;
                   scheduler_.expire_waiting_pods(now_);
                 },
                 [&](RunAction& e) { run_action(scenario_.timeline[e.index]); },
                 [&](CheckExpectation& e) { expectation_results_[e.index] = check(e.index); },
             },
             event);
}

void Simulation::sync_permit_timeout() {
  const std::optional<TimeMs> due = scheduler_.next_permit_deadline();
  // Without pods waiting at Permit (most replays), nothing to look for on the clock.
  if (!due && !permit_timeout_queued_) return;
  permit_timeout_queued_ = due.has_value();
  const EventQueue::Entry* queued =
      event_queue_.find<PermitTimeout>([](TimeMs, const PermitTimeout&) { return true; });
  if (queued != nullptr && due && queued->time == *due) return;
  if (queued != nullptr) event_queue_.erase(queued);
  if (due) event_queue_.push(*due, PermitTimeout{});
}

void Simulation::record_event(const PodInfo& pod, std::string_view type, std::string_view reason,
                              std::string message) {
  if (reason == "FailedScheduling") {
    // The cluster autoscaler watches for unschedulable pods.
    autoscaler_.wake(now_);
    unschedulable_.failed(pod, message);
  }
  events_.series_event("Pod/" + key_of(pod.pod.metadata), type, reason, std::move(message));
}

// ---- objects -------------------------------------------------------------------------------

void Simulation::apply(Object object, const std::string& pointer) {
  if (auto error = unserved_workload_api(object, config_)) input_error(pointer, *error);
  ObjectMeta& meta = meta_of(object);
  if (std::holds_alternative<Node>(object)) {
    apply_node(std::get<Node>(std::move(object)), pointer);
  } else if (std::holds_alternative<Pod>(object)) {
    apply_pod(std::get<Pod>(std::move(object)), pointer);
  } else if (auto* d = std::get_if<Deployment>(&object)) {
    const std::string key = key_of(meta);
    auto it = api_.deployments.find(key);
    if (it != api_.deployments.end()) check_update(it->second, *d, pointer);
    api_.stamp(meta, it == api_.deployments.end() ? nullptr : &it->second.metadata);
    api_.deployments[key] = std::move(*d);
    controllers_.sync("Deployment", key);
  } else if (auto* rs = std::get_if<ReplicaSet>(&object)) {
    const std::string key = key_of(meta);
    auto it = api_.replicasets.find(key);
    if (it != api_.replicasets.end()) check_update(it->second, *rs, pointer);
    api_.stamp(meta, it == api_.replicasets.end() ? nullptr : &it->second.metadata);
    api_.replicasets[key] = std::move(*rs);
    controllers_.sync("ReplicaSet", key);
  } else if (auto* ds = std::get_if<DaemonSet>(&object)) {
    const std::string key = key_of(meta);
    auto it = api_.daemonsets.find(key);
    if (it != api_.daemonsets.end()) check_update(it->second.ds, *ds, pointer);
    api_.stamp(meta, it == api_.daemonsets.end() ? nullptr : &it->second.ds.metadata);
    if (it == api_.daemonsets.end()) {
      api_.daemonsets.emplace(key, DaemonSetState{std::move(*ds), 1});
    } else {
      // The API server's PrepareForUpdate raises templateGeneration when the template changes.
      if (ds->template_ != it->second.ds.template_) ++it->second.template_generation;
      it->second.ds = std::move(*ds);
    }
    controllers_.sync("DaemonSet", key);
  } else if (auto* ss = std::get_if<StatefulSet>(&object)) {
    const std::string key = key_of(meta);
    auto it = api_.statefulsets.find(key);
    if (it != api_.statefulsets.end()) check_update(it->second, *ss, pointer);
    api_.stamp(meta, it == api_.statefulsets.end() ? nullptr : &it->second.metadata);
    api_.statefulsets[key] = std::move(*ss);
    // The starting cluster's sets sync once it is all loaded (start()): their pods, in it too,
    // are theirs by ownerReferences and must not be created a second time.
    if (!api_.loading()) controllers_.sync("StatefulSet", key);
  } else if (auto* service = std::get_if<Service>(&object)) {
    const std::string key = key_of(meta);
    auto it = api_.services.find(key);
    api_.stamp(meta, it == api_.services.end() ? nullptr : &it->second.metadata);
    api_.services[key] = std::move(*service);
  } else if (auto* workload = std::get_if<SchedulingWorkload>(&object)) {
    apply_workload(std::move(*workload), pointer);
  } else if (auto* group = std::get_if<PodGroup>(&object)) {
    apply_pod_group(std::move(*group), pointer);
  } else if (auto* device_class = std::get_if<dra::DeviceClass>(&object)) {
    std::optional<dra::DeviceClass> old;
    if (const dra::DeviceClass* existing = cluster_.dra().find_class(meta.name)) old = *existing;
    api_.stamp(meta, old ? &old->metadata : nullptr);
    const std::string name = meta.name;
    const bool added = cluster_.edit_dra().apply_class(std::move(*device_class));
    scheduler_.cluster_event({EventResource::DeviceClass, added ? action::kAdd : action::kUpdate,
                              added ? "DeviceClassAdd" : "DeviceClassUpdate"},
                             EventObjects{.old_device_class = old ? &*old : nullptr,
                                          .device_class = cluster_.dra().find_class(name)},
                             now_);
  } else if (auto* slice = std::get_if<dra::ResourceSlice>(&object)) {
    const dra::ResourceSlice* old = cluster_.dra().find_slice(meta.name);
    api_.stamp(meta, old == nullptr ? nullptr : &old->metadata);
    const std::optional<std::string> node = slice->node_name;
    const bool added = cluster_.edit_dra().apply_slice(std::move(*slice));
    // The driver's own report of a node gpusched published for replaces what it published.
    if (node && dra_published_.contains(*node)) publish_dra_slices(*node);
    scheduler_.cluster_event({EventResource::ResourceSlice, added ? action::kAdd : action::kUpdate,
                              added ? "ResourceSliceAdd" : "ResourceSliceUpdate"},
                             EventObjects{}, now_);
  } else if (auto* claim = std::get_if<dra::ResourceClaim>(&object)) {
    const dra::ResourceClaim* existing = cluster_.dra().find_claim(meta.namespace_, meta.name);
    std::optional<dra::ResourceClaim> old;
    if (existing != nullptr) old = *existing;
    api_.stamp(meta, old ? &old->metadata : nullptr);
    const std::string ns = meta.namespace_, name = meta.name;
    cluster_.edit_dra().apply_claim(std::move(*claim));
    scheduler_.cluster_event({EventResource::ResourceClaim, old ? action::kUpdate : action::kAdd,
                              old ? "ResourceClaimUpdate" : "ResourceClaimAdd"},
                             EventObjects{.old_claim = old ? &*old : nullptr,
                                          .claim = cluster_.dra().find_claim(ns, name)},
                             now_);
  } else if (auto* claim_template = std::get_if<dra::ResourceClaimTemplate>(&object)) {
    const dra::ResourceClaimTemplate* old =
        cluster_.dra().find_template(meta.namespace_, meta.name);
    api_.stamp(meta, old == nullptr ? nullptr : &old->metadata);
    const std::string ns = meta.namespace_, name = meta.name;
    cluster_.edit_dra().apply_template(std::move(*claim_template));
    // The controller's template handler: the pods that name it sync again.
    sync_claim_pods(ns, [&](const Pod& pod) {
      return std::any_of(
          pod.spec.resource_claims.begin(), pod.spec.resource_claims.end(),
          [&](const PodResourceClaim& c) { return c.resource_claim_template_name == name; });
    });
  } else if (auto* pc = std::get_if<PriorityClass>(&object)) {
    if (auto error = api_.apply_priority_class(std::move(*pc))) input_error(pointer, *error);
  } else if (auto* pdb = std::get_if<PodDisruptionBudget>(&object)) {
    const std::string key = key_of(meta);
    auto it = api_.budgets.find(key);
    api_.stamp(meta, it == api_.budgets.end() ? nullptr : &it->second.metadata);
    api_.budgets[key] = std::move(*pdb);
  } else if (auto* ns = std::get_if<Namespace>(&object)) {
    // Cluster-scoped; its labels feed pod affinity namespaceSelectors.
    api_.stamp(meta, cluster_.find_namespace(meta.name));
    cluster_.apply_namespace(std::move(ns->metadata));
  } else if (auto* job = std::get_if<Job>(&object)) {
    const std::string key = key_of(meta);
    auto it = api_.jobs.find(key);
    if (it != api_.jobs.end()) {
      if (auto error = validate_update(it->second.job, *job, it->second.start_time.has_value())) {
        input_error(pointer, *error);
      }
    }
    api_.stamp(meta, it == api_.jobs.end() ? nullptr : &it->second.job.metadata);
    if (it != api_.jobs.end()) {
      it->second.job = std::move(*job);
    } else {
      if (kueue_) kueue_->default_job(*job);
      JobState state;
      state.job = std::move(*job);
      api_.jobs[key] = std::move(state);
    }
    api_.job_changed(key);
    controllers_.sync("Job", key);
  } else {
    // Kueue's objects wait in their stores for the Kueue component.
    std::visit(
        [&](auto& o) {
          using T = std::decay_t<decltype(o)>;
          if constexpr (KueueStores::kHolds<T>) {
            auto& store = api_.kueue.of<T>();
            const std::string key = store_key(ref_of(object));
            auto it = store.find(key);
            api_.stamp(o.metadata, it == store.end() ? nullptr : &it->second.metadata);
            store.insert_or_assign(key, std::move(o));
            ++api_.kueue.scenario_changes;
          }
        },
        object);
  }
}

void Simulation::apply_workload(SchedulingWorkload workload, const std::string& pointer) {
  ObjectMeta& meta = workload.metadata;
  const SchedulingWorkload* old = cluster_.find_workload(meta.namespace_, meta.name);
  // ValidateWorkloadUpdate (pkg/apis/scheduling/validation, 1.35): podGroups, and a
  // controllerRef once set, are immutable; upstream's paths lack the "spec." prefix.
  // 1.36's ValidateWorkloadUpdate (v1alpha2) has the prefix, and names podGroupTemplates.
  if (old != nullptr) {
    const std::string prefix = "Workload.scheduling.k8s.io \"" + meta.name +
                               "\" is invalid: " + (workload.v1alpha2 ? "spec." : "");
    if (old->controller_ref && old->controller_ref != workload.controller_ref)
      input_error(pointer, prefix + "controllerRef: Invalid value: field is immutable");
    if (old->pod_groups != workload.pod_groups) {
      input_error(pointer, prefix + (workload.v1alpha2 ? "podGroupTemplates" : "podGroups") +
                               ": Invalid value: field is immutable");
    }
  }
  api_.stamp(meta, old == nullptr ? nullptr : &old->metadata);
  SchedulingWorkload stored = std::move(workload);
  const std::string ns = stored.metadata.namespace_, name = stored.metadata.name;
  if (!cluster_.apply_workload(std::move(stored))) return;
  // Workload/Add: GangScheduling's pods waiting for their Workload may go (its PodGroups are
  // immutable, so no plugin registers Workload/Update).
  scheduler_.cluster_event(
      {EventResource::Workload, action::kAdd, "WorkloadAdd"},
      EventObjects{nullptr, nullptr, nullptr, cluster_.find_workload(ns, name)}, now_);
}

void Simulation::apply_pod_group(PodGroup group, const std::string& pointer) {
  ObjectMeta& meta = group.metadata;
  const PodGroup* old = cluster_.find_pod_group(meta.namespace_, meta.name);
  // ValidatePodGroupUpdate (pkg/apis/scheduling/validation, release-1.36): the template
  // reference and the scheduling policy are immutable.
  if (old != nullptr) {
    const std::string prefix = "PodGroup.scheduling.k8s.io \"" + meta.name + "\" is invalid: ";
    if (old->template_ref != group.template_ref)
      input_error(pointer, prefix + "spec.podGroupTemplateRef: Invalid value: field is immutable");
    if (old->gang_min_count != group.gang_min_count)
      input_error(pointer, prefix + "spec.schedulingPolicy: Invalid value: field is immutable");
  }
  api_.stamp(meta, old == nullptr ? nullptr : &old->metadata);
  const std::string ns = meta.namespace_, name = meta.name;
  if (!cluster_.apply_pod_group(std::move(group))) return;
  // PodGroup/Add: GangScheduling's pods waiting for their PodGroup may go (its policy is
  // immutable: an update changes nothing the scheduler reads).
  scheduler_.cluster_event({EventResource::PodGroup, action::kAdd, "PodGroupAdd"},
                           EventObjects{.pod_group = cluster_.find_pod_group(ns, name)}, now_);
}

template <typename T>
void Simulation::check_update(const T& old_object, const T& object,
                              const std::string& pointer) const {
  if (auto error = validate_update(old_object, object)) input_error(pointer, *error);
}

void Simulation::check_declared_pods() const {
  // What the objects ask for at once: a Deployment's, ReplicaSet's or StatefulSet's replicas and
  // a Job's parallelism (the largest a controller is ever given, by apply or scale), each bare
  // pod, one pod per node for each DaemonSet. Checked before the run, so that `replicas:
  // 1000000` on a few objects fails at once instead of after filling memory; kMaxPodsPerRun also
  // bounds what controllers create over time.
  std::map<ObjectRef, std::uint64_t> controllers;
  std::uint64_t controller_pods = 0;
  std::uint64_t pods = 0;
  std::uint64_t nodes = 0;
  std::uint64_t daemon_sets = 0;
  auto check = [&](const std::string& pointer) {
    if (controller_pods + pods + nodes * daemon_sets > kMaxPodsPerRun) {
      input_error(pointer, "the scenario asks for more than " + std::to_string(kMaxPodsPerRun) +
                               " pods at once (gpusched limit)");
    }
  };
  auto ask = [&](const ObjectRef& ref, std::int32_t replicas, const std::string& pointer) {
    std::uint64_t& most = controllers[ref];
    const auto wanted = static_cast<std::uint64_t>(std::max(replicas, 0));
    if (wanted > most) {
      controller_pods += wanted - most;
      most = wanted;
    }
    check(pointer);
  };
  // Only controllers are looked up by name: a file of thousands of pods and nodes counts them.
  auto count = [&](const Object& object, const std::string& pointer) {
    std::optional<std::int32_t> replicas;
    if (const auto* d = std::get_if<Deployment>(&object)) {
      replicas = d->replicas;
    } else if (const auto* rs = std::get_if<ReplicaSet>(&object)) {
      replicas = rs->replicas;
    } else if (const auto* ss = std::get_if<StatefulSet>(&object)) {
      replicas = ss->replicas;
    } else if (const auto* job = std::get_if<Job>(&object)) {
      replicas = job->parallelism;
    } else if (std::holds_alternative<Pod>(object)) {
      ++pods;
    } else if (std::holds_alternative<Node>(object)) {
      ++nodes;
    } else if (std::holds_alternative<DaemonSet>(object)) {
      ++daemon_sets;
    }
    if (replicas) {
      ask(ref_of(object), *replicas, pointer);
    } else {
      check(pointer);
    }
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

void Simulation::sync_claim_pods(const std::string& namespace_,
                                 const std::function<bool(const Pod&)>& concerned) {
  std::vector<PodInfo*> pods;
  for (PodInfo* pod : cluster_.pods()) {
    if (pod->pod.metadata.namespace_ == namespace_ && concerned(pod->pod)) pods.push_back(pod);
  }
  for (PodInfo* pod : pods) {
    Pod updated = pod->pod;
    if (claims_.sync_pod(updated)) update_pod(*pod, std::move(updated));
  }
}

Node Simulation::publish_node(const Node& declared, const std::string& pointer) {
  Node node = kubelets_.publish(declared, pointer);
  publish_dra_slices(node.metadata.name);
  return node;
}

bool Simulation::driver_slices_given(const std::string& node, std::string_view driver) const {
  const auto published = dra_published_.find(node);
  for (const dra::ResourceSlice* slice : cluster_.dra().slice_list()) {
    if (slice->driver != driver || slice->node_name != node) continue;
    if (published == dra_published_.end() ||
        std::none_of(published->second.begin(), published->second.end(),
                     [&](const dra::ResourceSlice& own) {
                       return own.metadata.name == slice->metadata.name;
                     })) {
      return true;
    }
  }
  return false;
}

void Simulation::publish_dra_slices(const std::string& node) {
  const std::vector<dra::ResourceSlice>& generated = kubelets_.dra_slices(node);
  // The input's own slices of the driver for this node (a snapshot of a cluster it runs in) are
  // what it published: gpusched publishes none beside them, which would list every GPU twice.
  static const std::vector<dra::ResourceSlice> kNone;
  const std::vector<dra::ResourceSlice>& slices =
      !generated.empty() && driver_slices_given(node, generated.front().driver) ? kNone
                                                                                : generated;
  if (!generated.empty() && !nvidia_classes_installed_) {
    // The driver's chart installs its DeviceClasses (where it runs, whoever reports its slices);
    // a scenario's own class of a name wins.
    nvidia_classes_installed_ = true;
    for (dra::DeviceClass device_class : devices::nvidia_device_classes()) {
      if (cluster_.dra().find_class(device_class.metadata.name) != nullptr) continue;
      api_.stamp(device_class.metadata, nullptr);
      const std::string name = device_class.metadata.name;
      cluster_.edit_dra().apply_class(std::move(device_class));
      scheduler_.cluster_event({EventResource::DeviceClass, action::kAdd, "DeviceClassAdd"},
                               EventObjects{.device_class = cluster_.dra().find_class(name)}, now_);
    }
  }
  auto published = dra_published_.find(node);
  if (published == dra_published_.end() ? slices.empty() : published->second == slices) return;
  DraState& dra = cluster_.edit_dra();
  if (published != dra_published_.end()) {
    for (const dra::ResourceSlice& old : published->second) dra.remove_slice(old.metadata.name);
  }
  for (dra::ResourceSlice slice : slices) {
    const dra::ResourceSlice* old = dra.find_slice(slice.metadata.name);
    api_.stamp(slice.metadata, old == nullptr ? nullptr : &old->metadata);
    dra.apply_slice(std::move(slice));
    scheduler_.cluster_event({EventResource::ResourceSlice, action::kAdd, "ResourceSliceAdd"},
                             EventObjects{}, now_);
  }
  if (slices.empty()) {
    dra_published_.erase(node);
  } else {
    dra_published_[node] = slices;
  }
}

void Simulation::apply_node(Node node, const std::string& pointer) {
  NodeInfo* existing = cluster_.find_node(node.metadata.name);
  api_.stamp(node.metadata, existing == nullptr ? nullptr : &existing->node.metadata);
  node = publish_node(node, pointer);
  if (existing != nullptr) {
    update_node(*existing, std::move(node));
    return;
  }
  NodeInfo& info = cluster_.add_node(std::move(node));
  // Pods bound to this name before it existed (or while it was gone) start now.
  for (PodInfo* pod : info.pods) {
    const PodPhase phase = pod->pod.status.phase;
    if ((phase == PodPhase::Pending || phase == PodPhase::Unknown) && admit_on_node(*pod))
      start_running(*pod);
  }
  scheduler_.cluster_event({EventResource::Node, action::kAdd, "NodeAdd"},
                           EventObjects{nullptr, &info, nullptr}, now_);
  // addNode: the DaemonSet controller creates the new node's daemon pods.
  controllers_.node_changed();
}

void Simulation::update_node(NodeInfo& info, Node node) {
  const Node old_node = info.node;
  cluster_.update_node(info, std::move(node));
  for (const ClusterEvent& event : node_change_events(old_node, info.node)) {
    scheduler_.cluster_event(event, EventObjects{&old_node, &info, nullptr}, now_);
  }
  // updateNode: new labels or taints may change where daemon pods belong.
  controllers_.node_changed();
}

void Simulation::apply_pod(Pod pod, const std::string& pointer) {
  PodInfo* existing = cluster_.find_pod(pod.metadata.namespace_, pod.metadata.name);
  if (existing == nullptr) {
    create_pod(std::move(pod), pointer);
    return;
  }
  // An update keeps what the cluster decided: uid, binding, priority, status. The API server
  // drops the fields of disabled gates before validating (PrepareForUpdate).
  drop_disabled_pod_fields(pod, config_);
  keep_server_set_fields(existing->pod, pod);
  if (auto error = validate_pod_update(existing->pod, pod)) input_error(pointer, *error);
  api_.stamp(pod.metadata, &existing->pod.metadata);
  pod.metadata.deletion_ms = existing->pod.metadata.deletion_ms;
  pod.metadata.owner_references = existing->pod.metadata.owner_references;
  pod.status = existing->pod.status;
  update_pod(*existing, std::move(pod));
}

void Simulation::update_pod(PodInfo& existing, Pod pod) {
  const Pod old_pod = existing.pod;
  cluster_.update_pod(existing, std::move(pod));
  api_.pod_changed(existing);
  scheduler_.pod_updated(existing, old_pod, now_);
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
  if (auto error = admit_priority(pod, api_.priority_classes, generate_name))
    input_error(pointer, *error);
  if (++pods_created_ > kMaxPodsPerRun) {
    input_error("", "the scenario creates more than " + std::to_string(kMaxPodsPerRun) +
                        " pods by " + format_duration(now_) + " (gpusched limit)");
  }
  if (pod.metadata.uid.empty()) pod.metadata.uid = api_.new_uid();
  if (!api_.loading()) pod.metadata.creation_ms = now_;
  // Kueue's mutating pod webhook, after the built-in admission plugins.
  if (kueue_) kueue_->default_pod(pod);
  prepare_pod_for_create(pod, config_, now_);
  // The resourceclaim controller makes the claims of the pod's templates as the pod appears.
  if (!pod.spec.resource_claims.empty()) claims_.pod_created(pod);
  const bool prebound = !pod.spec.node_name.empty();
  PodInfo& info = cluster_.add_pod(std::move(pod));
  api_.pod_added(info);
  times_of(info).created = info.pod.metadata.creation_ms;
  if (PodSpan* span = span_of(info)) span->pod = info.pod.key();
  if (info.pod.terminated()) return info;
  if (const auto& deletion = info.pod.metadata.deletion_ms) {
    // Exported while terminating: it holds its node until its deletionTimestamp.
    event_queue_.push(std::max(now_, *deletion),
                      TerminationDone{key_of(info.pod.metadata), info.pod.metadata.uid});
    return info;
  }
  if (prebound) {
    // Bound in the manifest: no scheduling; it runs once its node exists. The scheduler's cache
    // learns of it at once (addPodToCache, then AssignedPodAdded).
    if (info.node != nullptr && admit_on_node(info)) start_running(info);
    if (info.node == nullptr) {
      // A dumped pod Running on a node the dump lacks runs nowhere here.
      if (info.pod.status.phase == PodPhase::Running) info.pod.status.phase = PodPhase::Unknown;
      pod_gc_.orphan_possible();
    }
    if (!info.pod.terminated()) scheduler_.assigned_pod_added(info, now_);
    return info;
  }
  scheduler_.pod_added(info, now_);
  return info;
}

bool Simulation::admit_on_node(PodInfo& pod) {
  // The kubelet's admit handlers in order (kubelet.go NewMainKubelet): the device manager's
  // allocation, then the predicate admission, which releases the devices when it refuses.
  std::optional<Rejection> rejection;
  const devices::Admission admission = kubelets_.admit(pod.pod);
  if (!admission.admitted) {
    rejection = Rejection{admission.reason, admission.message};
  } else if (pod.node != nullptr) {
    rejection = predicate_admission(pod, *pod.node, cluster_,
                                    config_.feature_gates.enabled(FeatureGate::DRAExtendedResource,
                                                                  config_.kubernetes_version));
    if (rejection) kubelets_.release(pod);
  }
  if (!rejection) return true;
  // The kubelet fails the pod at admission (kubelet.go canAdmitPod / rejectPod): phase Failed
  // with its reason and message, a Warning event, nothing held. The scheduler does not retry
  // it; a controller replaces it on its next sync.
  pod.pod.status.reason = rejection->reason;
  pod.pod.status.message = rejection->message;
  events_.recorded_event("kubelet/" + pod.pod.spec.node_name, "Pod/" + pod.pod.key(), "Warning",
                         rejection->reason, rejection->message);
  end_pod(pod, PodPhase::Failed);
  // Controllers see the failure after the status update: the replacement is created a second
  // later (a ReplicaSet keeps replacing pods the kubelet keeps rejecting, as in a real cluster).
  if (pod.pod.metadata.controller() != nullptr) {
    const bool queued =
        event_queue_.find<ControllerSync>([&](TimeMs time, const ControllerSync& s) {
          return s.controller.empty() && time == now_ + 1000;
        }) != nullptr;
    if (!queued) event_queue_.push(now_ + 1000, ControllerSync{});
  }
  return false;
}

void Simulation::set_gpu_health(const Action& action) {
  const std::string& name = action.target.name;
  NodeInfo* node = cluster_.find_node(name);
  if (node == nullptr) {
    input_error(action.pointer, "Node \"" + name + "\" does not exist at " + format_duration(now_));
  }
  kubelets_.set_gpu_health(name, action.gpu, action.healthy, action.pointer);
  // ListAndWatch reports the device's health; the kubelet updates allocatable.
  update_node(*node, publish_node(kubelets_.declared(*node), action.pointer));
}

void Simulation::start_running(PodInfo& pod) {
  // A pod of the starting cluster keeps the start time it was exported with.
  const std::optional<TimeMs>& exported = pod.pod.status.start_ms;
  cluster_.start_pod(pod, api_.loading() && exported ? *exported : now_);
  PodTimes& times = times_of(pod);
  if (!times.scheduled) {
    times.scheduled = *pod.pod.status.start_ms;
    if (PodSpan* span = span_of(pod)) {
      span->node = pod.pod.spec.node_name;
      span->gpus = kubelets_.held_gpus(pod);
      // Shared GPUs (Open-Gpu-Share's) have no device IDs: their rows go by index.
      if (pod.node != nullptr && pod.gpu_share->index_node == pod.node->name) {
        for (const std::int32_t gpu : pod.gpu_share->index)
          span->gpus.push_back(shared_gpu_row(gpu));
      }
    }
  }
  // A StatefulSet under OrderedReady waits for this pod before it creates the next one.
  controllers_.pod_started(pod);
  api_.pod_started(pod);
  // gpusched.io/run-duration: the containers exit 0 after that long; with restartPolicy Always
  // the kubelet restarts them, so the pod never completes.
  auto it = pod.pod.metadata.annotations.find(well_known::kRunDurationAnnotation);
  if (it == pod.pod.metadata.annotations.end() || pod.pod.spec.restart_policy == "Always") return;
  std::string error;
  // The loader validated the annotation: a duration ("180s") or a number of seconds ("180").
  // Skipping it instead would leave the pod running forever, a wrong answer without a word.
  const auto duration = parse_time_text(it->second, &error);
  GPUSCHED_CHECK(duration.has_value(), "a pod's run-duration annotation parses");
  event_queue_.push(now_ + *duration, PodFinished{key_of(pod.pod.metadata), pod.pod.metadata.uid});
}

void Simulation::cycle_done() {
  constexpr std::uint64_t kCyclesPerReport = 4096;
  if (++progress_.cycles % kCyclesPerReport == 0) report_progress(now_);
}

void Simulation::count_idle_retries(bool idle, std::size_t cycles) {
  if (!idle) {
    idle_retries_ = 0;
    return;
  }
  if (idle_retries_ == 0) idle_since_ = now_;
  idle_retries_ += cycles;
  if (idle_retries_ <= kMaxIdleRetries) return;
  // Each retry gives the answer the last one gave (only the FailedScheduling event's count
  // grows), so the rest of the stretch would cost time and tell nothing new: an instant far
  // away (an action at 2562047h, a far `until`) would keep the replay going for days.
  std::optional<TimeMs> change = event_queue_.next_time();
  if (!change || (until_ && *until_ < *change)) change = until_;
  input_error("", "from " + format_duration(idle_since_) +
                      " on nothing changes but pods wait, which kube-scheduler retries every "
                      "5 minutes: " +
                      std::to_string(kMaxIdleRetries) + " such retries later, at " +
                      format_duration(now_) + ", the run still goes on" +
                      (change ? " until " + format_duration(*change) : std::string()) +
                      "; gpusched stops rather than replay each. End the replay sooner "
                      "(`until` or --until), or bring the next action earlier");
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
  unschedulable_.ended(pod);
  if (admit_on_node(pod)) start_running(pod);
}

void Simulation::end_pod(PodInfo& pod, PodPhase phase) {
  pod.pod.status.phase = phase;
  kubelets_.release(pod);
  times_of(pod).finished = now_;
  cluster_.release(pod);
  api_.pod_changed(pod);
  claims_.pod_done(pod.pod);
  // The scheduler's informer only lists non-terminated pods: the end looks like a deletion.
  scheduler_.cluster_event({EventResource::Pod, action::kDelete, "AssignedPodDelete"},
                           EventObjects{nullptr, nullptr, &pod}, now_);
}

void Simulation::finish_pod(PodInfo& pod) {
  end_pod(pod, PodPhase::Succeeded);
  controllers_.sync_all();
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
  api_.pod_changed(pod);
  event_queue_.push(*pod.pod.metadata.deletion_ms,
                    TerminationDone{key_of(pod.pod.metadata), pod.pod.metadata.uid});
  events_.recorded_event("kubelet/" + pod.pod.spec.node_name, "Pod/" + key_of(pod.pod.metadata),
                         "Normal", "Killing",
                         "Stopping container " + (pod.pod.spec.containers.empty()
                                                      ? std::string("main")
                                                      : pod.pod.spec.containers.front().name));
}

void Simulation::remove_pod(PodInfo& pod) {
  // A pod waiting at Permit holds its node in the scheduler's cache only: the scheduler forgets it.
  const bool held = pod.node != nullptr && !scheduler_.waiting_on_permit(pod);
  // The scheduler's cache holds every bound, running pod, its node there or not: its deletion is
  // an AssignedPodDelete.
  const bool assigned = !pod.pod.spec.node_name.empty() && !pod.pod.terminated();
  PodTimes& times = times_of(pod);
  if (!times.finished) times.finished = now_;
  api_.pod_removed(pod);
  unschedulable_.ended(pod);
  kubelets_.release(pod);
  if (held) cluster_.release(pod);
  scheduler_.pod_removed(pod);
  if (assigned) {
    scheduler_.cluster_event({EventResource::Pod, action::kDelete, "AssignedPodDelete"},
                             EventObjects{nullptr, nullptr, &pod}, now_);
  } else if (pod.pod.spec.node_name.empty() && !pod.pod.status.nominated_node_name.empty()) {
    // deletePodFromSchedulingQueue: a deleted pod that was nominated releases its node.
    scheduler_.nomination_released(pod, now_);
  }
  claims_.pod_done(pod.pod);
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
    events_.series_event(
        "Pod/" + key_of(victim->pod.metadata), "Normal", "Preempted",
        "Preempted by pod " + preemptor.pod.metadata.uid + " on node " + node.node.metadata.name);
    // Deleted through the API after the cycle: even with no grace period the victim is gone only
    // after the preemptor's failure was recorded, so its deletion requeues the preemptor.
    begin_termination(*victim, victim->pod.spec.termination_grace_period_seconds);
  }
  if (observer_.preemption) observer_.preemption(record);
  preemptions_.push_back(std::move(record));
  controllers_.sync_all();
  // prepareCandidate: lower-priority pods nominated to the node may no longer fit there.
  // A copy: nominate() edits the list.
  const std::span<PodInfo* const> listed = cluster_.nominated_pods(node.name);
  const std::vector<PodInfo*> nominated(listed.begin(), listed.end());
  for (PodInfo* other : nominated) {
    if (other == &preemptor || other->priority >= preemptor.priority) continue;
    const PodInfo released = cluster_.detached_pod(other->pod);
    cluster_.nominate(*other, "");
    scheduler_.nomination_released(released, now_);
  }
}

void Simulation::remove_node(NodeInfo& node) {
  // Deleting a node deletes none of its pods: they stay bound to its name (holding nothing)
  // until the pod garbage collector finds the name gone past its quarantine.
  const bool had_pods = !node.pods.empty();
  // Nothing runs them any more: their phase is Unknown (a pod whose host cannot be reached)
  // where the API server would go on saying Running.
  for (PodInfo* pod : node.pods) {
    if (pod->pod.status.phase == PodPhase::Running) pod->pod.status.phase = PodPhase::Unknown;
  }
  const std::string name = node.node.metadata.name;
  kubelets_.node_removed(name);
  publish_dra_slices(name);
  cluster_.remove_node(node);
  if (had_pods) pod_gc_.orphan_possible();
  controllers_.sync_all();
}

void Simulation::collect_orphans() {
  const std::vector<PodInfo*> doomed = pod_gc_.run(cluster_);
  for (PodInfo* pod : doomed) {
    // markFailedAndDeletePodWithCondition: Failed unless it has ended, a DisruptionTarget
    // condition, then a deletion with grace period 0.
    Pod& p = pod->pod;
    if (!p.terminated()) p.status.phase = PodPhase::Failed;
    p.status.conditions.push_back(PodCondition{"DisruptionTarget", "True", "DeletionByPodGC",
                                               "PodGC: node no longer exists", now_});
    remove_pod(*pod);
  }
  if (!doomed.empty()) controllers_.sync_all();
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
    controllers_.sync_all();
    return;
  }
  // Controllers: the garbage collector deletes what they own, with the same grace period.
  std::string uid;
  if (ref.kind == "Deployment") {
    auto it = api_.deployments.find(key);
    if (it == api_.deployments.end())
      input_error(pointer, "Deployment \"" + key + "\" does not exist at " + format_duration(now_));
    uid = it->second.metadata.uid;
    api_.deployments.erase(it);
    for (auto rs = api_.replicasets.begin(); rs != api_.replicasets.end();) {
      const OwnerReference* owner = rs->second.metadata.controller();
      if (owner != nullptr && owner->uid == uid) {
        for (PodInfo* pod : api_.owned_pods(rs->second.metadata.uid))
          delete_pod(*pod, grace_seconds);
        rs = api_.replicasets.erase(rs);
      } else {
        ++rs;
      }
    }
  } else if (ref.kind == "ReplicaSet") {
    auto it = api_.replicasets.find(key);
    if (it == api_.replicasets.end())
      input_error(pointer, "ReplicaSet \"" + key + "\" does not exist at " + format_duration(now_));
    uid = it->second.metadata.uid;
    api_.replicasets.erase(it);
  } else if (ref.kind == "PriorityClass") {
    auto it = std::find_if(api_.priority_classes.begin(), api_.priority_classes.end(),
                           [&](const PriorityClass& c) { return c.metadata.name == ref.name; });
    if (it == api_.priority_classes.end())
      input_error(pointer,
                  "PriorityClass \"" + ref.name + "\" does not exist at " + format_duration(now_));
    api_.priority_classes.erase(it);
    return;
  } else if (ref.kind == "Namespace") {
    // gpusched keeps the namespace's pods (upstream's namespace controller would delete them);
    // the name then exists implicitly again, with only kubernetes.io/metadata.name.
    if (!cluster_.remove_namespace(ref.name))
      input_error(pointer,
                  "Namespace \"" + ref.name + "\" does not exist at " + format_duration(now_));
    return;
  } else if (ref.kind == "PodDisruptionBudget") {
    if (api_.budgets.erase(key) == 0)
      input_error(pointer,
                  "PodDisruptionBudget \"" + key + "\" does not exist at " + format_duration(now_));
    return;
  } else if (ref.kind == "Job") {
    auto it = api_.jobs.find(key);
    if (it == api_.jobs.end())
      input_error(pointer, "Job \"" + key + "\" does not exist at " + format_duration(now_));
    uid = it->second.job.metadata.uid;
    api_.jobs.erase(it);
    api_.job_changed(key);
  } else if (ref.kind == "DaemonSet") {
    auto it = api_.daemonsets.find(key);
    if (it == api_.daemonsets.end())
      input_error(pointer, "DaemonSet \"" + key + "\" does not exist at " + format_duration(now_));
    uid = it->second.ds.metadata.uid;
    api_.daemonsets.erase(it);
  } else if (ref.kind == "StatefulSet") {
    auto it = api_.statefulsets.find(key);
    if (it == api_.statefulsets.end()) {
      input_error(pointer,
                  "StatefulSet \"" + key + "\" does not exist at " + format_duration(now_));
    }
    uid = it->second.metadata.uid;
    api_.statefulsets.erase(it);
  } else if (ref.kind == "Service") {
    if (api_.services.erase(key) == 0)
      input_error(pointer, "Service \"" + key + "\" does not exist at " + format_duration(now_));
    return;
  } else if (ref.kind == "PodGroup") {
    // The pods keep their schedulingGroup; a gang waits for its PodGroup to come back.
    if (!cluster_.remove_pod_group(ref.namespace_, ref.name)) {
      input_error(pointer, "PodGroup \"" + key + "\" does not exist at " + format_duration(now_));
    }
    return;
  } else if (ref.kind == "DeviceClass" || ref.kind == "ResourceSlice" ||
             ref.kind == "ResourceClaim" || ref.kind == "ResourceClaimTemplate") {
    if (ref.kind == "ResourceClaim") {
      if (!claims_.delete_claim(ref.namespace_, ref.name)) {
        input_error(pointer, "ResourceClaim \"" + store_key(ref) + "\" does not exist at " +
                                 format_duration(now_));
      }
      // enqueueResourceClaim: the pods whose template claim it was sync again (podNeedsWork: a
      // template's claim that is gone is made anew).
      if (cluster_.dra().find_claim(ref.namespace_, ref.name) == nullptr) {
        sync_claim_pods(ref.namespace_, [&](const Pod& pod) {
          return std::any_of(
              pod.status.resource_claim_statuses.begin(), pod.status.resource_claim_statuses.end(),
              [&](const PodResourceClaimStatus& s) { return s.resource_claim_name == ref.name; });
        });
      }
      return;
    }
    DraState& dra = cluster_.edit_dra();
    const bool removed = ref.kind == "DeviceClass" ? dra.remove_class(ref.name)
                         : ref.kind == "ResourceSlice"
                             ? dra.remove_slice(ref.name)
                             : dra.remove_template(ref.namespace_, ref.name);
    if (!removed) {
      input_error(pointer, ref.kind + " \"" + store_key(ref) + "\" does not exist at " +
                               format_duration(now_));
    }
    return;
  } else if (ref.kind == "Workload" && cluster_.remove_workload(ref.namespace_, ref.name)) {
    // A scheduling.k8s.io Workload: the pods keep their workloadRef; the gang waits for the
    // Workload to come back. Otherwise a "Workload" is Kueue's.
  } else if (std::size_t erased = 0; api_.kueue.visit(
                 ref.kind, [&](auto& store) { erased = store.erase(store_key(ref)); })) {
    ++api_.kueue.scenario_changes;
    if (erased == 0) {
      input_error(pointer, ref.kind + " \"" + store_key(ref) + "\" does not exist at " +
                               format_duration(now_));
    }
    return;
  } else {
    input_error(pointer, "cannot delete kind \"" + ref.kind + "\"");
  }
  for (PodInfo* pod : api_.owned_pods(uid)) delete_pod(*pod, grace_seconds);
  controllers_.sync_all();
}

void Simulation::patch_object(const Action& action) {
  const ObjectRef& ref = action.target;
  Object current;
  if (ref.kind == "Node") {
    NodeInfo* node = cluster_.find_node(ref.name);
    if (node == nullptr)
      input_error(action.pointer,
                  "Node \"" + ref.name + "\" does not exist at " + format_duration(now_));
    // A patch applies to the node as declared; the device plugin publishes the result again.
    current = kubelets_.declared(*node);
  } else if (std::optional<Object> found = api_.find(ref)) {
    current = std::move(*found);
  } else {
    input_error(action.pointer, ref.kind + " \"" + ref.namespace_ + "/" + ref.name +
                                    "\" does not exist at " + format_duration(now_));
  }
  Object patched = action.patch->apply(current, scenario_.source, action.pointer);
  if (auto* node = std::get_if<Node>(&patched)) {
    NodeInfo* info = cluster_.find_node(ref.name);
    // Looked up at the top of this function; applying the patch changes no cluster state.
    GPUSCHED_CHECK(info != nullptr, "a patched node still exists after its patch is applied");
    update_node(*info, publish_node(*node, action.pointer));
  } else {
    apply(std::move(patched), action.pointer);
  }
}

void Simulation::run_action(const Action& action) {
  try {
    perform_action(action);
  } catch (const InputError& e) {
    // The run cannot read the file, but the loader kept the action's line.
    const std::string_view pointer = e.pointer();
    const bool at_action =
        pointer.starts_with(action.pointer) &&
        (pointer.size() == action.pointer.size() || pointer[action.pointer.size()] == '/');
    if (action.line == 0 || e.line() != 0 || e.file() != scenario_.source || !at_action) throw;
    throw InputError(e.file(), e.pointer(), e.reason(), action.line);
  }
}

void Simulation::perform_action(const Action& action) {
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
      Node copy = kubelets_.declared(*node);
      copy.unschedulable = action.verb == Verb::Cordon;
      update_node(*node, publish_node(copy, action.pointer));
      break;
    }
    case Verb::GpuHealth:
      set_gpu_health(action);
      break;
    case Verb::Scale: {
      const std::string key = action.target.namespace_ + "/" + action.target.name;
      if (action.target.kind == "Deployment" && api_.deployments.contains(key)) {
        api_.deployments[key].replicas = action.replicas;
        controllers_.sync("Deployment", key);
      } else if (action.target.kind == "ReplicaSet" && api_.replicasets.contains(key)) {
        api_.replicasets[key].replicas = action.replicas;
        controllers_.sync("ReplicaSet", key);
      } else if (action.target.kind == "StatefulSet" && api_.statefulsets.contains(key)) {
        api_.statefulsets[key].replicas = action.replicas;
        controllers_.sync("StatefulSet", key);
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
  api_.set_loading(true);
  pools_.start();
  autoscaler_.start();
  for (std::size_t i = 0; i < scenario_.cluster.size(); ++i) {
    apply(scenario_.cluster[i],
          i < scenario_.cluster_pointers.size() ? scenario_.cluster_pointers[i] : "/cluster");
  }
  api_.set_loading(false);
  if (invariants_) invariants_->start(cluster_, kubelets_);
  if (Controller* stateful_sets = controllers_.find("StatefulSet")) stateful_sets->sync_all();
  for (std::size_t i = 0; i < scenario_.timeline.size(); ++i)
    event_queue_.push(scenario_.timeline[i].at, RunAction{i});
  expectation_results_.assign(scenario_.expect.size(), std::nullopt);
  for (std::size_t i = 0; i < scenario_.expect.size(); ++i) {
    if (scenario_.expect[i].at) event_queue_.push(*scenario_.expect[i].at, CheckExpectation{i});
  }
}

std::optional<TimeMs> Simulation::next_time() const {
  // The first instant is 0, when the scheduler first sees the starting cluster.
  std::optional<TimeMs> next;
  if (!stepped_) {
    next = 0;
  } else {
    next = event_queue_.next_time();
    const auto timer = scheduler_.next_timer(now_);
    // A retry against an unchanged cluster changes no placement, but it does record a
    // FailedScheduling (counted on its Event) and it moves the pod's backoff: so queue timers
    // count while the run goes on (another event is due, or `until` is set). A run without
    // `until` ends once only such retries remain.
    const bool runs_on = next.has_value() || until_.has_value();
    if (timer && (runs_on || !scheduler_.quiescent()) && (!next || *timer < *next)) next = timer;
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
  bool changes = false;
  while (auto entry = event_queue_.pop_at<CheckExpectation>(now_, /*except=*/true)) {
    changes = true;
    dispatch(entry->event);
  }
  if (timer && *timer <= now_) scheduler_.on_timer(now_);
  disruption_.refresh();
  {
    // The Service, ReplicaSet and StatefulSet listers PodTopologySpread's default constraints
    // read (helper.DefaultSelector).
    ClusterState::SelectorMap selectors;
    for (const auto& [key, rs] : api_.replicasets) selectors.emplace(key, rs.selector);
    cluster_.set_replica_set_selectors(std::move(selectors));
    ClusterState::SelectorMap set_selectors;
    for (const auto& [key, ss] : api_.statefulsets) set_selectors.emplace(key, ss.selector);
    cluster_.set_stateful_set_selectors(std::move(set_selectors));
    ClusterState::ServiceSelectors services;
    for (const auto& [key, service] : api_.services) {
      if (!service.selector.empty())
        services[service.metadata.namespace_].push_back(service.selector);
    }
    cluster_.set_service_selectors(std::move(services));
  }
  if (kueue_) kueue_->run();
  cluster_.pods().settle_when_grown();
  const std::size_t cycles = scheduler_.run(now_);
  sync_permit_timeout();
  count_idle_retries(!changes && scheduler_.quiescent(), cycles);
  if (invariants_) invariants_->check(cluster_, kubelets_, now_);
  while (auto entry = event_queue_.pop_at<CheckExpectation>(now_)) dispatch(entry->event);
  return true;
}

SimulationResult Simulation::finish() {
  while (step()) {
  }
  // Expectations after the last change see the final state, at their own time.
  if (until_) now_ = std::max(now_, *until_);
  for (const EventQueue::Entry& entry : event_queue_.entries()) {
    const auto* expect = std::get_if<CheckExpectation>(&entry.event);
    if (expect != nullptr && (!until_ || entry.time <= *until_))
      expectation_results_[expect->index] = check(expect->index);
  }
  for (std::size_t i = 0; i < scenario_.expect.size(); ++i) {
    if (!expectation_results_[i]) expectation_results_[i] = check(i);
  }
  if (invariants_) {
    invariants_->check_all(cluster_, kubelets_, now_);
    api_.check_owned_index();
  }
  return take_result();
}

SimulationResult Simulation::run() {
  start();
  return finish();
}

}  // namespace gpusched::sim
