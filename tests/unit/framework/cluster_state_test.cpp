// ClusterState's nominator: unbound pods by the node they are nominated to, in nomination order.
#include "gpusched/framework/cluster_state.hpp"
#include "framework/string_pool.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace gpusched {
namespace {

Pod named(const std::string& name) {
  Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  return pod;
}

std::vector<PodInfo*> listed(const ClusterState& cluster, StrId node) {
  const auto pods = cluster.nominated_pods(node);
  return {pods.begin(), pods.end()};
}

TEST_CASE("ClusterState: nominations, to nodes that exist yet or not", "[framework]") {
  ClusterState cluster;
  PodInfo& p = cluster.add_pod(named("p"));
  PodInfo& q = cluster.add_pod(named("q"));
  CHECK(cluster.nominated_pods(StringPool::kMissing).empty());
  cluster.nominate(p, "later");
  cluster.nominate(q, "later");
  const StrId later = cluster.pool().find("later");
  CHECK(listed(cluster, later) == std::vector<PodInfo*>{&p, &q});
  CHECK(cluster.nominated_pods(cluster.pool().intern("elsewhere")).empty());

  Node later_node;
  later_node.metadata.name = "later";
  NodeInfo& node = cluster.add_node(later_node);
  CHECK(node.name == later);
  cluster.nominate(p, "");
  CHECK(listed(cluster, later) == std::vector<PodInfo*>{&q});
  // A bound pod leaves the nominator.
  cluster.bind(q, node);
  CHECK(cluster.nominated_pods(later).empty());
}

}  // namespace
}  // namespace gpusched
