#pragma once
/// GPUs per node of a node pool, as its nodes' device plugin would publish them.

#include <cstdint>

#include "gpusched/config/device_plugin_config.hpp"
#include "gpusched/scenario/scenario.hpp"

namespace gpusched {

/// A pool's GPUs per node: its template's physical GPUs as derived from its hardware, else its
/// stated nvidia.com/gpu capacity (or allocatable).
[[nodiscard]] std::int64_t template_gpus(const NodePool& pool,
                                         const devices::DevicePluginSettings& plugin);

}  // namespace gpusched
