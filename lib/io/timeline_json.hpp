#pragma once
/// The `timeline` of a scenario: timed actions, each with exactly one verb.

#include <vector>

#include <nlohmann/json.hpp>

#include "gpusched/scenario/scenario.hpp"
#include "io/json_node.hpp"
#include "io/kind_filter.hpp"

namespace gpusched::io {

/// Most actions a timeline may hold.
inline constexpr std::size_t kMaxTimelineActions = 100'000;

/// Parses the timeline array at `node`: time order, one verb per action, objects validated;
/// `apply` objects of kinds gpusched does not model go to `kinds` instead.
[[nodiscard]] std::vector<Action> parse_timeline(const JsonNode& node, KindFilter& kinds);

/// One action as a scenario writes it, `at` first; parse_timeline reads it back equal (its
/// pointer aside).
[[nodiscard]] nlohmann::ordered_json action_json(const Action& action);

}  // namespace gpusched::io
