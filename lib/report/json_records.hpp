#pragma once
// JSON of result records that more than one writer prints.

#include <nlohmann/json.hpp>

#include "gpusched/report/result.hpp"

namespace gpusched::report {

/// {"time", "preemptor", "node", "victims": [{"pod", "priority", "gpus", "ran", "lostGpuTime"}]}.
[[nodiscard]] nlohmann::ordered_json preemption_json(const PreemptionRecord& preemption);

}  // namespace gpusched::report
