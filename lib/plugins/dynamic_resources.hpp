#pragma once
// DynamicResources (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go), as far
// as pods without ResourceClaims see it: from 1.34 (DRA on by default) its PostFilter runs before
// DefaultPreemption and reports that it has no claims to deallocate.

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class DynamicResources final : public PostFilterPlugin {
 public:
  static constexpr std::string_view kName = names::kDynamicResources;
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// Unschedulable "no new claims to deallocate": gpusched models no ResourceClaims yet.
  [[nodiscard]] PostFilterResult post_filter(CycleState& state, const PodInfo& pod,
                                             const Diagnosis& diagnosis) override;
};

}  // namespace gpusched::plugins
