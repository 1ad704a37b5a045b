#pragma once
/// kube-scheduler's scheduling loop (pkg/scheduler/schedule_one.go) over a ClusterState, with
/// its queue (pkg/scheduler/backend/queue).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/scheduler_config.hpp"
#include "gpusched/framework/cluster_event.hpp"
#include "gpusched/framework/cycle_state.hpp"
#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/registry.hpp"
#include "gpusched/model/time.hpp"
#include "gpusched/scheduler/cycle_report.hpp"
#include "gpusched/scheduler/placement.hpp"

namespace gpusched {

class ClusterState;
class Rng;
struct Diagnosis;

/// numFeasibleNodesToFind (schedule_one.go): how many feasible nodes the Filter loop looks for
/// among `num_all_nodes`; `percentage` 0 is the adaptive 50 - nodes/125 %, at least 5 %.
[[nodiscard]] std::size_t num_feasible_nodes_to_find(std::int64_t percentage,
                                                     std::size_t num_all_nodes);
class SchedulingQueue;
struct QueuedPod;

/// A pod's gang as GangScheduling sees it (for explain): its Workload pod group instance, the
/// group's pods, and what holds the pod back.
struct GangStatus {
  std::string workload;  ///< empty on 1.36: pod_group names a PodGroup object
  std::string pod_group;
  std::string replica_key;
  std::optional<std::int32_t> min_count;  ///< nullopt: no Workload, no such group, or basic
  std::size_t known = 0;                  ///< pods of the group the scheduler knows
  std::size_t waiting = 0;                ///< assumed: past Reserve, waiting at Permit
  std::size_t bound = 0;                  ///< assigned
  std::optional<TimeMs> deadline;         ///< the group's Permit deadline, if one is set
  /// The pod waits at Permit, holding this node.
  std::optional<std::string> waiting_on;
  /// PreEnqueue's message while it keeps the pod out of the queue.
  std::optional<std::string> held;
};

/// What the scheduler reports to the simulation around it.
class SchedulerHooks : public PreemptionSink {
 public:
  /// A Kubernetes Event about a pod, at the current virtual time.
  virtual void record_event(const PodInfo& pod, std::string_view type, std::string_view reason,
                            std::string message) = 0;
  /// The pod was bound to a node (it is now Running on it).
  virtual void bound(PodInfo& pod) = 0;
  /// A scheduling cycle ended (for progress displays).
  virtual void cycle_done() {}
};

class Scheduler final : public SchedulerServices {
 public:
  /// Each profile's plugins come from the in-tree registry merged with `out_of_tree`. Throws
  /// ProfileError (with the profile's index) when a profile cannot run, e.g. names a plugin
  /// neither registry has; InputError (at `Registry::add`) when `out_of_tree` repeats an in-tree
  /// name.
  Scheduler(const SchedulerConfig& config, ClusterState& cluster, Rng& rng, SchedulerHooks& hooks,
            const Registry& out_of_tree = {});
  ~Scheduler() override;
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  /// A new unbound pod: queued if a profile serves its schedulerName.
  void pod_added(PodInfo& pod, TimeMs now);
  /// A queued pod changed (labels, tolerations, priority...): re-queued as upstream's update hints
  /// say.
  void pod_updated(PodInfo& pod, const Pod& old_pod, TimeMs now);
  /// A pod is about to be removed (deleted or bound elsewhere): it leaves the queue.
  void pod_removed(const PodInfo& pod);
  /// A cluster event: unschedulable pods whose rejecting plugins care are moved back.
  void cluster_event(const ClusterEvent& event, const EventObjects& objects, TimeMs now);
  /// A pod now holds a node (bound by this scheduler or created bound): AssignedPodAdded.
  void assigned_pod_added(const PodInfo& pod, TimeMs now);
  /// An unbound pod stopped holding its nominated node (`old_pod`: the pod as it was, nominated):
  /// its nomination moved or was cleared, or it was deleted. Pods of equal or lower priority may
  /// fit there now.
  void nomination_released(const PodInfo& old_pod, TimeMs now);

  /// Rejects the pods waiting at Permit whose wait ended by `now` (waiting_pods_map.go's timers)
  /// as the binding cycle does (handleBindingCycleError): Unreserve, ForgetPod, a
  /// FailedScheduling event and PodScheduled condition, and an AssignedPodDelete for the others.
  void expire_waiting_pods(TimeMs now);
  /// The earliest time a pod waiting at Permit may time out: expire_waiting_pods is then due
  /// (the simulation keeps it on its clock).
  [[nodiscard]] std::optional<TimeMs> next_permit_deadline() const;
  /// The pod's gang, when the GangScheduling plugin of its profile runs and it has a
  /// workloadRef.
  [[nodiscard]] std::optional<GangStatus> gang_status(const PodInfo& pod) const;
  /// The pod waits at Permit (its node held, unbound).
  [[nodiscard]] bool waiting_on_permit(const PodInfo& pod) const;

  // SchedulerServices, for plugins.
  void allow_waiting_pod(std::string_view uid, std::string_view plugin) override;
  void activate(std::span<PodInfo* const> pods) override;
  [[nodiscard]] TimeMs now() const override { return now_; }
  void cluster_event(const ClusterEvent& event, const EventObjects& objects) override {
    cluster_event(event, objects, now_);
  }

  /// Runs scheduling cycles until no pod is ready at `now`. Returns the number of cycles.
  std::size_t run(TimeMs now);
  /// The next time at or after `now` a queue timer (error backoff expiry, unschedulable leftover
  /// flush) fires.
  [[nodiscard]] std::optional<TimeMs> next_timer(TimeMs now) const;
  /// Fires the queue timers due at `now`.
  void on_timer(TimeMs now);
  /// True when every waiting pod already failed against the current cluster state, so further
  /// retries cannot change a placement (gated pods wait for their own update, not for retries).
  [[nodiscard]] bool quiescent() const;
  /// True when the pod's last attempt failed against the cluster as it is now: nothing the
  /// scheduler reads has changed since, so that attempt's answer still holds.
  [[nodiscard]] bool last_failure_current(const PodInfo& pod) const;

  /// A scheduling cycle for `pod` (not in the queue) without binding it: every node filtered and
  /// every feasible one scored; when none fits and `post_filter`, PostFilter runs and a
  /// preemption goes to the hooks as any other (the caller makes that a dry run). Throws
  /// InputError (at the pod's `/spec/schedulerName`) when no profile serves its schedulerName.
  [[nodiscard]] Placement evaluate(const PodInfo& pod, bool post_filter);
  /// evaluate() with PostFilter, told in full: every Filter plugin's verdict on every node, every
  /// Score plugin's score on the feasible ones, and when none is feasible preemption's dry run on
  /// every node. Its preemption goes to the hooks as evaluate()'s does.
  [[nodiscard]] CycleReport report_cycle(const PodInfo& pod);

  // One scheduling cycle, written once (schedule_one.go): schedule_one, evaluate and report_cycle
  // drive the same steps. Cycle and CycleSink are the library's own (lib/scheduler/cycle.hpp).
  struct Cycle;
  class CycleSink;

 private:
  /// How far findNodesThatFitPod searches.
  enum class Search {
    /// A real cycle: the nominated node first, then numFeasibleNodesToFind nodes from the
    /// round-robin start, which then moves on.
    Cycle,
    /// Every node from the first (one-shot questions and explain): the verdicts are complete.
    AllNodes,
  };

  void schedule_one(TimeMs now);
  /// schedulingAlgorithm (schedule_one.go): the host a cycle chose, or why none fits.
  struct AlgorithmResult {
    NodeInfo* host = nullptr;
    std::string message;                   ///< the failure: a FitError, or no nodes at all
    std::optional<std::string> nominated;  ///< the failure's nominatingInfo (nullopt: ModeNoop)
    bool error = false;                    ///< a plugin's Error stopped the cycle (message)
  };
  /// schedulePod then, when no node fits, PostFilter: the cycle's diagnosis holds the failure.
  [[nodiscard]] AlgorithmResult scheduling_algorithm(Cycle& cycle);
  /// Kubernetes 1.36 with GenericWorkload sends a pod with spec.schedulingGroup to its PodGroup's
  /// scheduling cycle (schedule_one.go ScheduleOne).
  [[nodiscard]] bool in_pod_group_cycle(const Pod& pod) const;
  /// One pod of a PodGroup cycle and its algorithm result (schedule_one_podgroup.go
  /// algorithmResult).
  struct GroupMember;
  /// scheduleOnePodGroup: the pod `first` popped and the group's other unscheduled pods it pops,
  /// scheduled in one snapshot, then bound, or failed together (lib/scheduler/pod_group_cycle.cpp).
  void schedule_pod_group(QueuedPod& first, TimeMs now);
  /// What a PodGroup cycle's algorithm concluded (podGroupAlgorithmResult's status and
  /// waitingOnPreemption).
  enum class GroupOutcome { Schedulable, Unschedulable, WaitingOnPreemption, Error };
  /// podGroupSchedulingDefaultAlgorithm over `members`, in order; `error` is the group's error.
  [[nodiscard]] GroupOutcome pod_group_algorithm(Framework& fwk, std::vector<GroupMember>& members,
                                                 std::string& error);
  /// submitPodGroupAlgorithmResult: each pod bound, waiting at Permit or failed, and the
  /// PodGroup's PodGroupScheduled condition.
  void submit_pod_group(std::vector<GroupMember>& members, GroupOutcome outcome,
                        const std::string& error, TimeMs now);
  /// prepareForBindingCycle (Reserve, Permit) and the binding cycle of the pod a cycle chose
  /// `host` for; a pod whose Permit waits holds the node meanwhile.
  void prepare_for_binding(QueuedPod& qp, CycleState& state, NodeInfo& host, TimeMs now);
  /// A pod waiting at Permit (waiting_pods_map.go's waitingPod): its cycle's state, the node it
  /// holds, and each pending plugin's deadline and wait.
  struct WaitingPod {
    struct Pending {
      TimeMs deadline = 0;
      TimeMs wait = 0;
    };
    QueuedPod* queued = nullptr;
    CycleState state;
    std::string node;
    std::map<std::string, Pending, std::less<>> pending;
  };
  /// handleSchedulingFailure: the FailedScheduling event, the PodScheduled condition (`reason`:
  /// Unschedulable for a rejection, SchedulerError for an error), the nomination (nullopt: left
  /// as it is), and the pod back to the queue.
  void handle_failure(QueuedPod& qp, const std::string& message,
                      const std::optional<std::string>& nominated, TimeMs now,
                      std::string_view reason = "Unschedulable");
  /// The pod waits at Permit: it holds `node` (AssumePod), 1.35 nominates it there.
  void wait_on_permit(QueuedPod& qp, CycleState state, NodeInfo& node,
                      const std::vector<PermitWait>& waits, TimeMs now);
  /// The binding cycles of the waiting pods a Permit allowed, in the order they were allowed.
  void bind_allowed(TimeMs now);
  /// bindingCycle after WaitOnPermit: Bind, then PodScheduled=True, the Scheduled event, and the
  /// pod's AssignedPodAdd.
  void binding_cycle(QueuedPod& qp, CycleState& state, NodeInfo& node, TimeMs now);
  /// A waiting pod rejected with `message` by `plugin` (handleBindingCycleError).
  void reject_waiting(std::uint64_t sequence, std::string_view plugin, const std::string& message,
                      TimeMs now);
  /// Unreserve and ForgetPod of a waiting pod leaving the map; returns the pod as it held its
  /// node.
  [[nodiscard]] PodInfo forget_waiting(WaitingPod& waiting);
  /// The AssignedPodDelete the other pods hear of a forgotten pod (`assumed`: as it held its node).
  void forgotten(const PodInfo& assumed, const PodInfo& pod, TimeMs now);
  /// schedulePod up to the choice of a host, for evaluate() and report_cycle(): the cycle's
  /// verdicts, scores and best nodes, and PostFilter when none fits and `post_filter`.
  [[nodiscard]] Placement evaluate(const PodInfo& pod, bool post_filter, CycleSink* sink);
  /// RunPreFilterPlugins then findNodesThatFitPod's Filter loop: `cycle.feasible`, and the
  /// failures in `cycle.diagnosis`. A sink hears every Filter plugin's verdict on each node.
  void find_nodes_that_fit(Cycle& cycle, Search search, CycleSink* sink);
  /// prioritizeNodes: the weighted totals of `cycle.feasible`, in `totals`; without a sink and
  /// `ranking`, up to an amount every node shares (Framework::rank_nodes).
  void prioritize_nodes(Cycle& cycle, std::span<std::int64_t> totals, CycleSink* sink,
                        bool ranking = false);
  /// selectHost: a uniform choice among the top totals (reservoir sampling on the seeded Rng).
  [[nodiscard]] std::size_t select_host(std::span<const std::int64_t> totals);
  /// RunPostFilterPlugins; a failure's message goes to the diagnosis (FitError's PostFilterMsg).
  [[nodiscard]] PostFilterResult post_filter(Cycle& cycle);
  /// RunPreFilterPlugins and the nodes it leaves to filter: every node, or `subset` when a
  /// PreFilterResult narrowed them; nullptr when PreFilter rejected the pod (diagnosis.absent).
  [[nodiscard]] const std::vector<NodeInfo*>* pre_filter(Framework& fwk, CycleState& state,
                                                         const PodInfo& pod, Diagnosis& diagnosis,
                                                         std::vector<NodeInfo*>& subset) const;
  [[nodiscard]] Framework* framework_for(const Pod& pod) const;
  /// KEP-5278 in 1.34: a failed cycle leaves the pod's nominatedNodeName as it is, where it would
  /// clear it, when NominatedNodeNameForExpectation is on.
  [[nodiscard]] bool keeps_nomination_after_failure() const;

  const SchedulerConfig& config_;
  ClusterState& cluster_;
  Rng& rng_;
  SchedulerHooks& hooks_;
  std::vector<std::unique_ptr<Framework>> frameworks_;
  std::unique_ptr<SchedulingQueue> queue_;
  std::size_t next_start_node_index_ = 0;
  // The last cycle's diagnosis and feasible list, emptied, and its scores: their room for a
  // failure per node, the feasible nodes and their totals is reused, not allocated again for
  // every pod.
  Diagnosis spare_diagnosis_;
  std::vector<const NodeInfo*> spare_feasible_;
  std::vector<std::int64_t> totals_;
  std::map<std::uint64_t, WaitingPod> waiting_;  // by pod sequence: deterministic order
  std::vector<std::uint64_t> allowed_;           // waiting pods allowed, not bound yet
  TimeMs now_ = 0;
};

}  // namespace gpusched
