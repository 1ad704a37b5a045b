#pragma once
/// `gpusched explain`: why a pod is Pending (per node, per plugin, per layer of a GPU cluster)
/// and what would schedule it, each remedy verified by replaying the scenario with it
/// (scenario-format.md §4).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/kueue.hpp"
#include "gpusched/model/time.hpp"
#include "gpusched/scenario/scenario.hpp"
#include "gpusched/scheduler/cycle_report.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {

/// Where in a GPU cluster the cause lies (the contract's `layer` values).
enum class Layer {
  CapacitySupply,  ///< no node type in the scenario could ever hold the pod
  Provisioning,    ///< nodes that would hold it are not Ready, not advertising, or unhealthy
  Scheduling,      ///< capacity exists but is taken, or policy rejects the pod
  Workload,        ///< bound, then rejected by the kubelet, or failed
  None,            ///< the pod runs
};

/// "capacity-supply", "provisioning", "scheduling", "workload", "none".
[[nodiscard]] std::string_view to_string(Layer layer) noexcept;

/// Nodes that the cycle rejected alike: the same plugins with the same reasons (and the same
/// shortfall). `plugin` and `reasons` are the first failing plugin's, the one kube-scheduler's
/// message counts; `also` lists the other failing plugins as "Plugin: reason, reason".
struct VerdictGroup {
  std::string plugin;
  std::vector<std::string> reasons;
  std::string detail;  ///< FilterVerdict::detail of the first failing plugin
  std::vector<std::string> also;
  std::vector<std::string> nodes;  ///< by name
};

/// A change that would schedule the pod, tried by replaying the scenario with it.
struct Remedy {
  std::string change;  ///< in plain words
  bool verified = false;
  std::optional<TimeMs> scheduled_at;  ///< when the pod (or its replacement) was bound
  std::string node;                    ///< where
  /// For a change that does not count although the pod then runs, why (it runs elsewhere than
  /// on the nodes the change adds); empty otherwise.
  std::string why_not;
};

struct Explanation {
  std::string pod;  ///< "ns/name"
  /// The last scheduling attempt at or before the time asked for; for a pod never attempted,
  /// that time.
  TimeMs time = 0;
  std::string phase;  ///< Pending, Running, Succeeded, Failed
  std::string node;   ///< the node it is bound to, if any
  /// The attempt's FailedScheduling message as recorded, word for word (for a pod the kubelet
  /// rejected, its status message).
  std::string message;
  Layer layer = Layer::None;
  std::string diagnosis;  ///< plain words
  /// The attempt told in full; empty for a pod that is bound.
  CycleReport cycle;
  std::vector<VerdictGroup> groups;  ///< rejected nodes, largest group first
  std::vector<Remedy> remedies;
};

struct ExplainOptions {
  /// Explain the pod as of this time; nullopt: the end of the replay.
  std::optional<TimeMs> at;
  /// Try remedies (each costs a replay).
  bool remedies = true;
  SimulationOptions simulation;
};

/// Explains the pod `pod` ("ns/name") of the scenario. Throws InputError when the pod does not
/// exist at that time, or the scenario cannot be replayed.
[[nodiscard]] Explanation explain(const Scenario& scenario, std::string_view pod,
                                  const ExplainOptions& options = {});

/// Explains pods of a replay as it stands now, without replaying: each pod's next cycle told in
/// full (rather than its last attempt), its layer and diagnosis, and no remedies. For reports of
/// many pods at once. Throws InputError for a pod that does not exist now.
[[nodiscard]] std::vector<Explanation> explain_now(Simulator& simulator, const Scenario& scenario,
                                                   const std::vector<std::string>& pods);

/// One flavor's quota for one resource of a pod set, as Kueue's flavor assigner weighs it.
/// Quantities are in Kueue's units, written as Kubernetes quantities ("16", "500m").
struct KueueFlavorQuota {
  std::string flavor;
  std::string nominal_quota;                   ///< the ClusterQueue's own
  std::optional<std::string> borrowing_limit;  ///< nullopt: no limit within the cohort
  std::string usage;                           ///< what its admitted Workloads hold
  /// Kueue's Available: what the ClusterQueue can still take now, borrowing included.
  std::string available;
  /// What its cohort has unused (its subtree quota less its usage); nullopt: no cohort.
  std::optional<std::string> cohort_unused;
  /// The flavor assigner's reasons against this flavor for this pod set, word for word
  /// ("insufficient unused quota for nvidia.com/gpu in flavor a100, 4 more needed"); empty:
  /// it fits.
  std::vector<std::string> reasons;
};

/// One resource of one pod set: its request and every flavor of the ClusterQueue's resource
/// group that covers it, in the ClusterQueue's order.
struct KueueResourceQuota {
  std::string pod_set;
  std::string resource;
  std::string requested;  ///< the whole pod set's (every pod's)
  std::vector<KueueFlavorQuota> flavors;
};

/// A Workload Kueue's preemptor would evict to admit the explained one (Kueue's GetTargets).
struct KueueVictim {
  std::string workload;       ///< "ns/name"
  std::string cluster_queue;  ///< its ClusterQueue
  /// InClusterQueue, InCohortReclamation or InCohortReclaimWhileBorrowing.
  std::string reason;
};

/// Why a Workload of Kueue waits (or that it is admitted), and what would admit it.
struct KueueExplanation {
  std::string job;            ///< "ns/name" of the Job it stands for; empty when it has none
  std::string workload;       ///< "ns/name"
  TimeMs time = 0;            ///< the instant told
  std::string local_queue;    ///< "ns/name"
  std::string cluster_queue;  ///< of its admission, else the one its LocalQueue names
  std::string cohort;         ///< the ClusterQueue's; empty: none
  std::int32_t priority = 0;
  bool admitted = false;
  bool finished = false;
  /// Finished when finished, Admitted when admitted, else QuotaReserved: Kueue's reason and
  /// message, word for word.
  std::optional<kueue::Condition> condition;
  /// Pod set -> resource -> flavor of its admission; empty when it holds no quota.
  std::map<std::string, std::map<std::string, std::string>> flavors;
  /// Per pod set and resource, the quota story; empty when it holds quota.
  std::vector<KueueResourceQuota> quota;
  /// When the flavors it needs can be freed by preemption now, the Workloads Kueue would evict.
  std::vector<KueueVictim> would_preempt;
  std::string diagnosis;  ///< plain words
  /// Changes that would admit it sooner and run its pods, each verified by a replay: only
  /// those that work (Remedy::scheduled_at: when its last pod was bound).
  std::vector<Remedy> remedies;
};

/// Explains the Kueue Workload named by `object`: "Job/ns/name" (the Workload Kueue made for the
/// Job) or "Workload/ns/name", as of `options.at` (default: the end of the replay). Throws
/// InputError when there is no such Workload then.
[[nodiscard]] KueueExplanation explain_workload(const Scenario& scenario, std::string_view object,
                                                const ExplainOptions& options = {});

/// Groups a cycle's rejected nodes by their verdicts, largest group first (ties by first node).
[[nodiscard]] std::vector<VerdictGroup> group_verdicts(const CycleReport& cycle);

}  // namespace gpusched
