#pragma once
// SchedulingGates (pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go): a pod
// with spec.schedulingGates stays out of the active queue until its last gate is removed.

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class SchedulingGates final : public PreEnqueuePlugin, public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = names::kSchedulingGates;
  explicit SchedulingGates(Handle& handle);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// UnschedulableAndUnresolvable "waiting for scheduling gates: [a b]" while gates remain.
  [[nodiscard]] Status pre_enqueue(const PodInfo& pod) const override;
  [[nodiscard]] std::vector<ClusterEventWithHint> events_to_register() const override;
  /// isSchedulableAfterUpdatePodSchedulingGatesEliminated: only the pod's own update helps.
  [[nodiscard]] QueueingHint queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                           const EventObjects& objects) const override;

 private:
  StringPool& pool_;
};

}  // namespace gpusched::plugins
