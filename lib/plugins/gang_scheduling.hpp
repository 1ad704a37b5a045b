#pragma once
// GangScheduling: the pods of a gang pod group enter the active queue only once minCount of
// them exist, and wait at Permit until minCount are assumed or bound, then bind together.
// Kubernetes 1.35 (pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go, with the pod
// group state of pkg/scheduler/backend/workloadmanager/podgroupinfo.go): a pod names its group
// with spec.workloadRef (Workload, pod group, replica key); the group's deadline (5 minutes from
// its first Permit) rejects the waiting pods. Kubernetes 1.36 (release-1.36's gangscheduling.go,
// scheduling.k8s.io/v1alpha2): a pod names its PodGroup with spec.schedulingGroup.podGroupName;
// each waiting pod is rejected 5 minutes after its own Permit (permitTimeoutDuration).

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

/// DefaultSchedulingTimeoutDuration (1.35) and permitTimeoutDuration (1.36): how long a gang's
/// pods wait at Permit for a quorum.
inline constexpr TimeMs kGangSchedulingTimeout = 5 * 60 * 1000;

/// A pod group instance as the workload manager (1.35) or the cache's pod group state (1.36)
/// counts it: the pods known to the scheduler, those assumed (past Reserve) and those assigned
/// (bound).
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

  /// UnschedulableAndUnresolvable while the pod's Workload or pod group (1.35) or PodGroup (1.36)
  /// is missing, or fewer than minCount pods of its gang exist.
  [[nodiscard]] Status pre_enqueue(const PodInfo& pod) const override;
  /// Pod/Add, and Workload/Add (1.35) or PodGroup/Add (1.36), each hinted by whether it is the
  /// pod's group.
  [[nodiscard]] std::vector<ClusterEventWithHint> events_to_register() const override;
  [[nodiscard]] QueueingHint queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                           const EventObjects& objects) const override;
  /// Marks the pod assumed in its group (AssumePod) / no longer (ForgetPod).
  [[nodiscard]] Code reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) override;
  void unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) override;
  /// Wait until minCount pods are assumed or assigned, activating the group's unscheduled pods;
  /// then Allow every waiting pod of the group.
  [[nodiscard]] Status permit(CycleState& state, const PodInfo& pod, const NodeInfo& node,
                              TimeMs& timeout) override;

  /// Whether the pod belongs to a group this release's plugin reads (workloadRef on 1.35,
  /// schedulingGroup on 1.36).
  [[nodiscard]] bool in_group(const Pod& pod) const noexcept;
  /// The counts of the pod's group instance (for explain); the pod must be in_group.
  [[nodiscard]] PodGroupCounts counts(const PodInfo& pod) const;
  /// The group's deadline (1.35), if a Permit set one; 1.36 has none (each pod has its own).
  [[nodiscard]] std::optional<TimeMs> deadline(const PodInfo& pod) const;
  /// The gang's minCount; nullopt without its Workload, pod group or PodGroup, or for basic.
  [[nodiscard]] std::optional<std::int32_t> min_count(const PodInfo& pod) const;

 private:
  /// 1.35's podGroupKey: namespace, workload, pod group, replica key; 1.36's: namespace and
  /// PodGroup name (the others empty).
  using GroupKey = std::tuple<std::string, std::string, std::string, std::string>;
  [[nodiscard]] GroupKey key_of(const PodInfo& pod) const;
  [[nodiscard]] bool same_group(const Pod& a, const Pod& b) const noexcept;
  [[nodiscard]] Status unresolvable(const std::string& message) const;
  [[nodiscard]] Status error(const std::string& message) const;
  /// The pod's policy, or the status that keeps it out (PreEnqueue) / fails it (Permit) when its
  /// group is missing. `policy` is set to the gang's minCount (nullopt: basic).
  [[nodiscard]] std::optional<Status> find_policy(const PodInfo& pod, bool at_permit,
                                                  std::optional<std::int32_t>& policy) const;

  ClusterState& cluster_;
  SchedulerServices* scheduler_;
  bool pod_groups_;  ///< Kubernetes 1.36's PodGroup API
  std::map<GroupKey, std::set<std::string, std::less<>>> assumed_;  // pod uids
  std::map<GroupKey, TimeMs> deadlines_;                            // schedulingDeadline (1.35)
};

}  // namespace gpusched::plugins
