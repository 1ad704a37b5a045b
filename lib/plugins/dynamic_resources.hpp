#pragma once
// DynamicResources (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go), as far
// as gpusched models it: from 1.34 (DRA on by default) its PostFilter runs before
// DefaultPreemption and reports that it has no claims to deallocate. Claims themselves are not
// allocated yet: a pod that has any is refused at PreFilter with a message that says so, never
// reported Running on a node that might not have its devices.

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class DynamicResources final : public PreFilterPlugin, public PostFilterPlugin {
 public:
  static constexpr std::string_view kName = names::kDynamicResources;
  explicit DynamicResources(Handle& handle);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// Skip for a pod without claims; UnschedulableAndUnresolvable, naming the claims, otherwise.
  [[nodiscard]] Status pre_filter(CycleState& state, const PodInfo& pod,
                                  PreFilterResult& result) override;
  /// Unschedulable "no new claims to deallocate".
  [[nodiscard]] PostFilterResult post_filter(CycleState& state, const PodInfo& pod,
                                             const Diagnosis& diagnosis) override;

 private:
  StringPool& pool_;
};

}  // namespace gpusched::plugins
