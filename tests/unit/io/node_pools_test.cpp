// group_nodes_into_pools: a scenario's identical nodes become node pools a planner can resize.
#include "gpusched/io/node_pools.hpp"

#include <catch2/catch.hpp>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/scenario_writer.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched::io {
namespace {

std::string node(const std::string& name, const std::string& gpus, const std::string& product) {
  return R"({"kind": "Node", "metadata": {"name": ")" + name +
         R"(", "labels": {"kubernetes.io/hostname": ")" + name + R"(")" +
         (product.empty() ? "" : R"(, "nvidia.com/gpu.product": ")" + product + R"(")") +
         R"(}}, "status": {"capacity": {"cpu": "8", "nvidia.com/gpu": ")" + gpus + R"("}}})";
}

TEST_CASE("nodes of one shape become one pool, named after their GPU model", "[io][pools]") {
  const std::string text = R"({"name": "g", "cluster": [)" + node("a", "8", "Tesla-V100_SXM2") +
                           ", " + node("b", "8", "Tesla-V100_SXM2") + ", " +
                           node("c", "4", "Tesla-V100_SXM2") + ", " + node("d", "0", "") + ", " +
                           node("e", "8", "Tesla-V100_SXM2") + ", " +
                           node("pinned", "8", "Tesla-V100_SXM2") + R"(,
      {"kind": "Pod", "metadata": {"name": "p"},
       "spec": {"nodeName": "pinned", "containers": [{"name": "c"}]}}]})";
  Scenario scenario = parse_scenario(text, "g.json");
  CHECK(group_nodes_into_pools(scenario) == 5);
  REQUIRE(scenario.node_pools.size() == 3);
  CHECK(scenario.node_pools[0].name == "tesla-v100-sxm2-0");
  CHECK(scenario.node_pools[0].count == 3);  // a, b and e
  CHECK(scenario.node_pools[0].node.metadata.name == "tesla-v100-sxm2-0");
  CHECK(scenario.node_pools[1].name == "tesla-v100-sxm2-1");
  CHECK(scenario.node_pools[1].count == 1);
  CHECK(scenario.node_pools[2].name == "cpu-0");
  // The node a pod names stays, with the pod.
  REQUIRE(scenario.cluster.size() == 2);
  CHECK(std::get<Node>(scenario.cluster[0]).metadata.name == "pinned");
  CHECK(scenario.cluster_pointers.size() == 2);
  // The scenario still loads and replays: 5 pool nodes and the pinned one.
  const Scenario again = parse_scenario(scenario_json_text(scenario), "again.json");
  const SimulationResult result = simulate(again);
  CHECK(result.nodes.size() == 6);
  CHECK(result.nodes[0].node.metadata.labels.at("kubernetes.io/hostname") == "cpu-0-0");
}

TEST_CASE("a pool name never clashes with a pool or a node left in the cluster", "[io][pools]") {
  const std::string text = R"({"name": "g", "nodePools": [{"count": 1, "node": {"kind": "Node",
      "metadata": {"name": "cpu-0"}}}], "cluster": [)" +
                           node("cpu-1-0", "0", "") + ", " + node("x", "0", "") + R"(,
      {"kind": "Pod", "metadata": {"name": "p"},
       "spec": {"nodeName": "cpu-1-0", "containers": [{"name": "c"}]}}]})";
  Scenario scenario = parse_scenario(text, "g.json");
  CHECK(group_nodes_into_pools(scenario) == 1);
  REQUIRE(scenario.node_pools.size() == 2);
  CHECK(scenario.node_pools[1].name == "cpu-2");
  CHECK_NOTHROW(parse_scenario(scenario_json_text(scenario), "again.json"));
}

}  // namespace
}  // namespace gpusched::io
