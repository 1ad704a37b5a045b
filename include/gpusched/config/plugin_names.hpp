#pragma once
/// The in-tree kube-scheduler plugin names (pkg/scheduler/framework/plugins/names/names.go), the
/// one place they are spelled: profiles, the plugins' own name(), the registry, explain and the
/// configuration parser all use these.

#include <algorithm>
#include <array>
#include <string_view>

namespace gpusched::names {

inline constexpr std::string_view kPrioritySort = "PrioritySort";
inline constexpr std::string_view kDefaultBinder = "DefaultBinder";
inline constexpr std::string_view kDefaultPreemption = "DefaultPreemption";
inline constexpr std::string_view kDynamicResources = "DynamicResources";
inline constexpr std::string_view kGangScheduling = "GangScheduling";
inline constexpr std::string_view kImageLocality = "ImageLocality";
inline constexpr std::string_view kInterPodAffinity = "InterPodAffinity";
inline constexpr std::string_view kNodeAffinity = "NodeAffinity";
inline constexpr std::string_view kNodeName = "NodeName";
inline constexpr std::string_view kNodePorts = "NodePorts";
inline constexpr std::string_view kNodeResourcesBalancedAllocation =
    "NodeResourcesBalancedAllocation";
inline constexpr std::string_view kNodeResourcesFit = "NodeResourcesFit";
inline constexpr std::string_view kNodeUnschedulable = "NodeUnschedulable";
inline constexpr std::string_view kNodeVolumeLimits = "NodeVolumeLimits";
inline constexpr std::string_view kPodTopologySpread = "PodTopologySpread";
inline constexpr std::string_view kSchedulingGates = "SchedulingGates";
inline constexpr std::string_view kTaintToleration = "TaintToleration";
inline constexpr std::string_view kVolumeBinding = "VolumeBinding";
inline constexpr std::string_view kVolumeRestrictions = "VolumeRestrictions";
inline constexpr std::string_view kVolumeZone = "VolumeZone";

/// Every in-tree name, in names.go's order: what a configuration may mention. Names outside it
/// are typos (or out-of-tree plugins, which a caller registers; framework/registry.hpp).
inline constexpr std::array<std::string_view, 20> kInTree = {
    kPrioritySort,
    kDefaultBinder,
    kDefaultPreemption,
    kDynamicResources,
    kGangScheduling,
    kImageLocality,
    kInterPodAffinity,
    kNodeAffinity,
    kNodeName,
    kNodePorts,
    kNodeResourcesBalancedAllocation,
    kNodeResourcesFit,
    kNodeUnschedulable,
    kNodeVolumeLimits,
    kPodTopologySpread,
    kSchedulingGates,
    kTaintToleration,
    kVolumeBinding,
    kVolumeRestrictions,
    kVolumeZone,
};

/// Whether `names` lists `name`.
template <std::size_t N>
[[nodiscard]] constexpr bool listed(const std::array<std::string_view, N>& names,
                                    std::string_view name) noexcept {
  return std::find(names.begin(), names.end(), name) != names.end();
}

[[nodiscard]] constexpr bool is_in_tree(std::string_view name) noexcept {
  return listed(kInTree, name);
}

/// The GPU-sharing plugins of the FGD artifact (hkust-adsl/kubernetes-scheduler-simulator,
/// pkg/type/const.go), which gpusched bundles: not kube-scheduler's, so no default profile has
/// them; a profile enables them by these names (docs/fragmentation.md).
inline constexpr std::string_view kOpenGpuShare = "Open-Gpu-Share";
inline constexpr std::string_view kRandomScore = "RandomScore";
inline constexpr std::string_view kDotProductScore = "DotProductScore";
inline constexpr std::string_view kGpuClusteringScore = "GpuClusteringScore";
inline constexpr std::string_view kGpuPackingScore = "GpuPackingScore";
inline constexpr std::string_view kBestFitScore = "BestFitScore";
inline constexpr std::string_view kFgdScore = "FGDScore";

inline constexpr std::array<std::string_view, 7> kGpuShare = {
    kOpenGpuShare,    kRandomScore,  kDotProductScore, kGpuClusteringScore,
    kGpuPackingScore, kBestFitScore, kFgdScore,
};

[[nodiscard]] constexpr bool is_gpu_share(std::string_view name) noexcept {
  return listed(kGpuShare, name);
}

}  // namespace gpusched::names
