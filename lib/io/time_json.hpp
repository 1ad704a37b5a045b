#pragma once
/// Times in a scenario: Go duration strings ("90s", "1m30s") or non-negative numbers of seconds
/// with at most millisecond precision.

#include <optional>
#include <string>
#include <string_view>

#include "gpusched/model/time.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// A time value: a string as parse_time_text (model/time.hpp), or a JSON number of seconds.
[[nodiscard]] TimeMs parse_time(const JsonNode& node);

}  // namespace gpusched::io
