#pragma once
/// A scenario's top-level `devicePlugin` (named configs in the NVIDIA device plugin's own
/// `version: v1` format, and which one is the default) and `migConfigs` (mig-parted's
/// `mig-configs` map), validated with the plugin's and mig-parted's own error texts
/// (scenario-format.md §3).

#include <optional>

#include "gpusched/config/device_plugin_config.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

/// `device_plugin`: {"default": "<name>", "configs": {"<name>": <config>}}, or the configs as
/// the GPU Operator's ConfigMap, inline or in a file relative to the scenario's directory:
/// {"default": "<name>", "configMap": <ConfigMap> | "<file>"}; `default` naming one of the
/// configs. `mig_configs`: {"<name>": [{"devices": "all" | [0, 1], "mig-enabled": true,
/// "mig-devices": {"1g.10gb": 2}}]}, profile names normalised ("1c.1g.10gb" is "1g.10gb").
/// Either may be absent. What the plugin ignores (resources, rename, devices) is accepted with a
/// warning, as the plugin logs one.
[[nodiscard]] devices::DevicePluginSettings parse_device_plugin_settings(
    const std::optional<JsonNode>& device_plugin, const std::optional<JsonNode>& mig_configs);

/// A scenario's `devicePlugin` for `settings` (its default and configs, each written with what
/// gpusched keeps of it), which parse_device_plugin_settings reads back equal; null when there is
/// neither. Custom MIG layouts are not written.
[[nodiscard]] nlohmann::json device_plugin_json(const devices::DevicePluginSettings& settings);

}  // namespace gpusched::io
