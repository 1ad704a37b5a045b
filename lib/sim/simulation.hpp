#pragma once
// One replay: the event loop over the cluster's components (the API server, the controllers,
// the kubelets, the node pools and the autoscaler) and the scheduler; it keeps the pods'
// lifecycle, the timeline's actions, the expectations and the result.

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/rng.hpp"
#include "gpusched/scenario/scenario.hpp"
#include "gpusched/scheduler/scheduler.hpp"
#include "gpusched/sim/result.hpp"
#include "gpusched/sim/simulator.hpp"
#include "sim/api_server.hpp"
#include "sim/cluster_autoscaler.hpp"
#include "sim/controller.hpp"
#include "sim/disruption_controller.hpp"
#include "sim/event_queue.hpp"
#include "sim/event_recorder.hpp"
#include "sim/gpu_share_ledger.hpp"
#include "sim/invariants.hpp"
#include "sim/kubelet.hpp"
#include "sim/kueue_controller.hpp"
#include "sim/node_host.hpp"
#include "sim/pod_gc.hpp"
#include "sim/pool_provisioner.hpp"
#include "sim/resource_claim_controller.hpp"
#include "sim/unschedulable_time.hpp"
#include "sim/usage_ledger.hpp"

namespace gpusched::sim {

/// Pods one run may create in all (controllers included), so that absurd counts end with a clear
/// error instead of exhausting memory or time; a one-shot question counts no more copies.
inline constexpr std::uint64_t kMaxPodsPerRun = 1'000'000;
/// Scheduling cycles in a row that retry pods against an unchanged cluster (timers only, no
/// event in between) before a run stops with an InputError instead of running on for hours.
inline constexpr std::uint64_t kMaxIdleRetries = 1'000'000;

class Simulation final : public SchedulerHooks, private NodeHost {
 public:
  Simulation(const Scenario& scenario, const SimulationOptions& options);
  ~Simulation() override;
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;
  /// start(), then finish().
  [[nodiscard]] SimulationResult run();

  /// Loads the starting cluster and puts the timeline and the expectations on the clock.
  void start();
  /// The next instant to run: 0 first, then the next event or useful queue timer; nullopt when
  /// there is none left or it lies past `until`.
  [[nodiscard]] std::optional<TimeMs> next_time() const;
  /// Runs the next instant: its events, the queue timers due, the scheduling cycles and its
  /// expectations. False, doing nothing, when the replay is over.
  bool step();
  /// Runs the remaining instants, checks the remaining expectations and hands out the result
  /// (once; the run is over then).
  [[nodiscard]] SimulationResult finish();
  [[nodiscard]] TimeMs now() const noexcept { return now_; }

  // The cluster now, as a result ending now would show it (Simulator's read-only view).
  [[nodiscard]] std::vector<PodRecord> pod_records() const;
  [[nodiscard]] std::vector<NodeRecord> node_records() const;
  [[nodiscard]] std::vector<WorkloadRecord> workload_records() const;
  [[nodiscard]] KueueState kueue_state() const;

  // One-shot questions (one_shot.cpp): dry runs that leave the replay as it was.
  /// Where `pod` would go if it were the next pod scheduled now, and why not elsewhere.
  [[nodiscard]] Placement schedule_one(Pod pod);
  /// How many copies of `pod` fit, placed one after another, at most `limit`.
  [[nodiscard]] FitCount count_fits(Pod pod, std::int64_t limit);
  /// Scheduler::last_failure_current for the pod `key`; false when there is no such pod.
  [[nodiscard]] bool last_attempt_current(std::string_view key);
  /// Scheduler::gang_status of the pod `key` ("ns/name"), if it exists.
  [[nodiscard]] std::optional<GangStatus> gang_status(std::string_view key);
  /// Scheduler::report_cycle for the unbound pod `key` ("ns/name") of the replay, or for a copy
  /// of it with `priority` instead of its own. Throws InputError when there is no such pod or
  /// it is bound.
  [[nodiscard]] CycleReport report_cycle(std::string_view key,
                                         std::optional<std::int32_t> priority = std::nullopt);

  // SchedulerHooks
  void record_event(const PodInfo& pod, std::string_view type, std::string_view reason,
                    std::string message) override;
  void bound(PodInfo& pod) override;
  void cycle_done() override;
  /// Keeps one PermitTimeout on the clock, at the scheduler's next Permit deadline (none when no
  /// pod waits: a gang allowed early leaves no stale timer to run the clock on).
  void sync_permit_timeout();
  /// SimulationOptions::progress, if set, with the clock at `now`.
  void report_progress(TimeMs now);
  /// Counts an instant's `cycles` when `idle` (no event, and every waiting pod already failed
  /// against the cluster as it is), else starts over; stops past kMaxIdleRetries in a row.
  void count_idle_retries(bool idle, std::size_t cycles);
  void preempt(const PodInfo& preemptor, const NodeInfo& node,
               const std::vector<PodInfo*>& victims) override;

 private:
  /// A pod's time that may not have come yet, in 8 bytes where std::optional<TimeMs> takes 16
  /// (a replay holds every pod's times to its end: a million pods'). No time is the int64
  /// minimum, which no clock reading or input time reaches (RFC 3339 times lie within years
  /// 1-9999).
  class MaybeTime {
   public:
    MaybeTime& operator=(TimeMs ms) noexcept {
      ms_ = ms;
      return *this;
    }
    explicit operator bool() const noexcept { return ms_ != kNone; }
    operator std::optional<TimeMs>() const noexcept {  // NOLINT: implicit, reads as an optional
      return ms_ != kNone ? std::optional<TimeMs>(ms_) : std::nullopt;
    }

   private:
    static constexpr TimeMs kNone = std::numeric_limits<TimeMs>::min();
    TimeMs ms_ = kNone;
  };
  struct PodTimes {
    TimeMs created = 0;
    MaybeTime scheduled;
    MaybeTime finished;
  };

  /// The event loop's one dispatch: each kind of event to the component that owns it.
  void dispatch(Event& event);
  [[noreturn]] void input_error(const std::string& pointer, const std::string& reason) const;
  /// The API server's update validation of a stored object (workload_strategy.hpp).
  template <typename T>
  void check_update(const T& old_object, const T& object, const std::string& pointer) const;

  /// Refuses a scenario whose objects together ask for more than kMaxPodsPerRun pods.
  void check_declared_pods() const;

  // Objects
  void apply(Object object, const std::string& pointer);
  void apply_node(Node node, const std::string& pointer) override;
  void update_node(NodeInfo& info, Node node);
  void apply_pod(Pod pod, const std::string& pointer);
  /// The resourceclaim controller's syncPod for the pods of `namespace_` that `concerned`
  /// picks (a template they name appeared, a claim they had is gone).
  void sync_claim_pods(const std::string& namespace_,
                       const std::function<bool(const Pod&)>& concerned);
  /// The node as its kubelet, the device plugin and GFD publish it (Kubelets::publish), and the
  /// ResourceSlices NVIDIA's DRA kubelet plugin publishes for it.
  [[nodiscard]] Node publish_node(const Node& declared, const std::string& pointer);
  /// The DRA kubelet plugin's slices for `node` replace those it published before (none when
  /// the node is gone); the driver's DeviceClasses come with its first slices.
  void publish_dra_slices(const std::string& node);
  /// Whether the cluster holds slices of `driver` for `node` that gpusched did not publish.
  [[nodiscard]] bool driver_slices_given(const std::string& node, std::string_view driver) const;
  /// A pod's new version through the API server: the store and the scheduler's queue hear of it.
  void update_pod(PodInfo& existing, Pod pod);
  /// A scheduling.k8s.io Workload: stored where the scheduler reads it; a new one is a
  /// Workload/Add event for the queue.
  void apply_workload(SchedulingWorkload workload, const std::string& pointer);
  /// A scheduling.k8s.io/v1alpha2 PodGroup (1.36); PodGroup/Add wakes its gang.
  void apply_pod_group(PodGroup group, const std::string& pointer);
  void delete_object(const ObjectRef& ref, std::int64_t grace_seconds, const std::string& pointer);
  void patch_object(const Action& action);
  /// Runs a timeline action; an InputError it raises at the action's place without a line gets
  /// the action's line (Action::line), as errors found when loading have theirs.
  void run_action(const Action& action);
  void perform_action(const Action& action);

  // The kubelet of the node a pod is bound to
  /// Kubelet admission of a pod that now holds its node; false when the kubelet failed it.
  bool admit_on_node(PodInfo& pod);
  /// Timeline `gpuHealth`.
  void set_gpu_health(const Action& action);

  /// A node gone from the cluster (deleted, or its reservation over): its pods stay, bound to
  /// its name, until the pod garbage collector deletes them.
  void remove_node(NodeInfo& node) override;
  /// The pod garbage collector's pass: the orphans whose node stayed gone are deleted.
  void collect_orphans();

  // Pod lifecycle
  /// When a pod instance was created, first scheduled and finished.
  [[nodiscard]] PodTimes& times_of(const PodInfo& pod);
  /// The pod instance's span, to fill while it runs; nullptr unless the options ask for spans.
  [[nodiscard]] PodSpan* span_of(const PodInfo& pod);
  /// Admits (priority) and creates a pod; `pointer` names its place in the file, if any, and
  /// `generate_name` the prefix a controller created it with.
  PodInfo& create_pod(Pod pod, const std::string& pointer = {},
                      const std::string& generate_name = {});
  void delete_pod(PodInfo& pod, std::int64_t grace_seconds);
  void begin_termination(PodInfo& pod, std::int64_t grace_seconds);
  void remove_pod(PodInfo& pod);
  /// The pod ends in `phase` (Succeeded, Failed): it holds nothing any more.
  void end_pod(PodInfo& pod, PodPhase phase);
  void finish_pod(PodInfo& pod);
  void start_running(PodInfo& pod);

  /// A pod of a one-shot question as the API server would admit it: validated, its priority
  /// resolved; compiled but not in the cluster. Throws InputError.
  [[nodiscard]] PodInfo probe_pod(Pod pod);
  /// Runs `cycle` (returning a Placement or a CycleReport) with preemption as a dry run: its
  /// victims go to the Placement's, and the random source is put back.
  template <typename Cycle>
  auto dry_run(Cycle cycle);

  // Expectations and the result
  [[nodiscard]] ExpectationResult check(std::size_t index) const;
  /// A pod's record around `object`, the pod's object copied or moved by the caller (so
  /// `pod.pod` may be what it was moved from); its request is the one compiled.
  [[nodiscard]] PodRecord pod_record(const PodInfo& pod, Pod object) const;
  /// Where take_result's node records list their pods until the pods are records: the places
  /// of a node's pods in the result's pods, in bind order, by PodInfo::sequence.
  struct PodPlaces {
    const std::vector<std::uint32_t>& by_sequence;     ///< a pod's place in the result's pods
    std::vector<std::vector<std::uint32_t>>& of_node;  ///< per node record: its pods' places
  };
  /// A node's record. With `places`, its pods' keys are left out and their places appended to
  /// places->of_node instead.
  [[nodiscard]] NodeRecord node_record(const NodeInfo& node, PodPlaces* places = nullptr) const;
  /// The nodes' records in name order; with `places`, as node_record's.
  [[nodiscard]] std::vector<NodeRecord> node_records(PodPlaces* places) const;
  /// The result, once the run is over: it takes the pod objects instead of copying them.
  [[nodiscard]] SimulationResult take_result();

  const Scenario& scenario_;
  SchedulerConfig config_;
  std::optional<TimeMs> until_;
  std::function<void(const Progress&)> on_progress_;
  Observer observer_;
  Progress progress_;
  Rng rng_;
  ClusterState cluster_;
  Scheduler scheduler_;
  TimeMs now_ = 0;
  EventQueue event_queue_;
  // The components the event loop hands its events to.
  ApiServer api_{cluster_, now_};
  Kubelets kubelets_;
  EventRecorder events_;
  ResourceClaimController claims_{cluster_, api_, scheduler_, events_, now_};
  PoolProvisioner pools_;
  ClusterAutoscaler autoscaler_;
  /// What the controllers may use of the simulation (ControllerContext), forwarded to it.
  class ControllerHost;
  std::unique_ptr<ControllerHost> controller_host_;
  ControllerManager controllers_;
  /// Kueue, when the scenario uses it.
  std::unique_ptr<KueueController> kueue_;
  DisruptionController disruption_{api_};
  PodGarbageCollector pod_gc_{now_, event_queue_};
  bool stepped_ = false;  ///< the first instant has run
  /// While a one-shot question runs: where its preemption's victims go instead of being evicted.
  std::optional<PreemptionRecord>* probe_preemption_ = nullptr;
  UsageLedger usage_{cluster_, now_};
  GpuShareLedger shares_{now_};
  UnschedulableTime unschedulable_{now_};
  std::uint64_t pods_created_ = 0;
  std::uint64_t idle_retries_ = 0;  ///< see count_idle_retries
  TimeMs idle_since_ = 0;
  std::vector<PodTimes> pod_times_;  // by PodInfo::sequence - 1: each pod instance
  // With SimulationOptions::record_pod_spans, the same instances' names and what they held
  // (their times are pod_times_'s, joined in take_result).
  bool record_spans_ = false;
  std::vector<PodSpan> spans_;
  std::vector<PreemptionRecord> preemptions_;
  std::vector<std::optional<ExpectationResult>> expectation_results_;
  /// With SimulationOptions::check_invariants, or in a build without NDEBUG.
  std::optional<InvariantChecker> invariants_;
  /// The slices NVIDIA's DRA kubelet plugin published, by node, as Kubelets gave them.
  std::map<std::string, std::vector<dra::ResourceSlice>> dra_published_;
  bool nvidia_classes_installed_ = false;
  bool permit_timeout_queued_ = false;  // a PermitTimeout is on the clock (sync_permit_timeout)
};

}  // namespace gpusched::sim
