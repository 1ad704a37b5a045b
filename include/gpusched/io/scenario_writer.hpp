#pragma once
/// Writing a scenario file from a Scenario value (a live-cluster snapshot, an imported trace),
/// so that it can be kept, checked and replayed like a hand-written one.

#include <string>

#include "gpusched/scenario/scenario.hpp"

namespace gpusched::io {

/// The scenario as JSON text that load_scenario reads back equal: name, description, startTime,
/// the scheduler's seed and version (when not the defaults), cluster with the objects' times,
/// timeline, until and `expect`; the profiles' names and plugin sets when a profile enables or
/// disables plugins. Plugin arguments and device-plugin settings are not written: the scenario
/// must use the defaults.
[[nodiscard]] std::string scenario_json_text(const Scenario& scenario);

}  // namespace gpusched::io
