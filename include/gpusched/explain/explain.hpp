#pragma once
/// `gpusched explain`: why a pod is Pending (per node, per plugin, per layer of a GPU cluster)
/// and what would schedule it, each remedy verified by replaying the scenario with it
/// (scenario-format.md §4).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

/// Groups a cycle's rejected nodes by their verdicts, largest group first (ties by first node).
[[nodiscard]] std::vector<VerdictGroup> group_verdicts(const CycleReport& cycle);

}  // namespace gpusched
