#include "config/nvidia_dra_feature_gates.hpp"

#include <algorithm>
#include <iterator>

#include "config/feature_gate_text.hpp"
#include "gpusched/error.hpp"

namespace gpusched {
namespace {

enum class Stage : unsigned char { Alpha, Beta };

enum class Effect : unsigned char {
  Modelled,     ///< NvidiaDraOptions reads it
  NoEffect,     ///< logging only
  NotModelled,  ///< changes what the driver publishes or prepares; gpusched simulates the default
};

struct DriverGate {
  std::string_view name;
  Stage stage;
  bool default_value;
  Effect effect;
  std::string_view what;  ///< for NotModelled: what it changes
};

// featuregate's special gates (vendored k8s.io/component-base/featuregate/feature_gate.go):
// each sets the gates of its stage that are not set themselves.
constexpr std::string_view kAllAlpha = "AllAlpha";
constexpr std::string_view kAllBeta = "AllBeta";

// v0.4.0 pkg/featuregates/featuregates.go defaultFeatureGates, and the logging gates
// newFeatureGates adds (vendored k8s.io/component-base/logs/api/v1/kube_features.go), each at
// the emulation version 1.36 the driver registers them with; sorted by name.
constexpr DriverGate kGates[] = {
    {"ComputeDomainCliques", Stage::Beta, true, Effect::NotModelled,
     "how ComputeDomains record their IMEX daemons (ComputeDomainClique objects)"},
    {"ContextualLogging", Stage::Beta, true, Effect::NoEffect, ""},
    {"CrashOnNVLinkFabricErrors", Stage::Beta, true, Effect::NotModelled,
     "whether the ComputeDomain kubelet plugin crashes on NVLink fabric errors"},
    {"DeviceMetadata", Stage::Alpha, false, Effect::NotModelled,
     "the device metadata files the GPU kubelet plugin writes into workloads"},
    {"DynamicMIG", Stage::Alpha, false, Effect::Modelled, ""},
    {"IMEXDaemonsWithDNSNames", Stage::Beta, true, Effect::NotModelled,
     "how IMEX daemons address each other (DNS names or IPs)"},
    {"LoggingAlphaOptions", Stage::Alpha, false, Effect::NoEffect, ""},
    {"LoggingBetaOptions", Stage::Beta, true, Effect::NoEffect, ""},
    {"MPSSupport", Stage::Alpha, false, Effect::NotModelled,
     "the MPS sharing a claim's GpuConfig sets up when its devices are prepared"},
    {"NVMLDeviceHealthCheck", Stage::Alpha, false, Effect::Modelled, ""},
    {"PassthroughSupport", Stage::Alpha, false, Effect::NotModelled,
     "the VFIO passthrough devices the GPU kubelet plugin also publishes (vfio.gpu.nvidia.com)"},
    {"TimeSlicingSettings", Stage::Alpha, false, Effect::NotModelled,
     "the time-slicing a claim's GpuConfig sets when its devices are prepared"},
};

const DriverGate* find_gate(std::string_view name) {
  const auto* it =
      std::lower_bound(std::begin(kGates), std::end(kGates), name,
                       [](const DriverGate& g, std::string_view n) { return g.name < n; });
  return it != std::end(kGates) && it->name == name ? it : nullptr;
}

/// The value `gate` runs with: as set, else as AllAlpha or AllBeta sets its stage
/// (setUnsetAlphaGates / setUnsetBetaGates fill only the gates not set), else its default.
bool effective(const devices::NvidiaDraDriverConfig& config, const DriverGate& gate) {
  const auto& gates = config.feature_gates;
  if (auto it = gates.find(gate.name); it != gates.end()) return it->second;
  if (auto it = gates.find(gate.stage == Stage::Alpha ? kAllAlpha : kAllBeta); it != gates.end())
    return it->second;
  return gate.default_value;
}

}  // namespace

std::optional<std::string> nvidia_dra_feature_gate_error(std::string_view name) {
  if (name == kAllAlpha || name == kAllBeta || find_gate(name) != nullptr) return std::nullopt;
  std::string known = std::string(kAllAlpha) + ", " + std::string(kAllBeta);
  for (const DriverGate& gate : kGates) known += ", " + std::string(gate.name);
  return unrecognized_gate_text(name) +
         " (NVIDIA's DRA driver v0.4.0, which gpusched follows, has " + known + ")";
}

std::optional<std::string> nvidia_dra_feature_gates_error(
    const devices::NvidiaDraDriverConfig& config) {
  auto on = [&](std::string_view name) { return effective(config, *find_gate(name)); };
  // ValidateFeatureGates, its checks in its order; every component's main.go wraps the error.
  struct Rule {
    std::string_view gate;
    std::string_view other;
    bool exclusive;  ///< else `gate` needs `other`
  };
  constexpr Rule kRules[] = {{"ComputeDomainCliques", "IMEXDaemonsWithDNSNames", false},
                             {"DynamicMIG", "PassthroughSupport", true},
                             {"DynamicMIG", "NVMLDeviceHealthCheck", true},
                             {"DynamicMIG", "MPSSupport", true},
                             {"PassthroughSupport", "NVMLDeviceHealthCheck", true},
                             {"DeviceMetadata", "PassthroughSupport", false}};
  for (const Rule& rule : kRules) {
    if (!on(rule.gate) || on(rule.other) != rule.exclusive) continue;
    return "NVIDIA's DRA driver does not start: feature gate validation failed: feature gate " +
           std::string(rule.gate) +
           (rule.exclusive ? " is currently mutually exclusive with " : " requires ") +
           std::string(rule.other) + (rule.exclusive ? "" : " to also be enabled");
  }
  return std::nullopt;
}

std::optional<std::string> nvidia_dra_feature_gate_warning(
    std::string_view name, bool value, const devices::NvidiaDraDriverConfig& config) {
  const std::string set =
      "NVIDIA DRA driver feature gate " + std::string(name) + "=" + bool_text(value);
  if (name == kAllAlpha || name == kAllBeta) {
    const Stage stage = name == kAllAlpha ? Stage::Alpha : Stage::Beta;
    std::string changed;
    for (const DriverGate& gate : kGates) {
      if (gate.stage != stage || gate.effect != Effect::NotModelled ||
          gate.default_value == value || config.feature_gates.contains(gate.name))
        continue;
      changed += (changed.empty() ? "" : ", ") + std::string(gate.name);
    }
    if (changed.empty()) return std::nullopt;
    return set + " also sets " + changed + ", which gpusched does not model: v0.4.0 is " +
           "simulated with their defaults";
  }
  const DriverGate* gate = find_gate(name);
  if (gate == nullptr || gate->effect != Effect::NotModelled || gate->default_value == value)
    return std::nullopt;
  return set + " changes " + std::string(gate->what) +
         ", which gpusched does not model: v0.4.0 is simulated with its default, " +
         bool_text(gate->default_value);
}

bool nvidia_dra_gate_enabled(const devices::NvidiaDraDriverConfig& config, std::string_view name) {
  const DriverGate* gate = find_gate(name);
  GPUSCHED_CHECK(gate != nullptr && gate->effect == Effect::Modelled,
                 "only a driver gate gpusched models is asked about");
  return effective(config, *gate);
}

}  // namespace gpusched
