#include "plugins/node_resources_fit.hpp"

#include <memory>

#include "framework/string_pool.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/dra_state.hpp"
#include "gpusched/model/resource_list.hpp"

namespace gpusched::plugins {
namespace {

AllocationStrategy strategy(ScoringStrategyType type) {
  switch (type) {
    case ScoringStrategyType::LeastAllocated:
      return AllocationStrategy::LeastAllocated;
    case ScoringStrategyType::MostAllocated:
      return AllocationStrategy::MostAllocated;
    case ScoringStrategyType::RequestedToCapacityRatio:
      return AllocationStrategy::RequestedToCapacityRatio;
  }
  return AllocationStrategy::LeastAllocated;
}

// SetDefaults_NodeResourcesFitArgs: without a shape, utilization 0 -> 10, 100 -> 0.
std::vector<UtilizationShapePoint> shape(const NodeResourcesFitArgs& args) {
  if (args.scoring_type != ScoringStrategyType::RequestedToCapacityRatio || !args.shape.empty())
    return args.shape;
  return {{0, 10}, {100, 0}};
}

}  // namespace

NodeResourcesFit::NodeResourcesFit(Handle& handle, const NodeResourcesFitArgs& args)
    : cluster_(handle.cluster),
      dra_extended_resource_(
          handle.config.feature_gates.enabled(FeatureGate::DRAExtendedResource, handle.version)),
      unresolvable_over_allocatable_(handle.version.fit_unresolvable_when_over_allocatable()),
      ignored_resources_(args.ignored_resources.begin(), args.ignored_resources.end()),
      ignored_groups_(args.ignored_resource_groups.begin(), args.ignored_resource_groups.end()),
      scorer_(handle.cluster, args.resources, false, strategy(args.scoring_type), shape(args)),
      too_many_pods_(handle.cluster.pool().intern("Too many pods")) {}

bool NodeResourcesFit::learn_ignored(ResId id) const {
  const std::string& name = cluster_.resources().name(id);
  const bool ignore =
      resource::is_extended(name) &&
      (ignored_resources_.contains(name) ||
       (!ignored_groups_.empty() && ignored_groups_.contains(name.substr(0, name.find('/')))));
  if (id >= ignored_by_id_.size()) ignored_by_id_.resize(id + 1u, kUnknown);
  ignored_by_id_[id] = ignore ? kYes : kNo;
  return ignore;
}

Code NodeResourcesFit::filter(const CycleState&, const PodInfo& pod, const NodeInfo& node,
                              Reasons& reasons) const {
  const std::size_t first = reasons.size();
  if (static_cast<std::int64_t>(node.pods.size()) + 1 > node.allowed_pods) {
    reasons.push_back(too_many_pods_);
  }
  bool unresolvable = false;
  const ResourceRegistry& registry = cluster_.resources();
  // pod.requests holds only non-zero entries, in id order: cpu, memory, ephemeral-storage first.
  for (const ResAmount& r : pod.requests) {
    if (r.id > res::kEphemeralStorage && (!registry.is_scalar(r.id) || ignored(r.id))) continue;
    if (delegated(node, r.id)) continue;
    const std::int64_t allocatable = node.allocatable[r.id];
    if (r.milli > allocatable - node.requested[r.id]) {
      reasons.push_back(registry.insufficient_reason(r.id));
      if (r.milli > allocatable) unresolvable = true;
    }
  }
  if (reasons.size() == first) return Code::Success;
  return unresolvable && unresolvable_over_allocatable_ ? Code::UnschedulableAndUnresolvable
                                                        : Code::Unschedulable;
}

bool NodeResourcesFit::append_node_dynamic_key(const PodInfo& pod, std::string& key) const {
  for (const ResAmount& r : pod.requests) {
    key.append(reinterpret_cast<const char*>(&r.id), sizeof r.id);
    key.append(reinterpret_cast<const char*>(&r.milli), sizeof r.milli);
  }
  key.push_back('\x1f');
  if (dra_extended_resource_ && !cluster_.dra().classes().empty()) {
    // Which resources DeviceClasses serve is part of the verdict.
    const std::uint64_t generation = cluster_.dra().classes_generation();
    key.append(reinterpret_cast<const char*>(&generation), sizeof generation);
  }
  return true;
}

Code NodeResourcesFit::pre_score(CycleState& state, const PodInfo& pod,
                                 std::span<const NodeInfo* const>) {
  auto data = std::make_unique<PodRequestsState>();
  data->pod_requests = scorer_.pod_requests(pod);
  state.set(slot(), std::move(data));
  return Code::Success;
}

std::int64_t NodeResourcesFit::score(const CycleState& state, const PodInfo& pod,
                                     const NodeInfo& node) const {
  // fit.go Score: without PreScore state, the pod's requests are computed on the spot.
  if (const auto* data = state.get<PodRequestsState>(slot()))
    return scorer_.score(node, data->pod_requests);
  return scorer_.score(node, scorer_.pod_requests(pod));
}

void NodeResourcesFit::score_nodes(const CycleState& state, const PodInfo& pod,
                                   std::span<const NodeInfo* const> nodes,
                                   std::span<std::int64_t> scores) const {
  if (const auto* data = state.get<PodRequestsState>(slot())) {
    scorer_.score_nodes(nodes, data->pod_requests, scores, state.node_positions());
  } else {
    scorer_.score_nodes(nodes, scorer_.pod_requests(pod), scores, state.node_positions());
  }
}

std::vector<ClusterEventWithHint> NodeResourcesFit::events_to_register() const {
  std::vector<ClusterEventWithHint> events = {
      {{EventResource::Pod, action::kDelete, "Pod"}, true},
      {{EventResource::Node, action::kAdd | action::kUpdateNodeAllocatable, "Node"}, true}};
  if (dra_extended_resource_)
    events.push_back(
        {{EventResource::DeviceClass, action::kAdd | action::kUpdate, "DeviceClass"}, true});
  return events;
}

QueueingHint NodeResourcesFit::device_class_hint(const PodInfo& pod,
                                                 const EventObjects& objects) const {
  const dra::DeviceClass* device_class = objects.device_class;
  if (device_class == nullptr) return QueueingHint::Queue;
  const dra::DeviceClass* old = objects.old_device_class;
  if (old != nullptr && old->extended_resource_name == device_class->extended_resource_name)
    return QueueingHint::QueueSkip;
  const ResourceRegistry& registry = cluster_.resources();
  for (const ResAmount& r : pod.requests) {
    const std::string& name = registry.name(r.id);
    if (old == nullptr && name.starts_with(dra::kDeviceClassResourcePrefix) &&
        std::string_view(name).substr(dra::kDeviceClassResourcePrefix.size()) ==
            device_class->metadata.name)
      return QueueingHint::Queue;
    if (device_class->extended_resource_name == name) return QueueingHint::Queue;
  }
  return QueueingHint::QueueSkip;
}

bool NodeResourcesFit::fits_empty(const PodInfo& pod, const NodeInfo& node) const {
  if (node.allowed_pods < 1) return false;
  for (const ResAmount& r : pod.requests) {
    if (r.id > res::kEphemeralStorage && (!cluster_.resources().is_scalar(r.id) || ignored(r.id))) {
      continue;
    }
    if (delegated(node, r.id)) continue;
    if (r.milli > node.allocatable[r.id]) return false;
  }
  return true;
}

// isSchedulableAfterPodEvent / isSchedulableAfterNodeChange.
QueueingHint NodeResourcesFit::queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                             const EventObjects& objects) const {
  if (event.resource == EventResource::DeviceClass) return device_class_hint(pod, objects);
  if (event.resource == EventResource::Pod) {
    // Any assigned pod going away may free what this pod needs, and so may a nominated one, which
    // pods of equal or lower priority count on its node (PR #129058).
    const PodInfo* deleted = objects.pod;
    return deleted != nullptr && (!deleted->pod.spec.node_name.empty() ||
                                  !deleted->pod.status.nominated_node_name.empty())
               ? QueueingHint::Queue
               : QueueingHint::QueueSkip;
  }
  if (objects.node == nullptr || !fits_empty(pod, *objects.node)) return QueueingHint::QueueSkip;
  if (objects.old_node == nullptr) return QueueingHint::Queue;
  // haveAnyRequestedResourcesIncreased: the pod count, or a resource the pod requests.
  const Node& old_node = *objects.old_node;
  const Node& new_node = objects.node->node;
  auto milli = [](const Node& n, std::string_view name) {
    auto it = n.allocatable.find(name);
    return it == n.allocatable.end() ? std::int64_t{0} : it->second.milli();
  };
  if (milli(new_node, resource::kPods) > milli(old_node, resource::kPods))
    return QueueingHint::Queue;
  for (const ResAmount& r : pod.requests) {
    const std::string& name = cluster_.resources().name(r.id);
    if (milli(new_node, name) > milli(old_node, name)) return QueueingHint::Queue;
    // A resource the changed node leaves to DRA may have become servable there.
    if (delegated(*objects.node, r.id)) return QueueingHint::Queue;
  }
  return QueueingHint::QueueSkip;
}

}  // namespace gpusched::plugins
