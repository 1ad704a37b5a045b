#pragma once
/// Cluster events that move unschedulable pods back to the queue
/// (pkg/scheduler/framework/events.go).

#include <cstdint>
#include <string_view>

namespace gpusched {

struct NodeInfo;
struct PodInfo;
namespace dra {
struct ResourceClaim;
struct DeviceClass;
}  // namespace dra

/// The resources of the events gpusched sends (Workload: scheduling.k8s.io, 1.35; PodGroup: 1.36;
/// ResourceClaim, ResourceSlice, DeviceClass: resource.k8s.io).
enum class EventResource : std::uint8_t {
  Pod,
  Node,
  Workload,
  PodGroup,
  ResourceClaim,
  ResourceSlice,
  DeviceClass,
  WildCard
};

/// ActionType bits, as upstream.
namespace action {
inline constexpr std::uint32_t kAdd = 1u << 0;
inline constexpr std::uint32_t kDelete = 1u << 1;
inline constexpr std::uint32_t kUpdateNodeAllocatable = 1u << 2;
inline constexpr std::uint32_t kUpdateNodeLabel = 1u << 3;
inline constexpr std::uint32_t kUpdateNodeTaint = 1u << 4;
inline constexpr std::uint32_t kUpdateNodeCondition = 1u << 5;
inline constexpr std::uint32_t kUpdateNodeAnnotation = 1u << 6;
inline constexpr std::uint32_t kUpdatePodLabel = 1u << 7;
inline constexpr std::uint32_t kUpdatePodScaleDown = 1u << 8;
inline constexpr std::uint32_t kUpdatePodToleration = 1u << 9;
inline constexpr std::uint32_t kUpdatePodSchedulingGatesEliminated = 1u << 10;
/// The resource claim controller wrote the pod's status.resourceClaimStatuses.
inline constexpr std::uint32_t kUpdatePodGeneratedResourceClaim = 1u << 11;
/// An update of a kind whose updates upstream does not break down (resource.k8s.io's: Update).
inline constexpr std::uint32_t kUpdate = 1u << 12;
inline constexpr std::uint32_t kAll = 0xffffffffu;
}  // namespace action

struct ClusterEvent {
  EventResource resource = EventResource::WildCard;
  std::uint32_t actions = action::kAll;
  std::string_view label;  ///< e.g. "AssignedPodDelete", "NodeAdd", "UnschedulableTimeout"

  /// framework.MatchClusterEvents: same resource (or wildcard) and overlapping actions.
  [[nodiscard]] bool matches(const ClusterEvent& registered) const noexcept {
    return (registered.resource == EventResource::WildCard || registered.resource == resource) &&
           (registered.actions & actions) != 0;
  }
};

/// The objects an event is about, for the queueing hints.
struct EventObjects {
  const struct Node* old_node = nullptr;                ///< the node before an update
  const NodeInfo* node = nullptr;                       ///< the node after an add or an update
  const PodInfo* pod = nullptr;                         ///< the pod added, deleted or updated
  const struct SchedulingWorkload* workload = nullptr;  ///< the Workload added
  const struct PodGroup* pod_group = nullptr;           ///< the PodGroup added
  const dra::ResourceClaim* old_claim = nullptr;        ///< the claim before an update
  const dra::ResourceClaim* claim = nullptr;            ///< the claim added or updated
  const dra::DeviceClass* old_device_class = nullptr;   ///< the class before an update
  const dra::DeviceClass* device_class = nullptr;       ///< the class added or updated
};

enum class QueueingHint : std::uint8_t { QueueSkip, Queue };

}  // namespace gpusched
