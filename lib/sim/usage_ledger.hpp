#pragma once
// Time-weighted allocation: what each node offered and what its pods requested, integrated over
// the virtual clock as ClusterState reports each change (NodeObserver).

#include <cstdint>
#include <utility>
#include <vector>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/report/result.hpp"
#include "plugins/helpers.hpp"

namespace gpusched::sim {

class UsageLedger {
 public:
  /// Reads the clock through `now` at each change.
  UsageLedger(const ClusterState& cluster, const TimeMs& now) : cluster_(cluster), now_(now) {}

  /// The NodeObserver: integrates the node's values up to now before they change.
  void observe(const NodeInfo& node, NodeChange change);
  /// Closes the nodes still in the cluster now and returns every stay, ordered by node name then
  /// start. Call once, at the end of the run.
  [[nodiscard]] std::vector<NodeUsage> finish();

 private:
  // milli-units x milliseconds: a TiB of memory for a year is ~3e25, beyond 64 bits.
  using Integral = plugins::Int128;
  struct Open {
    TimeMs from = 0;
    TimeMs last = 0;  // when the integrals were last brought up to date
    std::vector<std::pair<ResId, Integral>> allocatable;
    std::vector<std::pair<ResId, Integral>> requested;
  };

  void integrate(const NodeInfo& node, Open& open) const;
  void close(const NodeInfo& node, Open& open);

  const ClusterState& cluster_;
  const TimeMs& now_;
  std::vector<Open> open_;  // by NodeInfo::slot (never reused)
  std::vector<NodeUsage> closed_;
};

}  // namespace gpusched::sim
