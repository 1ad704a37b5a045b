#include "sim/kueue_controller.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

#include "gpusched/error.hpp"
#include "gpusched/model/validation.hpp"
#include "kueue/fair_sharing.hpp"
#include "kueue/ordering.hpp"
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

// provisioning.ProvisioningRequestName for the one attempt gpusched makes (its cluster
// autoscaler never fails a request, so there is no retry).
std::string provisioning_request_name(const kueue::Workload& wl, const std::string& check) {
  return wl.metadata.name + "-" + check + "-1";
}

}  // namespace

KueueController::KueueController(ControllerContext& context, KueueConfiguration config)
    : context_(context), config_(std::move(config)), scheduler_(state_, *this) {
  ApiServer& api = context_.api();
  state_.workloads = &api.kueue.workloads;
  state_.cache = &cache_;
  state_.queues = &queues_;
  state_.flavors = &api.kueue.resource_flavors;
  state_.cluster_queues = &api.kueue.cluster_queues;
  state_.config = &config_;
  state_.namespace_labels = [&api](const std::string& ns) -> std::optional<Labels> {
    return api.cluster().namespace_labels(ns);
  };
}

bool KueueController::manages(const Job& job) const {
  return config_.enabled("batch/job") && (label(job.metadata, kueue::kQueueLabel).has_value() ||
                                          config_.manage_jobs_without_queue_name);
}

void KueueController::default_job(Job& job) const {
  if (manages(job)) job.suspend = true;
}

void KueueController::run() {
  // Everything again after the queue objects or the scenario's Kueue objects changed; else what
  // changed since the last run.
  const std::uint64_t changes = context_.api().kueue.scenario_changes;
  bool all = seen_scenario_changes_ != changes;
  seen_scenario_changes_ = changes;
  if (all) forget_deleted_workloads();
  all = sync_queue_objects() || all;
  if (all) {
    unchecked_.clear();
    for (auto& [key, wl] : context_.api().kueue.workloads) {
      if (kueue::is_finished(wl) || !kueue::has_quota_reservation(wl)) continue;
      if (kueue::condition_true(wl.conditions, kueue::kEvicted)) {
        // Evicted before (a snapshot's): the Job reconciler finishes the eviction.
        evicted_.insert(key);
      } else if (!wl.active) {
        // The workload controller's inactive branch: a deactivated workload is evicted.
        evict(key, wl, "Deactivated", "The workload is deactivated");
      } else if (!reconcile_queue_state(key, wl)) {
        if (kueue::is_admitted(wl)) {
          watch_readiness_at(key, context_.now(), 0);  // looked at in this run
        } else {
          awaiting_checks_.insert(key);
        }
      }
    }
  }
  reconcile_jobs(all);
  reconcile_pods();
  reconcile_not_ready_timeout();
  handle_evictions();
  reconcile_pending(all);
  const TimeMs now = context_.now();
  int cycles = 0;
  for (;;) {
    bool changed = scheduler_.schedule(now);
    // Kueue's controllers act on the evictions between cycles: the released quota and the
    // requeued workloads count for the next one.
    if (handle_evictions()) {
      reconcile_pending(false);
      changed = true;
    }
    if (!changed) break;
    GPUSCHED_CHECK(++cycles < kMaxCyclesPerInstant, "Kueue's admission cycles did not settle");
  }
  reconcile_admission_checks();
  std::vector<std::string> starting;
  starting.swap(to_start_);
  for (const std::string& key : starting) start_job(key);
}

void KueueController::forget_deleted_workloads() {
  const auto& workloads = context_.api().kueue.workloads;
  std::vector<std::string> gone;
  for (const auto& [wl_key, job_key] : job_of_workload_) {
    if (!workloads.contains(wl_key)) gone.push_back(wl_key);
  }
  for (const std::string& key : gone) {
    workload_of_job_.erase(job_of_workload_.at(key));
    job_of_workload_.erase(key);
  }
  gone.clear();
  for (const auto& [wl_key, owner_key] : pods_of_workload_) {
    if (!workloads.contains(wl_key)) gone.push_back(wl_key);
  }
  for (const std::string& key : gone) {
    workload_of_pods_.erase(pods_of_workload_.at(key));
    pods_of_workload_.erase(key);
  }
  gone.clear();
  for (const auto& [key, index] : open_span_) {
    if (!workloads.contains(key)) gone.push_back(key);
  }
  std::sort(gone.begin(), gone.end());
  for (const std::string& key : gone) {
    spans_[open_span_.at(key)].released = context_.now();
    open_span_.erase(key);
    queues_.remove(key);
    evicted_.erase(key);
  }
  // The quota a deleted workload held leaves the cache, which is rebuilt from those left.
  for (const auto& [name, cq] : cache_.cluster_queues()) {
    for (const std::string& key : cq->workloads) {
      if (workloads.contains(key)) continue;
      built_ = false;
      notices_.push_back("Workload " + key + " was deleted while it held quota in ClusterQueue " +
                         name +
                         ": gpusched releases its quota at once, while Kueue's resource-in-use "
                         "finalizer may keep it until its pods are gone");
    }
  }
}

bool KueueController::sync_queue_objects() {
  const ApiServer& api = context_.api();
  if (built_ && built_cqs_ == api.kueue.cluster_queues && built_cohorts_ == api.kueue.cohorts &&
      built_flavors_ == api.kueue.resource_flavors && built_lqs_ == api.kueue.local_queues &&
      built_checks_ == api.kueue.admission_checks &&
      built_configs_ == api.kueue.provisioning_request_configs)
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
  // The ClusterQueues that cannot admit (ClusterQueue status Active=False): stopped, naming a
  // flavor that does not exist, or an AdmissionCheck that does not exist or is not Active
  // (cache/scheduler/clusterqueue.go updateWithAdmissionChecks). A ProvisioningRequest check is
  // Active when its parameters name a ProvisioningRequestConfig (admissioncheck_reconciler.go);
  // no controller of the replay marks any other check Active.
  state_.inactive.clear();
  for (const auto& [name, cq] : api.kueue.cluster_queues) {
    bool active = cq.stop_policy == kueue::StopPolicy::None;
    for (const kueue::ResourceGroup& group : cq.resource_groups) {
      for (const kueue::FlavorQuotas& flavor : group.flavors) {
        if (!api.kueue.resource_flavors.contains(flavor.name)) active = false;
      }
    }
    for (const kueue::ClusterQueue::AdmissionCheckRule& rule : cq.admission_checks) {
      auto check = api.kueue.admission_checks.find(rule.name);
      if (check == api.kueue.admission_checks.end()) {
        active = false;
      } else if (check->second.controller_name != kueue::kProvisioningRequestController) {
        active = false;
        if (noticed_.insert("check " + name + "/" + rule.name).second) {
          notices_.push_back("ClusterQueue " + name + " references AdmissionCheck " + rule.name +
                             " of controller " + check->second.controller_name +
                             ", which gpusched does not model: nothing marks the check Active, "
                             "so the ClusterQueue is inactive (\"references inactive "
                             "AdmissionCheck(s): " +
                             rule.name + "\") and admits no workload");
        }
      } else if (provisioning_config(check->second) == nullptr) {
        active = false;
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
  built_checks_ = api.kueue.admission_checks;
  built_configs_ = api.kueue.provisioning_request_configs;
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
    std::sort(orphaned.begin(), orphaned.end());
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
      return;
    }
    // handleJobWithNoWorkload: a Job whose Workload was deleted gets a new one once it has no
    // active pod; until then it runs as it is.
    if (!state.complete && !job_active(state.job)) create_workload(key, state.job);
    return;
  }
  kueue::Workload& wl = api.kueue.workloads.at(wl_key->second);
  if (state.complete && !kueue::is_finished(wl)) {
    // jobframework step 3: the Job finished, so does its Workload.
    const bool succeeded = !state.failed;
    finish_workload(wl_key->second, wl, succeeded,
                    succeeded ? "Reached expected number of succeeded pods"
                              : "Job has reached the specified backoff limit",
                    "Job/" + key);
    return;
  }
  // Job.PodsReady: succeeded plus ready pods (Running: gpusched has no readiness probes) reach
  // the pod set's count. They became ready when the last of them started, which may be before
  // this instant (pods start after Kueue runs at their instant).
  if (wl.pod_sets.empty()) return;
  std::int32_t ready = state.succeeded;
  std::optional<TimeMs> ready_since;
  for (const PodInfo* pod : api.owned_pods(state.job.metadata.uid)) {
    if (pod->pod.status.phase != PodPhase::Running || pod->pod.metadata.deletion_ms) continue;
    ++ready;
    const TimeMs started = pod->pod.status.start_ms.value_or(context_.now());
    ready_since = ready_since ? std::max(*ready_since, started) : started;
  }
  sync_pods_ready(wl_key->second, wl, ready >= wl.pod_sets.front().count, ready_since);
}

void KueueController::finish_workload(const std::string& wl_key, kueue::Workload& wl,
                                      bool succeeded, std::string message,
                                      const std::string& event_object) {
  // workloadfinish.Finish: Finished=True, Succeeded or Failed; then the FinishedWorkload event.
  kueue::set_condition(
      wl.conditions,
      kueue::Condition{std::string(kueue::kFinished), "True", succeeded ? "Succeeded" : "Failed",
                       std::move(message), context_.now(), wl.generation});
  context_.record_series_event(event_object, "Normal", "FinishedWorkload",
                               "Workload '" + wl_key + "' is declared finished");
  release(wl_key);
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
  // constructWorkload: the Job's UID as a label, when it is a valid label value.
  if (job.metadata.uid.size() <= 63 && matches_label_value(job.metadata.uid))
    wl.metadata.labels[std::string(kueue::kJobUidLabel)] = job.metadata.uid;
  kueue::PodSet ps;
  ps.name = std::string(kueue::kDefaultPodSetName);
  ps.template_ = job.template_;
  // podsCount: parallelism, capped by completions.
  ps.count = job.completions ? std::min(job.parallelism, *job.completions) : job.parallelism;
  wl.pod_sets.push_back(std::move(ps));
  const std::string wl_key = key_of(wl.metadata);
  add_workload(std::move(wl), job.metadata, job.template_.spec.priority_class_name,
               "Job/" + job_key);
  workload_of_job_[job_key] = wl_key;
  job_of_workload_[wl_key] = job_key;
}

void KueueController::add_workload(kueue::Workload wl, const ObjectMeta& owner_meta,
                                   const std::string& priority_class_name,
                                   const std::string& event_object) {
  ApiServer& api = context_.api();
  wl.queue_name = label(owner_meta, kueue::kQueueLabel).value_or("");
  // jobframework's priority: a WorkloadPriorityClass named by label, else the pods'
  // PriorityClass, else the global default PriorityClass with the lowest value, else 0.
  if (auto wpc = label(owner_meta, kueue::kPriorityClassLabel);
      wpc && api.kueue.workload_priority_classes.contains(*wpc)) {
    wl.priority_class_name = *wpc;
    wl.priority_class_source = "kueue.x-k8s.io/workloadpriorityclass";
    wl.priority = api.kueue.workload_priority_classes.at(*wpc).value;
  } else {
    const std::string& name = priority_class_name;
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
  context_.record_series_event(event_object, "Normal", "CreatedWorkload",
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
    // Backoffs over by now.
    while (!backoffs_.empty() && backoffs_.begin()->first <= now) {
      keys.insert(backoffs_.begin()->second);
      backoffs_.erase(backoffs_.begin());
    }
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
    // A deactivated workload (spec.active false) is not queued.
    if (!wl.active) {
      queues_.remove(key);
      continue;
    }
    end_backoff(key, wl);
    requeue_if_restarted(key, wl);
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
    // reconcileSyncAdmissionChecks: before its admission, the checks on every flavor of its
    // ClusterQueue, Pending.
    if (auto cq = lq == api.kueue.local_queues.end()
                      ? api.kueue.cluster_queues.end()
                      : api.kueue.cluster_queues.find(lq->second.cluster_queue);
        cq != api.kueue.cluster_queues.end())
      kueue::sync_check_states(wl, kueue::admission_checks_for(cq->second, wl), now);
    if (!blocker.empty()) {
      kueue::unset_quota_reservation(wl, "Inadmissible", blocker, now);
      queues_.remove(key);
      blocked_.insert(key);
      continue;
    }
    open_span(key, wl, kueue::queued_since(wl));
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
  context_.record_series_event("Workload/" + key, type, reason, std::move(message));
}

void KueueController::admitted(const std::string& key) {
  const kueue::Workload& wl = context_.api().kueue.workloads.at(key);
  QuotaSpan& span = open_span(key, wl, kueue::queued_since(wl));
  // Kueue's wait metrics and the QuotaReserved event count from the last Requeued transition: a
  // backoff's end (BackoffFinished), not the eviction that started it.
  span.queued = kueue::queued_since(wl);
  span.reserved = context_.now();
  span.cluster_queue = wl.admission->cluster_queue;
  span.usage.clear();
  for (const auto& [fr, amount] : kueue::make_info(wl, key).usage())
    span.usage[fr.flavor][fr.resource] = kueue::amount_quantity(fr.resource, amount);
  if (kueue::is_admitted(wl)) {
    start_admitted(key, wl);
  } else {
    awaiting_checks_.insert(key);
  }
}

void KueueController::start_admitted(const std::string& key, const kueue::Workload& wl) {
  to_start_.push_back(key);
  watch_readiness(key, wl);
}

const kueue::ProvisioningRequestConfig* KueueController::provisioning_config(
    const kueue::AdmissionCheck& check) const {
  if (check.parameters_api_group != "kueue.x-k8s.io" ||
      check.parameters_kind != "ProvisioningRequestConfig")
    return nullptr;
  const auto& configs = context_.api().kueue.provisioning_request_configs;
  auto it = configs.find(check.parameters_name);
  return it == configs.end() ? nullptr : &it->second;
}

void KueueController::delete_unused_provisioning_requests() {
  ApiServer& api = context_.api();
  std::erase_if(api.kueue.provisioning_requests, [&](const auto& entry) {
    auto wl = api.kueue.workloads.find(entry.second.workload);
    return wl == api.kueue.workloads.end() || kueue::is_finished(wl->second) ||
           kueue::condition_true(wl->second.conditions, kueue::kEvicted);
  });
}

void KueueController::reconcile_admission_checks() {
  ApiServer& api = context_.api();
  const TimeMs now = context_.now();
  std::vector<std::string> done;
  for (const std::string& key : awaiting_checks_) {
    auto found = api.kueue.workloads.find(key);
    if (found == api.kueue.workloads.end()) {
      done.push_back(key);
      continue;
    }
    kueue::Workload& wl = found->second;
    if (!kueue::has_quota_reservation(wl) || !wl.admission || kueue::is_finished(wl) ||
        kueue::is_admitted(wl) || kueue::condition_true(wl.conditions, kueue::kEvicted)) {
      done.push_back(key);
      continue;
    }
    // reconcileSyncAdmissionChecks: the checks of its admission (a snapshot's workload may lack
    // them), then each check's controller.
    if (auto cq = api.kueue.cluster_queues.find(wl.admission->cluster_queue);
        cq != api.kueue.cluster_queues.end())
      kueue::sync_check_states(wl, kueue::admission_checks_for(cq->second, wl), now);
    std::vector<std::string> names;
    for (const kueue::AdmissionCheckState& state : wl.admission_checks) names.push_back(state.name);
    for (const std::string& name : names) {
      auto check = api.kueue.admission_checks.find(name);
      if (check != api.kueue.admission_checks.end() &&
          check->second.controller_name == kueue::kProvisioningRequestController)
        sync_provisioning_check(key, wl, check->second);
    }
    // The workload controller: SyncAdmittedCondition, and the Admitted event with the wait
    // since the quota reservation.
    if (!kueue::sync_admitted_condition(wl, now) || !kueue::is_admitted(wl)) continue;
    const kueue::Condition* reserved = kueue::find_condition(wl.conditions, kueue::kQuotaReserved);
    context_.record_series_event("Workload/" + key, "Normal", "Admitted",
                                 "Admitted by ClusterQueue " + wl.admission->cluster_queue +
                                     ", wait time since reservation was " +
                                     kueue::seconds_text(now - reserved->last_transition_time));
    start_admitted(key, wl);
    done.push_back(key);
  }
  for (const std::string& key : done) awaiting_checks_.erase(key);
}

void KueueController::sync_provisioning_check(const std::string& key, kueue::Workload& wl,
                                              const kueue::AdmissionCheck& check) {
  ApiServer& api = context_.api();
  const TimeMs now = context_.now();
  kueue::AdmissionCheckState next = *kueue::find_check(wl, check.metadata.name);
  const std::string before = next.state;
  const kueue::ProvisioningRequestConfig* config = provisioning_config(check);
  // reqIsNeeded: a pod set with pods that uses a managed resource (any, when none is listed).
  bool needed = false;
  if (config != nullptr) {
    for (const kueue::PodSet& ps : wl.pod_sets) {
      if (ps.count <= 0) continue;
      bool uses = config->managed_resources.empty();
      for (const auto* containers :
           {&ps.template_.spec.init_containers, &ps.template_.spec.containers}) {
        for (const Container& c : **containers) {
          for (const std::string& resource : config->managed_resources)
            uses = uses || c.requests.contains(resource) || c.limits.contains(resource);
        }
      }
      needed = needed || uses;
    }
  }
  if (config == nullptr) {
    next.state = std::string(kueue::kCheckPending);
    next.message = "the check is not active";  // CheckInactiveMessage
  } else if (!needed) {
    if (next.state != kueue::kCheckReady) {
      next.state = std::string(kueue::kCheckReady);
      next.message = "the provisioning request is not needed";  // NoRequestNeeded
    }
  } else {
    const std::string name = provisioning_request_name(wl, check.metadata.name);
    const std::string request_key = wl.metadata.namespace_ + "/" + name;
    auto request = api.kueue.provisioning_requests.find(request_key);
    if (request == api.kueue.provisioning_requests.end()) {
      kueue::ProvisioningRequest pr;
      pr.metadata.namespace_ = wl.metadata.namespace_;
      pr.metadata.name = name;
      pr.metadata.creation_ms = now;
      pr.metadata.labels["kueue.x-k8s.io/managed"] = "true";
      pr.provisioning_class_name = config->provisioning_class_name;
      pr.parameters = config->parameters;
      pr.workload = key;
      // One PodTemplate per pod set of the admission: the pod set's template with its flavors
      // merged in (createPodTemplate: podset.FromAssignment then Merge).
      for (const kueue::PodSet& ps : wl.pod_sets) {
        for (const kueue::PodSetAssignment& psa : wl.admission->pod_set_assignments) {
          if (psa.name != ps.name || psa.count <= 0) continue;
          kueue::ProvisioningRequest::PodSet set;
          set.pod_template_name = "ppt-" + name + "-" + ps.name;
          set.template_ = ps.template_;
          merge_flavors(wl, ps.name, set.template_.spec);
          set.count = psa.count;
          pr.pod_sets.push_back(std::move(set));
        }
      }
      request = api.kueue.provisioning_requests.emplace(request_key, std::move(pr)).first;
      context_.record_series_event("Workload/" + key, "Normal", "ProvisioningRequestCreated",
                                   "Created ProvisioningRequest: \"" + name + "\"");
      if (!context_.wake_autoscaler() && noticed_.insert("provreq " + request_key).second) {
        notices_.push_back("ProvisioningRequest " + request_key + " of Workload " + key +
                           " is processed by no cluster autoscaler (no node pool autoscales): "
                           "its check " +
                           check.metadata.name + " stays Pending");
      }
    }
    const kueue::ProvisioningRequest& pr = request->second;
    const kueue::Condition* provisioned = kueue::find_condition(pr.conditions, "Provisioned");
    if (provisioned != nullptr && provisioned->status == "True") {
      if (next.state != kueue::kCheckReady) {
        next.state = std::string(kueue::kCheckReady);
        next.message = provisioned->message;
      }
    } else if (kueue::condition_true(pr.conditions, "Accepted")) {
      if (provisioned != nullptr) {
        next.message = provisioned->message;
        next.state = std::string(kueue::kCheckPending);
      }
    } else {
      next.message.clear();
      next.state = std::string(kueue::kCheckPending);
    }
  }
  if (next.state != before) {
    std::string message = "Admission check " + check.metadata.name + " updated state from " +
                          before + " to " + next.state;
    if (!next.message.empty()) message += " with message: " + next.message;
    context_.record_series_event("Workload/" + key, "Normal", "AdmissionCheckUpdated",
                                 std::move(message));
  }
  kueue::set_check_state(wl, std::move(next), now);
}

void KueueController::watch_readiness(const std::string& key, const kueue::Workload& wl) {
  const kueue::Condition* admitted_cond = kueue::find_condition(wl.conditions, kueue::kAdmitted);
  const TimeMs since = admitted_cond != nullptr ? admitted_cond->last_transition_time : 0;
  watch_readiness_at(key, since, config_.wait_for_pods_ready.timeout_ms);
}

void KueueController::watch_readiness_at(const std::string& key, TimeMs since, TimeMs timeout) {
  const TimeMs due = timeout > 0 && since > std::numeric_limits<TimeMs>::max() - timeout
                         ? std::numeric_limits<TimeMs>::max()
                         : since + timeout;
  unchecked_.emplace(due, key);
  // The workload controller's RequeueAfter: the replay gets an instant when it is due.
  wake_at(due);
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

void KueueController::preempted(const std::string& victim, const std::string& preemptor,
                                const std::string& reason, const std::string& message) {
  preemptions_.push_back(KueuePreemptionRecord{context_.now(), preemptor, victim, reason, message});
  evicted_.insert(victim);
}

bool KueueController::handle_evictions() {
  // The provisioning controller deletes an evicted workload's requests before it is requeued.
  delete_unused_provisioning_requests();
  ApiServer& api = context_.api();
  const TimeMs now = context_.now();
  bool released = false;
  std::vector<std::string> done;
  for (const std::string& key : evicted_) {
    auto wl_it = api.kueue.workloads.find(key);
    if (wl_it == api.kueue.workloads.end() || !kueue::has_quota_reservation(wl_it->second)) {
      done.push_back(key);
      continue;
    }
    kueue::Workload& wl = wl_it->second;
    const kueue::Condition evicted = *kueue::find_condition(wl.conditions, kueue::kEvicted);
    bool active = false;
    if (auto job_key = job_of_workload_.find(key); job_key != job_of_workload_.end()) {
      if (auto job = api.jobs.find(job_key->second); job != api.jobs.end()) {
        stop_job(job_key->second, job->second, wl, evicted.message);
        active = job_active(job->second.job);
      }
    } else if (auto owner = pods_of_workload_.find(key); owner != pods_of_workload_.end()) {
      active = stop_pods(owner->second, evicted.message);
    }
    // The Job has no active pod: the admission is cleared and the workload requeued, at once
    // after a preemption (Requeued=True).
    if (active) continue;
    release(key);  // while the admission still names the ClusterQueue whose quota it held
    kueue::set_requeued_condition(wl, evicted.reason, evicted.message,
                                  evicted.reason == "Preempted", now);
    kueue::unset_quota_reservation(wl, "Pending", evicted.message, now);
    created_.insert(key);  // back to its queue at the Workload controller's next look
    released = true;
    done.push_back(key);
  }
  for (const std::string& key : done) evicted_.erase(key);
  return released;
}

bool KueueController::job_active(const Job& job) const {
  const std::vector<PodInfo*> pods = context_.api().owned_pods(job.metadata.uid);
  return std::any_of(pods.begin(), pods.end(),
                     [](const PodInfo* pod) { return Controller::active(*pod); });
}

void KueueController::stop_job(const std::string& job_key, JobState& state,
                               const kueue::Workload& wl, const std::string& message) {
  // jobframework stopJob with job.Stop: suspended, status.startTime reset, and the pod template's
  // labels, annotations, node selector, tolerations and scheduling gates restored from the
  // workload's pod set (podset.RestorePodSpec); the Stopped event when it was running.
  if (state.job.suspend) return;
  state.job.suspend = true;
  state.start_time.reset();
  if (!wl.pod_sets.empty()) {
    const PodTemplateSpec& original = wl.pod_sets.front().template_;
    PodTemplateSpec& tmpl = state.job.template_;
    tmpl.metadata.labels = original.metadata.labels;
    tmpl.metadata.annotations = original.metadata.annotations;
    tmpl.spec.node_selector = original.spec.node_selector;
    tmpl.spec.tolerations = original.spec.tolerations;
    tmpl.spec.scheduling_gates = original.spec.scheduling_gates;
  }
  context_.record_series_event("Job/" + job_key, "Normal", "Stopped", message);
  context_.controllers().sync("Job", job_key);
}

void KueueController::wake_at(TimeMs at) {
  if (at <= context_.now() || !wake_ups_.insert(at).second) return;
  // A sync no controller claims: its instant runs Kueue (Simulation::step).
  context_.clock().push(at, ControllerSync{"Kueue", ""});
}

void KueueController::sync_pods_ready(const std::string& wl_key, kueue::Workload& wl, bool ready,
                                      std::optional<TimeMs> ready_since) {
  // jobframework step 5 (generatePodsReadyCondition), for a job reconciled because it or its
  // pods changed.
  if (wl.pod_sets.empty()) return;
  const TimeMs now = context_.now();
  const kueue::Condition* current = kueue::find_condition(wl.conditions, kueue::kPodsReady);
  kueue::Condition next{std::string(kueue::kPodsReady),        "False", "WaitForStart",
                        "Not all pods are ready or succeeded", now,     wl.generation};
  if (kueue::is_admitted(wl)) {
    if (ready) {
      const bool recovering = current != nullptr && (current->reason == "WaitForRecovery" ||
                                                     current->reason == "Recovered");
      next.status = "True";
      next.reason = recovering ? "Recovered" : "Started";
      next.message = "All pods reached readiness and the workload is running";
      if (ready_since) next.last_transition_time = std::min(now, *ready_since);
    } else if (current != nullptr &&
               (current->status == "True" || current->reason == "WaitForRecovery")) {
      next.reason = "WaitForRecovery";
      next.message = "At least one pod has failed, waiting for recovery";
      if (current->reason != "WaitForRecovery")
        watch_readiness_at(wl_key, now, config_.wait_for_pods_ready.recovery_timeout_ms);
    }
  }
  // HasConditionWithTypeAndReason: only a new status or reason is written.
  if (current != nullptr && current->status == next.status && current->reason == next.reason)
    return;
  kueue::set_condition(wl.conditions, std::move(next));
}

void KueueController::evict(const std::string& key, kueue::Workload& wl, const std::string& reason,
                            const std::string& message) {
  kueue::set_evicted_condition(wl, reason, message, context_.now());
  // reportEvictedWorkload: "Evicted" + "DueTo" + the reason.
  context_.record_series_event("Workload/" + key, "Normal", "EvictedDueTo" + reason, message);
  evicted_.insert(key);
}

void KueueController::reconcile_not_ready_timeout() {
  ApiServer& api = context_.api();
  const TimeMs now = context_.now();
  const KueueConfiguration::WaitForPodsReady& wait = config_.wait_for_pods_ready;
  // Those due by now, in key order: the others are not checked yet.
  std::set<std::string> due;
  while (!unchecked_.empty() && unchecked_.begin()->first <= now) {
    due.insert(unchecked_.begin()->second);
    unchecked_.erase(unchecked_.begin());
  }
  for (const std::string& key : due) {
    auto found = api.kueue.workloads.find(key);
    if (found == api.kueue.workloads.end()) continue;
    kueue::Workload& wl = found->second;
    // Only a Workload of a Job in the replay has its PodsReady condition kept (by the Job
    // reconciler); one whose Job the input left out (a snapshot's) keeps its quota.
    if ((!job_of_workload_.contains(key) && !pods_of_workload_.contains(key)) || !wl.active ||
        kueue::condition_true(wl.conditions, kueue::kEvicted) || !kueue::is_admitted(wl) ||
        kueue::is_finished(wl))
      continue;
    // admittedNotReadyWorkload: the start timeout from the admission, the recovery timeout
    // from the failure.
    const kueue::Condition* ready = kueue::find_condition(wl.conditions, kueue::kPodsReady);
    if (ready != nullptr && ready->status == "True") continue;
    TimeMs deadline = 0;
    if (ready == nullptr || ready->reason == "WaitForStart" || ready->reason == "PodsReady") {
      deadline = kueue::find_condition(wl.conditions, kueue::kAdmitted)->last_transition_time +
                 wait.timeout_ms;
    } else if (ready->reason == "WaitForRecovery") {
      deadline = ready->last_transition_time + wait.recovery_timeout_ms;
    } else {
      continue;
    }
    if (now < deadline) {
      // Admitted again since: checked again when due.
      watch_readiness_at(key, deadline, 0);
      continue;
    }
    const std::int32_t count =
        wl.requeue_state && wl.requeue_state->count ? *wl.requeue_state->count : 0;
    if (wait.backoff_limit_count && count + 1 > *wait.backoff_limit_count) {
      // triggerDeactivation, then the workload controller's inactive branch: spec.active false,
      // evicted as Deactivated with the cause, its requeue state cleared.
      wl.active = false;
      ++wl.generation;
      wl.requeue_state.reset();
      evict(key, wl, "DeactivatedDueToRequeuingLimitExceeded",
            "The workload is deactivated due to exceeding the maximum number of re-queuing "
            "retries");
      continue;
    }
    // UpdateRequeueState: the n-th requeue waits 60s*2^(n-1) (backoffBaseSeconds, doubled), at
    // most backoffMaxSeconds; upstream's jitter of 0.0001 of it is left out.
    const std::int32_t n = count + 1;
    TimeMs backoff = static_cast<TimeMs>(wait.backoff_base_seconds) * 1000;
    const TimeMs cap = static_cast<TimeMs>(wait.backoff_max_seconds) * 1000;
    for (std::int32_t i = 1; i < n && backoff < cap; ++i) backoff *= 2;
    backoff = std::min(backoff, cap);
    kueue::RequeueState& state = wl.requeue_state ? *wl.requeue_state : wl.requeue_state.emplace();
    if (!state.requeue_at || *state.requeue_at < now + backoff) state.requeue_at = now + backoff;
    state.count = n;
    evict(key, wl, "PodsReadyTimeout", "Exceeded the PodsReady timeout " + key);
  }
}
void KueueController::end_backoff(const std::string& key, kueue::Workload& wl) {
  const kueue::Condition* requeued = kueue::find_condition(wl.conditions, kueue::kRequeued);
  if (wl.requeue_state && wl.requeue_state->requeue_at) {
    if (context_.now() < *wl.requeue_state->requeue_at) {
      backoffs_.emplace(*wl.requeue_state->requeue_at, key);
      wake_at(*wl.requeue_state->requeue_at);
      return;
    }
    wl.requeue_state->requeue_at.reset();
  }
  // The backoff is over: Requeued=True, and the workload goes back to its queue's heap.
  if (requeued != nullptr && requeued->status == "False" &&
      (requeued->reason == "PodsReadyTimeout" || requeued->reason == "AdmissionCheck")) {
    kueue::set_requeued_condition(wl, "BackoffFinished", "The workload backoff was finished", true,
                                  context_.now());
    queues_.remove(key);
  }
}

bool KueueController::reconcile_queue_state(const std::string& key, kueue::Workload& wl) {
  // Kueue v0.19.2 workload_controller.go reconcileOnLocalQueueActiveState, then
  // reconcileOnClusterQueueActiveState (the ClusterQueue its LocalQueue names). An admitted
  // workload is evicted by HoldAndDrain only; one still waiting for its admission checks loses
  // its quota reservation under either stop policy, or when its queue is missing (reason
  // Inadmissible: UnadmittedWorkloadsObservability is off).
  const ApiServer& api = context_.api();
  const bool admitted = kueue::is_admitted(wl);
  auto lq = api.kueue.local_queues.find(kueue::local_queue_key(wl));
  const bool lq_exists = lq != api.kueue.local_queues.end();
  const kueue::StopPolicy lq_policy = lq_exists ? lq->second.stop_policy : kueue::StopPolicy::None;
  if (admitted && lq_policy == kueue::StopPolicy::HoldAndDrain) {
    evict(key, wl, "LocalQueueStopped", "The LocalQueue is stopped");
    return true;
  }
  if (!admitted && !lq_exists)
    return unreserve(key, wl, "LocalQueue " + wl.queue_name + " is terminating or missing");
  if (!admitted && lq_policy != kueue::StopPolicy::None)
    return unreserve(key, wl, "LocalQueue " + wl.queue_name + " is stopped");
  const std::string cq_name = lq_exists ? lq->second.cluster_queue : std::string();
  auto cq = api.kueue.cluster_queues.find(cq_name);
  const bool cq_exists = cq != api.kueue.cluster_queues.end();
  const kueue::StopPolicy cq_policy = cq_exists ? cq->second.stop_policy : kueue::StopPolicy::None;
  if (admitted) {
    if (cq_policy != kueue::StopPolicy::HoldAndDrain) return false;
    evict(key, wl, "ClusterQueueStopped", "The ClusterQueue is stopped");
    return true;
  }
  if (!cq_exists)
    return unreserve(key, wl, "ClusterQueue " + cq_name + " is terminating or missing");
  if (cq_policy != kueue::StopPolicy::None)
    return unreserve(key, wl, "ClusterQueue " + cq_name + " is stopped");
  return false;
}

bool KueueController::unreserve(const std::string& key, kueue::Workload& wl, std::string message) {
  // UnsetQuotaReservationWithCondition: the cache releases the quota and the workload goes back
  // to its queue, where the next look names the blocker (getQueueBlocker). Its check states and
  // ProvisioningRequests stay: the provisioning controller ignores a workload without a
  // reservation (provisioning/controller.go Reconcile).
  release(key);  // while the admission still names the ClusterQueue whose quota it held
  kueue::unset_quota_reservation(wl, "Inadmissible", std::move(message), context_.now());
  created_.insert(key);
  return true;
}

void KueueController::requeue_if_restarted(const std::string& key, kueue::Workload& wl) {
  // Kueue v0.19.2 workload_controller.go Reconcile: isDisabledRequeuedByLocalQueueStopped, then
  // isDisabledRequeuedByClusterQueueStopped. As after a backoff, the workload leaves the
  // inadmissible list for its queue's heap.
  const kueue::Condition* requeued = kueue::find_condition(wl.conditions, kueue::kRequeued);
  if (requeued == nullptr || requeued->status != "False") return;
  const ApiServer& api = context_.api();
  auto lq = api.kueue.local_queues.find(kueue::local_queue_key(wl));
  if (lq == api.kueue.local_queues.end()) return;
  if (lq->second.stop_policy == kueue::StopPolicy::None &&
      requeued->reason == "LocalQueueStopped") {
    kueue::set_requeued_condition(wl, "LocalQueueRestarted",
                                  "The LocalQueue was restarted after being stopped", true,
                                  context_.now());
    queues_.remove(key);
    return;
  }
  auto cq = api.kueue.cluster_queues.find(lq->second.cluster_queue);
  if (cq != api.kueue.cluster_queues.end() && cq->second.stop_policy == kueue::StopPolicy::None &&
      requeued->reason == "ClusterQueueStopped") {
    kueue::set_requeued_condition(wl, "ClusterQueueRestarted",
                                  "The ClusterQueue was restarted after being stopped", true,
                                  context_.now());
    queues_.remove(key);
  }
}

void KueueController::start_job(const std::string& key) {
  ApiServer& api = context_.api();
  if (auto owner = pods_of_workload_.find(key); owner != pods_of_workload_.end()) {
    start_pods(key, owner->second);
    return;
  }
  auto job_key = job_of_workload_.find(key);
  auto wl = api.kueue.workloads.find(key);
  if (job_key == job_of_workload_.end() || wl == api.kueue.workloads.end() || !wl->second.admission)
    return;
  auto job = api.jobs.find(job_key->second);
  if (job == api.jobs.end()) return;
  PodTemplateSpec& tmpl = job->second.job.template_;
  // A Job has one pod set; every assignment's flavors count (the Job's one).
  merge_flavors(wl->second, "", tmpl.spec);
  apply_check_updates(wl->second, tmpl.metadata);
  job->second.job.suspend = false;
  context_.record_series_event("Job/" + job_key->second, "Normal", "Started",
                               "Admitted by clusterQueue " + wl->second.admission->cluster_queue);
  context_.controllers().sync("Job", job_key->second);
}

void KueueController::apply_check_updates(const kueue::Workload& wl, ObjectMeta& meta) const {
  // The admission checks' pod set updates (podset.FromUpdate): a provisioned request's pods
  // consume it (provisioning controller.go podSetUpdates).
  const ApiServer& api = context_.api();
  for (const kueue::AdmissionCheckState& state : wl.admission_checks) {
    auto request = api.kueue.provisioning_requests.find(wl.metadata.namespace_ + "/" +
                                                        provisioning_request_name(wl, state.name));
    if (state.state != kueue::kCheckReady || request == api.kueue.provisioning_requests.end())
      continue;
    meta.annotations[std::string(kueue::kConsumeProvisioningRequest)] =
        request->second.metadata.name;
    meta.annotations[std::string(kueue::kProvisioningClassAnnotation)] =
        request->second.provisioning_class_name;
  }
}

void KueueController::merge_flavors(const kueue::Workload& wl, const std::string& pod_set,
                                    PodSpec& spec) const {
  // podset.FromAssignment then Merge: the flavors' node labels join the node selector and their
  // tolerations the tolerations. An empty `pod_set` takes every assignment.
  const ApiServer& api = context_.api();
  std::set<std::string> flavors;
  for (const kueue::PodSetAssignment& psa : wl.admission->pod_set_assignments) {
    if (!pod_set.empty() && psa.name != pod_set) continue;
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
    if (auto job = job_of_workload_.find(key); job != job_of_workload_.end()) {
      rec.owner = "Job/" + job->second;
    } else if (pods_of_workload_.contains(key)) {
      // A pod's Workload, or a group's: its controller reference, the pod it was built from.
      for (const OwnerReference& ref : *wl.metadata.owner_references) {
        if (ref.controller) rec.owner = "Pod/" + wl.metadata.namespace_ + "/" + ref.name;
      }
    }
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
    rec.admission_checks = wl.admission_checks;
    out.push_back(std::move(rec));
  }
  return out;
}

std::vector<ClusterQueueRecord> KueueController::cluster_queue_records() const {
  std::vector<ClusterQueueRecord> out;
  const ApiServer& api = context_.api();
  // status.reservingWorkloads and admittedWorkloads, counted in one pass over the workloads.
  std::map<std::string_view, std::pair<std::int32_t, std::int32_t>> holding;
  for (const auto& [key, wl] : api.kueue.workloads) {
    if (!wl.admission || kueue::is_finished(wl)) continue;
    auto& [reserving, admitted] = holding[wl.admission->cluster_queue];
    if (kueue::has_quota_reservation(wl)) ++reserving;
    if (kueue::is_admitted(wl)) ++admitted;
  }
  for (const auto& [name, cq] : api.kueue.cluster_queues) {
    ClusterQueueRecord rec;
    rec.name = name;
    if (!cq.cohort_name.empty()) rec.cohort = cq.cohort_name;
    const kueue::ClusterQueueNode* node = cache_.cluster_queue(name);
    for (const kueue::ResourceGroup& group : cq.resource_groups) {
      for (const kueue::FlavorQuotas& flavor : group.flavors) {
        for (const kueue::ResourceQuota& quota : flavor.resources)
          rec.nominal[flavor.name][quota.name] = quota.nominal_quota;
        for (const std::string& resource : group.covered_resources) {
          const kueue::Amount used =
              node != nullptr ? node->resources.used({flavor.name, resource}) : kueue::Amount();
          rec.usage[flavor.name][resource] = kueue::amount_quantity(resource, used);
        }
      }
    }
    rec.pending_workloads = queues_.pending(name);
    // clusterqueue_controller.go: the weighted share of the cache's usage, with fair sharing.
    if (config_.fair_sharing && node != nullptr)
      rec.weighted_share = kueue::weighted_share_status(kueue::dominant_resource_share(*node));
    if (auto counts = holding.find(name); counts != holding.end())
      std::tie(rec.reserving_workloads, rec.admitted_workloads) = counts->second;
    out.push_back(std::move(rec));
  }
  return out;
}

}  // namespace gpusched::sim
