// The optimized engine (batched scoring with per-node memos, replayed retries) must decide
// exactly as the straightforward reference engine: same result, byte for byte.

#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/report/writers.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

std::string result_json(const Scenario& scenario, bool reference) {
  SimulationOptions options;
  options.reference = reference;
  std::ostringstream out;
  report::write_json(out, simulate(scenario, options));
  return out.str();
}

std::string node(int i, int cpu, int gpus) {
  return R"({"kind": "Node", "metadata": {"name": "n)" + std::to_string(i) +
         R"(", "labels": {"topology.kubernetes.io/zone": "z)" + std::to_string(i % 3) +
         R"("}}, "status": {"allocatable": {"cpu": ")" + std::to_string(cpu) +
         R"(", "memory": "64Gi", "nvidia.com/gpu": ")" + std::to_string(gpus) + R"("}}})";
}

std::string pod(const std::string& name, const std::string& cpu, int gpus,
                const std::string& priority_class) {
  std::string resources = R"("cpu": ")" + cpu + R"(", "memory": "1Gi")";
  std::string limits;
  if (gpus > 0) limits = R"(, "limits": {"nvidia.com/gpu": ")" + std::to_string(gpus) + R"("})";
  return R"({"kind": "Pod", "metadata": {"name": ")" + name +
         R"(", "namespace": "default"}, "spec": {"priorityClassName": ")" + priority_class +
         R"(", "containers": [{"name": "c", "resources": {"requests": {)" + resources + "}" +
         limits + "}}]}}";
}

}  // namespace

TEST_CASE("the reference engine and the optimized one agree on every bundled scenario",
          "[sim][reference]") {
  const std::filesystem::path root = std::filesystem::path(GPUSCHED_SOURCE_DIR) / "scenarios";
  int compared = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".json" && ext != ".yaml")) continue;
    Scenario scenario;
    try {
      scenario = io::load_scenario(entry.path());
    } catch (const InputError&) {
      continue;  // snapshots and bare manifests are not scenarios
    }
    INFO(entry.path().string());
    CHECK(result_json(scenario, false) == result_json(scenario, true));
    ++compared;
  }
  CHECK(compared >= 60);
}

TEST_CASE("the engines agree when nodes change under memoized scores", "[sim][reference]") {
  // Bursts of alike pods (the memo hits), node allocatable changes, cordons and deletions (the
  // memo must see the node change), and preemption dry-runs that edit nodes in place and restore
  // them (the restored node must not look like the edited one).
  std::string cluster = R"({"kind": "PriorityClass", "metadata": {"name": "low"}, "value": 1},
      {"kind": "PriorityClass", "metadata": {"name": "high"}, "value": 1000})";
  for (int i = 0; i < 30; ++i) cluster += "," + node(i, 8 + i % 4, i % 5 == 0 ? 0 : 8);
  for (int i = 0; i < 120; ++i)
    cluster += "," + pod("low-" + std::to_string(i), i % 3 == 0 ? "1500m" : "1", i % 4, "low");
  std::string burst;
  for (int i = 0; i < 40; ++i)
    burst += (i ? "," : "") + pod("high-" + std::to_string(i), "6", i % 2 == 0 ? 2 : 0, "high");
  const std::string text = R"({"name": "memo", "scheduler": {"seed": 7}, "cluster": [)" + cluster +
                           R"(], "timeline": [
      {"at": "10s", "apply": )" +
                           node(3, 64, 8) + R"(},
      {"at": "10s", "cordon": "n4"},
      {"at": "20s", "delete": {"kind": "Pod", "namespace": "default", "name": "low-7"}},
      {"at": "20s", "delete": {"kind": "Pod", "namespace": "default", "name": "low-8"}},
      {"at": "30s", "apply": [)" +
                           burst + R"(]},
      {"at": "40s", "uncordon": "n4"},
      {"at": "40s", "apply": )" +
                           node(5, 2, 8) + R"(}]})";
  const Scenario scenario = io::parse_scenario(text, "memo.json");
  const std::string optimized = result_json(scenario, false);
  CHECK(optimized == result_json(scenario, true));
  // The run does exercise what it is meant to: preemptions happened and some pods wait.
  CHECK(optimized.find("\"victims\"") != std::string::npos);
  CHECK(optimized.find("Pending") != std::string::npos);
}

TEST_CASE("the engines agree on kept Filter verdicts: alike pods, host ports, nominated nodes",
          "[sim][reference]") {
  // The optimized engine keeps NodeResourcesFit's and NodePorts' verdicts per node while the
  // node's version stands (FilterPlugin::append_node_dynamic_key), and judges afresh a node with
  // nominated pods: pods asking alike for GPUs and for one host port, preemptions that nominate
  // nodes, and deletions that free them.
  std::string cluster = R"({"kind": "PriorityClass", "metadata": {"name": "low"}, "value": 1},
      {"kind": "PriorityClass", "metadata": {"name": "high"}, "value": 1000})";
  for (int i = 0; i < 12; ++i) cluster += "," + node(i, 16, i % 4 == 0 ? 0 : 4);
  auto with_port = [](const std::string& name, int gpus, const std::string& priority_class) {
    std::string text = pod(name, "1", gpus, priority_class);
    const std::string containers = R"("containers": [{"name": "c", )";
    text.replace(text.find(containers), containers.size(),
                 containers + R"("ports": [{"containerPort": 80, "hostPort": 8080}], )");
    return text;
  };
  for (int i = 0; i < 10; ++i) cluster += "," + with_port("web-" + std::to_string(i), 0, "low");
  for (int i = 0; i < 30; ++i) cluster += "," + pod("gpu-" + std::to_string(i), "1", 1, "low");
  std::string burst;
  for (int i = 0; i < 8; ++i) {
    burst += (i ? "," : "") + with_port("edge-" + std::to_string(i), 0, "high") + "," +
             pod("train-" + std::to_string(i), "2", 2, "high");
  }
  const std::string text = R"({"name": "kept", "scheduler": {"seed": 3}, "cluster": [)" + cluster +
                           R"(], "timeline": [
      {"at": "10s", "apply": [)" +
                           burst +
                           R"(]},
      {"at": "20s", "delete": {"kind": "Pod", "namespace": "default", "name": "gpu-3"}},
      {"at": "20s", "delete": {"kind": "Pod", "namespace": "default", "name": "web-2"}},
      {"at": "30s", "apply": )" +
                           with_port("late", 1, "low") + R"(}]})";
  const Scenario scenario = io::parse_scenario(text, "kept.json");
  const std::string optimized = result_json(scenario, false);
  CHECK(optimized == result_json(scenario, true));
  // Preemptions nominated nodes (each victim makes room for a nominated pod).
  CHECK(optimized.find("\"victims\"") != std::string::npos);
  CHECK(optimized.find("didn't have free ports for the requested pod ports") != std::string::npos);
  CHECK(optimized.find("Insufficient nvidia.com/gpu") != std::string::npos);
}

TEST_CASE("the engines agree on runs of kept verdicts across selector rejections and wrap-arounds",
          "[sim][reference]") {
  // The optimized Filter loop passes over a run of nodes that one kept NodeResourcesFit verdict
  // rejects at their versions (ClusterState::node_versions) without reading them, and must stop
  // at a node that changed, at one the pod's node selector rejects and where a search that
  // wrapped around began. Pods asking alike but selecting other nodes share those verdicts; with
  // 150 nodes a cycle stops at 100 feasible ones and the next starts where it stopped.
  auto typed_node = [](int i) {
    return R"({"kind": "Node", "metadata": {"name": "n)" + std::to_string(i) +
           R"(", "labels": {"topology.kubernetes.io/zone": "z)" + std::to_string(i % 3) +
           R"(", "gpu-type": ")" + (i / 7 % 2 == 0 ? "a" : "b") +
           R"("}}, "status": {"allocatable": {"cpu": "64", "memory": "64Gi", "nvidia.com/gpu": "8"}}})";
  };
  auto gpu_pod = [](const std::string& name, int gpus, const std::string& type) {
    const std::string selector =
        type.empty() ? "" : R"("nodeSelector": {"gpu-type": ")" + type + R"("}, )";
    return R"({"kind": "Pod", "metadata": {"name": ")" + name +
           R"(", "namespace": "default"}, "spec": {)" + selector +
           R"("containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}, "limits": {"nvidia.com/gpu": ")" +
           std::to_string(gpus) + R"("}}}]}})";
  };
  std::string cluster;
  for (int i = 0; i < 150; ++i) cluster += (i ? "," : "") + typed_node(i);
  for (int i = 0; i < 130; ++i) cluster += "," + gpu_pod("fill-" + std::to_string(i), 8, "");
  std::string burst;
  for (int i = 0; i < 60; ++i) {
    burst += (i ? "," : "") + gpu_pod("want-" + std::to_string(i), 4, i % 3 == 0 ? "b" : "a");
  }
  std::string later;
  for (int i = 0; i < 30; ++i) {
    later += (i ? "," : "") +
             gpu_pod("late-" + std::to_string(i), i % 2 == 0 ? 4 : 2, i % 2 == 0 ? "a" : "b");
  }
  std::string deletions;
  for (int i : {3, 17, 50, 51, 77, 99, 120, 129}) {
    deletions +=
        R"({"at": "20s", "delete": {"kind": "Pod", "namespace": "default", "name": "fill-)" +
        std::to_string(i) + R"("}},)";
  }
  const std::string text = R"({"name": "runs", "scheduler": {"seed": 5}, "cluster": [)" + cluster +
                           R"(], "timeline": [{"at": "10s", "apply": [)" + burst + "]}," +
                           deletions + R"({"at": "30s", "apply": [)" + later + "]}]}";
  const Scenario scenario = io::parse_scenario(text, "runs.json");
  const std::string optimized = result_json(scenario, false);
  CHECK(optimized == result_json(scenario, true));
  // Both kinds of rejection met, and some pods ran where others wait.
  CHECK(optimized.find("Insufficient nvidia.com/gpu") != std::string::npos);
  CHECK(optimized.find("didn't match Pod's node affinity/selector") != std::string::npos);
  CHECK(optimized.find("\"Pending\"") != std::string::npos);
  CHECK(optimized.find("\"Running\"") != std::string::npos);
}

}  // namespace gpusched
