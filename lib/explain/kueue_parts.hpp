#pragma once
// The parts of explain for a Kueue Workload (kueue_explain.cpp): the quota tree as Kueue's cache
// holds it at an instant, and the remedies, each verified by a replay.

#include <string>
#include <vector>

#include "gpusched/explain/explain.hpp"
#include "gpusched/sim/simulator.hpp"
#include "kueue/quota_tree.hpp"

namespace gpusched::explain_detail {

/// Kueue's cache at an instant: the quota tree of the ClusterQueues and Cohorts, with the usage
/// of every Workload that holds quota and has not finished (as the Kueue component keeps it).
[[nodiscard]] kueue::QuotaTree quota_tree(const KueueState& state);

/// Remedies for the pending Workload `explanation` tells, each a change to its ClusterQueue at
/// the instant told, replayed with `options` (less their callbacks): a higher nominal quota, a
/// higher borrowing limit, another flavor. Only those that admit it sooner and bind its pods.
[[nodiscard]] std::vector<Remedy> find_kueue_remedies(const Scenario& scenario,
                                                      const KueueState& state,
                                                      const KueueExplanation& explanation,
                                                      const SimulationOptions& options);

}  // namespace gpusched::explain_detail
