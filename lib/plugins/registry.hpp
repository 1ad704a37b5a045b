#pragma once
// The in-tree plugins gpusched implements, and the default profile
// (pkg/scheduler/apis/config/v1/default_plugins.go).

#include <memory>
#include <string_view>
#include <vector>

#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

/// The default MultiPoint plugins of a release, in order, with their score weights.
[[nodiscard]] std::vector<PluginRef> default_plugins(const KubernetesVersion& version);

/// A new instance of a plugin, configured from the profile; nullptr for an unknown name.
[[nodiscard]] std::unique_ptr<Plugin> make_plugin(std::string_view name, Handle& handle,
                                                  const Profile& profile);

/// Names gpusched implements.
[[nodiscard]] const std::vector<std::string_view>& known_plugins();

}  // namespace gpusched::plugins
