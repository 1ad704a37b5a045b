#pragma once
/// The upstream feature gates that change what kube-scheduler (or the API server's binding)
/// does, per Kubernetes release, and the values a scenario sets in `scheduler.featureGates`.
/// Sources: the versioned specs in kubernetes/kubernetes pkg/features/kube_features.go and the
/// scheduler's feature table; docs/kubernetes-versions.md lists them.

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "gpusched/config/kubernetes_version.hpp"

namespace gpusched {

/// The gates whose value gpusched reads.
enum class FeatureGate : std::uint8_t {
  ClearingNominatedNodeNameAfterBinding,
  DRAAdminAccess,
  DRAConsumableCapacity,
  DRADeviceBindingConditions,
  DRADeviceTaints,
  DRAExtendedResource,
  DRAPartitionableDevices,
  DRAPrioritizedList,
  DRAResourceClaimDeviceStatus,
  DynamicResourceAllocation,
  GangScheduling,
  GenericWorkload,
  NominatedNodeNameForExpectation,
  PodLevelResources,
  Other,  ///< a gate gpusched knows but never asks about (not modelled, or no effect)
};

/// A gate's maturity in one release.
enum class GateStage : std::uint8_t { Absent, Alpha, Beta, GA };

/// A gate in one release: whether it exists, its default, whether it is locked to it.
struct GateRelease {
  GateStage stage = GateStage::Absent;
  bool default_value = false;
  bool locked = false;
};

/// What setting a gate away from its default does in gpusched.
enum class GateModelling : std::uint8_t {
  Modelled,     ///< gpusched simulates both values
  NoEffect,     ///< neither value changes anything gpusched simulates
  NotModelled,  ///< the other value changes what gpusched does not simulate: a warning
};

/// One gate of the table.
struct GateInfo {
  FeatureGate gate;
  std::string_view name;
  /// The releases KubernetesVersion::kMinMinor .. kMaxMinor, in order.
  std::array<GateRelease, KubernetesVersion::kMaxMinor - KubernetesVersion::kMinMinor + 1> releases;
  GateModelling modelling;
  /// What the gate changes, in a phrase (for NotModelled: what gpusched does not model).
  std::string_view what;

  [[nodiscard]] const GateRelease& in(const KubernetesVersion& version) const noexcept {
    return releases[static_cast<std::size_t>(version.minor - KubernetesVersion::kMinMinor)];
  }
};

/// Every gate gpusched knows, in name order.
[[nodiscard]] std::span<const GateInfo> feature_gate_table() noexcept;
/// The gate named `name` (case-sensitive, as upstream), or nullptr.
[[nodiscard]] const GateInfo* find_feature_gate(std::string_view name) noexcept;

/// Why `name` cannot be set to `value` in `version`, in upstream's words (component-base
/// featuregate: "unrecognized feature gate: X", "cannot set feature gate X to false, feature is
/// locked to true") with what gpusched adds; nullopt when it can.
[[nodiscard]] std::optional<std::string> feature_gate_error(std::string_view name, bool value,
                                                            const KubernetesVersion& version);
/// For a gate that can be set: the warning when `value` changes behaviour gpusched does not model
/// (it then runs with the default), nullopt otherwise.
[[nodiscard]] std::optional<std::string> feature_gate_warning(std::string_view name, bool value,
                                                              const KubernetesVersion& version);

/// `scheduler.featureGates`: the gates a scenario sets, by name. A gate not set has its
/// release's default; a value gpusched does not model (feature_gate_warning) reads as the default.
struct FeatureGates {
  std::map<std::string, bool, std::less<>> values;
  friend bool operator==(const FeatureGates&, const FeatureGates&) = default;

  /// Whether `gate` is on in `version` with these values.
  [[nodiscard]] bool enabled(FeatureGate gate, const KubernetesVersion& version) const;
};

}  // namespace gpusched
