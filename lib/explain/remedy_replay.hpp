#pragma once
// What every remedy needs: where the pod's spec comes from in the scenario, the scenario with a
// change, and a replay that tells whether the pod then runs.

#include <optional>
#include <string>
#include <vector>

#include "explain/explain_parts.hpp"
#include "gpusched/explain/explain.hpp"
#include "gpusched/sim/result.hpp"

namespace gpusched::explain_detail {

/// Where the pod's spec comes from in a scenario: the Pod itself, or the template of the
/// controller that named it (the longest "<name>-" prefix in its namespace).
struct PodSource {
  PodSpec* spec = nullptr;  ///< null when neither is in the scenario
  std::string owner;        ///< "<Kind> <name>" for a template, empty for the pod itself
  std::string prefix;       ///< the template's pods' name prefix
  /// "the pod's spec" or "Deployment web's pod template", for a remedy's words.
  [[nodiscard]] std::string where() const;
};
[[nodiscard]] PodSource pod_source(Scenario& scenario, const Pod& pod);
/// Whether the spec the pod comes from sets spec.nodeName: it was bound without the scheduler.
[[nodiscard]] bool bound_by_manifest(const Scenario& scenario, const Pod& pod);

/// The node as the scenario declares it (a pool node: its pool's template), as a new node: named
/// "<name>-copy" (or -copy-2, ... when taken), Ready, uncordoned, and in no pool. nullopt when
/// the scenario does not declare it.
[[nodiscard]] std::optional<Node> declared_copy(const Scenario& scenario, const std::string& name,
                                                const std::vector<NodeRecord>& nodes);

/// Replays changed scenarios and reads whether the explained pod then runs.
class RemedyReplay {
 public:
  /// `options` less their callbacks and `until`: a remedy may take effect after the time asked.
  RemedyReplay(const AttemptView& view, const Explanation& explanation,
               const SimulationOptions& options);

  /// The scenario, to change, without its expectations.
  [[nodiscard]] Scenario copy() const;
  /// The scenario with `action` at the explained attempt's instant.
  [[nodiscard]] Scenario at_attempt(Action action) const;
  /// Replays `changed`: the change works when the pod runs sooner than without it (or at all).
  /// The pod is found by its name; after a change to a controller's template (`prefix` set) its
  /// pods and their names all change: the change works when more of them run than without it,
  /// and the remedy reports the one bound last. With `on_nodes`, it works only when the pod runs
  /// on one of them (nodes the change adds); elsewhere, why_not says where it runs.
  [[nodiscard]] Remedy verify(const Scenario& changed, std::string change,
                              const std::string& prefix = {},
                              const std::vector<std::string>& on_nodes = {});

 private:
  [[nodiscard]] bool of(const PodRecord& record, const std::string& prefix) const;
  [[nodiscard]] std::size_t running(const SimulationResult& result,
                                    const std::string& prefix) const;
  /// The unchanged scenario's replay with the same options, made when first needed.
  const SimulationResult& baseline();

  const AttemptView& view_;
  const Explanation& explanation_;
  SimulationOptions options_;
  std::optional<SimulationResult> baseline_;
};

}  // namespace gpusched::explain_detail
