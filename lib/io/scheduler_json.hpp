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

/// Parses and validates `node` (rebased, so messages read `profiles[0].plugins...`). A feature
/// gate set to a value gpusched does not model is an error when `strict`, else appended to
/// `not_modelled` (when given) as `file:line: pointer: reason`.
[[nodiscard]] SchedulerConfig parse_scheduler_config(
    const JsonNode& node, const OutOfTree& out_of_tree = {}, bool strict = false,
    std::vector<std::string>* not_modelled = nullptr);

}  // namespace gpusched::io
