#pragma once
/// Virtual time: integer milliseconds since the start of the run.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpusched {

/// Virtual milliseconds.
using TimeMs = std::int64_t;

/// Parses a Go/Kubernetes duration ("0s", "90s", "1m30s", "2h", "1.5s", "250ms") into
/// milliseconds. Returns nullopt and sets `error` when malformed, negative or beyond ~292 years.
[[nodiscard]] std::optional<TimeMs> parse_duration(std::string_view text, std::string* error);

/// Compact duration text: "0s", "90ms", "1.5s", "1m30s", "10m", "2h5m". Round-trips through
/// parse_duration.
[[nodiscard]] std::string format_duration(TimeMs ms);

}  // namespace gpusched
