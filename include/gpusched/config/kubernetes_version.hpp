#pragma once
/// Which kube-scheduler release gpusched mirrors, and the behaviour that differs between them.
/// Behaviour behind an upstream feature gate is in feature_gates.hpp; what differs without a
/// gate (bug fixes, texts) is a predicate here, named after the behaviour.

#include <optional>
#include <string>
#include <string_view>

namespace gpusched {

/// A Kubernetes minor release (1.33 to 1.36), optionally with a patch number.
struct KubernetesVersion {
  /// The default release: what the regular channels of GKE, EKS and AKS run in December 2026
  /// (docs/kubernetes-versions.md says why).
  static constexpr int kDefaultMinor = 36;
  static constexpr int kMinMinor = 33;
  static constexpr int kMaxMinor = 36;

  int minor = kDefaultMinor;
  int patch = -1;  ///< -1: the minor release as a whole (its first patch)
  friend bool operator==(const KubernetesVersion&, const KubernetesVersion&) = default;

  /// Parses "1.33", "v1.34", "1.34.2". Supported minors: kMinMinor to kMaxMinor.
  [[nodiscard]] static std::optional<KubernetesVersion> parse(std::string_view text,
                                                              std::string* error);
  [[nodiscard]] std::string to_string() const;

  /// 1.34+ (PR #131345): NodeResourcesFit is UnschedulableAndUnresolvable when a request
  /// alone exceeds the node's allocatable.
  [[nodiscard]] bool fit_unresolvable_when_over_allocatable() const noexcept { return minor >= 34; }
  /// 1.35, and 1.34 patches carrying PR #135023: "node(s) had untolerated taint(s)".
  [[nodiscard]] bool aggregated_taint_reason() const noexcept;
  /// 1.35+ (PR #135007, pkg/scheduler/schedule_one.go): a failed cycle of a profile without
  /// PostFilter plugins clears the pod's nominatedNodeName; before, it left it alone.
  [[nodiscard]] bool clears_nomination_without_post_filter() const noexcept { return minor >= 35; }
  /// 1.34 only (PR #133276, pkg/scheduler/schedule_one.go): with NominatedNodeNameForExpectation
  /// on, a failed cycle keeps the pod's nominatedNodeName where it would clear it; 1.35 clears it
  /// again whatever the gate (PR #135007).
  [[nodiscard]] bool failure_keeps_nomination_with_expectation() const noexcept {
    return minor == 34;
  }
  /// 1.36+ (PR #135573, noderesources/balanced_allocation.go): NodeResourcesBalancedAllocation
  /// scores the change of the node's balance (with the pod against without it) instead of the
  /// balance with the pod.
  [[nodiscard]] bool balanced_allocation_scores_change() const noexcept { return minor >= 36; }
};

}  // namespace gpusched
