// The workload controllers, reacting at once: Deployment (pkg/controller/deployment),
// ReplicaSet (pkg/controller/replicaset) and Job (pkg/controller/job); the DaemonSet controller
// is in daemonset_controller.cpp.
#include <algorithm>

#include "sim/names.hpp"
#include "sim/simulation.hpp"

namespace gpusched::sim {
namespace {

bool active(const PodInfo& pod) {
  // controller.FilterActivePods: not terminating, not Succeeded/Failed.
  return !pod.pod.metadata.deletion_ms && !pod.pod.terminated();
}

}  // namespace

Shared<std::vector<OwnerReference>> Simulation::controller_reference(const ObjectMeta& owner,
                                                                     std::string_view kind) {
  return std::vector<OwnerReference>{
      OwnerReference{std::string(kind), owner.name, owner.uid, true}};
}

Pod Simulation::controlled_pod(const PodTemplateSpec& tmpl, const ObjectMeta& owner,
                               const Shared<std::vector<OwnerReference>>& owned_by) {
  const std::string key = owner.namespace_ + "/" + owner.name;
  Pod pod;
  do {
    pod.metadata.name = owner.name + "-" + generated_suffix(key, name_counters_[key]++);
  } while (cluster_.find_pod(owner.namespace_, pod.metadata.name) != nullptr ||
           removed_pod_keys_.contains(owner.namespace_ + "/" + pod.metadata.name));
  pod.metadata.namespace_ = owner.namespace_;
  pod.metadata.labels = tmpl.metadata.labels;
  pod.metadata.annotations = tmpl.metadata.annotations;
  pod.metadata.owner_references = owned_by;
  pod.spec = tmpl.spec;
  return pod;
}

std::vector<PodInfo*> Simulation::owned_pods(const std::string& uid) const {
  std::vector<PodInfo*> out;
  for (const auto& [key, pod] : cluster_.pods()) {
    const OwnerReference* owner = pod->pod.metadata.controller();
    if (owner != nullptr && owner->uid == uid) out.push_back(pod);
  }
  return out;
}

void Simulation::reconcile_all() {
  std::vector<std::string> keys;
  for (const auto& [key, d] : deployments_) keys.push_back(key);
  for (const auto& key : keys) reconcile_deployment(key);
  keys.clear();
  for (const auto& [key, rs] : replicasets_) keys.push_back(key);
  for (const auto& key : keys) reconcile_replicaset(key);
  keys.clear();
  for (const auto& [key, job] : jobs_) keys.push_back(key);
  for (const auto& key : keys) reconcile_job(key);
  reconcile_daemonsets();
}

// A Deployment keeps one ReplicaSet per template, named "<deployment>-<pod-template-hash>"; the
// current one gets the replicas, older ones are scaled to zero (a Recreate-style rollout).
void Simulation::reconcile_deployment(const std::string& key) {
  auto it = deployments_.find(key);
  if (it == deployments_.end()) return;
  const Deployment& d = it->second;
  const std::string hash = pod_template_hash(d.template_);
  const std::string rs_name = d.metadata.name + "-" + hash;
  for (auto& [rs_key, rs] : replicasets_) {
    const OwnerReference* owner = rs.metadata.controller();
    if (owner == nullptr || owner->uid != d.metadata.uid || rs.metadata.name == rs_name) continue;
    if (rs.replicas != 0) {
      recorded_event("Deployment/" + key, "Normal", "ScalingReplicaSet",
                     "Scaled down replica set " + rs.metadata.name + " from " +
                         std::to_string(rs.replicas) + " to 0");
      rs.replicas = 0;
      reconcile_replicaset(rs_key);
    }
  }
  const std::string rs_key = d.metadata.namespace_ + "/" + rs_name;
  auto rs_it = replicasets_.find(rs_key);
  if (rs_it == replicasets_.end()) {
    ReplicaSet rs;
    rs.metadata.name = rs_name;
    rs.metadata.namespace_ = d.metadata.namespace_;
    rs.metadata.uid = new_uid();
    rs.metadata.creation_ms = now_;
    rs.metadata.labels = d.template_.metadata.labels;
    rs.metadata.labels["pod-template-hash"] = hash;
    rs.metadata.owner_references.push_back(
        OwnerReference{"Deployment", d.metadata.name, d.metadata.uid, true});
    rs.template_ = d.template_;
    rs.template_.metadata.labels["pod-template-hash"] = hash;
    rs.selector = d.selector;
    rs.selector.match_labels["pod-template-hash"] = hash;
    rs.replicas = 0;
    rs_it = replicasets_.emplace(rs_key, std::move(rs)).first;
  }
  if (rs_it->second.replicas != d.replicas) {
    const bool up = d.replicas > rs_it->second.replicas;
    recorded_event("Deployment/" + key, "Normal", "ScalingReplicaSet",
                   std::string(up ? "Scaled up" : "Scaled down") + " replica set " + rs_name +
                       " from " + std::to_string(rs_it->second.replicas) + " to " +
                       std::to_string(d.replicas));
    rs_it->second.replicas = d.replicas;
  }
  reconcile_replicaset(rs_key);
}

void Simulation::reconcile_replicaset(const std::string& key) {
  auto it = replicasets_.find(key);
  if (it == replicasets_.end()) return;
  const ReplicaSet rs = it->second;
  std::vector<PodInfo*> pods = owned_pods(rs.metadata.uid);
  std::erase_if(pods, [](const PodInfo* p) { return !active(*p); });
  const auto have = static_cast<std::int64_t>(pods.size());
  const auto owned_by = controller_reference(rs.metadata, "ReplicaSet");
  for (std::int64_t i = have; i < rs.replicas; ++i) {
    Pod pod = controlled_pod(rs.template_, rs.metadata, owned_by);
    const std::string name = pod.metadata.name;
    create_pod(std::move(pod), {}, rs.metadata.name + "-");
    recorded_event("ReplicaSet/" + key, "Normal", "SuccessfulCreate", "Created pod: " + name);
  }
  if (have <= rs.replicas) return;
  // getPodsToDelete / ActivePodsWithRanks: unassigned first, then not running, then the newest.
  std::stable_sort(pods.begin(), pods.end(), [](const PodInfo* a, const PodInfo* b) {
    const bool a_unassigned = a->pod.spec.node_name.empty(),
               b_unassigned = b->pod.spec.node_name.empty();
    if (a_unassigned != b_unassigned) return a_unassigned;
    const bool a_pending = a->pod.status.phase == PodPhase::Pending;
    const bool b_pending = b->pod.status.phase == PodPhase::Pending;
    if (a_pending != b_pending) return a_pending;
    return a->pod.metadata.creation_ms > b->pod.metadata.creation_ms ||
           (a->pod.metadata.creation_ms == b->pod.metadata.creation_ms &&
            a->sequence > b->sequence);
  });
  for (std::int64_t i = 0; i < have - rs.replicas; ++i) {
    PodInfo* pod = pods[static_cast<std::size_t>(i)];
    const std::string name = pod->pod.metadata.name;
    delete_pod(*pod, pod->pod.spec.termination_grace_period_seconds);
    recorded_event("ReplicaSet/" + key, "Normal", "SuccessfulDelete", "Deleted pod: " + name);
  }
}

// Pods until `completions` have succeeded, at most `parallelism` at a time; without
// completions, the Job is done once any pod succeeds.
void Simulation::reconcile_job(const std::string& key) {
  auto it = jobs_.find(key);
  if (it == jobs_.end() || it->second.complete) return;
  JobState& state = it->second;
  const Job job = state.job;
  std::vector<PodInfo*> pods = owned_pods(job.metadata.uid);
  std::int32_t succeeded = 0;
  std::int32_t failed = 0;
  std::int64_t running = 0;
  TimeMs last_success = -1;
  for (const PodInfo* p : pods) {
    const TimeMs finished = times_of(*p).finished.value_or(now_);
    if (p->pod.status.phase == PodPhase::Succeeded) {
      ++succeeded;
      last_success = std::max(last_success, finished);
    }
    if (p->pod.status.phase == PodPhase::Failed) ++failed;
    if (active(*p)) ++running;
  }
  state.succeeded = std::max(state.succeeded, succeeded);
  if (failed > job.backoff_limit) {
    // pastBackoffLimit: the Job fails and its running pods are deleted.
    state.failed = true;
    state.complete = true;
    state.ended = now_;
    recorded_event("Job/" + key, "Warning", "BackoffLimitExceeded",
                   "Job has reached the specified backoff limit");
    for (PodInfo* p : pods) {
      if (active(*p)) delete_pod(*p, p->pod.spec.termination_grace_period_seconds);
    }
    return;
  }
  const bool done = job.completions ? state.succeeded >= *job.completions : state.succeeded > 0;
  if (done) {
    state.complete = true;
    state.ended = now_;
    recorded_event("Job/" + key, "Normal", "Completed", "Job completed");
    return;
  }
  std::int64_t want = job.parallelism;
  if (job.completions) want = std::min<std::int64_t>(want, *job.completions - state.succeeded);
  if (running < want) {
    // backoffRecord.getRemainingTime: after failures since the last success, new pods wait
    // DefaultJobPodFailureBackOff (10s) doubled per further failure, at most 6 minutes, from the
    // last failure.
    std::int32_t failures = 0;
    TimeMs last_failure = -1;
    for (const PodInfo* p : pods) {
      const TimeMs finished = times_of(*p).finished.value_or(now_);
      if (p->pod.status.phase == PodPhase::Failed && finished > last_success) {
        ++failures;
        last_failure = std::max(last_failure, finished);
      }
    }
    if (failures > 0) {
      const TimeMs backoff = std::min<TimeMs>(10'000LL << std::min(failures - 1, 10), 360'000);
      if (last_failure + backoff > now_) {
        event_queue_.push(last_failure + backoff, ControllerSync{"Job", key});
        return;
      }
    }
  }
  PodTemplateSpec tmpl = job.template_;
  tmpl.metadata.labels["job-name"] = job.metadata.name;
  const auto owned_by = controller_reference(job.metadata, "Job");
  for (std::int64_t i = running; i < want; ++i) {
    Pod pod = controlled_pod(tmpl, job.metadata, owned_by);
    const std::string name = pod.metadata.name;
    create_pod(std::move(pod), {}, job.metadata.name + "-");
    recorded_event("Job/" + key, "Normal", "SuccessfulCreate", "Created pod: " + name);
  }
}

}  // namespace gpusched::sim
