#pragma once
// One scheduling cycle's state, and the sink explain listens through
// (pkg/scheduler/schedule_one.go: schedulePod, findNodesThatFitPod, prioritizeNodes).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gpusched/framework/cycle_state.hpp"
#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/scheduler/scheduler.hpp"

namespace gpusched {

struct Scheduler::Cycle {
  Cycle(Framework& framework, const PodInfo& pod_)
      : fwk(framework), pod(pod_), state(framework.num_plugins()) {}
  Framework& fwk;
  const PodInfo& pod;
  CycleState state;
  Diagnosis diagnosis;
  /// The nodes Filter runs on: every node, or `subset`; nullptr when PreFilter rejected the pod.
  const std::vector<NodeInfo*>* nodes = nullptr;
  std::vector<NodeInfo*> subset;  ///< the nodes a PreFilterResult left
  std::vector<const NodeInfo*> feasible;
  /// Each feasible node's position in the cluster's node list, when the search went by position
  /// (CycleState::node_positions); else empty.
  std::vector<std::uint32_t> feasible_positions;
  std::size_t processed = 0;  ///< nodes filtered (the round-robin start moves by as many)
};

/// What a cycle tells explain as it runs, where a cycle itself keeps only the first failure per
/// node and the weighted totals.
class Scheduler::CycleSink {
 public:
  virtual ~CycleSink() = default;
  /// Every Filter plugin's verdict on `node` (Framework::filter_verdicts), what each rejecting
  /// plugin says its rejection rests on (FilterPlugin::explain_rejection, "" for the others),
  /// and whether the cycle found it feasible.
  virtual void filtered(const NodeInfo& node, std::span<const Status> verdicts,
                        std::span<const std::string> explanations, bool nominated_pods_counted,
                        bool feasible) = 0;
  /// The feasible nodes' totals, and each Score plugin's normalized scores for them.
  virtual void scored(std::span<const std::int64_t> totals,
                      const std::vector<Framework::PluginScores>& per_plugin) = 0;
  /// The cycle is over (after PostFilter when none fit): its state and diagnosis as they end.
  virtual void finished(const Cycle& cycle) = 0;
};

}  // namespace gpusched
