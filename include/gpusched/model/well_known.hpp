#pragma once
/// Label and annotation names that several parts of gpusched read or write.

#include <string_view>

namespace gpusched::well_known {

/// GPU feature discovery's hardware labels: a node with both declares its GPUs
/// (scenario-format.md §3).
inline constexpr std::string_view kGpuProductLabel = "nvidia.com/gpu.product";
inline constexpr std::string_view kGpuCountLabel = "nvidia.com/gpu.count";

/// gpusched's annotation: the pod's containers exit 0 this long after it starts.
inline constexpr std::string_view kRunDurationAnnotation = "gpusched.io/run-duration";

}  // namespace gpusched::well_known
