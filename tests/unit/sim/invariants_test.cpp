// The replay's invariants (lib/sim/invariants.cpp): they hold at every instant of every bundled
// scenario, the checker catches a node whose accounts are wrong, and the result reports the same
// (allocated = the sum of the requests of the pods holding a node, allocated ≤ allocatable).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/pod_info.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"
#include "sim/invariants.hpp"
#include "sim/kubelet.hpp"
#include "unit/plugins/plugin_test_support.hpp"

namespace gpusched {
namespace {

namespace fs = std::filesystem;

// Every scenario file under scenarios/, as `gpusched check scenarios/` finds them.
std::vector<fs::path> bundled_scenarios() {
  std::vector<fs::path> found;
  for (const auto& entry :
       fs::recursive_directory_iterator(fs::path(GPUSCHED_SOURCE_DIR) / "scenarios")) {
    const fs::path ext = entry.path().extension();
    if (!entry.is_regular_file() || (ext != ".json" && ext != ".yaml" && ext != ".yml")) continue;
    if (io::input_kind(entry.path()) == io::InputKind::Scenario) found.push_back(entry.path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

// The result's own accounts: each node's allocated is the sum of the requests of the pods it
// lists, within allocatable; each GPU step's allocated is within allocatable unless it did not
// grow since the step before (the node's GPUs went under pods it already ran).
void check_result(const SimulationResult& result) {
  std::map<std::string, const PodRecord*> pods;
  for (const PodRecord& pod : result.pods) pods.emplace(pod.pod.key(), &pod);
  for (const NodeRecord& node : result.nodes) {
    ResourceList sum;
    for (const std::string& key : node.pods) {
      const auto pod = pods.find(key);
      REQUIRE(pod != pods.end());
      CHECK_FALSE(pod->second->pod.terminated());
      CHECK(pod->second->pod.spec.node_name == node.node.metadata.name);
      for (const auto& [name, q] : *pod->second->requests) {
        if (q.milli() != 0) sum[name] = sum[name].plus(q);
      }
    }
    INFO("node " << node.node.metadata.name);
    for (const auto& [name, q] : sum) {
      INFO("resource " << name);
      const auto allocated = node.allocated.find(name);
      REQUIRE(allocated != node.allocated.end());
      CHECK(allocated->second.milli() == q.milli());
    }
    CHECK(node.allocated.size() == sum.size());
    // Within allocatable, for what the node advertises (a cluster-level extended resource is
    // not the node's to give); GPUs below, step by step, since a node may lose some.
    for (const auto& [name, q] : node.allocated) {
      const auto allocatable = node.node.allocatable.find(name);
      if (allocatable == node.node.allocatable.end() || name == "nvidia.com/gpu") continue;
      INFO("resource " << name);
      CHECK(q.milli() <= allocatable->second.milli());
    }
  }
  for (const NodeUsage& usage : result.usage) {
    const GpuStep* last = nullptr;
    for (const GpuStep& step : usage.gpu_steps) {
      INFO("node " << usage.node << " at " << step.at);
      CHECK(step.allocated >= 0);
      if (step.allocated > step.allocatable) {
        REQUIRE(last != nullptr);
        CHECK(step.allocated <= last->allocated);
      }
      last = &step;
    }
  }
}

TEST_CASE("every bundled scenario keeps the replay's invariants at every instant",
          "[sim][invariants]") {
  const std::vector<fs::path> files = bundled_scenarios();
  REQUIRE(files.size() > 50);
  SimulationOptions options;
  options.check_invariants = true;
  for (const fs::path& file : files) {
    DYNAMIC_SECTION(file.filename().string()) {
      const Scenario scenario = io::load_scenario(file);
      SimulationResult result;
      try {
        result = simulate(scenario, options);
      } catch (const InternalError& e) {
        FAIL(e.what());
      }
      check_result(result);
    }
  }
}

Pod bound_pod(const std::string& name, ResourceList requests) {
  Pod pod = test::make_pod(name, {test::container(std::move(requests))});
  pod.spec.node_name = "n1";
  pod.metadata.uid = name;
  return pod;
}

TEST_CASE("the invariant checker catches a node given more than it allocates",
          "[sim][invariants]") {
  ClusterState cluster;
  const devices::DevicePluginSettings plugin;
  const sim::Kubelets kubelets(plugin, {}, "t.json", 36);
  cluster.add_node(test::make_node("n1", test::res(2000, 0, {{"nvidia.com/gpu", 1}})));
  cluster.add_pod(bound_pod("a", test::res(1000, 0, {{"nvidia.com/gpu", 1}})));
  sim::InvariantChecker checker;
  checker.check(cluster, kubelets, 0);
  // ClusterState adds a bound pod without asking whether it fits: that is the kubelet's job.
  cluster.add_pod(bound_pod("b", test::res(500, 0, {{"nvidia.com/gpu", 1}})));
  CHECK_THROWS_WITH(checker.check(cluster, kubelets, 1000),
                    Catch::Contains("at 1s: node n1 has 2000m of nvidia.com/gpu allocated but "
                                    "1000m allocatable"));
}

TEST_CASE("node_versions() follows the nodes' versions and nominations, and is checked",
          "[sim][invariants]") {
  ClusterState cluster;
  const devices::DevicePluginSettings plugin;
  const sim::Kubelets kubelets(plugin, {}, "t.json", 36);
  NodeInfo& n1 = cluster.add_node(test::make_node("n1", test::res(4000, 0)));
  NodeInfo& n2 = cluster.add_node(test::make_node("n2", test::res(4000, 0)));
  auto copy_of = [&](const NodeInfo& node) {
    const auto& nodes = cluster.node_list();
    const auto at = std::find(nodes.begin(), nodes.end(), &node) - nodes.begin();
    return cluster.node_versions()[static_cast<std::size_t>(at)];
  };
  CHECK(copy_of(n1) == n1.version);
  const std::uint64_t before = n1.version;
  cluster.add_pod(bound_pod("a", test::res(1000, 0)));
  CHECK(n1.version > before);
  CHECK(copy_of(n1) == n1.version);
  // A node with nominated pods is judged afresh until they go, whatever else changes on it.
  PodInfo& waiting = cluster.add_pod(test::make_pod("w", {test::container(test::res(1000, 0))}));
  cluster.nominate(waiting, "n2");
  CHECK(copy_of(n2) == VersionMirror::kJudgeAfresh);
  Pod on_n2 = bound_pod("b", test::res(1000, 0));
  on_n2.spec.node_name = "n2";
  cluster.add_pod(std::move(on_n2));
  CHECK(copy_of(n2) == VersionMirror::kJudgeAfresh);
  cluster.nominate(waiting, "");
  CHECK(copy_of(n2) == n2.version);
  sim::InvariantChecker checker;
  checker.check(cluster, kubelets, 0);
  // A copy that lost step is a bug the checker names.
  n1.mirror.nominated(true, n1.version);
  CHECK_THROWS_WITH(checker.check(cluster, kubelets, 1000),
                    Catch::Contains("node n1's entry in ClusterState::node_versions() is"));
}

TEST_CASE("the invariant checker lets a shrunken node keep its pods but take no more",
          "[sim][invariants]") {
  ClusterState cluster;
  const devices::DevicePluginSettings plugin;
  const sim::Kubelets kubelets(plugin, {}, "t.json", 36);
  NodeInfo& node =
      cluster.add_node(test::make_node("n1", test::res(4000, 0, {{"nvidia.com/gpu", 2}})));
  cluster.add_pod(bound_pod("a", test::res(1000, 0, {{"nvidia.com/gpu", 1}})));
  cluster.add_pod(bound_pod("b", test::res(1000, 0, {{"nvidia.com/gpu", 1}})));
  sim::InvariantChecker checker;
  checker.check(cluster, kubelets, 0);
  // A GPU turns unhealthy: allocatable drops under what runs, and the pods keep running.
  cluster.update_node(node, test::make_node("n1", test::res(4000, 0, {{"nvidia.com/gpu", 1}})));
  CHECK_NOTHROW(checker.check(cluster, kubelets, 1000));
  // A pod without GPUs may still join; one with a GPU may not.
  cluster.add_pod(bound_pod("c", test::res(1000, 0)));
  CHECK_NOTHROW(checker.check(cluster, kubelets, 2000));
  cluster.add_pod(bound_pod("d", test::res(1000, 0, {{"nvidia.com/gpu", 1}})));
  CHECK_THROWS_WITH(checker.check(cluster, kubelets, 3000),
                    Catch::Contains("node n1 has 3000m of nvidia.com/gpu allocated"));
}

TEST_CASE("the invariant checker catches a node whose sums differ from its pods'",
          "[sim][invariants]") {
  ClusterState cluster;
  const devices::DevicePluginSettings plugin;
  const sim::Kubelets kubelets(plugin, {}, "t.json", 36);
  NodeInfo& node = cluster.add_node(test::make_node("n1", test::res(4000, 0)));
  PodInfo& pod = cluster.add_pod(bound_pod("a", test::res(1000, 0)));
  sim::InvariantChecker checker;
  checker.check(cluster, kubelets, 0);
  node.remove_pod(pod);  // the node forgets the pod, which still says it holds the node
  CHECK_THROWS_WITH(checker.check_all(cluster, kubelets, 1000),
                    Catch::Contains("node n1 lists 0 pod(s) but the cluster has 1 holding it"));
  node.add_pod(pod);
  node.requested.add(res::kCpu, 1);
  CHECK_THROWS_WITH(checker.check(cluster, kubelets, 2000),
                    Catch::Contains("node n1 counts 1001m of cpu requested but its pods request "
                                    "1000m"));
}

}  // namespace
}  // namespace gpusched
