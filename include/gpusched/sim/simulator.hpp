#pragma once
/// Replays a scenario on a virtual clock with a faithful kube-scheduler.

#include <cstdint>
#include <functional>
#include <optional>

#include "gpusched/report/result.hpp"
#include "gpusched/scheduler/kubernetes_version.hpp"
#include "gpusched/sim/scenario.hpp"

namespace gpusched {

/// How far a replay has got, for a progress display.
struct Progress {
  TimeMs now = 0;            ///< the virtual clock
  std::uint64_t cycles = 0;  ///< scheduling cycles run so far
  std::uint64_t bound = 0;   ///< bindings so far
  std::uint64_t pods = 0;    ///< pods that exist now
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
};

/// Runs the scenario to its end (or `until`) and checks its expectations. Throws InputError
/// when the timeline is impossible (e.g. deleting an object that does not exist then).
[[nodiscard]] SimulationResult simulate(const Scenario& scenario,
                                        const SimulationOptions& options = {});

}  // namespace gpusched
