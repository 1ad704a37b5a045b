#pragma once
// GPU sharing over time: each state of each node with alibabacloud.com GPUs (its CPU left, its
// GPUs' free milli) and how long it held, as ClusterState reports each change (NodeObserver).
// The report weighs them against the run's typical pods, known only at the end.

#include <optional>
#include <vector>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/sim/result.hpp"

namespace gpusched::sim {

class GpuShareLedger {
 public:
  /// Reads the clock through `now` at each change.
  explicit GpuShareLedger(const TimeMs& now) : now_(now) {}

  /// The NodeObserver: the node's state so far ends now (a node just added starts one).
  void observe(const NodeInfo& node, NodeChange change);
  /// Closes the states of the nodes still in `cluster` now and returns every state that held
  /// for some time, in the order they ended. Call once, at the end of the run.
  [[nodiscard]] std::vector<GpuShareInterval> finish(const ClusterState& cluster);

 private:
  void close(const NodeInfo& node);

  const TimeMs& now_;
  std::vector<std::optional<TimeMs>> since_;  // by NodeInfo::slot: when its state began
  std::vector<GpuShareInterval> out_;
};

}  // namespace gpusched::sim
