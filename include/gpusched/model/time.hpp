#pragma once
/// Virtual time: integer milliseconds since the start of the run; and wall-clock times of real
/// objects (RFC 3339), which a scenario's startTime maps onto it.

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

/// A non-negative decimal number of seconds with at most three decimals ("180", "1.5",
/// "0.250"), read exactly; nullopt otherwise or beyond ~292 years.
[[nodiscard]] std::optional<TimeMs> parse_seconds(std::string_view text);

/// A time as a scenario writes it: a number of seconds as parse_seconds, or a Go duration as
/// parse_duration. Returns nullopt and sets `error` otherwise (`negative times are not allowed,
/// got "-1"` for a negative number or duration).
[[nodiscard]] std::optional<TimeMs> parse_time_text(std::string_view text, std::string* error);

/// Compact duration text: "0s", "90ms", "1.5s", "1m30s", "10m", "2h5m". Round-trips through
/// parse_duration.
[[nodiscard]] std::string format_duration(TimeMs ms);

/// Milliseconds since the Unix epoch of an RFC 3339 time as the API server writes it
/// ("2026-11-30T04:05:06Z", also with fractional seconds or a "+01:00" offset); nullopt when
/// malformed or outside years 0001-9999.
[[nodiscard]] std::optional<std::int64_t> parse_rfc3339(std::string_view text);
/// "2026-11-30T04:05:06Z", with ".250" before the Z when not a whole second.
[[nodiscard]] std::string format_rfc3339(std::int64_t unix_ms);

}  // namespace gpusched
