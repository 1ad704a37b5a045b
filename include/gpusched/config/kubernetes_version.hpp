#pragma once
/// Which kube-scheduler release gpusched mirrors, and the behaviour that differs between them.

#include <optional>
#include <string>
#include <string_view>

namespace gpusched {

/// A Kubernetes minor release (1.33, 1.34, 1.35), optionally with a patch number.
struct KubernetesVersion {
  int minor = 33;
  int patch = -1;  ///< -1: the minor release as a whole (its first patch)
  friend bool operator==(const KubernetesVersion&, const KubernetesVersion&) = default;

  /// Parses "1.33", "v1.34", "1.34.2". Supported minors: 33, 34, 35.
  [[nodiscard]] static std::optional<KubernetesVersion> parse(std::string_view text,
                                                              std::string* error);
  [[nodiscard]] std::string to_string() const;

  /// 1.34+: DynamicResourceAllocation is on by default (GA), so the API server keeps pods'
  /// resource claims; before, it drops them (dropDisabledDynamicResourceAllocationFields).
  [[nodiscard]] bool dynamic_resource_allocation() const noexcept { return minor >= 34; }
  /// With DRA on, the DynamicResources PostFilter runs before DefaultPreemption and adds
  /// "no new claims to deallocate" for pods without claims.
  [[nodiscard]] bool dynamic_resources_post_filter() const noexcept {
    return dynamic_resource_allocation();
  }
  /// 1.34+: PodLevelResources is beta and on by default, so spec.resources counts; 1.33 (alpha,
  /// off) drops the field on create (dropDisabledPodLevelResourcesFields).
  [[nodiscard]] bool pod_level_resources() const noexcept { return minor >= 34; }
  /// 1.34+ (PR #131345): NodeResourcesFit is UnschedulableAndUnresolvable when a request
  /// alone exceeds the node's allocatable.
  [[nodiscard]] bool fit_unresolvable_when_over_allocatable() const noexcept { return minor >= 34; }
  /// 1.35, and 1.34 patches carrying PR #135023: "node(s) had untolerated taint(s)".
  [[nodiscard]] bool aggregated_taint_reason() const noexcept;
};

}  // namespace gpusched
