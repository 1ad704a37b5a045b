#include "sim/invariants.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/framework/pod_info.hpp"
#include "gpusched/model/dra.hpp"
#include "sim/kubelet_admission.hpp"

namespace gpusched::sim {
namespace {

[[noreturn]] void broken(const std::string& what, TimeMs now) {
  internal_error("at " + format_duration(now) + ": " + what, __FILE__, __LINE__);
}

// The device counts a pod holds match its requests: the kubelet's device manager allocates
// exactly the requested number of devices per resource (devicemanager/manager.go
// devicesToAllocate), and releases them all when the pod stops holding the node.
void check_devices(const PodInfo& pod, const ClusterState& cluster, const Kubelets& kubelets,
                   TimeMs now) {
  const devices::PodDevices* held = kubelets.devices_of(pod.pod);
  if (held == nullptr) return;
  if (pod.node == nullptr) broken("pod " + pod.pod.key() + " holds devices but no node", now);
  for (const auto& [resource, ids] : held->by_resource) {
    const std::optional<ResId> id = cluster.resources().find(resource);
    const std::int64_t requested = id ? pod.request(*id) : 0;
    if (static_cast<std::int64_t>(ids.size()) * 1000 != requested) {
      broken("pod " + pod.pod.key() + " holds " + std::to_string(ids.size()) + " " + resource +
                 " device(s) but requests " + std::to_string(requested) + "m",
             now);
    }
  }
}

bool by_value(const HostPort& a, const HostPort& b) {
  return std::tie(a.ip, a.protocol, a.port) < std::tie(b.ip, b.protocol, b.port);
}

}  // namespace

void InvariantChecker::check_node(const NodeInfo& node, const ClusterState& cluster,
                                  const Kubelets& kubelets, TimeMs now, Seen& seen) const {
  const std::string& name = cluster.text(node.name);
  // NodeInfo.AddPod's sums, recomputed from the pods it lists, which must hold it.
  ResVec requested;
  std::int64_t nonzero_cpu = 0;
  std::int64_t nonzero_memory = 0;
  std::vector<HostPort> ports;
  std::vector<std::uint64_t> pods;
  for (const PodInfo* pod : node.pods) {
    const std::string& key = pod->pod.key();
    if (pod->node != &node)
      broken("node " + name + " lists pod " + key + ", which does not hold it", now);
    if (pod->pod.terminated()) broken("pod " + key + " has ended but still holds " + name, now);
    // A pod waiting at Permit holds its node in the scheduler's cache while unbound and Pending.
    const bool waiting_at_permit =
        pod->pod.spec.node_name.empty() && pod->pod.status.phase == PodPhase::Pending;
    if (pod->pod.spec.node_name != name && !waiting_at_permit) {
      broken("pod " + key + " holds node " + name + " but is bound to \"" +
                 pod->pod.spec.node_name + "\"",
             now);
    }
    for (const ResAmount& r : pod->requests) requested.add(r.id, r.milli);
    nonzero_cpu += pod->nonzero_cpu;
    nonzero_memory += pod->nonzero_memory;
    ports.insert(ports.end(), pod->host_ports.begin(), pod->host_ports.end());
    pods.push_back(pod->sequence);
    check_devices(*pod, cluster, kubelets, now);
  }
  std::sort(pods.begin(), pods.end());
  const ResourceRegistry& registry = cluster.resources();
  for (ResId id = 0; id < registry.size(); ++id) {
    if (requested[id] != node.requested[id]) {
      broken("node " + name + " counts " + std::to_string(node.requested[id]) + "m of " +
                 registry.name(id) + " requested but its pods request " +
                 std::to_string(requested[id]) + "m",
             now);
    }
  }
  std::vector<HostPort> used = node.used_ports;
  std::sort(used.begin(), used.end(), by_value);
  std::sort(ports.begin(), ports.end(), by_value);
  if (nonzero_cpu != node.nonzero_cpu || nonzero_memory != node.nonzero_memory || used != ports) {
    broken("node " + name + "'s non-zero requests or host ports differ from its pods'", now);
  }

  // allocated ≤ allocatable, unless the node shrank under pods it already ran: the pods that
  // joined since the last check were admitted against what the node had then.
  const bool first = seen.version == 0 && !starting_;
  std::vector<std::uint64_t> joined;
  std::set_difference(pods.begin(), pods.end(), seen.pods.begin(), seen.pods.end(),
                      std::back_inserter(joined));
  auto joined_requesting = [&](ResId id) {
    return std::any_of(node.pods.begin(), node.pods.end(), [&](const PodInfo* pod) {
      return pod->request(id) > 0 &&
             std::binary_search(joined.begin(), joined.end(), pod->sequence);
    });
  };
  for (ResId id = 0; id < registry.size(); ++id) {
    const std::int64_t used_now = requested[id];
    if (used_now <= node.allocatable[id] || !kubelet_checks(node, registry, id)) continue;
    // A resource the node does not offer may be served by DRA devices (DRAExtendedResource).
    if (node.allocatable[id] == 0 && dra::is_extended_resource_name(registry.name(id))) continue;
    const bool kept =
        starting_ || (!first && used_now <= seen.requested[id] && !joined_requesting(id));
    if (!kept) {
      broken("node " + name + " has " + std::to_string(used_now) + "m of " + registry.name(id) +
                 " allocated but " + std::to_string(node.allocatable[id]) + "m allocatable",
             now);
    }
  }
  // The kubelet admits no pod beyond allocatable "pods" either.
  const auto count = static_cast<std::int64_t>(pods.size());
  if (count > node.allowed_pods && !starting_ && (first || !joined.empty())) {
    broken("node " + name + " runs " + std::to_string(count) + " pods but allows " +
               std::to_string(node.allowed_pods),
           now);
  }
  seen.version = node.version + 1;  // never 0 once seen
  seen.pods = std::move(pods);
  seen.requested = std::move(requested);
}

void InvariantChecker::check(const ClusterState& cluster, const Kubelets& kubelets, TimeMs now) {
  const std::vector<NodeInfo*>& nodes = cluster.node_list();
  const std::span<const std::uint64_t> versions = cluster.node_versions();
  for (std::size_t at = 0; at < nodes.size(); ++at) {
    const NodeInfo* node = nodes[at];
    // The Filter loop trusts this copy instead of reading the node.
    const std::uint64_t mirrored =
        cluster.nominated_pods(node->name).empty() ? node->version : VersionMirror::kJudgeAfresh;
    if (versions[at] != mirrored) {
      broken("node " + node->node.metadata.name + "'s entry in ClusterState::node_versions() is " +
                 std::to_string(versions[at]) + ", not " + std::to_string(mirrored),
             now);
    }
    if (node->slot >= seen_.size()) seen_.resize(node->slot + 1u);
    Seen& seen = seen_[node->slot];
    if (seen.version != node->version + 1) check_node(*node, cluster, kubelets, now, seen);
  }
}

void InvariantChecker::check_all(const ClusterState& cluster, const Kubelets& kubelets,
                                 TimeMs now) {
  check(cluster, kubelets, now);
  std::map<const NodeInfo*, std::size_t> holding;
  for (const PodInfo* pod : cluster.pods()) {
    if (pod->node == nullptr) {
      check_devices(*pod, cluster, kubelets, now);
    } else {
      ++holding[pod->node];
    }
  }
  for (const NodeInfo* node : cluster.node_list()) {
    const std::size_t claims = holding[node];
    if (claims != node->pods.size()) {
      broken("node " + cluster.text(node->name) + " lists " + std::to_string(node->pods.size()) +
                 " pod(s) but the cluster has " + std::to_string(claims) + " holding it",
             now);
    }
  }
}

void InvariantChecker::start(const ClusterState& cluster, const Kubelets& kubelets) {
  starting_ = true;
  check_all(cluster, kubelets, 0);
  starting_ = false;
}

}  // namespace gpusched::sim
