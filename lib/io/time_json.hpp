#pragma once
/// Times in a scenario: Go duration strings ("90s", "1m30s") or non-negative numbers of seconds
/// with at most millisecond precision.

#include <optional>
#include <string>
#include <string_view>

#include "gpusched/sim/time.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// Parses text that is a Go duration or a plain decimal number of seconds ("180", "1.5").
/// Returns nullopt and sets `error` otherwise.
[[nodiscard]] std::optional<TimeMs> parse_time_text(std::string_view text, std::string* error);

/// A time value: a string as parse_time_text, or a JSON number of seconds.
[[nodiscard]] TimeMs parse_time(const JsonNode& node);

}  // namespace gpusched::io
