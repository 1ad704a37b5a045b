#pragma once
/// Names of the in-tree kube-scheduler plugins a configuration may mention
/// (pkg/scheduler/framework/plugins/names/names.go). Unknown names are typos and rejected.

#include <algorithm>
#include <array>
#include <string_view>

namespace gpusched::io {

inline constexpr std::array<std::string_view, 19> kKnownPlugins = {
    "PrioritySort",       "NodeUnschedulable",
    "NodeName",           "TaintToleration",
    "NodeAffinity",       "NodePorts",
    "NodeResourcesFit",   "NodeResourcesBalancedAllocation",
    "DefaultPreemption",  "DefaultBinder",
    "ImageLocality",      "PodTopologySpread",
    "InterPodAffinity",   "SchedulingGates",
    "VolumeRestrictions", "NodeVolumeLimits",
    "VolumeBinding",      "VolumeZone",
    "DynamicResources",
};

[[nodiscard]] inline bool is_known_plugin(std::string_view name) noexcept {
  return std::find(kKnownPlugins.begin(), kKnownPlugins.end(), name) != kKnownPlugins.end();
}

}  // namespace gpusched::io
