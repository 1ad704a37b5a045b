#pragma once
/// The `scheduler` key of a scenario: KubeSchedulerConfiguration's fields that gpusched models,
/// validated as kube-scheduler validates its configuration.

#include "gpusched/scheduler/config.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// Parses and validates `node` (rebased, so messages read `profiles[0].plugins...`).
[[nodiscard]] SchedulerConfig parse_scheduler_config(const JsonNode& node);

}  // namespace gpusched::io
