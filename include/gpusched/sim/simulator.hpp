#pragma once
/// Replays a scenario on a virtual clock with a faithful kube-scheduler.

#include <cstdint>
#include <optional>

#include "gpusched/report/result.hpp"
#include "gpusched/scheduler/kubernetes_version.hpp"
#include "gpusched/sim/scenario.hpp"

namespace gpusched {

/// Overrides from the command line; each wins over the scenario's own setting.
struct SimulationOptions {
  std::optional<TimeMs> until;
  std::optional<std::uint64_t> seed;
  std::optional<KubernetesVersion> kubernetes_version;
  /// The straightforward reference engine instead of the optimized one (same decisions, slower).
  bool reference = false;
};

/// Runs the scenario to its end (or `until`) and checks its expectations. Throws InputError
/// when the timeline is impossible (e.g. deleting an object that does not exist then).
[[nodiscard]] SimulationResult simulate(const Scenario& scenario,
                                        const SimulationOptions& options = {});

}  // namespace gpusched
