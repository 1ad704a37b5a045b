#pragma once
// The texts of k8s.io/component-base/featuregate's errors, which kube-scheduler's --feature-gates
// and Kueue's Configuration featureGates both print.

#include <string>
#include <string_view>

namespace gpusched {

inline std::string bool_text(bool value) {
  return value ? "true" : "false";
}

/// featuregate.Set for a gate it does not know: "unrecognized feature gate: NAME".
inline std::string unrecognized_gate_text(std::string_view name) {
  return "unrecognized feature gate: " + std::string(name);
}

/// featuregate.Set for a gate locked to `locked_to`, set to the other value.
inline std::string locked_gate_text(std::string_view name, bool value, bool locked_to) {
  return "cannot set feature gate " + std::string(name) + " to " + bool_text(value) +
         ", feature is locked to " + bool_text(locked_to);
}

}  // namespace gpusched
