// GPU nodes in the replay: when devices are modelled, and what a stated count changes.

#include <catch2/catch.hpp>

#include <string>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

std::string node(const std::string& name, const std::string& capacity) {
  return R"({"kind": "Node", "metadata": {"name": ")" + name + R"(", "labels": {"pool": ")" + name +
         R"(", "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3", "nvidia.com/gpu.count": "8"}},
     "status": {"capacity": {"cpu": "64", "memory": "512Gi", "pods": "110")" +
         capacity + "}}}";
}

std::string pod(const std::string& name, const std::string& pool, int gpus) {
  return R"({"kind": "Pod", "metadata": {"name": ")" + name +
         R"("}, "spec": {"nodeSelector": {"pool": ")" + pool +
         R"("}, "containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": ")" +
         std::to_string(gpus) + R"("}}}]}})";
}

const NodeRecord& node_named(const SimulationResult& result, const std::string& name) {
  for (const NodeRecord& record : result.nodes) {
    if (record.node.metadata.name == name) return record;
  }
  FAIL("no node " << name);
  throw std::logic_error("unreachable");
}

TEST_CASE("a stated GPU count is kept; devices are modelled only when it matches the hardware",
          "[sim][devices]") {
  // derived: no count stated; matching: 8 stated for 8 GPUs; shared: 32 stated, as a live
  // time-sliced node reports it, for a config gpusched would not derive.
  const std::string text = R"({"name": "stated", "cluster": [)" + node("derived", "") + "," +
                           node("matching", R"(, "nvidia.com/gpu": "8")") + "," +
                           node("shared", R"(, "nvidia.com/gpu": "32")") + "," +
                           pod("a", "derived", 1) + "," + pod("b", "matching", 2) + "," +
                           pod("c", "shared", 16) + "]}";
  const SimulationResult result = simulate(io::parse_scenario(text, "s.json"));
  CHECK(node_named(result, "derived").node.capacity.at("nvidia.com/gpu").to_string() == "8");
  CHECK(node_named(result, "derived").gpus.size() == 8);
  CHECK(node_named(result, "matching").gpus.size() == 8);
  CHECK(node_named(result, "shared").gpus.empty());
  CHECK(node_named(result, "shared").node.capacity.at("nvidia.com/gpu").to_string() == "32");
  for (const PodRecord& record : result.pods) {
    INFO(record.pod.metadata.name);
    CHECK(record.pod.status.phase == PodPhase::Running);
    // The shared node's pod runs without modelled devices, not rejected by 8 of them.
    CHECK(record.devices.empty() == (record.pod.metadata.name == "c"));
  }
}

}  // namespace
}  // namespace gpusched
