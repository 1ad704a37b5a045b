#pragma once
/// A scenario's top-level `nvidiaDraDriver`: the values of NVIDIA's DRA driver's Helm chart
/// (dra-driver-nvidia-gpu v0.4.0 values.yaml) that gpusched reads, `{"featureGates": {"Name":
/// true}}` (scenario-format.md §3).

#include <nlohmann/json.hpp>

#include "gpusched/config/nvidia_dra_driver_config.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// Reads `nvidiaDraDriver`. A gate v0.4.0 does not have, or gates its components refuse to
/// start with, fail at their place; a gate gpusched does not model set away from its default is
/// a note (JsonNode::note_not_modelled).
[[nodiscard]] devices::NvidiaDraDriverConfig parse_nvidia_dra_driver(const JsonNode& driver);

/// The `nvidiaDraDriver` key for `config`, which parse_nvidia_dra_driver reads back equal; null
/// when it sets nothing.
[[nodiscard]] nlohmann::json nvidia_dra_driver_json(const devices::NvidiaDraDriverConfig& config);

}  // namespace gpusched::io
