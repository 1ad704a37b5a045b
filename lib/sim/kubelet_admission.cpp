#include "sim/kubelet_admission.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "gpusched/error.hpp"
#include "gpusched/model/resource_list.hpp"
#include "gpusched/model/well_known.hpp"
#include "plugins/helpers.hpp"
#include "plugins/node_ports.hpp"

namespace gpusched::sim {
namespace {

// InsufficientResourceError.Error() and the kubelet's reason for it: OutOfcpu, OutOfmemory,
// OutOfephemeral-storage, OutOfpods, else "OutOf" + the resource name.
Rejection insufficient(const std::string& resource, std::int64_t requested, std::int64_t used,
                       std::int64_t capacity) {
  return {"OutOf" + resource, "Node didn't have enough resource: " + resource + ", requested: " +
                                  std::to_string(requested) + ", used: " + std::to_string(used) +
                                  ", capacity: " + std::to_string(capacity)};
}

// A PredicateFailureError: the plugin's name is the reason.
Rejection predicate_failure(const std::string& plugin, const std::string& reason) {
  return {plugin, "Predicate " + plugin + " failed: " + reason};
}

// The amount in the unit framework.Resource keeps: milli-cpu, else whole units (Value()).
std::int64_t amount(ResId id, std::int64_t milli) {
  return id == res::kCpu ? milli : (milli + 999) / 1000;
}

}  // namespace

bool kubelet_checks(const NodeInfo& node, const ResourceRegistry& registry, ResId id) {
  if (id > res::kEphemeralStorage && !registry.is_scalar(id)) return false;
  const std::string& name = registry.name(id);
  return !resource::is_extended(name) || node.allocatable[id] != 0 ||
         node.node.allocatable.contains(name);
}

std::optional<Rejection> predicate_admission(const PodInfo& pod, const NodeInfo& node,
                                             const ClusterState& cluster,
                                             bool dra_extended_resource) {
  // The kubelet's NodeInfo holds the node's other active pods: the pod already holds the node.
  GPUSCHED_CHECK(pod.node == &node, "a pod the kubelet admits holds its node");
  auto used = [&](ResId id) { return node.requested[id] - pod.request(id); };
  const auto others = static_cast<std::int64_t>(node.pods.size()) - 1;
  // noderesources.Fits: the pod count first, then cpu, memory, ephemeral-storage and the scalar
  // resources (upstream iterates a Go map there; gpusched goes in resource-id order).
  if (others + 1 > node.allowed_pods) {
    return insufficient(std::string(resource::kPods), 1, others, node.allowed_pods);
  }
  const ResourceRegistry& registry = cluster.resources();
  for (const ResAmount& r : pod.requests) {
    if (!kubelet_checks(node, registry, r.id) ||
        plugins::delegated_to_dra(dra_extended_resource, node, cluster, r.id))
      continue;
    const std::string& name = registry.name(r.id);
    const std::int64_t allocatable = node.allocatable[r.id];
    if (r.milli > allocatable - used(r.id)) {
      return insufficient(name, amount(r.id, r.milli), amount(r.id, used(r.id)),
                          amount(r.id, allocatable));
    }
  }
  const StringPool& pool = cluster.pool();
  if (!plugins::required_node_affinity_matches(pod, node, pool)) {
    return predicate_failure("NodeAffinity", "node(s) didn't match Pod's node affinity/selector");
  }
  if (!pod.host_ports.empty()) {
    // The node's ports without the pod's own.
    std::vector<HostPort> ports = node.used_ports;
    for (const HostPort& p : pod.host_ports) {
      auto it = std::find(ports.begin(), ports.end(), p);
      if (it != ports.end()) ports.erase(it);
    }
    const StrId wildcard = cluster.find_interned("0.0.0.0");
    for (const HostPort& wanted : pod.host_ports) {
      if (plugins::NodePorts::conflicts(ports, wanted, wildcard)) {
        return predicate_failure("NodePorts",
                                 "node(s) didn't have free ports for the requested pod ports");
      }
    }
  }
  // Only NoExecute taints matter to the kubelet (static pods aside, which gpusched has none of).
  if (plugins::find_untolerated_taint(pod, node, plugins::TaintFilter::NoExecute) != nullptr) {
    return predicate_failure("TaintToleration", "node(s) had taints that the pod didn't tolerate");
  }
  return std::nullopt;
}

}  // namespace gpusched::sim
