#pragma once
// The planning commands' lookup of a node pool by name.

#include <string>

#include "gpusched/scenario/scenario.hpp"

namespace gpusched::plan {

/// The scenario's pool named `name`; InputError (naming --pool and the pools there are) if none.
[[nodiscard]] const NodePool& find_pool(const Scenario& scenario, const std::string& name);

}  // namespace gpusched::plan
