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

TEST_CASE("a pool's price, reservation and provisioning", "[io][pools]") {
  const std::string pool = R"({"count": 2, "pricePerGpuHour": "2.50",
      "reservation": {"start": "1h", "end": "13h"},
      "provisioning": {"launchDelay": "4m", "bootDelay": 90, "driverDelay": "2m",
                       "launchFailureProbability": 0.125, "launchAttempts": 5},
      "node": {"kind": "Node", "metadata": {"name": "a"}}})";
  const Scenario s = parse_scenario(scenario_with("[" + pool + "]"), "p.json");
  const NodePool& p = s.node_pools.at(0);
  CHECK(p.price_micros_per_gpu_hour == 2'500'000);
  REQUIRE(p.reservation);
  CHECK(p.reservation->start == 3'600'000);
  CHECK(p.reservation->end == 13 * 3'600'000);
  REQUIRE(p.provisioning);
  CHECK(p.provisioning->launch_delay == 240'000);
  CHECK(p.provisioning->boot_delay == 90'000);
  CHECK(p.provisioning->driver_delay == 120'000);
  CHECK(p.provisioning->launch_failure_ppm == 125'000);
  CHECK(p.provisioning->launch_attempts == 5);
  CHECK(p.staged());
  CHECK(parse_scenario(scenario_with(R"([{"count": 1, "pricePerGpuHour": 3,
      "node": {"kind": "Node", "metadata": {"name": "b"}}}])"),
                       "p.json")
            .node_pools.at(0)
            .price_micros_per_gpu_hour == 3'000'000);
  // Written back and read again, all of it is the same.
  const Scenario again = parse_scenario(scenario_json_text(s), "again.json");
  const NodePool& q = again.node_pools.at(0);
  CHECK(q.price_micros_per_gpu_hour == p.price_micros_per_gpu_hour);
  CHECK(q.reservation->start == p.reservation->start);
  CHECK(q.reservation->end == p.reservation->end);
  CHECK(q.provisioning->launch_delay == p.provisioning->launch_delay);
  CHECK(q.provisioning->boot_delay == p.provisioning->boot_delay);
  CHECK(q.provisioning->driver_delay == p.provisioning->driver_delay);
  CHECK(q.provisioning->launch_failure_ppm == p.provisioning->launch_failure_ppm);
  CHECK(q.provisioning->launch_attempts == p.provisioning->launch_attempts);
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
       "/nodePools/0/size",
       "unknown key \"size\" (known keys: count, node, pricePerGpuHour, reservation, "
       "provisioning, autoscaling)"},
      {"a price with 7 decimals", scenario_with(R"([{"count": 1, "pricePerGpuHour": "0.0000001",
           "node": {"kind": "Node", "metadata": {"name": "a"}}}])"),
       "/nodePools/0/pricePerGpuHour",
       "a price must be a non-negative decimal with at most 6 decimals and 9 digits before the "
       "point, got \"0.0000001\""},
      {"a negative price", scenario_with(R"([{"count": 1, "pricePerGpuHour": -1,
           "node": {"kind": "Node", "metadata": {"name": "a"}}}])"),
       "/nodePools/0/pricePerGpuHour",
       "a price must be a non-negative decimal with at most 6 decimals and 9 digits before the "
       "point, got -1"},
      {"a reservation that ends before it starts",
       scenario_with(R"([{"count": 1, "reservation": {"start": "1h", "end": "30m"},
           "node": {"kind": "Node", "metadata": {"name": "a"}}}])"),
       "/nodePools/0/reservation/end", "a reservation must end after it starts"},
      {"a probability above 1",
       scenario_with(R"([{"count": 1, "provisioning": {"launchFailureProbability": 1.5},
           "node": {"kind": "Node", "metadata": {"name": "a"}}}])"),
       "/nodePools/0/provisioning/launchFailureProbability",
       "must be a number from 0 to 1, got 1.5"},
      {"no launch attempt", scenario_with(R"([{"count": 1, "provisioning": {"launchAttempts": 0},
           "node": {"kind": "Node", "metadata": {"name": "a"}}}])"),
       "/nodePools/0/provisioning/launchAttempts", "must be between 1 and 100, got 0"},
      {"an unknown provisioning key",
       scenario_with(R"([{"count": 1, "provisioning": {"bootTime": "1m"},
           "node": {"kind": "Node", "metadata": {"name": "a"}}}])"),
       "/nodePools/0/provisioning/bootTime",
       "unknown key \"bootTime\" (known keys: launchDelay, bootDelay, driverDelay, "
       "launchFailureProbability, launchAttempts)"},
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
