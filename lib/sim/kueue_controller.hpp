#pragma once
// Kueue (v0.19.2) as a component of the replay: its Job and pod webhooks and reconcilers
// (pkg/controller/jobframework, pkg/controller/jobs/job, pkg/controller/jobs/pod in
// kueue_pods.cpp), its Workload controller's queue
// checks (pkg/controller/core/workload_controller.go), its cache and queues, and its scheduler
// (lib/kueue/). It runs when the scenario has any kueue.x-k8s.io object or `kueue` settings.
// Everything it does takes no virtual time: at each instant, after the instant's events and
// before kube-scheduler's cycles, it reconciles and admits until nothing changes.

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpusched/config/kueue_config.hpp"
#include "gpusched/sim/result.hpp"
#include "kueue/admission_scheduler.hpp"
#include "kueue/queue_manager.hpp"
#include "kueue/quota_tree.hpp"
#include "sim/controller.hpp"

namespace gpusched::sim {

class KueueController final : private kueue::AdmissionSink {
 public:
  KueueController(ControllerContext& context, KueueConfiguration config);

  /// The Job webhook's Default on create (jobframework.ApplyDefaultForSuspend): a Job Kueue
  /// manages is created suspended.
  void default_job(Job& job) const;
  /// The pod webhook's Default on create (pkg/controller/jobs/pod/pod_webhook.go), with the
  /// "pod" integration enabled: a pod Kueue manages gets the managed label, the admission
  /// scheduling gate and its role hash, and joins its pod group (or is a group of its own).
  /// Without the integration a pod with a queue-name label is named in a notice.
  void default_pod(Pod& pod);
  /// Reconciles the queues, the Jobs and their Workloads at the current instant, then runs
  /// admission cycles until one changes nothing, and starts the Jobs admitted.
  void run();
  /// The Workloads and ClusterQueues as they are now.
  [[nodiscard]] std::vector<WorkloadRecord> workload_records() const;
  [[nodiscard]] std::vector<ClusterQueueRecord> cluster_queue_records() const;
  /// Every quota wait so far (SimulationResult::quota_spans).
  [[nodiscard]] const std::vector<QuotaSpan>& quota_spans() const { return spans_; }
  /// Every preemption issued so far (SimulationResult::kueue_preemptions).
  [[nodiscard]] const std::vector<KueuePreemptionRecord>& preemptions() const {
    return preemptions_;
  }
  /// What Kueue would have done that gpusched does not model yet, each naming its Workload
  /// (SimulationResult::notices).
  [[nodiscard]] const std::vector<std::string>& notices() const { return notices_; }

 private:
  // kueue::AdmissionSink
  void workload_event(const std::string& key, std::string_view type, std::string_view reason,
                      std::string message) override;
  void admitted(const std::string& key) override;
  void preempted(const std::string& victim, const std::string& preemptor, const std::string& reason,
                 const std::string& message) override;

  /// Whether Kueue manages the Job (the batch/job integration enabled, and a queue-name label
  /// or manageJobsWithoutQueueName).
  [[nodiscard]] bool manages(const Job& job) const;

  /// A plain pod or a pod group Kueue manages (pkg/controller/jobs/pod): one generic job.
  struct PodOwner {
    std::string namespace_;
    std::string name;  ///< the pod's name, or the group's (kueue.x-k8s.io/pod-group-name)
    bool group = false;
    std::set<std::string> pods;  ///< the names of its pods still in the API
    bool grew = false;           ///< a pod joined since the last reconcile
  };
  /// The pod reconciler for every managed pod group and single pod: its Workload created once
  /// the group is complete (ConstructComposableWorkload), finished with its pods, gone with them
  /// (the owner references' garbage collection), and its PodsReady condition kept.
  void reconcile_pods();
  void reconcile_pod_owner(const std::string& key, PodOwner& owner);
  /// The owner's pods, by name.
  [[nodiscard]] std::vector<PodInfo*> pods_of(const PodOwner& owner) const;
  void create_pod_workload(const std::string& owner_key, const PodOwner& owner,
                           const std::vector<PodInfo*>& pods);
  /// Pod.Run: each gated pod of an admitted Workload ungated, with its pod set's flavors' node
  /// labels and tolerations merged into it, and a Started event.
  void start_pods(const std::string& wl_key, const std::string& owner_key);
  /// Pod.Stop for an evicted Workload: each running pod deleted, with a Stopped event. Returns
  /// Pod.IsActive: a pod group with a Running pod (a single pod never is).
  bool stop_pods(const std::string& owner_key, const std::string& message);
  /// The Workload's side of jobframework's reconcile shared by every integration: creates the
  /// Workload `wl` (named, owned, its pod sets set) for the owner `event_object` ("Job/ns/name")
  /// with its queue and priority, and records CreatedWorkload.
  void add_workload(kueue::Workload wl, const ObjectMeta& owner_meta,
                    const std::string& priority_class_name, const std::string& event_object);
  /// workloadfinish.Finish and the FinishedWorkload event on `event_object`.
  void finish_workload(const std::string& wl_key, kueue::Workload& wl, bool succeeded,
                       std::string message, const std::string& event_object);
  /// The flavors assigned to the pod set `pod_set` of an admitted Workload, merged into `spec`
  /// (podset.FromAssignment then podset.Merge).
  void merge_flavors(const kueue::Workload& wl, const std::string& pod_set, PodSpec& spec) const;
  /// The pod set updates of an admitted Workload's Ready checks (podset.FromUpdate), on the
  /// metadata of its pods or their template: the annotations that have them consume their
  /// ProvisioningRequest.
  void apply_check_updates(const kueue::Workload& wl, ObjectMeta& meta) const;
  /// A Workload deleted through the API: it leaves its Job, its queue and the cache (Kueue's
  /// finalizer, which would keep an admitted one until its Job ends, is not modelled).
  void forget_deleted_workloads();
  /// Rebuilds the quota tree and the queues when the queue objects changed; true when it did.
  bool sync_queue_objects();
  /// The Job reconciler: a Workload for each managed Job, finished with it, gone with it. Every
  /// Job when `all`, else those changed since the last run (ApiServer::job_changed): the others
  /// are as the last run left them.
  void reconcile_jobs(bool all);
  void reconcile_job(const std::string& key, const JobState& state);
  /// The Workload controller for pending workloads: the queue blocker as their QuotaReserved
  /// condition, or their place in their ClusterQueue. Every Workload when `all`, else those
  /// created since the last run and those blocked: a queued one stays queued until admitted.
  void reconcile_pending(bool all);
  void create_workload(const std::string& job_key, const Job& job);
  /// The key of a Workload not yet linked to a Job whose owner reference names `job`.
  [[nodiscard]] std::optional<std::string> owned_workload(const Job& job) const;
  /// A Workload stops holding quota (finished or deleted): its usage leaves the cache and the
  /// inadmissible workloads of its cohort get another chance.
  void release(const std::string& key);
  /// Starts the Job of an admitted Workload (RunWithPodSetsInfo): unsuspended, with its flavors'
  /// node labels and tolerations and its admission checks' pod set updates.
  void start_job(const std::string& key);
  /// An admitted Workload's Job is started at the end of this run and its readiness watched.
  void start_admitted(const std::string& key, const kueue::Workload& wl);
  /// The admission check controllers and the workload controller for the Workloads holding quota
  /// whose checks are not all Ready (awaiting_checks_): each ProvisioningRequest check synced
  /// with its request, then Admitted=True once every check is Ready.
  void reconcile_admission_checks();
  /// The ProvisioningRequest admission check controller for one check of a Workload
  /// (pkg/controller/admissionchecks/provisioning/controller.go: syncCheckStates and
  /// syncOwnedProvisionRequest, one attempt).
  void sync_provisioning_check(const std::string& key, kueue::Workload& wl,
                               const kueue::AdmissionCheck& check);
  /// The ProvisioningRequestConfig an AdmissionCheck's parameters name, nullptr when none
  /// (admissioncheck.ConfigHelper.ConfigFromRef).
  [[nodiscard]] const kueue::ProvisioningRequestConfig* provisioning_config(
      const kueue::AdmissionCheck& check) const;
  /// deleteUnusedProvisioningRequests: the requests of Workloads gone, finished or evicted
  /// (CleanupProvisioningRequestsOnEviction, on by default in Kueue 0.19) are deleted.
  void delete_unused_provisioning_requests();
  /// The span of the workload's current wait or reservation, opened (queued at `queued`) when
  /// it has none.
  QuotaSpan& open_span(const std::string& key, const kueue::Workload& wl, TimeMs queued);
  /// Every ClusterQueue of the cohort tree of `cluster_queue` (notifyRetryInadmissible).
  [[nodiscard]] std::set<std::string> cohort_members(const std::string& cluster_queue) const;
  /// An admitted Workload's readiness check joins unchecked_, due `timeout` after `since` (its
  /// admission, or a pod's failure), and the replay gets an instant then.
  void watch_readiness(const std::string& key, const kueue::Workload& wl);
  void watch_readiness_at(const std::string& key, TimeMs since, TimeMs timeout);
  /// jobframework's PodsReady condition (generatePodsReadyCondition) on a reconciled Job's
  /// Workload: WaitForStart until all its pods are ready or succeeded, then Started, and
  /// WaitForRecovery / Recovered when one fails after that.
  /// `ready`: the integration's PodsReady; `ready_since`: when the last ready pod started.
  void sync_pods_ready(const std::string& wl_key, kueue::Workload& wl, bool ready,
                       std::optional<TimeMs> ready_since);
  /// waitForPodsReady (workload_controller.go reconcileNotReadyTimeout) for the checks due: an
  /// admitted Workload not ready by its timeout is evicted (PodsReadyTimeout) with its requeue
  /// backoff, or deactivated once it has been requeued backoffLimitCount times.
  void reconcile_not_ready_timeout();
  /// A PodsReadyTimeout backoff: looked at again at its end (backoffs_), where the workload gets
  /// Requeued=True (BackoffFinished) and goes back to its queue's heap (it waits as
  /// inadmissible until then).
  void end_backoff(const std::string& key, kueue::Workload& wl);
  /// workload_controller.go reconcileOnLocalQueueActiveState / reconcileOnClusterQueueActiveState
  /// for a workload holding quota: an admitted one is evicted (LocalQueueStopped, then
  /// ClusterQueueStopped) when its LocalQueue or that queue's ClusterQueue has stopPolicy
  /// HoldAndDrain; one waiting for its admission checks loses its reservation when either queue is
  /// stopped or missing. Returns whether it did either.
  bool reconcile_queue_state(const std::string& key, kueue::Workload& wl);
  /// Releases a workload's quota reservation (QuotaReserved=False, Inadmissible, `message`) and
  /// hands it back to the pending reconcile.
  bool unreserve(const std::string& key, kueue::Workload& wl, std::string message);
  /// The workload controller's restart check: a workload requeued with Requeued=False by a stop
  /// of its LocalQueue or ClusterQueue gets Requeued=True (LocalQueueRestarted,
  /// ClusterQueueRestarted) once that queue's stopPolicy is None again.
  void requeue_if_restarted(const std::string& key, kueue::Workload& wl);
  /// Evict: Evicted=True with the reason and message, its event, and the Job to stop.
  void evict(const std::string& key, kueue::Workload& wl, const std::string& reason,
             const std::string& message);
  /// The Job reconciler's eviction step for each evicted workload still holding quota: the Job
  /// stopped (suspended, its pod template restored), then, once it has no active pod, the
  /// workload requeued (Requeued, QuotaReserved=False) and its quota released. Returns whether
  /// any quota was released.
  bool handle_evictions();
  /// Job.IsActive: it has an active pod (status.active above 0).
  [[nodiscard]] bool job_active(const Job& job) const;
  /// jobframework stopJob for an evicted workload's running Job.
  void stop_job(const std::string& job_key, JobState& state, const kueue::Workload& wl,
                const std::string& message);
  /// A reconcile.Result RequeueAfter: the replay gets an instant at `at`, where Kueue runs.
  void wake_at(TimeMs at);
  /// Whether the workload's requeue backoff is over (for QueueInadmissibleWorkloads).
  [[nodiscard]] bool backoff_expired(const std::string& key) const;

  ControllerContext& context_;
  KueueConfiguration config_;
  kueue::QuotaTree cache_;
  kueue::QueueManager queues_;
  kueue::AdmissionState state_;
  kueue::AdmissionScheduler scheduler_;
  // The queue objects the tree was last built from.
  std::map<std::string, kueue::ClusterQueue> built_cqs_;
  std::map<std::string, kueue::Cohort> built_cohorts_;
  std::map<std::string, kueue::ResourceFlavor> built_flavors_;
  std::map<std::string, kueue::LocalQueue> built_lqs_;
  std::map<std::string, kueue::AdmissionCheck> built_checks_;
  std::map<std::string, kueue::ProvisioningRequestConfig> built_configs_;
  bool built_ = false;
  // Hashed: looked up for each Job and Workload that changes. Where they are listed for more
  // than erasing (the orphaned Jobs, the spans of deleted Workloads), the keys are sorted first.
  std::unordered_map<std::string, std::string> workload_of_job_;  // job key -> workload key
  std::unordered_map<std::string, std::string> job_of_workload_;  // workload key -> job key
  std::map<std::string, PodOwner> pod_owners_;           // "Pod/ns/name", "PodGroup/ns/group"
  std::map<std::string, std::string> workload_of_pods_;  // pod owner key -> workload key
  std::map<std::string, std::string> pods_of_workload_;  // workload key -> pod owner key
  std::vector<std::string> to_start_;                    // admitted in this run, in order
  std::set<std::string> evicted_;                        // evicted, still holding quota
  std::vector<std::string> notices_;
  std::set<std::string> noticed_;  // what a notice already named (a check, a request)
  std::vector<QuotaSpan> spans_;
  std::vector<KueuePreemptionRecord> preemptions_;
  std::unordered_map<std::string, std::size_t> open_span_;  // workload key -> its open span
  std::set<TimeMs> wake_ups_;                               // instants already asked for
  // What the runs between two changes of the scenario's Kueue objects or queue objects look at
  // (run()): each set holds every Workload of its kind, so a run costs what changed.
  std::optional<std::uint64_t> seen_scenario_changes_;  // KueueStores::scenario_changes
  std::set<std::string> created_;  // Workloads created or requeued since reconcile_pending ran
  std::set<std::pair<TimeMs, std::string>> backoffs_;  // requeue backoffs, by their end
  std::set<std::string> blocked_;                      // pending Workloads with a queue blocker
  std::set<std::string> awaiting_checks_;  // holding quota, not admitted: checks not all Ready
  // Admitted, unfinished Workloads not yet checked for readiness, by when they are due
  // (admission plus waitForPodsReady's timeout), then key.
  std::set<std::pair<TimeMs, std::string>> unchecked_;
  std::size_t unlinked_ = 0;  // Workloads of the store no Job is linked to (at most)
};

}  // namespace gpusched::sim
