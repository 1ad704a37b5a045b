#pragma once
// The parts of explain (explain.cpp): the layer and diagnosis, and the verified remedies.

#include <string>
#include <vector>

#include "gpusched/explain/explain.hpp"
#include "gpusched/sim/result.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched::explain_detail {

/// The cluster as the explained attempt saw it.
struct AttemptView {
  const Scenario& scenario;
  const PodRecord& pod;
  const std::vector<NodeRecord>& nodes;  ///< by name
  const std::vector<PodRecord>& pods;    ///< every pod, by namespace and name
};

/// Whether `node` could hold the pod's requests if nothing else ran there and it were Ready with
/// every GPU of its hardware advertised: layer 1's question.
[[nodiscard]] bool could_hold(const ResourceList& requests, const NodeRecord& node);
/// The same for a node of the pool, from its template.
[[nodiscard]] bool could_hold(const ResourceList& requests, const NodePool& pool,
                              const Scenario& scenario);

/// A node's report in the cycle, if it has one.
[[nodiscard]] const NodeReport* report_of(const CycleReport& cycle, const std::string& node);
/// The plugins whose verdict on the node is a failure.
[[nodiscard]] std::vector<std::string> failing_plugins(const NodeReport& report);

/// Sets explanation.layer and explanation.diagnosis for a pod that is still unbound, from its
/// cycle and groups.
void diagnose_pending(const AttemptView& view, Explanation& explanation);

/// Remedies for an unbound pod, each tried by replaying the scenario with it (with `options`,
/// less their callbacks). `attempt` is the replay stopped at the attempt.
[[nodiscard]] std::vector<Remedy> find_remedies(const AttemptView& view,
                                                const Explanation& explanation, Simulator& attempt,
                                                const SimulationOptions& options);

/// Remedies for a pod the kubelet rejected after binding, each replayed as find_remedies does.
[[nodiscard]] std::vector<Remedy> find_workload_remedies(const AttemptView& view,
                                                         const Explanation& explanation,
                                                         const SimulationOptions& options);

}  // namespace gpusched::explain_detail
