#pragma once
/// The `scheduler` key of a scenario: KubeSchedulerConfiguration's fields that gpusched models,
/// validated as kube-scheduler validates its configuration.

#include <string>
#include <vector>

#include "gpusched/config/scheduler_config.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// Names of out-of-tree plugins a profile may mention besides the in-tree ones.
using OutOfTree = std::vector<std::string>;

/// Parses and validates `node` (rebased, so messages read `profiles[0].plugins...`).
[[nodiscard]] SchedulerConfig parse_scheduler_config(const JsonNode& node,
                                                     const OutOfTree& out_of_tree = {});

}  // namespace gpusched::io
