#pragma once
/// Replays a scenario on a virtual clock with a faithful kube-scheduler.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/kubernetes_version.hpp"
#include "gpusched/framework/registry.hpp"
#include "gpusched/scenario/scenario.hpp"
#include "gpusched/scheduler/cycle_report.hpp"
#include "gpusched/scheduler/placement.hpp"
#include "gpusched/scheduler/scheduler.hpp"
#include "gpusched/sim/result.hpp"

namespace gpusched {

/// How far a replay has got, for a progress display.
struct Progress {
  TimeMs now = 0;            ///< the virtual clock
  std::uint64_t cycles = 0;  ///< scheduling cycles run so far
  std::uint64_t bound = 0;   ///< bindings so far
  std::uint64_t pods = 0;    ///< pods that exist now
};

/// A pod bound to a node.
struct Binding {
  TimeMs time = 0;
  std::string pod;  ///< "ns/name"
  std::string node;
};

/// Callbacks a replay makes as things happen, on the replaying thread with the clock at the
/// moment reported. Each is optional and only observes: the replay is the same without them.
struct Observer {
  /// An Event was recorded, or a repeat raised the count of one recorded before (the record
  /// then carries the new count, last time and message).
  std::function<void(const EventRecord&)> event;
  /// The scheduler bound a pod (the kubelet may still reject it: watch the events).
  std::function<void(const Binding&)> bound;
  /// A preemption evicted its victims.
  std::function<void(const PreemptionRecord&)> preemption;
};

/// Overrides from the command line; each wins over the scenario's own setting.
struct SimulationOptions {
  std::optional<TimeMs> until;
  std::optional<std::uint64_t> seed;
  std::optional<KubernetesVersion> kubernetes_version;
  /// The straightforward reference engine instead of the optimized one (same decisions, slower).
  bool reference = false;
  /// Called every 4,096 scheduling cycles and whenever the virtual clock moves; it only
  /// observes (the replay is the same with or without it).
  std::function<void(const Progress&)> progress;
  Observer observer;
  /// Fill SimulationResult::pod_spans (the HTML report's timelines): a record per pod instance,
  /// about 200 bytes each, kept to the end.
  bool record_pod_spans = false;
  /// Check after every instant what must always hold (each node's allocated amounts are the sum
  /// of its pods' requests and within allocatable, devices match requests): a broken invariant
  /// throws InternalError. Always on when the library is built without NDEBUG.
  bool check_invariants = false;
  /// Out-of-tree plugins: each profile may enable them by name, as the in-tree ones
  /// (docs/library.md, "Writing a plugin").
  Registry plugins;
};

/// Runs the scenario to its end (or `until`) and checks its expectations. Throws InputError
/// when the timeline is impossible (e.g. deleting an object that does not exist then).
[[nodiscard]] SimulationResult simulate(const Scenario& scenario,
                                        const SimulationOptions& options = {});

/// Kueue's objects as the API server holds them at an instant (every map empty when the
/// scenario does not use Kueue): what explain reads to tell a Workload's quota story.
struct KueueState {
  std::map<std::string, kueue::ResourceFlavor> resource_flavors;  ///< by name
  std::map<std::string, kueue::ClusterQueue> cluster_queues;      ///< by name
  std::map<std::string, kueue::LocalQueue> local_queues;          ///< by "ns/name"
  std::map<std::string, kueue::Cohort> cohorts;                   ///< by name
  std::map<std::string, kueue::Workload> workloads;               ///< by "ns/name"
};

namespace sim {
class Simulation;
}

/// A replay to drive step by step: look at the cluster between instants and ask it one-shot
/// questions. Stepping to the end and calling finish() gives what simulate() gives.
class Simulator {
 public:
  /// Loads the starting cluster (InputError when it is impossible, or at `/scheduler/profiles/<i>`
  /// when a profile cannot run). The clock reads 0 and nothing has been scheduled yet.
  explicit Simulator(Scenario scenario, const SimulationOptions& options = {});
  ~Simulator();
  Simulator(Simulator&&) noexcept;
  Simulator& operator=(Simulator&&) noexcept;

  /// The instant the next step() runs; nullopt when the replay is over (nothing left to happen,
  /// or the next thing lies past `until`).
  [[nodiscard]] std::optional<TimeMs> next_time() const;
  /// Runs the next instant: the timeline's actions and the controllers, nodes and pods that
  /// change then, the scheduling cycles and the expectations due. False, doing nothing, when
  /// the replay is over. Throws InputError when an action is impossible at that time; the
  /// replay is over then too (later calls throw InputError).
  bool step();
  /// Steps while the next instant is at or before `time`.
  void run_until(TimeMs time);
  /// The virtual clock: the instant last run.
  [[nodiscard]] TimeMs now() const;

  /// The pods and nodes now, as a result ending now would show them.
  [[nodiscard]] std::vector<PodRecord> pods() const;
  [[nodiscard]] std::vector<NodeRecord> nodes() const;
  /// Kueue's Workloads now, as a result ending now would show them (empty without Kueue).
  [[nodiscard]] std::vector<WorkloadRecord> workloads() const;
  /// Kueue's objects now.
  [[nodiscard]] KueueState kueue_state() const;

  /// Where `pod` would go if it were the next pod scheduled now, and each node's verdict; when
  /// nothing fits, preemption runs as a dry run. The replay is left exactly as it was (its random
  /// source included). The pod is admitted as the API server would (namespace "default" when
  /// empty, priorityClassName resolved); InputError when it is invalid or already bound.
  [[nodiscard]] Placement schedule_one(const Pod& pod);
  /// How many more copies of `pod` fit now, each placed where the scheduler would put it
  /// (ties: the first node by name) without preemption, counting up to `limit` (at most
  /// 1,000,000; InputError at `count_fits` beyond). The replay is left as it was.
  [[nodiscard]] FitCount count_fits(const Pod& pod, std::int64_t limit);
  /// The next scheduling cycle of the replay's unbound pod `pod` ("ns/name") now, told in full
  /// (every Filter and Score plugin on every node, preemption's dry run on every node) and
  /// without its effects; with `priority`, as if the pod had that priority. InputError when
  /// there is no such pod now or it is bound.
  [[nodiscard]] CycleReport report_cycle(std::string_view pod,
                                         std::optional<std::int32_t> priority = std::nullopt);

  /// The gang of the pod `pod` ("ns/name") as GangScheduling sees it now; nullopt without such
  /// a pod, a workloadRef, or the plugin.
  [[nodiscard]] std::optional<GangStatus> gang_status(std::string_view pod) const;

  /// True when the unbound pod `pod`'s last scheduling attempt failed against the cluster as it
  /// is now (nothing the scheduler reads has changed since): report_cycle now tells that attempt.
  [[nodiscard]] bool last_attempt_current(std::string_view pod) const;

  /// Runs the rest of the replay and returns its result, as simulate() would. Once: afterwards
  /// only destruction is allowed (InputError otherwise). To end earlier, set `until`.
  [[nodiscard]] SimulationResult finish();

 private:
  [[nodiscard]] sim::Simulation& live() const;
  /// Runs `run` on the replay; an exception ends the replay.
  template <typename Run>
  auto stepping(Run run);
  std::unique_ptr<Scenario> scenario_;  // the replay refers to it
  std::unique_ptr<sim::Simulation> simulation_;
};

}  // namespace gpusched
