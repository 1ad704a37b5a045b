#pragma once
/// The `timeline` of a scenario: timed actions, each with exactly one verb.

#include <vector>

#include "gpusched/sim/scenario.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// Most actions a timeline may hold.
inline constexpr std::size_t kMaxTimelineActions = 100'000;

/// Parses the timeline array at `node`: time order, one verb per action, objects validated.
[[nodiscard]] std::vector<Action> parse_timeline(const JsonNode& node);

}  // namespace gpusched::io
