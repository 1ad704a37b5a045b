#pragma once
/// Reading the GPU Operator's device-plugin ConfigMap (the one its ClusterPolicy names in
/// `devicePlugin.config.name`) into the NVIDIA device plugin's named configs, as a scenario's
/// `devicePlugin.configMap` and `whatif` / `snapshot --device-plugin-config` take it.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gpusched/config/device_plugin_config.hpp"

namespace gpusched::io {

/// Reads `path` (JSON or YAML, one ConfigMap, as `kubectl get configmap NAME -o yaml` prints
/// it): each `data` key is a named config, its value the text of the device plugin's config file
/// (YAML or JSON, `version` defaulting to v1), validated as the plugin validates it. Errors name
/// the file, the key and the place within its text; what the plugin ignores with a log line is
/// appended to `warnings` (when given) as for scenarios. Throws InputError.
[[nodiscard]] std::map<std::string, devices::DevicePluginConfig> load_device_plugin_configs(
    const std::filesystem::path& path, std::vector<std::string>* warnings = nullptr);

}  // namespace gpusched::io
