#include "sim/cluster_autoscaler.hpp"

#include <algorithm>

#include "devices/node_devices.hpp"
#include "gpusched/model/well_known.hpp"
#include "plugins/helpers.hpp"
#include "sim/kubelet.hpp"

namespace gpusched::sim {
namespace {

/// A new node's room while the estimator packs pods onto it.
struct Bin {
  ResVec free;
  std::int64_t pods = 0;
};

Bin empty_bin(const NodeInfo& node) {
  return Bin{node.allocatable, node.allowed_pods};
}

bool fits(const PodInfo& pod, const Bin& bin) {
  if (bin.pods < 1) return false;
  return std::all_of(pod.requests.begin(), pod.requests.end(),
                     [&](const ResAmount& r) { return r.milli <= bin.free[r.id]; });
}

void take(const PodInfo& pod, Bin& bin) {
  --bin.pods;
  for (const ResAmount& r : pod.requests) bin.free.add(r.id, -r.milli);
}

/// Whether the pod could ever run on the template: its node selector and required affinity,
/// the template's taints, and its requests on an empty node. (cluster-autoscaler runs the
/// scheduler's Filter plugins on the template node; these are the ones that decide for a node
/// that does not exist yet.)
bool admits(const PodInfo& pod, const NodeInfo& node, const Bin& room, const StringPool& strings) {
  return plugins::required_node_affinity_matches(pod, node, strings) &&
         plugins::find_untolerated_taint(pod, node) == nullptr && fits(pod, room);
}

bool template_admits(const PodInfo& pod, const NodeInfo& node, const StringPool& strings) {
  return admits(pod, node, empty_bin(node), strings);
}

/// What is left on a node in the cluster.
Bin free_bin(const NodeInfo& node) {
  Bin bin = empty_bin(node);
  bin.pods -= static_cast<std::int64_t>(node.pods.size());
  node.requested.for_each([&](ResId id, std::int64_t milli) { bin.free.add(id, -milli); });
  return bin;
}

/// The pods that do not fit the nodes there now, each placed first-fit on what the others left
/// (FilterOutSchedulablePodListProcessor, and the ProvisioningRequest classes' TrySchedulePods).
template <typename P>
std::vector<P*> not_fitting(const std::vector<P*>& pods, const std::vector<NodeInfo*>& nodes,
                            const StringPool& strings) {
  std::vector<P*> left;
  std::vector<Bin> rooms;
  for (const NodeInfo* node : nodes) rooms.push_back(free_bin(*node));
  for (P* pod : pods) {
    bool placed = false;
    for (std::size_t n = 0; n < nodes.size() && !placed; ++n) {
      if (nodes[n]->unschedulable || !admits(*pod, *nodes[n], rooms[n], strings)) continue;
      take(*pod, rooms[n]);
      placed = true;
    }
    if (!placed) left.push_back(pod);
  }
  return left;
}

/// provisioningrequest/conditions AddOrUpdateCondition: the condition replaced, its transition
/// time now whatever its status was.
void put_condition(kueue::ProvisioningRequest& request, std::string_view type, bool status,
                   std::string_view reason, std::string_view message, TimeMs now) {
  kueue::Condition c{std::string(type),
                     status ? "True" : "False",
                     std::string(reason),
                     std::string(message),
                     now,
                     1};
  auto it = std::find_if(request.conditions.begin(), request.conditions.end(),
                         [&](const kueue::Condition& old) { return old.type == type; });
  if (it == request.conditions.end()) {
    request.conditions.push_back(std::move(c));
  } else {
    *it = std::move(c);
  }
}

bool provisioned(const kueue::ProvisioningRequest& request) {
  return std::any_of(
      request.conditions.begin(), request.conditions.end(),
      [](const kueue::Condition& c) { return c.type == "Provisioned" && c.status == "True"; });
}

/// A DaemonSet's pod does not keep a node from being removed (drain ignores it).
bool daemon_pod(const PodInfo& pod) {
  const OwnerReference* owner = pod.pod.metadata.controller();
  return owner != nullptr && owner->kind == "DaemonSet";
}

}  // namespace

NodeInfo ClusterAutoscaler::template_node(const NodePool& pool) {
  Node node = PoolProvisioner::pool_node(pool, 0);
  std::string error;
  if (auto derived = devices::derive_node_devices(node, scenario_.device_plugin, &error))
    node = published_node(node, *derived);
  return cluster_.detached_node(std::move(node));
}

std::vector<PodInfo*> ClusterAutoscaler::unschedulable_pods() const {
  std::vector<PodInfo*> out;
  for (PodInfo* pod : cluster_.pods()) {
    if (!pod->pod.spec.node_name.empty() || pod->pod.terminated() || pod->pod.metadata.deletion_ms)
      continue;
    // A pod consuming a ProvisioningRequest waits for the capacity its request asked for
    // (ProvisioningRequestPodsFilter): it triggers no scale-up of its own.
    if (pod->pod.metadata.annotations->contains(kueue::kConsumeProvisioningRequest)) continue;
    const bool marked = std::any_of(pod->pod.status.conditions.begin(),
                                    pod->pod.status.conditions.end(), [](const PodCondition& c) {
                                      return c.type == "PodScheduled" && c.status == "False" &&
                                             c.reason == "Unschedulable";
                                    });
    // --new-pod-scale-up-delay: younger pods are left to the scheduler a while longer.
    if (marked && now_ - pod->pod.metadata.creation_ms >=
                      scenario_.cluster_autoscaler.new_pod_scale_up_delay) {
      out.push_back(pod);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const PodInfo* a, const PodInfo* b) { return a->sequence < b->sequence; });
  return out;
}

void ClusterAutoscaler::scale_up(const std::vector<PodInfo*>& pods) {
  // Pods that fit the nodes there now are left to the scheduler
  // (FilterOutSchedulablePodListProcessor): a node that has just become schedulable, say.
  std::vector<PodInfo*> left = not_fitting(pods, cluster_.node_list(), cluster_.pool());
  // Each pool's size before this scale-up: a pool's own launches come after it is read.
  const std::vector<std::int32_t> sizes = pools_.pool_sizes();
  for (std::size_t p = 0; p < scenario_.node_pools.size() && !left.empty(); ++p) {
    const NodePool& pool = scenario_.node_pools[p];
    if (!pool.autoscaling) continue;
    const NodeInfo node = template_node(pool);
    // Nodes on their way count as capacity, so that pods waiting for them ask for no more.
    std::vector<Bin> bins;
    const std::int32_t size = sizes[p];
    for (const PoolProvisioner::StagedNode& staged : pools_.staged()) {
      if (staged.pool == p && staged.stage != PoolProvisioner::Stage::Gone &&
          staged.stage != PoolProvisioner::Stage::Up)
        bins.push_back(empty_bin(node));
    }
    const std::size_t upcoming = bins.size();
    std::vector<PodInfo*> still;
    std::vector<PodInfo*> helped;
    for (PodInfo* pod : left) {
      if (!template_admits(*pod, node, cluster_.pool())) {
        still.push_back(pod);
        continue;
      }
      // First fit, the estimator's binpacking (estimator/binpacking_estimator.go).
      auto bin =
          std::find_if(bins.begin(), bins.end(), [&](const Bin& b) { return fits(*pod, b); });
      if (bin == bins.end()) {
        if (size + static_cast<std::int32_t>(bins.size() - upcoming) >= pool.autoscaling->max) {
          still.push_back(pod);
          continue;
        }
        bins.push_back(empty_bin(node));
        bin = bins.end() - 1;
      }
      take(*pod, *bin);
      if (static_cast<std::size_t>(bin - bins.begin()) >= upcoming) helped.push_back(pod);
    }
    left = std::move(still);
    const auto added = static_cast<std::int32_t>(bins.size() - upcoming);
    if (added == 0) continue;
    for (std::int32_t i = 0; i < added; ++i) pools_.launch(p, now_);
    last_scale_up_ = now_;
    // ScaleUpInfo.String(): {group current->new (max: max)}.
    const std::string message = "pod triggered scale-up: [{" + pool.name + " " +
                                std::to_string(size) + "->" + std::to_string(size + added) +
                                " (max: " + std::to_string(pool.autoscaling->max) + ")}]";
    for (PodInfo* pod : helped) {
      events_.recorded_event(kEventSource, "Pod/" + pod->pod.key(), "Normal", "TriggeredScaleUp",
                             message);
    }
  }
}

std::vector<PodInfo> ClusterAutoscaler::request_pods(const kueue::ProvisioningRequest& request) {
  // provreq pods.PodsForProvisioningRequest: count pods of each pod set's template.
  std::vector<PodInfo> out;
  for (const kueue::ProvisioningRequest::PodSet& set : request.pod_sets) {
    for (std::int32_t i = 0; i < set.count; ++i) {
      Pod pod;
      pod.metadata.namespace_ = request.metadata.namespace_;
      pod.metadata.name = set.pod_template_name + "-" + std::to_string(i);
      pod.metadata.labels = set.template_.metadata.labels;
      pod.spec = set.template_.spec;
      out.push_back(cluster_.detached_pod(std::move(pod)));
    }
  }
  return out;
}

bool ClusterAutoscaler::scale_up_atomically(const std::vector<const PodInfo*>& left) {
  const std::vector<std::int32_t> sizes = pools_.pool_sizes();
  for (std::size_t p = 0; p < scenario_.node_pools.size(); ++p) {
    const NodePool& pool = scenario_.node_pools[p];
    if (!pool.autoscaling) continue;
    const NodeInfo node = template_node(pool);
    std::vector<Bin> bins;
    bool all_fit = true;
    for (const PodInfo* pod : left) {
      if (!template_admits(*pod, node, cluster_.pool())) {
        all_fit = false;
        break;
      }
      auto bin =
          std::find_if(bins.begin(), bins.end(), [&](const Bin& b) { return fits(*pod, b); });
      if (bin == bins.end()) {
        if (sizes[p] + static_cast<std::int32_t>(bins.size()) >= pool.autoscaling->max) {
          all_fit = false;
          break;
        }
        bins.push_back(empty_bin(node));
        bin = bins.end() - 1;
      }
      take(*pod, *bin);
    }
    if (!all_fit) continue;
    for (std::size_t i = 0; i < bins.size(); ++i) pools_.launch(p, now_);
    last_scale_up_ = now_;
    return true;
  }
  return false;
}

void ClusterAutoscaler::provision_requests() {
  // Every request not provisioned yet, in name order (provreqclient lists them so). Conditions
  // and messages: provisioningrequest/conditions, checkcapacity/provisioningclass.go and
  // besteffortatomic/provisioning_class.go.
  for (auto& [key, request] : provisioning_requests_) {
    if (provisioned(request)) continue;
    const bool check_capacity = request.provisioning_class_name == kueue::kCheckCapacityClass;
    if (!check_capacity && request.provisioning_class_name != kueue::kBestEffortAtomicClass)
      continue;  // a class no processor serves (named in a warning at load)
    const std::vector<PodInfo> pods = request_pods(request);
    std::vector<const PodInfo*> all;
    for (const PodInfo& pod : pods) all.push_back(&pod);
    // The pods that fit the nodes there now need nothing (TrySchedulePods).
    const std::vector<const PodInfo*> left =
        not_fitting(all, cluster_.node_list(), cluster_.pool());
    bool found = left.empty();
    std::string_view reason = "CapacityIsFound";
    if (check_capacity) {
      put_condition(request, "Accepted", true, "Accepted",
                    "ProvisioningRequest is accepted by ClusterAutoscaler", now_);
    } else if (!found) {
      found = scale_up_atomically(left);
      reason = "CapacityIsProvisioned";
    }
    if (found) {
      // CapacityIsFoundMsg and CapacityIsProvisionedMsg are the same text.
      put_condition(request, "Provisioned", true, reason, "Capacity is found in the cluster", now_);
    } else {
      put_condition(request, "Provisioned", false, "CapacityIsNotFound",
                    "Capacity is not found, CA will try to find it later.", now_);
    }
  }
}

void ClusterAutoscaler::scale_down() {
  const ClusterAutoscalerSettings& settings = scenario_.cluster_autoscaler;
  if (!settings.scale_down_enabled) return;
  // Unneeded times are kept during --scale-down-delay-after-add; nodes are removed only after.
  const bool may_remove = now_ - last_scale_up_ >= settings.scale_down_delay_after_add;
  std::vector<std::int32_t> sizes = pools_.pool_sizes();
  for (std::size_t i = 0; i < pools_.staged().size(); ++i) {
    const PoolProvisioner::StagedNode& staged = pools_.staged()[i];
    const NodePool& pool = scenario_.node_pools[staged.pool];
    if (!pool.autoscaling || staged.stage != PoolProvisioner::Stage::Up) continue;
    NodeInfo* node = cluster_.find_node(pools_.records()[i].node);
    const bool empty =
        node != nullptr && std::all_of(node->pods.begin(), node->pods.end(),
                                       [](const PodInfo* p) { return daemon_pod(*p); });
    if (!empty) {
      unneeded_since_.erase(i);
      continue;
    }
    const TimeMs since = unneeded_since_.try_emplace(i, now_).first->second;
    if (!may_remove || now_ - since < settings.scale_down_unneeded_time ||
        sizes[staged.pool] <= pool.autoscaling->min) {
      continue;
    }
    const std::size_t pool_index = staged.pool;
    host_.remove_node(*node);
    pools_.remove(i);
    unneeded_since_.erase(i);
    --sizes[pool_index];
  }
}

void ClusterAutoscaler::run() {
  ticks_.erase(now_);
  const std::vector<PodInfo*> waiting = unschedulable_pods();
  // Its own changes (nodes it removes) do not wake it: it has just decided.
  busy_ = true;
  provision_requests();
  if (!waiting.empty()) scale_up(waiting);
  scale_down();
  busy_ = false;
  // The loop runs again at the first tick after what could change its decision: an empty node's
  // unneeded time running out (and the delay after a scale-up), a marked pod growing old enough.
  // Everything else that matters wakes it where it happens: the scheduler marking a pod
  // unschedulable, and any change on an autoscaled pool's node (wake_autoscaler). Between those
  // its decision cannot change, so a replay with an autoscaler skips idle ticks and ends.
  const ClusterAutoscalerSettings& settings = scenario_.cluster_autoscaler;
  std::vector<std::int32_t> sizes = pools_.pool_sizes();
  for (const auto& [staged, since] : unneeded_since_) {
    const std::size_t pool = pools_.staged()[staged].pool;
    if (sizes[pool] <= scenario_.node_pools[pool].autoscaling->min) continue;
    wake(std::max(since + settings.scale_down_unneeded_time,
                  last_scale_up_ + settings.scale_down_delay_after_add));
  }
  if (settings.new_pod_scale_up_delay > 0) {
    for (PodInfo* pod : cluster_.pods()) {
      const TimeMs old_enough = pod->pod.metadata.creation_ms + settings.new_pod_scale_up_delay;
      if (pod->pod.spec.node_name.empty() && !pod->pod.terminated() && old_enough > now_)
        wake(old_enough);
    }
  }
}

bool ClusterAutoscaler::wake(TimeMs at) {
  if (!enabled_) return false;
  if (busy_) return true;
  const TimeMs interval = scenario_.cluster_autoscaler.scan_interval;
  // A change made now comes after this instant's tick (the loop runs before the scheduler), so
  // the earliest run is the next tick.
  const TimeMs tick = std::max((at + interval - 1) / interval, now_ / interval + 1) * interval;
  if (ticks_.insert(tick).second) clock_.push(tick, Autoscale{});
  return true;
}

bool ClusterAutoscaler::watches(const NodeInfo& node) const {
  if (!enabled_) return false;
  // A request not provisioned yet is looked at again when any node changes (capacity may have
  // freed up), as the real loop would at its next scan.
  if (std::any_of(provisioning_requests_.begin(), provisioning_requests_.end(),
                  [](const auto& entry) { return !provisioned(entry.second); }))
    return true;
  auto pool = node.node.metadata.labels.find(std::string(well_known::kNodePoolLabel));
  if (pool == node.node.metadata.labels.end()) return false;
  return std::any_of(scenario_.node_pools.begin(), scenario_.node_pools.end(),
                     [&](const NodePool& p) { return p.autoscaling && p.name == pool->second; });
}

void ClusterAutoscaler::start() {
  enabled_ = std::any_of(scenario_.node_pools.begin(), scenario_.node_pools.end(),
                         [](const NodePool& pool) { return pool.autoscaling.has_value(); });
  if (!enabled_) return;
  ticks_.insert(0);
  clock_.push(0, Autoscale{});
}

}  // namespace gpusched::sim
