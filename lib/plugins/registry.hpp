#pragma once
// The in-tree plugins gpusched implements (pkg/scheduler/framework/plugins/registry.go).

#include "gpusched/framework/registry.hpp"

namespace gpusched::plugins {

/// NewInTreeRegistry: a factory for every plugin gpusched implements, under its upstream name.
[[nodiscard]] Registry in_tree_registry();

}  // namespace gpusched::plugins
