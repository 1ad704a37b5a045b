// nodePools: N nodes from one Node manifest; limits and name clashes are input errors.
#include "io/node_pool_json.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/scenario_writer.hpp"

namespace gpusched::io {
namespace {

const std::string kPool = R"({"count": 3, "node": {"kind": "Node",
    "metadata": {"name": "h100", "labels": {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}},
    "status": {"capacity": {"cpu": "96", "memory": "1Ti", "nvidia.com/gpu": "8"}}}})";

std::string scenario_with(const std::string& pools, const std::string& cluster = "[]") {
  return R"({"name": "p", "nodePools": )" + pools + R"(, "cluster": )" + cluster + "}";
}

TEST_CASE("a node pool is a Node template and a count", "[io][pools]") {
  const Scenario s = parse_scenario(scenario_with("[" + kPool + "]"), "p.json");
  REQUIRE(s.node_pools.size() == 1);
  const NodePool& pool = s.node_pools[0];
  CHECK(pool.name == "h100");
  CHECK(pool.count == 3);
  CHECK(pool.pointer == "/nodePools/0");
  CHECK(pool.node.allocatable.at("nvidia.com/gpu").value() == 8);  // defaulted from capacity
  CHECK(pool_node_name(pool, 2) == "h100-2");
  // Written back and read again, the pool is the same.
  const Scenario again = parse_scenario(scenario_json_text(s), "again.json");
  REQUIRE(again.node_pools.size() == 1);
  CHECK(again.node_pools[0].count == 3);
  CHECK(again.node_pools[0].node == pool.node);
}

TEST_CASE("node pools refuse bad counts, other kinds and clashing names", "[io][pools]") {
  struct Row {
    const char* what;
    std::string text;
    std::string pointer;
    std::string reason;
  };
  const std::string pod_pool = R"({"count": 1, "node": {"kind": "Pod", "metadata": {"name": "x"},
      "spec": {"containers": [{"name": "c"}]}}})";
  const std::vector<Row> rows = {
      {"negative count", scenario_with(R"([{"count": -1, "node": {"kind": "Node",
           "metadata": {"name": "a"}}}])"),
       "/nodePools/0/count", "must be between 0 and 100000, got -1"},
      {"too many nodes", scenario_with(R"([{"count": 60000, "node": {"kind": "Node",
           "metadata": {"name": "a"}}}, {"count": 60000, "node": {"kind": "Node",
           "metadata": {"name": "b"}}}])"),
       "/nodePools/1/count", "the node pools hold more than 100000 nodes (gpusched limit)"},
      {"not a node", scenario_with("[" + pod_pool + "]"), "/nodePools/0/node",
       "a node pool's \"node\" must be a Node, got Pod"},
      {"same pool twice", scenario_with("[" + kPool + ", " + kPool + "]"), "/nodePools/1/node",
       "duplicate node pool \"h100\": also defined at /nodePools/0"},
      {"a cluster node of the same name",
       scenario_with("[" + kPool + "]", R"([{"kind": "Node", "metadata": {"name": "h100-1"}}])"),
       "/cluster/0", "duplicate Node \"h100-1\": also made by the node pool at /nodePools/0"},
      {"names too long",
       scenario_with(R"([{"count": 1000, "node": {"kind": "Node",
           "metadata": {"name": ")" +
                     std::string(250, 'a') + R"("}}}])"),
       "/nodePools/0/count",
       "node name \"" + std::string(250, 'a') +
           "-999\" would be invalid: must be no more than 253 characters"},
      {"unknown key", scenario_with(R"([{"count": 1, "size": 2, "node": {"kind": "Node",
           "metadata": {"name": "a"}}}])"),
       "/nodePools/0/size", "unknown key \"size\" (known keys: count, node)"},
  };
  for (const Row& row : rows) {
    SECTION(row.what) {
      try {
        (void)parse_scenario(row.text, "p.json");
        FAIL("accepted");
      } catch (const InputError& e) {
        CHECK(e.pointer() == row.pointer);
        CHECK(e.reason() == row.reason);
      }
    }
  }
}

}  // namespace
}  // namespace gpusched::io
