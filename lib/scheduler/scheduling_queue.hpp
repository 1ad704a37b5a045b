#pragma once
// The scheduling queue of kube-scheduler 1.33+ (pkg/scheduler/backend/queue/scheduling_queue.go,
// active_queue.go, backoff_queue.go) with QueueingHints and SchedulerPopFromBackoffQ on, as they
// are by default from 1.33.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "gpusched/framework/cluster_event.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/model/time.hpp"

namespace gpusched {

/// Plugin names, as a pod's rejectors.
using PluginNames = Shared<std::set<std::string, std::less<>>>;

/// framework.QueuedPodInfo, plus what gpusched keeps to skip retries that cannot change anything.
struct QueuedPod {
  /// Gated: in upstream's unschedulable pool, rejected by a PreEnqueue plugin (QueuedPodInfo's
  /// Gated); only the pod's own update moves it.
  enum class Where { Active, Backoff, ErrorBackoff, Unschedulable, Gated, InFlight };
  PodInfo* pod = nullptr;
  Framework* framework = nullptr;
  TimeMs timestamp = 0;  ///< when last added to the queue (refreshed on every failure)
  /// InitialAttemptTimestamp as an order: a pod first popped earlier has a smaller number (0:
  /// never popped), so pods first popped at one virtual instant keep the order they had.
  /// Upstream stamps a pod when it first enters the active queue, which pops pods of equal
  /// priority in that same order.
  std::uint64_t first_attempt = 0;
  int attempts = 0;
  // The plugins that rejected the last attempt, and the PreEnqueue plugin that gates the pod:
  // shared values, empty (a null pointer) until the pod fails, as most pods never do: a million
  // pods wait in the queue together at the start of a large replay.
  PluginNames unschedulable_plugins;
  PluginNames pending_plugins;
  Where where = Where::Active;
  // The last failed attempt: the cluster generation it saw and what it produced.
  std::uint64_t generation_seen = 0;
  bool has_last_failure = false;
  /// What an attempt that failed produced, to replay it against an unchanged cluster.
  struct Failure {
    std::string message;
    std::optional<std::string> nomination;
    std::size_t processed_nodes = 0;
    PluginNames unschedulable_plugins;
    PluginNames pending_plugins;
  };
  /// The last failure's outcome; an empty one when none was recorded.
  [[nodiscard]] const Failure& last_failure() const noexcept {
    static const Failure none;
    return last_ != nullptr ? *last_ : none;
  }
  /// The last failure's outcome, to write (kept apart: most pods never fail, and a million
  /// pods wait in the queue together at the start of a large replay).
  [[nodiscard]] Failure& record_failure() {
    if (last_ == nullptr) last_ = std::make_unique<Failure>();
    return *last_;
  }
  /// The last failure was a rejection at Permit (a gang's timeout): a retry goes through the
  /// cycle again, never replays it.
  bool permit_rejected = false;
  /// Gated by this PreEnqueue plugin (QueuedPodInfo.GatingPlugin).
  SharedText gating_plugin;
  /// Scheduled in its PodGroup's cycle: a failure sends it back after backoff whatever rejected
  /// it (determineSchedulingHintForInFlightPod with GenericWorkload).
  bool in_pod_group = false;

 private:
  std::unique_ptr<Failure> last_;
};

class SchedulingQueue {
 public:
  SchedulingQueue(std::int64_t initial_backoff_ms, std::int64_t max_backoff_ms);
  ~SchedulingQueue();

  /// Add: a new pod enters the active queue, or waits gated when a PreEnqueue plugin rejects it.
  void add(PodInfo& pod, Framework& framework, TimeMs now);
  /// The queued entry of a pod, if any.
  [[nodiscard]] QueuedPod* find(const PodInfo& pod) const;
  /// Removes a pod from wherever it is.
  void remove(const PodInfo& pod);
  /// Pop: the active queue's head; when it is empty, the backoff queue's head even if still
  /// backing off (SchedulerPopFromBackoffQ). Counts an attempt.
  [[nodiscard]] QueuedPod* pop();
  /// PopSpecificPod: the pod taken out of the queue as Pop takes a pod, wherever it waits
  /// ungated; nullptr when it is not queued, gated, or already in flight.
  [[nodiscard]] QueuedPod* pop_specific(const PodInfo& pod);
  /// AddUnschedulableIfNotPresent after a failed attempt (no events can arrive during a cycle in
  /// a replay): to the unschedulable pool, or to the error backoff queue when no plugin rejected
  /// or the pod is a PodGroup's.
  void add_unschedulable(QueuedPod& pod, TimeMs now);
  /// movePodsToActiveOrBackoffQueue for the unschedulable pods the event may help (gated ones
  /// too, unless SchedulingGates gated them); with `candidates`, only among the pods it accepts
  /// (AssignedPodAdded's pre-filter).
  void move_for_event(const ClusterEvent& event, const EventObjects& objects, TimeMs now,
                      const std::function<bool(const QueuedPod&)>& candidates = {});
  /// Activate (PodActivator): the pod moves to the active queue, through the PreEnqueue plugins,
  /// when it waits in the unschedulable pool or a backoff queue.
  void activate(const PodInfo& pod);
  /// The same for one pod, gated or not (Update: its own change).
  void requeue_if_helped(QueuedPod& pod, const ClusterEvent& event, const EventObjects& objects,
                         TimeMs now);

  /// The next queue timer at or after `now`.
  [[nodiscard]] std::optional<TimeMs> next_timer(TimeMs now) const;
  /// flushBackoffQCompleted (whole seconds) and flushUnschedulablePodsLeftover (every 30 s).
  void on_timer(TimeMs now);
  [[nodiscard]] bool has_ready() const noexcept { return !active_.empty() || !backoff_.empty(); }
  /// Pods waiting in the unschedulable pool or the error backoff queue.
  template <class F>
  void for_each_waiting(F&& f) const {
    for (const auto& [seq, qp] : unschedulable_) f(*qp);
    for (const auto& entry : error_backoff_) f(*entry.second);
  }

 private:
  enum class Strategy { Skip, AfterBackoff, Immediately };
  struct ActiveLess {
    bool operator()(const QueuedPod* a, const QueuedPod* b) const;
  };
  using BackoffKey = std::pair<TimeMs, QueuedPod*>;
  struct BackoffLess {
    bool operator()(const BackoffKey& a, const BackoffKey& b) const;
  };

  [[nodiscard]] TimeMs backoff_expiry(const QueuedPod& pod) const;
  [[nodiscard]] bool backing_off(const QueuedPod& pod, TimeMs now) const;
  [[nodiscard]] Strategy worth_requeuing(const QueuedPod& pod, const ClusterEvent& event,
                                         const EventObjects& objects) const;
  void requeue(QueuedPod& pod, Strategy strategy, TimeMs now);
  void detach(QueuedPod& pod);
  /// A popped pod: in flight, its attempt counted, its last rejectors forgotten.
  [[nodiscard]] QueuedPod* take(QueuedPod& pod);
  /// runPreEnqueuePlugins: false, with the rejecting plugin as the pod's unschedulable plugin,
  /// when one rejects it.
  [[nodiscard]] bool passes_pre_enqueue(QueuedPod& pod) const;
  /// moveToActiveQ: to the active queue, or gated when a PreEnqueue plugin rejects the pod;
  /// `pre_enqueue` false for a pod leaving the backoff queue (SchedulerPopFromBackoffQ ran the
  /// plugins when it went in).
  void to_active(QueuedPod& pod, bool pre_enqueue = true);
  void to_gated(QueuedPod& pod);
  /// Upstream requeues a PodGroup's pod a plugin rejected into the backoff queue, which Pop takes
  /// from whenever the active queue is empty: such a pod is retried without pause. A retry
  /// against an unchanged cluster gives the same answer and a replay in virtual time cannot
  /// retry without end, so the pod waits in the error backoff queue until its backoff ends or
  /// any event arrives, which moves it (back) to the backoff queue.
  void wake_pod_groups();

  std::int64_t initial_backoff_ms_;
  std::int64_t max_backoff_ms_;
  std::map<const PodInfo*, std::unique_ptr<QueuedPod>> entries_;
  std::set<QueuedPod*, ActiveLess> active_;
  std::set<BackoffKey, BackoffLess> backoff_;
  std::set<BackoffKey, BackoffLess> error_backoff_;
  /// The PodGroup pods a plugin rejected, among error_backoff_'s (wake_pod_groups).
  std::set<BackoffKey, BackoffLess> parked_;
  std::map<std::uint64_t, QueuedPod*> unschedulable_;  // by pod sequence: deterministic order
  std::map<std::uint64_t, QueuedPod*> gated_;
  std::uint64_t first_attempts_ = 0;
};

}  // namespace gpusched
