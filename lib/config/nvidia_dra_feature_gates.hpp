#pragma once
// The feature gates of NVIDIA's DRA driver for GPUs v0.4.0 (pkg/featuregates/featuregates.go:
// its own gates and the component-base logging gates newFeatureGates registers, plus
// featuregate's AllAlpha and AllBeta), which its chart's `featureGates` value sets.

#include <optional>
#include <string>
#include <string_view>

#include "gpusched/config/nvidia_dra_driver_config.hpp"

namespace gpusched {

/// featuregate.Set's error for a gate v0.4.0 does not know ("unrecognized feature gate: X");
/// nullopt when it knows it. (None of its gates is locked.)
[[nodiscard]] std::optional<std::string> nvidia_dra_feature_gate_error(std::string_view name);

/// Why every component of the driver refuses to start with `config`'s gates
/// (ValidateFeatureGates: gates that exclude or need each other), in its words; nullopt when
/// they may run together.
[[nodiscard]] std::optional<std::string> nvidia_dra_feature_gates_error(
    const devices::NvidiaDraDriverConfig& config);

/// A warning when the gate `name`, set to `value` in `config`, turns a gate gpusched does not
/// model away from its default (AllAlpha and AllBeta: the unset gates of their stage); the
/// default is simulated. nullopt otherwise.
[[nodiscard]] std::optional<std::string> nvidia_dra_feature_gate_warning(
    std::string_view name, bool value, const devices::NvidiaDraDriverConfig& config);

/// Whether gate `name`, one gpusched models (DynamicMIG, NVMLDeviceHealthCheck), is on with
/// `config`: its value when set, else AllAlpha's or AllBeta's for its stage, else its default.
[[nodiscard]] bool nvidia_dra_gate_enabled(const devices::NvidiaDraDriverConfig& config,
                                           std::string_view name);

}  // namespace gpusched
