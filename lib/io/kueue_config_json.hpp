#pragma once
/// A scenario's top-level `kueue`: {"configuration": <config.kueue.x-k8s.io/v1beta2
/// Configuration>} (Kueue v0.19.2: apis/config/v1beta2), defaulted as
/// apis/config/v1beta2/defaults.go and validated as pkg/config/validation.go, with its messages.

#include <nlohmann/json.hpp>

#include "gpusched/config/kueue_config.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// Reads `kueue` (the scenario's key). Fields that change admission but are not modelled are
/// notes (JsonNode::note_not_modelled); the manager's own settings (webhook, metrics, leader
/// election, ...) are accepted silently.
[[nodiscard]] KueueConfiguration parse_kueue(const JsonNode& kueue);

/// The `kueue` key for `config`, which parse_kueue reads back equal.
[[nodiscard]] nlohmann::json kueue_json(const KueueConfiguration& config);

}  // namespace gpusched::io
