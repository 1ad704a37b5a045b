#pragma once
// Kueue's own feature gates (Kueue v0.19.2 pkg/features/kube_features.go), which a Kueue
// Configuration's `featureGates` sets (pkg/config/validation.go LoadAndValidateFeatureGates).

#include <optional>
#include <string>
#include <string_view>

namespace gpusched {

/// Why Kueue would refuse to start with `name` set to `value`: a gate 0.19 does not have, or one
/// locked to the other value (component-base featuregate's messages); nullopt when it would not.
[[nodiscard]] std::optional<std::string> kueue_feature_gate_error(std::string_view name,
                                                                  bool value);

/// A warning when `value` differs from 0.19's default for a gate that changes admission and that
/// gpusched does not model (it simulates the default); nullopt otherwise.
[[nodiscard]] std::optional<std::string> kueue_feature_gate_warning(std::string_view name,
                                                                    bool value);

}  // namespace gpusched
