#pragma once
// The planning commands' search: the smallest value of one knob (a pool's size, a ClusterQueue's
// nominal quota) whose replay meets objectives.

#include <cstdint>
#include <functional>
#include <vector>

#include "gpusched/plan/plan.hpp"

namespace gpusched::plan {

/// Searches [min, max] for the smallest value whose scenario (`scenario_at(value)`, its
/// expectations left out) meets every objective, assuming a larger value never makes one worse:
/// each round replays up to `jobs` values (kDefaultPlanWidth when 0) spread evenly over those
/// still in doubt, so the values tried depend on the arguments alone. Trials are by value, in
/// PlanTrial::size. Throws InputError for an objective whose bound does not suit its metric,
/// whose metric no replay has, or that names a Kueue queue the replays do not have, and for what
/// a replay throws.
[[nodiscard]] PoolPlan search_smallest(std::int32_t min, std::int32_t max,
                                       const std::vector<report::Objective>& objectives,
                                       unsigned jobs, const SimulationOptions& options,
                                       const std::function<Scenario(std::int32_t)>& scenario_at);

}  // namespace gpusched::plan
