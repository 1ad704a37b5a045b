#pragma once
/// The `expect` list of a scenario: assertions on pods, pod counts, nodes and events
/// (scenario-format.md, "Assertions").

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusched/scenario/scenario.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// Most assertions a scenario may hold.
inline constexpr std::size_t kMaxExpectations = 10'000;

/// Parses the expect array at `node`; an `at` later than `until` is an error.
[[nodiscard]] std::vector<Expectation> parse_expectations(const JsonNode& node,
                                                          std::optional<TimeMs> until);

/// One assertion as a scenario writes it; parse_expectations reads it back equal.
[[nodiscard]] nlohmann::json expectation_json(const Expectation& expectation);

}  // namespace gpusched::io
