#pragma once
/// Queue wait: how long pods waited from creation to their first bind, the figure a capacity
/// planner sets objectives on (`wait.p95 < 10m`), for the fleet, per priority class and per
/// namespace.

#include <cstddef>
#include <map>
#include <string>

#include "gpusched/report/result.hpp"
#include "gpusched/sim/time.hpp"

namespace gpusched::report {

/// Nearest-rank percentiles of the waits of `pods` pods (all zero when there are none).
struct WaitStats {
  std::size_t pods = 0;
  TimeMs p50 = 0;
  TimeMs p95 = 0;
  TimeMs p99 = 0;
  TimeMs max = 0;
};

struct QueueWait {
  WaitStats all;  ///< every pod that was bound at least once
  /// By spec.priorityClassName ("" for pods without one).
  std::map<std::string, WaitStats> by_priority_class;
  std::map<std::string, WaitStats> by_namespace;
  /// Pods never bound by the end of the run: not in the figures above, since their wait has no
  /// end yet. `longest_pending` is how long the oldest of them has waited at the end.
  std::size_t never_bound = 0;
  TimeMs longest_pending = 0;
};

/// The queue wait of a replay's pods (PodRecord::created to PodRecord::scheduled).
[[nodiscard]] QueueWait queue_wait(const SimulationResult& result);

}  // namespace gpusched::report
