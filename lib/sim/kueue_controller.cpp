#include "sim/kueue_controller.hpp"

#include <algorithm>
#include <limits>

#include "gpusched/error.hpp"
#include "kueue/workload_name.hpp"
#include "kueue/workload_status.hpp"

namespace gpusched::sim {

namespace {

// Cycles at one instant before the replay stops with an internal error: each cycle that changes
// something admits a workload or moves one to the inadmissible list, so a run needs at most a
// few per workload.
constexpr int kMaxCyclesPerInstant = 1'000'000;

std::optional<std::string> label(const ObjectMeta& meta, std::string_view key) {
  auto it = meta.labels->find(key);
  if (it == meta.labels->end()) return std::nullopt;
  return it->second;
}

}  // namespace

KueueController::KueueController(ControllerContext& context, KueueConfiguration config)
    : context_(context), config_(std::move(config)), scheduler_(state_, *this, oracle_) {
  ApiServer& api = context_.api();
  state_.workloads = &api.kueue.workloads;
  state_.cache = &cache_;
  state_.queues = &queues_;
  state_.flavors = &api.kueue.resource_flavors;
  state_.config = &config_;
  state_.namespace_labels = [&api](const std::string& ns) -> std::optional<Labels> {
    return api.cluster().namespace_labels(ns);
  };
}

bool KueueController::manages(const Job& job) const {
  return label(job.metadata, kueue::kQueueLabel).has_value() ||
         config_.manage_jobs_without_queue_name;
}

void KueueController::default_job(Job& job) const {
  if (manages(job)) job.suspend = true;
}

void KueueController::run() {
  // Everything again after the queue objects or the scenario's Kueue objects changed; else what
  // changed since the last run.
  const bool rebuilt = sync_queue_objects();
  const std::uint64_t changes = context_.api().kueue.scenario_changes;
  const bool all = rebuilt || seen_scenario_changes_ != changes;
  seen_scenario_changes_ = changes;
  if (all) {
    unchecked_.clear();
    for (const auto& [key, wl] : context_.api().kueue.workloads) {
      if (kueue::is_admitted(wl) && !kueue::is_finished(wl)) watch_readiness(key, wl);
    }
  }
  reconcile_jobs(all);
  reconcile_pending(all);
  const TimeMs now = context_.now();
  int cycles = 0;
  while (scheduler_.schedule(now)) {
    GPUSCHED_CHECK(++cycles < kMaxCyclesPerInstant, "Kueue's admission cycles did not settle");
  }
  std::vector<std::string> starting;
  starting.swap(to_start_);
  for (const std::string& key : starting) start_job(key);
  check_pods_ready();
}

bool KueueController::sync_queue_objects() {
  const ApiServer& api = context_.api();
  if (built_ && built_cqs_ == api.kueue.cluster_queues && built_cohorts_ == api.kueue.cohorts &&
      built_flavors_ == api.kueue.resource_flavors && built_lqs_ == api.kueue.local_queues)
    return false;
  // A ClusterQueue keeps its generation while its quotas stay as they were
  // (AllocatableResourceGeneration), so that flavor scans in progress stay valid.
  std::map<std::string, std::int64_t> generations;
  for (const auto& [name, cq] : cache_.cluster_queues()) {
    auto it = built_cqs_.find(name);
    auto now = api.kueue.cluster_queues.find(name);
    const bool same = it != built_cqs_.end() && now != api.kueue.cluster_queues.end() &&
                      it->second.resource_groups == now->second.resource_groups;
    generations[name] = cq->allocatable_generation + (same ? 0 : 1);
  }
  cache_ = kueue::QuotaTree::build(api.kueue.cluster_queues, api.kueue.cohorts);
  for (const auto& [name, cq] : cache_.cluster_queues()) {
    if (auto it = generations.find(name); it != generations.end())
      cq->allocatable_generation = it->second;
  }
  for (const auto& [key, wl] : api.kueue.workloads) {
    if (!kueue::has_quota_reservation(wl) || kueue::is_finished(wl)) continue;
    kueue::ClusterQueueNode* cq = cache_.cluster_queue(wl.admission->cluster_queue);
    if (cq == nullptr) continue;
    cq->add_usage(kueue::make_info(wl, key).usage());
    cq->workloads.insert(key);
    if (!open_span_.contains(key)) {
      const kueue::Condition* reserved =
          kueue::find_condition(wl.conditions, kueue::kQuotaReserved);
      open_span(key, wl, wl.metadata.creation_ms).reserved =
          reserved != nullptr ? reserved->last_transition_time : context_.now();
    }
  }
  // The ClusterQueues that cannot admit (ClusterQueue status Active=False): stopped, or naming
  // a flavor that does not exist.
  state_.inactive.clear();
  for (const auto& [name, cq] : api.kueue.cluster_queues) {
    bool active = cq.stop_policy == kueue::StopPolicy::None;
    for (const kueue::ResourceGroup& group : cq.resource_groups) {
      for (const kueue::FlavorQuotas& flavor : group.flavors) {
        if (!api.kueue.resource_flavors.contains(flavor.name)) active = false;
      }
    }
    if (!active) state_.inactive.insert(name);
  }
  for (const auto& [name, cq] : built_cqs_) {
    if (!api.kueue.cluster_queues.contains(name)) queues_.delete_cluster_queue(name);
  }
  for (const auto& [name, cq] : api.kueue.cluster_queues)
    queues_.set_cluster_queue(name, cq.queueing_strategy);
  for (const auto& [key, lq] : built_lqs_) {
    if (!api.kueue.local_queues.contains(key)) queues_.delete_local_queue(key);
  }
  for (const auto& [key, lq] : api.kueue.local_queues)
    queues_.set_local_queue(key, lq.cluster_queue);
  built_cqs_ = api.kueue.cluster_queues;
  built_cohorts_ = api.kueue.cohorts;
  built_flavors_ = api.kueue.resource_flavors;
  built_lqs_ = api.kueue.local_queues;
  built_ = true;
  // The queue handlers requeue every inadmissible workload after such a change.
  std::set<std::string> all;
  for (const auto& [name, cq] : api.kueue.cluster_queues) all.insert(name);
  queues_.queue_inadmissible(all, [this](const std::string& k) { return backoff_expired(k); });
  return true;
}

bool KueueController::backoff_expired(const std::string& key) const {
  auto it = context_.api().kueue.workloads.find(key);
  return it == context_.api().kueue.workloads.end() ||
         scheduler_.queued(key, it->second, context_.now()).backoff_expired;
}

void KueueController::reconcile_jobs(bool all) {
  ApiServer& api = context_.api();
  const std::set<std::string> changed = api.take_changed_jobs();
  std::vector<std::string> orphaned;
  if (all) {
    unlinked_ = 0;
    for (const auto& [key, wl] : api.kueue.workloads)
      unlinked_ += job_of_workload_.contains(key) ? 0 : 1;
    for (const auto& [key, state] : api.jobs) reconcile_job(key, state);
    for (const auto& [job_key, wl_key] : workload_of_job_) {
      if (!api.jobs.contains(job_key)) orphaned.push_back(job_key);
    }
  } else {
    for (const std::string& key : changed) {
      if (auto it = api.jobs.find(key); it != api.jobs.end()) reconcile_job(key, it->second);
    }
    for (const std::string& key : changed) {
      if (workload_of_job_.contains(key) && !api.jobs.contains(key)) orphaned.push_back(key);
    }
  }
  // A Workload whose Job is gone is deleted with it (its owner reference).
  for (const std::string& job_key : orphaned) {
    const std::string wl_key = workload_of_job_.at(job_key);
    release(wl_key);
    api.kueue.workloads.erase(wl_key);
    job_of_workload_.erase(wl_key);
    workload_of_job_.erase(job_key);
  }
}

void KueueController::reconcile_job(const std::string& key, const JobState& state) {
  ApiServer& api = context_.api();
  if (!manages(state.job)) return;
  auto wl_key = workload_of_job_.find(key);
  if (wl_key == workload_of_job_.end()) {
    // A Workload the input already holds for the Job (a snapshot's) is the Job's: Kueue finds
    // it by its owner reference instead of creating another (jobframework ensureOneWorkload).
    if (auto owned = unlinked_ > 0 ? owned_workload(state.job) : std::nullopt) {
      workload_of_job_[key] = *owned;
      job_of_workload_[*owned] = key;
      --unlinked_;
    } else if (!state.complete) {
      create_workload(key, state.job);
    }
    return;
  }
  kueue::Workload& wl = api.kueue.workloads.at(wl_key->second);
  if (state.complete && !kueue::is_finished(wl)) {
    // jobframework step 3: the Job finished, so does its Workload (workloadfinish.Finish).
    const bool succeeded = !state.failed;
    kueue::set_condition(
        wl.conditions,
        kueue::Condition{std::string(kueue::kFinished), "True", succeeded ? "Succeeded" : "Failed",
                         succeeded ? "Reached expected number of succeeded pods"
                                   : "Job has reached the specified backoff limit",
                         context_.now(), wl.generation});
    context_.record_event("Job/" + key, "Normal", "FinishedWorkload",
                          "Workload '" + wl_key->second + "' is declared finished");
    release(wl_key->second);
  }
}

std::optional<std::string> KueueController::owned_workload(const Job& job) const {
  for (const auto& [key, wl] : context_.api().kueue.workloads) {
    if (wl.metadata.namespace_ != job.metadata.namespace_ || job_of_workload_.contains(key))
      continue;
    for (const OwnerReference& owner : *wl.metadata.owner_references) {
      if (owner.kind == "Job" && owner.name == job.metadata.name &&
          (owner.uid.empty() || owner.uid == job.metadata.uid))
        return key;
    }
  }
  return std::nullopt;
}

void KueueController::create_workload(const std::string& job_key, const Job& job) {
  ApiServer& api = context_.api();
  kueue::Workload wl;
  wl.metadata.namespace_ = job.metadata.namespace_;
  wl.metadata.name =
      kueue::workload_name_for_owner(job.metadata.name, job.metadata.uid, "Job", "batch");
  wl.metadata.uid = api.new_uid();
  wl.metadata.creation_ms = context_.now();
  wl.metadata.owner_references =
      std::vector<OwnerReference>{OwnerReference{"Job", job.metadata.name, job.metadata.uid, true}};
  kueue::PodSet ps;
  ps.name = std::string(kueue::kDefaultPodSetName);
  ps.template_ = job.template_;
  // podsCount: parallelism, capped by completions.
  ps.count = job.completions ? std::min(job.parallelism, *job.completions) : job.parallelism;
  wl.pod_sets.push_back(std::move(ps));
  wl.queue_name = label(job.metadata, kueue::kQueueLabel).value_or("");
  // jobframework's priority: a WorkloadPriorityClass named by label, else the pods'
  // PriorityClass, else the global default PriorityClass with the lowest value, else 0.
  if (auto wpc = label(job.metadata, kueue::kPriorityClassLabel);
      wpc && api.kueue.workload_priority_classes.contains(*wpc)) {
    wl.priority_class_name = *wpc;
    wl.priority_class_source = "kueue.x-k8s.io/workloadpriorityclass";
    wl.priority = api.kueue.workload_priority_classes.at(*wpc).value;
  } else {
    const std::string& name = job.template_.spec.priority_class_name;
    const PriorityClass* chosen = nullptr;
    for (const PriorityClass& pc : api.priority_classes) {
      if (name.empty() ? pc.global_default && (chosen == nullptr || pc.value < chosen->value)
                       : pc.metadata.name == name)
        chosen = &pc;
    }
    if (chosen != nullptr) {
      wl.priority_class_name = chosen->metadata.name;
      wl.priority_class_source = "scheduling.k8s.io/priorityclass";
      wl.priority = chosen->value;
    }
  }
  const std::string wl_key = key_of(wl.metadata);
  api.kueue.workloads[wl_key] = std::move(wl);
  created_.insert(wl_key);
  workload_of_job_[job_key] = wl_key;
  job_of_workload_[wl_key] = job_key;
  context_.record_event("Job/" + job_key, "Normal", "CreatedWorkload",
                        "Created Workload: " + wl_key);
}

void KueueController::reconcile_pending(bool all) {
  ApiServer& api = context_.api();
  const TimeMs now = context_.now();
  std::vector<std::pair<const std::string, kueue::Workload>*> visit;
  if (all) {
    blocked_.clear();
    for (auto& entry : api.kueue.workloads) visit.push_back(&entry);
  } else {
    std::set<std::string> keys;
    keys.swap(blocked_);
    keys.insert(created_.begin(), created_.end());
    for (const std::string& key : keys) {
      if (auto it = api.kueue.workloads.find(key); it != api.kueue.workloads.end())
        visit.push_back(&*it);
    }
  }
  created_.clear();
  for (auto* entry : visit) {
    const std::string& key = entry->first;
    kueue::Workload& wl = entry->second;
    if (kueue::is_finished(wl) || kueue::has_quota_reservation(wl)) continue;
    // getQueueBlocker, with UnadmittedWorkloadsObservability off: reason Inadmissible.
    const std::string lq_key = kueue::local_queue_key(wl);
    std::string blocker;
    auto lq = api.kueue.local_queues.find(lq_key);
    if (lq == api.kueue.local_queues.end()) {
      blocker = "LocalQueue " + wl.queue_name + " doesn't exist";
    } else if (lq->second.stop_policy != kueue::StopPolicy::None) {
      blocker = "LocalQueue " + wl.queue_name + " is inactive";
    } else if (!api.kueue.cluster_queues.contains(lq->second.cluster_queue)) {
      blocker = "ClusterQueue " + lq->second.cluster_queue + " doesn't exist";
    } else if (state_.inactive.contains(lq->second.cluster_queue)) {
      blocker = "ClusterQueue " + lq->second.cluster_queue + " is inactive";
    }
    if (!blocker.empty()) {
      kueue::unset_quota_reservation(wl, "Inadmissible", blocker, now);
      queues_.remove(key);
      blocked_.insert(key);
      continue;
    }
    open_span(key, wl, wl.metadata.creation_ms);
    if (!queues_.queued(key)) queues_.add_or_update(lq_key, scheduler_.queued(key, wl, now));
  }
}

void KueueController::release(const std::string& key) {
  ApiServer& api = context_.api();
  auto it = api.kueue.workloads.find(key);
  if (it == api.kueue.workloads.end()) return;
  queues_.remove(key);
  if (auto span = open_span_.find(key); span != open_span_.end()) {
    spans_[span->second].released = context_.now();
    open_span_.erase(span);
  }
  const kueue::Workload& wl = it->second;
  if (!wl.admission) return;
  kueue::ClusterQueueNode* cq = cache_.cluster_queue(wl.admission->cluster_queue);
  if (cq == nullptr || !cq->workloads.contains(key)) return;
  cq->remove_usage(kueue::make_info(wl, key).usage());
  cq->workloads.erase(key);
  queues_.queue_inadmissible(cohort_members(cq->name),
                             [this](const std::string& k) { return backoff_expired(k); });
}

std::set<std::string> KueueController::cohort_members(const std::string& cluster_queue) const {
  const kueue::ClusterQueueNode* cq = cache_.cluster_queue(cluster_queue);
  if (cq == nullptr || cq->parent == nullptr) return {cluster_queue};
  std::set<std::string> out;
  std::vector<const kueue::CohortNode*> stack{&cq->parent->root()};
  while (!stack.empty()) {
    const kueue::CohortNode* node = stack.back();
    stack.pop_back();
    for (const kueue::ClusterQueueNode* child : node->child_cqs) out.insert(child->name);
    for (const kueue::CohortNode* child : node->child_cohorts) stack.push_back(child);
  }
  return out;
}

void KueueController::workload_event(const std::string& key, std::string_view type,
                                     std::string_view reason, std::string message) {
  context_.record_event("Workload/" + key, type, reason, std::move(message));
}

void KueueController::admitted(const std::string& key) {
  const kueue::Workload& wl = context_.api().kueue.workloads.at(key);
  QuotaSpan& span = open_span(key, wl, wl.metadata.creation_ms);
  span.reserved = context_.now();
  span.cluster_queue = wl.admission->cluster_queue;
  span.usage.clear();
  for (const auto& [fr, amount] : kueue::make_info(wl, key).usage())
    span.usage[fr.flavor][fr.resource] = kueue::amount_quantity(fr.resource, amount);
  to_start_.push_back(key);
  watch_readiness(key, wl);
}

void KueueController::watch_readiness(const std::string& key, const kueue::Workload& wl) {
  const kueue::Condition* admitted_cond = kueue::find_condition(wl.conditions, kueue::kAdmitted);
  const TimeMs since = admitted_cond != nullptr ? admitted_cond->last_transition_time : 0;
  const TimeMs timeout = config_.wait_for_pods_ready.timeout_ms;
  const TimeMs due = timeout > 0 && since > std::numeric_limits<TimeMs>::max() - timeout
                         ? std::numeric_limits<TimeMs>::max()
                         : since + timeout;
  unchecked_.emplace(due, key);
}

QuotaSpan& KueueController::open_span(const std::string& key, const kueue::Workload& wl,
                                      TimeMs queued) {
  if (auto it = open_span_.find(key); it != open_span_.end()) return spans_[it->second];
  QuotaSpan span;
  span.workload = key;
  span.local_queue = kueue::local_queue_key(wl);
  if (wl.admission) {
    span.cluster_queue = wl.admission->cluster_queue;
  } else if (auto lq = context_.api().kueue.local_queues.find(span.local_queue);
             lq != context_.api().kueue.local_queues.end()) {
    span.cluster_queue = lq->second.cluster_queue;
  }
  span.queued = queued;
  if (wl.admission) {
    for (const auto& [fr, amount] : kueue::make_info(wl, key).usage())
      span.usage[fr.flavor][fr.resource] = kueue::amount_quantity(fr.resource, amount);
  }
  open_span_[key] = spans_.size();
  spans_.push_back(std::move(span));
  return spans_.back();
}

void KueueController::needs_preemption(const std::string& key, const std::string& cluster_queue) {
  if (!noticed_.insert("preempt " + key).second) return;
  notices_.push_back("Workload " + key + " can only be admitted by preempting in ClusterQueue " +
                     cluster_queue +
                     ", whose spec.preemption allows it; Kueue's preemption is not modelled yet, "
                     "so gpusched leaves it pending");
}

void KueueController::check_pods_ready() {
  const ApiServer& api = context_.api();
  const TimeMs now = context_.now();
  // Those due by now, in key order: the others are not checked yet.
  std::set<std::string> due;
  while (!unchecked_.empty() && unchecked_.begin()->first <= now) {
    due.insert(unchecked_.begin()->second);
    unchecked_.erase(unchecked_.begin());
  }
  for (const std::string& key : due) {
    auto found = api.kueue.workloads.find(key);
    if (found == api.kueue.workloads.end() || !kueue::is_admitted(found->second) ||
        kueue::is_finished(found->second) || noticed_.contains("ready " + key))
      continue;
    const kueue::Workload& wl = found->second;
    const kueue::Condition* admitted_cond = kueue::find_condition(wl.conditions, kueue::kAdmitted);
    auto job_key = job_of_workload_.find(key);
    auto job = job_key == job_of_workload_.end() ? api.jobs.end() : api.jobs.find(job_key->second);
    if (now - admitted_cond->last_transition_time < config_.wait_for_pods_ready.timeout_ms ||
        job == api.jobs.end()) {
      // Admitted again since, or without its Job yet: checked again when due.
      watch_readiness(key, wl);
      continue;
    }
    // Job.PodsReady: succeeded plus ready (Running: gpusched has no readiness probes) pods
    // reach the pod set's count.
    std::int32_t ready = job->second.succeeded;
    for (const PodInfo* pod : api.owned_pods(job->second.job.metadata.uid)) {
      if (pod->pod.status.phase == PodPhase::Running && !pod->pod.metadata.deletion_ms) ++ready;
    }
    // Checked once: ready by the timeout, Kueue no longer times it out (a later pod failure's
    // recovery timeout is not modelled).
    noticed_.insert("ready " + key);
    if (ready >= wl.pod_sets.front().count) continue;
    notices_.push_back("Workload " + key + ": its pods were not all ready " +
                       format_duration(config_.wait_for_pods_ready.timeout_ms) +
                       " after its admission; Kueue's waitForPodsReady would evict and requeue it, "
                       "which gpusched does not model yet");
  }
}

void KueueController::start_job(const std::string& key) {
  ApiServer& api = context_.api();
  auto job_key = job_of_workload_.find(key);
  auto wl = api.kueue.workloads.find(key);
  if (job_key == job_of_workload_.end() || wl == api.kueue.workloads.end() || !wl->second.admission)
    return;
  auto job = api.jobs.find(job_key->second);
  if (job == api.jobs.end()) return;
  // podset.FromAssignment then Merge: the flavors' node labels join the template's node
  // selector and their tolerations its tolerations.
  PodSpec& spec = job->second.job.template_.spec;
  std::set<std::string> flavors;
  for (const kueue::PodSetAssignment& psa : wl->second.admission->pod_set_assignments) {
    for (const auto& [resource, flavor] : psa.flavors) flavors.insert(flavor);
  }
  for (const std::string& name : flavors) {
    auto flavor = api.kueue.resource_flavors.find(name);
    if (flavor == api.kueue.resource_flavors.end()) continue;
    for (const auto& [k, v] : *flavor->second.node_labels) spec.node_selector[k] = v;
    for (const Toleration& t : flavor->second.tolerations) {
      if (std::find(spec.tolerations->begin(), spec.tolerations->end(), t) ==
          spec.tolerations->end())
        spec.tolerations.push_back(t);
    }
  }
  job->second.job.suspend = false;
  context_.record_event("Job/" + job_key->second, "Normal", "Started",
                        "Admitted by clusterQueue " + wl->second.admission->cluster_queue);
  context_.controllers().sync("Job", job_key->second);
}

std::vector<WorkloadRecord> KueueController::workload_records() const {
  std::vector<WorkloadRecord> out;
  const ApiServer& api = context_.api();
  for (const auto& [key, wl] : api.kueue.workloads) {
    WorkloadRecord rec;
    rec.namespace_ = wl.metadata.namespace_;
    rec.name = wl.metadata.name;
    rec.queue_name = wl.queue_name;
    if (wl.admission) {
      rec.cluster_queue = wl.admission->cluster_queue;
    } else if (auto lq = api.kueue.local_queues.find(kueue::local_queue_key(wl));
               lq != api.kueue.local_queues.end()) {
      rec.cluster_queue = lq->second.cluster_queue;
    }
    if (auto job = job_of_workload_.find(key); job != job_of_workload_.end())
      rec.owner = "Job/" + job->second;
    rec.priority = wl.priority;
    rec.admitted = kueue::is_admitted(wl);
    if (const kueue::Condition* c = kueue::find_condition(wl.conditions, kueue::kAdmitted);
        c != nullptr && c->status == "True")
      rec.admitted_at = c->last_transition_time;
    if (wl.admission) {
      for (const kueue::PodSetAssignment& psa : wl.admission->pod_set_assignments)
        rec.flavors[psa.name] = psa.flavors;
    }
    rec.conditions = wl.conditions;
    out.push_back(std::move(rec));
  }
  return out;
}

std::vector<ClusterQueueRecord> KueueController::cluster_queue_records() const {
  std::vector<ClusterQueueRecord> out;
  const ApiServer& api = context_.api();
  for (const auto& [name, cq] : api.kueue.cluster_queues) {
    ClusterQueueRecord rec;
    rec.name = name;
    if (!cq.cohort_name.empty()) rec.cohort = cq.cohort_name;
    const kueue::ClusterQueueNode* node = cache_.cluster_queue(name);
    for (const kueue::ResourceGroup& group : cq.resource_groups) {
      for (const kueue::FlavorQuotas& flavor : group.flavors) {
        for (const std::string& resource : group.covered_resources) {
          const kueue::Amount used =
              node != nullptr ? node->resources.used({flavor.name, resource}) : kueue::Amount();
          rec.usage[flavor.name][resource] = kueue::amount_quantity(resource, used);
        }
      }
    }
    rec.pending_workloads = queues_.pending(name);
    for (const auto& [key, wl] : api.kueue.workloads) {
      if (!wl.admission || wl.admission->cluster_queue != name || kueue::is_finished(wl)) continue;
      if (kueue::has_quota_reservation(wl)) ++rec.reserving_workloads;
      if (kueue::is_admitted(wl)) ++rec.admitted_workloads;
    }
    out.push_back(std::move(rec));
  }
  return out;
}

}  // namespace gpusched::sim
