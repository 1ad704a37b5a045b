#include "sim/job_controller.hpp"

#include <algorithm>

namespace gpusched::sim {
namespace {

// The component of its own event broadcaster (pkg/controller/job/job_controller.go).
constexpr std::string_view kEventSource = "job-controller";

}  // namespace

void JobController::sync_all() {
  std::set<std::string> keys = context_.api().take_jobs_with_changed_pods();
  keys.insert(backing_off_.begin(), backing_off_.end());
  for (const std::string& key : keys) sync(key);
}

// Pods until `completions` have succeeded, at most `parallelism` at a time; without
// completions, the Job is done once any pod succeeds. A suspended Job (spec.suspend) has none.
void JobController::sync(const std::string& key) {
  backing_off_.erase(key);
  auto it = context_.api().jobs.find(key);
  if (it == context_.api().jobs.end() || it->second.complete) return;
  const TimeMs now = context_.now();
  JobState& state = it->second;
  const Job& job = state.job;
  std::vector<PodInfo*> pods = owned_pods(job.metadata.uid);
  std::int32_t succeeded = 0;
  std::int32_t failed = 0;
  std::int64_t running = 0;
  TimeMs last_success = -1;
  for (const PodInfo* p : pods) {
    const TimeMs finished = context_.finished(*p).value_or(now);
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
    state.ended = now;
    context_.api().job_changed(key);
    context_.record_event(kEventSource, "Job/" + key, "Warning", "BackoffLimitExceeded",
                          "Job has reached the specified backoff limit");
    for (PodInfo* p : pods) {
      if (active(*p)) context_.delete_pod(*p, p->pod.spec.termination_grace_period_seconds);
    }
    return;
  }
  const bool done = job.completions ? state.succeeded >= *job.completions : state.succeeded > 0;
  if (done) {
    state.complete = true;
    state.ended = now;
    context_.api().job_changed(key);
    context_.record_event(kEventSource, "Job/" + key, "Normal", "Completed", "Job completed");
    return;
  }
  if (job.suspend) {
    // manageJob of a suspended Job deletes its active pods (pkg/controller/job/
    // job_controller.go), then syncJob sets JobSuspended=True once, with its event.
    for (PodInfo* p : pods) {
      if (!active(*p)) continue;
      const std::string name = p->pod.metadata.name;
      context_.delete_pod(*p, p->pod.spec.termination_grace_period_seconds);
      context_.record_event(kEventSource, "Job/" + key, "Normal", "SuccessfulDelete",
                            "Deleted pod: " + name);
    }
    if (state.suspended_condition != true) {
      state.suspended_condition = true;
      context_.record_event(kEventSource, "Job/" + key, "Normal", "Suspended", "Job suspended");
    }
    return;
  }
  if (!state.start_time) state.start_time = now;
  if (!create_pods(state, key, pods, running, last_success)) backing_off_.insert(key);
  if (state.suspended_condition == true) {
    // ensureJobConditionStatus(JobSuspended, False, "JobResumed"): a Job never suspended gets
    // no condition; a resumed one restarts its startTime (the active deadline counts from it).
    state.suspended_condition = false;
    state.start_time = now;
    context_.record_event(kEventSource, "Job/" + key, "Normal", "Resumed", "Job resumed");
  }
}

bool JobController::create_pods(JobState& state, const std::string& key,
                                const std::vector<PodInfo*>& pods, std::int64_t running,
                                TimeMs last_success) {
  const TimeMs now = context_.now();
  const Job& job = state.job;
  std::int64_t want = job.parallelism;
  if (job.completions) want = std::min<std::int64_t>(want, *job.completions - state.succeeded);
  if (running < want) {
    // backoffRecord.getRemainingTime: after failures since the last success, new pods wait
    // DefaultJobPodFailureBackOff (10s) doubled per further failure, at most 6 minutes, from the
    // last failure.
    std::int32_t failures = 0;
    TimeMs last_failure = -1;
    for (const PodInfo* p : pods) {
      const TimeMs finished = context_.finished(*p).value_or(now);
      if (p->pod.status.phase == PodPhase::Failed && finished > last_success) {
        ++failures;
        last_failure = std::max(last_failure, finished);
      }
    }
    if (failures > 0) {
      const TimeMs backoff = std::min<TimeMs>(10'000LL << std::min(failures - 1, 10), 360'000);
      if (last_failure + backoff > now) {
        context_.clock().push(last_failure + backoff, ControllerSync{"Job", key});
        return false;
      }
    }
  }
  PodTemplateSpec tmpl = job.template_;
  tmpl.metadata.labels["job-name"] = job.metadata.name;
  const auto owned_by = controller_reference(job.metadata, "Job");
  for (std::int64_t i = running; i < want; ++i) {
    Pod pod = controlled_pod(tmpl, job.metadata, owned_by);
    const std::string name = pod.metadata.name;
    context_.create_pod(std::move(pod), job.metadata.name + "-");
    context_.record_event(kEventSource, "Job/" + key, "Normal", "SuccessfulCreate",
                          "Created pod: " + name);
  }
  return true;
}

}  // namespace gpusched::sim
