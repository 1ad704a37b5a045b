#pragma once
// Builders shared by the plugin unit tests: model objects in upstream's raw units (cpu in
// milli-cores, memory and storage in bytes) and a Handle over a ClusterState.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "framework/string_pool.hpp"
#include "gpusched/config/scheduler_config.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/cycle_state.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/rng.hpp"
#include "gpusched/model/node.hpp"
#include "gpusched/model/pod.hpp"

namespace gpusched::test {

/// resource.NewMilliQuantity(milli, DecimalSI).
inline Quantity milli(std::int64_t m) {
  return Quantity(m);
}
/// resource.NewQuantity(bytes, BinarySI).
inline Quantity bytes(std::int64_t b) {
  return Quantity::from_units(b, QuantityFormat::BinarySI);
}
/// resource.NewQuantity(n, DecimalSI).
inline Quantity units(std::int64_t n) {
  return Quantity::from_units(n);
}

/// One container with these requests.
inline Container container(ResourceList requests, std::string restart_policy = {}) {
  Container c;
  c.name = "c";
  c.requests = std::move(requests);
  c.restart_policy = std::move(restart_policy);
  return c;
}

/// framework.Resource{MilliCPU, Memory} plus scalars, as a request list (upstream keeps "0"
/// entries; a zero request is the same as none for every plugin tested here).
inline ResourceList res(std::int64_t cpu_milli, std::int64_t memory_bytes,
                        std::vector<std::pair<std::string, std::int64_t>> scalars = {}) {
  ResourceList out{{"cpu", milli(cpu_milli)}, {"memory", bytes(memory_bytes)}};
  for (auto& [name, value] : scalars) {
    out[name] = name.starts_with("hugepages-") ? bytes(value) : units(value);
  }
  return out;
}

inline Pod make_pod(std::string name, std::vector<Container> containers = {},
                    std::vector<Container> init_containers = {}) {
  Pod pod;
  pod.metadata.name = std::move(name);
  pod.metadata.namespace_ = "default";
  pod.spec.containers = std::move(containers);
  pod.spec.init_containers = std::move(init_containers);
  return pod;
}

inline Node make_node(std::string name, ResourceList allocatable = {}, Labels labels = {}) {
  Node node;
  node.metadata.name = std::move(name);
  node.metadata.labels = std::move(labels);
  node.capacity = allocatable;
  node.allocatable = std::move(allocatable);
  return node;
}

class NullSink final : public PreemptionSink {
 public:
  void preempt(const PodInfo&, const NodeInfo&, const std::vector<PodInfo*>&) override {}
};

/// A cluster and what a plugin's Handle refers to.
struct Env {
  explicit Env(KubernetesVersion v = {}) : version(v) { config.kubernetes_version = version; }
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  [[nodiscard]] Handle handle() { return Handle{cluster, rng, version, config, sink, nullptr}; }

  /// Adds a pod bound to `node` (it holds the node's resources, as NewNodeInfo(pods...)).
  PodInfo& add_bound(Pod pod, const std::string& node) {
    pod.spec.node_name = node;
    pod.status.phase = PodPhase::Running;
    return cluster.add_pod(std::move(pod));
  }

  /// The scheduling view of a pod that is not added to the cluster.
  [[nodiscard]] PodInfo compile(Pod pod) {
    PodInfo info;
    info.pod = std::move(pod);
    cluster.compile_pod(info);
    return info;
  }

  /// Reasons as text.
  [[nodiscard]] std::vector<std::string> text(const Reasons& reasons) const {
    std::vector<std::string> out;
    for (StrId r : reasons) out.push_back(cluster.pool().str(r));
    return out;
  }

  KubernetesVersion version;
  ClusterState cluster;
  Rng rng{1};
  SchedulerConfig config;
  NullSink sink;
};

}  // namespace gpusched::test
