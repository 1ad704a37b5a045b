#pragma once
// JSON of result records that more than one writer prints.

#include <string>

#include <nlohmann/json.hpp>

#include "gpusched/report/result.hpp"

namespace gpusched::report {

/// The string, or null when it is empty (an unset field).
[[nodiscard]] nlohmann::ordered_json string_or_null(const std::string& value);

/// {"time", "preemptor", "node", "victims": [{"pod", "priority", "gpus", "ran", "lostGpuTime"}]}.
[[nodiscard]] nlohmann::ordered_json preemption_json(const PreemptionRecord& preemption);

}  // namespace gpusched::report
