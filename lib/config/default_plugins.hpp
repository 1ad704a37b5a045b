#pragma once
// The default profile's plugins (pkg/scheduler/apis/config/v1/default_plugins.go).

#include <vector>

#include "gpusched/config/feature_gates.hpp"
#include "gpusched/config/kubernetes_version.hpp"
#include "gpusched/config/scheduler_config.hpp"

namespace gpusched {

/// The default MultiPoint plugins of a release with its feature gates, in order, with their
/// score weights.
[[nodiscard]] std::vector<PluginRef> default_plugins(const KubernetesVersion& version,
                                                     const FeatureGates& gates);

}  // namespace gpusched
