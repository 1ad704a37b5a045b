#pragma once
/// NVIDIA's DRA driver for GPUs as its Helm chart (dra-driver-nvidia-gpu v0.4.0, values.yaml)
/// deploys it, as a scenario's top-level `nvidiaDraDriver` holds it (scenario-format.md §3).

#include <functional>
#include <map>
#include <string>

namespace gpusched::devices {

/// The chart's values gpusched reads.
struct NvidiaDraDriverConfig {
  /// `featureGates`: the driver's feature gates set, by name, as the values give them (the
  /// chart passes them to every component as FEATURE_GATES). A gate not set has v0.4.0's
  /// default.
  std::map<std::string, bool, std::less<>> feature_gates;
  friend bool operator==(const NvidiaDraDriverConfig&, const NvidiaDraDriverConfig&) = default;
};

}  // namespace gpusched::devices
