#pragma once
// JSON of result records that more than one writer prints.

#include <string>

#include <nlohmann/json.hpp>

#include "gpusched/report/metrics.hpp"
#include "gpusched/sim/result.hpp"

namespace gpusched::report {

/// The string, or null when it is empty (an unset field).
[[nodiscard]] nlohmann::ordered_json string_or_null(const std::string& value);

/// {"time", "preemptor", "node", "victims": [{"pod", "priority", "gpus", "ran", "lostGpuTime"}]}.
[[nodiscard]] nlohmann::ordered_json preemption_json(const PreemptionRecord& preemption);

/// {"<metric>": value, ...} in the metrics' order; values as plain_metric gives them (durations
/// in milliseconds, ratios as fractions), as JSON numbers.
[[nodiscard]] nlohmann::ordered_json metrics_json(const std::vector<Metric>& metrics);

}  // namespace gpusched::report
