#pragma once
/// Wall-clock timestamps of real objects (metav1.Time, RFC 3339) and the virtual clock: a
/// scenario's `startTime` is the instant virtual 0 stands for, so an exported object's
/// creationTimestamp, startTime and deletionTimestamp become virtual times (negative: before the
/// replay starts).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "gpusched/model/object.hpp"
#include "gpusched/model/time.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// The RFC 3339 time at `node`, failing with the expected format otherwise.
[[nodiscard]] std::int64_t read_rfc3339(const JsonNode& node);

/// The wall-clock times `item` carries (metadata.creationTimestamp, metadata.deletionTimestamp,
/// a pod's status.startTime), made relative to `start_unix_ms` and stored into `object`, which
/// parse_object read from `item`. A creation or a start after `start_unix_ms` is refused, except
/// that with `clamp_starts` (a snapshot, whose caller warned of the clock skew) a start after it
/// is read as at it.
void read_object_times(const JsonNode& item, std::int64_t start_unix_ms, Object& object,
                       bool clamp_starts = false);

/// The reverse for writing a scenario: those fields of `out` (to_json of `object`) set from its
/// virtual times, for a scenario whose startTime is `start_unix_ms`.
void write_object_times(const Object& object, std::int64_t start_unix_ms, nlohmann::json& out);

}  // namespace gpusched::io
