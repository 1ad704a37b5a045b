// NodeResourcesBalancedAllocation against upstream's
// pkg/scheduler/framework/plugins/noderesources/balanced_allocation_test.go.
#include "plugins/balanced_allocation.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "unit/plugins/plugin_test_support.hpp"

namespace gpusched {
namespace {

using test::bytes;
using test::container;
using test::milli;
using test::units;

ResourceList cpu_mem(std::int64_t cpu_milli, std::int64_t memory_bytes) {
  return {{"cpu", milli(cpu_milli)}, {"memory", bytes(memory_bytes)}};
}

// Upstream's fixtures: cpuOnly = {1000m, 0} + {2000m, 0}; cpuAndMemory = {1000m, 2000} +
// {2000m, 3000}.
Pod cpu_only(std::string name) {
  return test::make_pod(std::move(name),
                        {container(cpu_mem(1000, 0)), container(cpu_mem(2000, 0))});
}
Pod cpu_and_memory(std::string name) {
  return test::make_pod(std::move(name),
                        {container(cpu_mem(1000, 2000)), container(cpu_mem(2000, 3000))});
}

struct NodeSpec {
  std::string name;
  ResourceList allocatable;
};

struct Row {
  std::string name;
  Pod pod;
  std::vector<NodeSpec> nodes;
  std::vector<std::pair<Pod, std::string>> existing;
  std::vector<std::int64_t> want;
  BalancedAllocationArgs args{};
};

/// A row's scores in `version`, node by node: after PreScore (`with_pre_score`), without it
/// (upstream's fallback), and batched (score_nodes).
struct Scores {
  std::vector<std::int64_t> with_pre_score, without_pre_score, batched;
};

Scores scores_of(const Row& row, KubernetesVersion version) {
  test::Env env(version);
  std::vector<const NodeInfo*> nodes;
  for (const NodeSpec& n : row.nodes)
    nodes.push_back(&env.cluster.add_node(test::make_node(n.name, n.allocatable)));
  for (const auto& [pod, node] : row.existing) env.add_bound(pod, node);
  Handle handle = env.handle();
  plugins::BalancedAllocation plugin(handle, row.args);
  const PodInfo pod = env.compile(row.pod);
  CycleState state(1);
  REQUIRE(plugin.pre_score(state, pod, nodes) == Code::Success);
  Scores out;
  for (const NodeInfo* n : nodes) out.with_pre_score.push_back(plugin.score(state, pod, *n));
  CycleState empty(1);
  for (const NodeInfo* n : nodes) out.without_pre_score.push_back(plugin.score(empty, pod, *n));
  out.batched.resize(nodes.size());
  plugin.score_nodes(state, pod, nodes, out.batched);
  return out;
}

// Up to 1.35 the score is the balance with the pod; 1.36 scores its change (below).
TEST_CASE("NodeResourcesBalancedAllocation Score: upstream TestNodeResourcesBalancedAllocation",
          "[plugins]") {
  const ResourceList n4000_10000 = cpu_mem(4000, 10000);
  const std::vector<Row> rows = {
      // Node1 cpu 3000/4000 = 0.75, memory 5000/10000 = 0.5: std 0.125 -> 87.
      // Node2 cpu 3000/6000 = 0.5, memory 0.5: std 0 -> 100.
      {"nothing scheduled, resources requested, differently sized nodes",
       cpu_and_memory("p"),
       {{"node1", n4000_10000}, {"node2", cpu_mem(6000, 10000)}},
       {},
       {87, 100}},
      // Node1 cpu 6000/10000, memory 5000/20000: std 0.175 -> 82.
      // Node2 cpu 6000/10000, memory 10000/50000: std 0.2 -> 80.
      {"resources requested, pods scheduled with resources, differently sized nodes",
       cpu_and_memory("p"),
       {{"node1", cpu_mem(10000, 20000)}, {"node2", cpu_mem(10000, 50000)}},
       {{cpu_only("e1"), "node1"}, {cpu_and_memory("e2"), "node2"}},
       {82, 80}},
      // Node1 cpu 6000/6000, memory 0: std 0.5 -> 50. Node2 cpu 1, memory 0.5: std 0.25 -> 75.
      {"requested resources at node capacity",
       cpu_only("p"),
       {{"node1", cpu_mem(6000, 10000)}, {"node2", cpu_mem(6000, 10000)}},
       {{cpu_only("e1"), "node1"}, {cpu_and_memory("e2"), "node2"}},
       {50, 75}},
      // Upstream: node1 cpu 3000/3500, memory 5000/40000, GPU 4/8 -> 70; node2 GPU 1/8 -> 65.
      {"include scalar resource on a node for balanced resource allocation",
       test::make_pod("p", {container({{"memory", bytes(0)}, {"nvidia.com/gpu", units(1)}})}),
       {{"node1", {{"cpu", milli(3500)}, {"memory", bytes(40000)}, {"nvidia.com/gpu", units(8)}}},
        {"node2", {{"cpu", milli(3500)}, {"memory", bytes(40000)}, {"nvidia.com/gpu", units(8)}}}},
       {{test::make_pod(
             "e1", {container(cpu_mem(1000, 2000)), container({{"cpu", milli(2000)},
                                                               {"memory", bytes(3000)},
                                                               {"nvidia.com/gpu", units(3)}})}),
         "node1"},
        {cpu_and_memory("e2"), "node2"}},
       {70, 65},
       BalancedAllocationArgs{{{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}}}},
      // Upstream "... if PreScore not called": node1 82, node2 cpu 0.6 / memory 0.5 -> 95.
      {"resources requested, pods scheduled with resources if PreScore not called",
       cpu_and_memory("p"),
       {{"node1", cpu_mem(10000, 20000)}, {"node2", cpu_mem(10000, 20000)}},
       {{cpu_only("e1"), "node1"}, {cpu_and_memory("e2"), "node2"}},
       {82, 95}},
      // Fractions above 1 are capped: cpu 9000/6000 -> 1, memory 5000/10000 -> 0.5: 75.
      {"requests above capacity are capped at a fraction of 1",
       cpu_and_memory("p"),
       {{"node1", cpu_mem(6000, 10000)}},
       {{cpu_only("e1"), "node1"}, {cpu_only("e2"), "node1"}},
       {75}},
      // Memory allocatable 0 drops out: only cpu remains, std 0 -> 100.
      {"a resource the node has none of is left out",
       cpu_and_memory("p"),
       {{"node1", cpu_mem(6000, 0)}},
       {},
       {100}},
      // Three resources: cpu 0.5, memory 0.5, GPU 2/4 = 0.5 -> 100; node2 GPU 2/8 = 0.25:
      // mean 0.41666, std sqrt(((1/12)^2*2 + (1/6)^2)/3) = 0.11785 -> 88.
      {"three resources use the population standard deviation",
       test::make_pod("p", {container({{"cpu", milli(3000)},
                                       {"memory", bytes(5000)},
                                       {"nvidia.com/gpu", units(2)}})}),
       {{"node1", {{"cpu", milli(6000)}, {"memory", bytes(10000)}, {"nvidia.com/gpu", units(4)}}},
        {"node2", {{"cpu", milli(6000)}, {"memory", bytes(10000)}, {"nvidia.com/gpu", units(8)}}}},
       {},
       {100, 88},
       BalancedAllocationArgs{{{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}}}},
      // A configured scalar the pod does not request is skipped: cpu 0.5 vs memory 0.25 -> 87.
      {"a configured scalar resource the pod does not request is skipped",
       test::make_pod("p", {container(cpu_mem(3000, 2500))}),
       {{"node1", {{"cpu", milli(6000)}, {"memory", bytes(10000)}, {"nvidia.com/gpu", units(4)}}}},
       {},
       {87},
       BalancedAllocationArgs{{{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}}}},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const Scores scores = scores_of(row, KubernetesVersion{35, -1});
      CHECK(scores.with_pre_score == row.want);
      // Without PreScore, Score computes the requests itself (upstream's fallback).
      CHECK(scores.without_pre_score == row.want);
      CHECK(scores.batched == row.want);
    }
  }
}

TEST_CASE("NodeResourcesBalancedAllocation PreScore skips best-effort pods", "[plugins]") {
  // PR #130260 (issue #129138): a pod requesting none of the resources is not scored, and the
  // 100m / 200Mi defaults of the Fit scorer do not apply here.
  test::Env env(KubernetesVersion{35, -1});
  const NodeInfo& node = env.cluster.add_node(test::make_node("n", cpu_mem(4000, 10000)));
  std::vector<const NodeInfo*> nodes{&node};
  Handle handle = env.handle();
  plugins::BalancedAllocation plugin(handle, {});
  SECTION("nothing scheduled, nothing requested") {
    const PodInfo pod = env.compile(test::make_pod("p", {container({})}));
    CycleState state(1);
    CHECK(plugin.pre_score(state, pod, nodes) == Code::Skip);
    CHECK(state.score_skipped(0));
    CycleState empty(1);
    CHECK(plugin.score(empty, pod, node) == 0);
  }
  SECTION("a request only for an unscored resource is still best-effort") {
    const PodInfo pod =
        env.compile(test::make_pod("p", {container({{"ephemeral-storage", bytes(100)}})}));
    CycleState state(1);
    CHECK(plugin.pre_score(state, pod, nodes) == Code::Skip);
  }
  SECTION("a cpu request alone is scored") {
    const PodInfo pod = env.compile(test::make_pod("p", {container({{"cpu", milli(2000)}})}));
    CycleState state(1);
    REQUIRE(plugin.pre_score(state, pod, nodes) == Code::Success);
    // cpu 0.5, memory 0 (no default): std 0.25 -> 75.
    CHECK(plugin.score(state, pod, node) == 75);
  }
}

TEST_CASE("NodeResourcesBalancedAllocation Score in 1.36 scores the change of balance",
          "[plugins]") {
  // PR #135573: 50 + (50 + score_with_pod - score_without_pod) / 2, each score the earlier
  // int64((1 - std) * 100); the PR's anchors are 75 for an unchanged balance, 50 from perfectly
  // balanced to perfectly unbalanced, 100 the other way.
  const std::vector<Row> rows = {
      {"balanced before and after: 75",
       test::make_pod("p", {container(cpu_mem(2000, 5000))}),
       {{"node1", cpu_mem(4000, 10000)}},
       {},
       {75}},
      {"from balanced (empty) to all cpu and no memory: 50",
       test::make_pod("p", {container(cpu_mem(4000, 0))}),
       {{"node1", cpu_mem(4000, 10000)}},
       {},
       {50}},
      {"from all cpu and no memory to all of both: 100",
       test::make_pod("p", {container(cpu_mem(0, 10000))}),
       {{"node1", cpu_mem(4000, 10000)}},
       {{test::make_pod("e1", {container(cpu_mem(4000, 0))}), "node1"}},
       {100}},
      // scenarios/balanced-allocation-change-1-36.json: with the pod 93, without 100 -> 71 (the
      // halving truncates); with 84, without 90 -> 72.
      {"integer halving",
       test::make_pod("p", {container(cpu_mem(500, 2048))}),
       {{"a", cpu_mem(4000, 8192)}, {"b", cpu_mem(4000, 8192)}},
       {{test::make_pod("on-a", {container(cpu_mem(750, 1536))}), "a"},
        {test::make_pod("on-b", {container(cpu_mem(250, 2048))}), "b"}},
       {71, 72}},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const Scores scores = scores_of(row, KubernetesVersion{36, -1});
      CHECK(scores.with_pre_score == row.want);
      CHECK(scores.without_pre_score == row.want);
      CHECK(scores.batched == row.want);
    }
  }
}

}  // namespace
}  // namespace gpusched
