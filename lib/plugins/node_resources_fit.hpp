#pragma once
// NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go).

#include <set>
#include <string>

#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"
#include "plugins/helpers.hpp"
#include "plugins/resource_allocation.hpp"

namespace gpusched::plugins {

class NodeResourcesFit final : public FilterPlugin,
                               public PreScorePlugin,
                               public ScorePlugin,
                               public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = names::kNodeResourcesFit;
  NodeResourcesFit(Handle& handle, const NodeResourcesFitArgs& args);
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }
  /// fitsRequest: "Too many pods", then every insufficient resource. Unschedulable; from 1.34
  /// UnschedulableAndUnresolvable when a request alone exceeds the node's allocatable. With
  /// DRAExtendedResource, a resource the node lacks and a DeviceClass serves is left out
  /// (ShouldDelegateResourceToDRA).
  [[nodiscard]] Code filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                            Reasons& reasons) const override;
  /// Filter reads the pod's requests and the node's pods, requests and allocatable (and, with
  /// DRAExtendedResource, the DeviceClasses).
  [[nodiscard]] bool append_node_dynamic_key(const PodInfo& pod, std::string& key) const override;
  [[nodiscard]] Code pre_score(CycleState& state, const PodInfo& pod,
                               std::span<const NodeInfo* const> nodes) override;
  /// The scoring strategy over the configured resources.
  [[nodiscard]] std::int64_t score(const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node) const override;
  /// The pod's requests from PreScore, then the strategy for every node.
  void score_nodes(const CycleState& state, const PodInfo& pod,
                   std::span<const NodeInfo* const> nodes,
                   std::span<std::int64_t> scores) const override;
  [[nodiscard]] std::vector<ClusterEventWithHint> events_to_register() const override;
  [[nodiscard]] QueueingHint queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                           const EventObjects& objects) const override;

 private:
  /// Asked per node and resource in the Filter loop: inline while the answer is known.
  [[nodiscard]] bool ignored(ResId id) const {
    if (id < ignored_by_id_.size() && ignored_by_id_[id] != kUnknown)
      return ignored_by_id_[id] == kYes;
    return learn_ignored(id);
  }
  /// ignored() the first time: the answer per name is kept (resource ids are never reused).
  [[nodiscard]] bool learn_ignored(ResId id) const;
  /// Whether the pod would fit the node if it were empty (isFit in the queueing hint).
  [[nodiscard]] bool fits_empty(const PodInfo& pod, const NodeInfo& node) const;

  /// Whether `r` is left to DynamicResources on `node` (delegated_to_dra).
  [[nodiscard]] bool delegated(const NodeInfo& node, ResId id) const {
    return id > res::kEphemeralStorage &&
           delegated_to_dra(dra_extended_resource_, node, cluster_, id);
  }
  /// isSchedulableAfterDeviceClassEvent: a class now serving a resource the pod requests.
  [[nodiscard]] QueueingHint device_class_hint(const PodInfo& pod,
                                               const EventObjects& objects) const;

  ClusterState& cluster_;
  /// DRAExtendedResource: requests a DeviceClass serves are DynamicResources' on nodes
  /// without them.
  bool dra_extended_resource_;
  bool unresolvable_over_allocatable_;
  std::set<std::string, std::less<>> ignored_resources_;
  std::set<std::string, std::less<>> ignored_groups_;
  ResourceAllocationScorer scorer_;
  StrId too_many_pods_;
  enum : std::uint8_t { kUnknown, kNo, kYes };
  mutable std::vector<std::uint8_t> ignored_by_id_;  ///< ignored(), by resource id
};

}  // namespace gpusched::plugins
