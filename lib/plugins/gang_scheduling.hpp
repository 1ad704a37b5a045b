#pragma once
// GangScheduling (Kubernetes 1.35, pkg/scheduler/framework/plugins/gangscheduling/
// gangscheduling.go, with the pod group state of pkg/scheduler/backend/workloadmanager/
// podgroupinfo.go): the pods of a Workload's gang pod group enter the active queue only once
// minCount of them exist, and wait at Permit until minCount are assumed or bound, then bind
// together; the group's deadline (5 minutes from its first Permit) rejects them otherwise.

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

/// DefaultSchedulingTimeoutDuration: how long a gang's pods wait at Permit for a quorum.
inline constexpr TimeMs kGangSchedulingTimeout = 5 * 60 * 1000;

/// A pod group instance as the workload manager counts it (podGroupInfo): the pods known to the
/// scheduler, those assumed (past Reserve) and those assigned (bound).
struct PodGroupCounts {
  std::vector<PodInfo*> all;
  std::vector<PodInfo*> unscheduled;  ///< neither assumed nor assigned
  std::size_t assumed = 0;
  std::size_t assigned = 0;
};

class GangScheduling final : public PreEnqueuePlugin,
                             public EnqueueExtensions,
                             public ReservePlugin,
                             public PermitPlugin {
 public:
  static constexpr std::string_view kName = names::kGangScheduling;
  explicit GangScheduling(Handle& handle);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }

  /// UnschedulableAndUnresolvable while the pod's Workload or pod group is missing, or fewer
  /// than minCount pods of its gang exist.
  [[nodiscard]] Status pre_enqueue(const PodInfo& pod) const override;
  /// Pod/Add and Workload/Add, each hinted by whether it is the pod's group or Workload.
  [[nodiscard]] std::vector<ClusterEventWithHint> events_to_register() const override;
  [[nodiscard]] QueueingHint queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                           const EventObjects& objects) const override;
  /// Marks the pod assumed in its group (AssumePod) / no longer (ForgetPod).
  [[nodiscard]] Code reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) override;
  void unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) override;
  /// Wait (with the group's remaining time) until minCount pods are assumed or assigned,
  /// activating the group's unscheduled pods; then Allow every waiting pod of the group.
  [[nodiscard]] Status permit(CycleState& state, const PodInfo& pod, const NodeInfo& node,
                              TimeMs& timeout) override;

  /// The counts of the pod's group instance (for explain); the pod must have a workloadRef.
  [[nodiscard]] PodGroupCounts counts(const PodInfo& pod) const;
  /// The group's deadline, if a Permit set one.
  [[nodiscard]] std::optional<TimeMs> deadline(const PodInfo& pod) const;

 private:
  /// podGroupKey: namespace, workload, pod group, replica key.
  using GroupKey = std::tuple<std::string, std::string, std::string, std::string>;
  [[nodiscard]] static GroupKey key_of(const PodInfo& pod);
  [[nodiscard]] Status unresolvable(const std::string& message) const;

  ClusterState& cluster_;
  SchedulerServices* scheduler_;
  std::map<GroupKey, std::set<std::string, std::less<>>> assumed_;  // pod uids
  std::map<GroupKey, TimeMs> deadlines_;                            // schedulingDeadline
};

}  // namespace gpusched::plugins
