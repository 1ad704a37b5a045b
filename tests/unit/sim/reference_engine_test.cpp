// The optimized engine (batched scoring with per-node memos, replayed retries) must decide
// exactly as the straightforward reference engine: same result, byte for byte.

#include <catch2/catch.hpp>

#include <algorithm>
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
  // them (the restored node is as it was, and no later state looks like an edited one).
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

TEST_CASE("the engines agree on kept verdicts of a node with nominated pods, counted by priority",
          "[sim][reference]") {
  // x has room for one pod of 2 cpu, but n is nominated there: a (high) does not yield to it, b
  // (n's priority) does. a prefers y and goes there, leaving x as it was: b must not take a's
  // verdict on x.
  const std::string prefer_y =
      R"("affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [)"
      R"({"weight": 100, "preference": {"matchFields": [{"key": "metadata.name", )"
      R"("operator": "In", "values": ["y"]}]}}]}}, )";
  auto two_cpu = [](const std::string& name, const std::string& priority_class,
                    const std::string& extra, const std::string& status) {
    return R"({"kind": "Pod", "metadata": {"name": ")" + name +
           R"(", "namespace": "default"}, "spec": {"priorityClassName": ")" + priority_class +
           R"(", )" + extra +
           R"("containers": [{"name": "c", "resources": {"requests": {"cpu": "2"}}}]})" + status +
           "}";
  };
  const std::string text =
      R"({"name": "nominated", "scheduler": {"seed": 1}, "cluster": [
      {"kind": "PriorityClass", "metadata": {"name": "high"}, "value": 1000},
      {"kind": "PriorityClass", "metadata": {"name": "low"}, "value": 10},
      {"kind": "Node", "metadata": {"name": "x"}, "status": {"allocatable": {"cpu": "3"}}},
      {"kind": "Node", "metadata": {"name": "y"}, "status": {"allocatable": {"cpu": "2"}}}],
      "timeline": [{"at": "1s", "apply": [)" +
      two_cpu("a", "high", prefer_y, "") + "," + two_cpu("b", "low", prefer_y, "") + "," +
      two_cpu("n", "low", "", R"(, "status": {"nominatedNodeName": "x"})") + "]}]}";
  const Scenario scenario = io::parse_scenario(text, "nominated.json");
  const std::string optimized = result_json(scenario, false);
  CHECK(optimized == result_json(scenario, true));
  const SimulationResult result = simulate(scenario);
  auto node_of = [&](const std::string& name) {
    const auto it = std::find_if(result.pods.begin(), result.pods.end(),
                                 [&](const PodRecord& p) { return p.pod.metadata.name == name; });
    REQUIRE(it != result.pods.end());
    return it->pod.spec.node_name;
  };
  CHECK(node_of("a") == "y");
  CHECK(node_of("b").empty());
  CHECK(node_of("n") == "x");
  CHECK(optimized.find("0/2 nodes are available: 2 Insufficient cpu.") != std::string::npos);
}

TEST_CASE(
    "the engines agree on kept victim searches: preemptors of two priorities, nominated "
    "nodes, victims terminating gracefully",
    "[sim][reference]") {
  // The optimized DefaultPreemption keeps each node's victim search per preemptor priority and
  // Filter key while the node's version stands: alike preemptors of two priorities, over pods of
  // two priorities (only the higher preemptors may evict the upper ones), whose victims terminate
  // over 30 s while their preemptors are nominated, and deletions in between.
  std::string cluster = R"({"kind": "PriorityClass", "metadata": {"name": "low"}, "value": 1},
      {"kind": "PriorityClass", "metadata": {"name": "medium"}, "value": 500},
      {"kind": "PriorityClass", "metadata": {"name": "mid"}, "value": 100},
      {"kind": "PriorityClass", "metadata": {"name": "high"}, "value": 1000})";
  for (int i = 0; i < 40; ++i) cluster += "," + node(i, 4, 0);
  for (int i = 0; i < 160; ++i) {
    cluster += "," + pod("held-" + std::to_string(i), i % 3 == 0 ? "1200m" : "900m", 0,
                         i % 4 == 1 ? "medium" : "low");
  }
  std::string burst;
  for (int i = 0; i < 50; ++i) {
    burst += std::string(i ? "," : "") +
             pod("pre-" + std::to_string(i), "3", 0, i % 5 < 2 ? "mid" : "high");
  }
  std::string late;
  for (int i = 0; i < 20; ++i)
    late += std::string(i ? "," : "") + pod("late-" + std::to_string(i), "2", 0, "mid");
  const std::string text = R"({"name": "searches", "scheduler": {"seed": 5}, "cluster": [)" +
                           cluster + R"(], "timeline": [
      {"at": "10s", "apply": [)" +
                           burst + R"(]},
      {"at": "25s", "delete": {"kind": "Pod", "namespace": "default", "name": "held-9"}},
      {"at": "25s", "delete": {"kind": "Pod", "namespace": "default", "name": "held-30"}},
      {"at": "30s", "apply": [)" +
                           late + R"(]}]})";
  const Scenario scenario = io::parse_scenario(text, "searches.json");
  const std::string optimized = result_json(scenario, false);
  CHECK(optimized == result_json(scenario, true));
  CHECK(optimized.find("\"victims\"") != std::string::npos);
  CHECK(optimized.find("Pending") != std::string::npos);
}

TEST_CASE("the engines agree when DynamicResources' score decides: firstAvailable alternatives",
          "[sim][reference]") {
  // a and b have 8 GPUs each through the DRA driver; half-of-b takes 4 of b's. train asks for 8
  // GPUs, else 4: a gives it the first alternative (DynamicResources scores 8), b the second
  // (7), which outweighs b's lighter cpu load (8 cpu requested on a). The optimized engine
  // leaves out of its ranking only the plugins whose scores are alike on every node
  // (ScorePlugin::scores_alike); here DynamicResources' are not.
  const std::string text =
      R"({"name": "dra-first-available", "scheduler": {"seed": 1, "kubernetesVersion": "1.35"}, "cluster": [
 {"kind": "Node", "metadata": {"name": "a", "labels": {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3", "nvidia.com/gpu.count": "8", "nvidia.com/gpu.memory": "81559", "nvidia.com/dra-kubelet-plugin": "true"}},
  "status": {"capacity": {"cpu": "96", "memory": "1Ti", "pods": "110"}}},
 {"kind": "Node", "metadata": {"name": "b", "labels": {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3", "nvidia.com/gpu.count": "8", "nvidia.com/gpu.memory": "81559", "nvidia.com/dra-kubelet-plugin": "true"}},
  "status": {"capacity": {"cpu": "96", "memory": "1Ti", "pods": "110"}}},
 {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": "four", "namespace": "default"},
  "spec": {"spec": {"devices": {"requests": [{"name": "gpus", "exactly": {"deviceClassName": "gpu.nvidia.com", "count": 4}}]}}}},
 {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": "eight-or-four", "namespace": "default"},
  "spec": {"spec": {"devices": {"requests": [{"name": "gpus", "firstAvailable": [
     {"name": "eight", "deviceClassName": "gpu.nvidia.com", "count": 8},
     {"name": "four", "deviceClassName": "gpu.nvidia.com", "count": 4}]}]}}}},
 {"kind": "Pod", "metadata": {"name": "cpu-on-a", "namespace": "default"}, "spec": {"nodeName": "a", "containers": [{"name": "c", "resources": {"requests": {"cpu": "8"}}}]}},
 {"kind": "Pod", "metadata": {"name": "half-of-b", "namespace": "default"}, "spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["b"]}]}]}}},
   "resourceClaims": [{"name": "gpus", "resourceClaimTemplateName": "four"}],
   "containers": [{"name": "c", "resources": {"claims": [{"name": "gpus"}]}}]}}
 ],
 "timeline": [{"at": "1s", "apply": {"kind": "Pod", "metadata": {"name": "train", "namespace": "default"}, "spec": {
   "resourceClaims": [{"name": "gpus", "resourceClaimTemplateName": "eight-or-four"}],
   "containers": [{"name": "c", "resources": {"claims": [{"name": "gpus"}]}}]}}}]})";
  const Scenario scenario = io::parse_scenario(text, "dra.json");
  const std::string optimized = result_json(scenario, false);
  CHECK(optimized == result_json(scenario, true));
  const SimulationResult result = simulate(scenario);
  const auto train = std::find_if(result.pods.begin(), result.pods.end(), [](const PodRecord& p) {
    return p.pod.metadata.name == "train";
  });
  REQUIRE(train != result.pods.end());
  CHECK(train->pod.spec.node_name == "a");
  CHECK(optimized.find(R"("request": "gpus/eight")") != std::string::npos);
}

TEST_CASE(
    "the engines agree on scores read by node position: taints that come and go, nodes "
    "added and nominated",
    "[sim][reference]") {
  // The optimized Score plugins read a node's slot, version and whether it has taints from the
  // cluster's arrays by the node's position in the node list (CycleState::node_positions), and
  // the node itself only when a kept score does not hold: PreferNoSchedule taints added and
  // removed by node updates, nodes added mid-run in one zone (the list interleaves zones, so the
  // later positions all move), and preemptions that nominate nodes (their versions are then
  // judged afresh in the Filter loop's array).
  auto tainted_node = [](int i, bool taint) {
    const std::string taints =
        taint
            ? R"("spec": {"taints": [{"key": "spot", "value": "yes", "effect": "PreferNoSchedule"}]}, )"
            : "";
    return R"({"kind": "Node", "metadata": {"name": "n)" + std::to_string(i) +
           R"(", "labels": {"topology.kubernetes.io/zone": "z)" + std::to_string(i % 3) +
           R"("}}, )" + taints +
           R"("status": {"allocatable": {"cpu": "16", "memory": "64Gi", "nvidia.com/gpu": "4"}}})";
  };
  auto tolerating = [](std::string text) {
    const std::string spec = R"("spec": {)";
    text.replace(text.find(spec), spec.size(),
                 spec + R"("tolerations": [{"key": "spot", "operator": "Exists"}], )");
    return text;
  };
  std::string cluster = R"({"kind": "PriorityClass", "metadata": {"name": "low"}, "value": 1},
      {"kind": "PriorityClass", "metadata": {"name": "high"}, "value": 1000})";
  for (int i = 0; i < 150; ++i) cluster += "," + tainted_node(i, i % 4 == 1);
  for (int i = 0; i < 300; ++i) {
    const std::string p = pod("low-" + std::to_string(i), i % 2 == 0 ? "3" : "2", i % 3, "low");
    cluster += "," + (i % 5 == 0 ? tolerating(p) : p);
  }
  std::string retaint;
  for (int i = 0; i < 150; i += 7)
    retaint += std::string(retaint.empty() ? "" : ",") + tainted_node(i, i % 4 != 1);
  std::string added;
  for (int i = 150; i < 180; i += 3)
    added += std::string(added.empty() ? "" : ",") + tainted_node(i, i % 2 == 0);
  std::string burst;
  for (int i = 0; i < 60; ++i) {
    const std::string p = pod("high-" + std::to_string(i), "9", i % 2 == 0 ? 4 : 1, "high");
    burst += std::string(i ? "," : "") + (i % 3 == 0 ? tolerating(p) : p);
  }
  std::string late;
  for (int i = 0; i < 80; ++i) {
    const std::string p = pod("late-" + std::to_string(i), "1", i % 2, "low");
    late += std::string(i ? "," : "") + (i % 4 == 0 ? tolerating(p) : p);
  }
  const std::string text = R"({"name": "positions", "scheduler": {"seed": 11}, "cluster": [)" +
                           cluster + R"(], "timeline": [
      {"at": "10s", "apply": [)" +
                           retaint + R"(]},
      {"at": "20s", "apply": [)" +
                           added + R"(]},
      {"at": "30s", "apply": [)" +
                           burst + R"(]},
      {"at": "40s", "apply": [)" +
                           late + R"(]}]})";
  const Scenario scenario = io::parse_scenario(text, "positions.json");
  const std::string optimized = result_json(scenario, false);
  CHECK(optimized == result_json(scenario, true));
  // The run does what it is meant to: preemptions nominated nodes, and some pods landed on
  // nodes added in the timeline.
  CHECK(optimized.find("\"victims\"") != std::string::npos);
  const SimulationResult result = simulate(scenario);
  CHECK(std::any_of(result.pods.begin(), result.pods.end(), [](const PodRecord& p) {
    const std::string& node = p.pod.spec.node_name;
    return node.size() == 4 && node >= "n150" && node <= "n179";
  }));
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

namespace gpusched {
namespace {

/// n<n>'s node-local slice of four devices whose `model` attributes are the letters of
/// `models`.
std::string model_slice(int n, const std::string& models) {
  std::string devices;
  for (std::size_t d = 0; d < models.size(); ++d) {
    devices += std::string(d ? "," : "") + R"({"name": "gpu-)" + std::to_string(d) +
               R"(", "attributes": {"model": {"string": ")" + models[d] + R"("}}})";
  }
  return R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
             "metadata": {"name": "n)" +
         std::to_string(n) + R"(-gpus"},
             "spec": {"driver": "gpu.example.com", "nodeName": "n)" +
         std::to_string(n) + R"(", "pool": {"name": "n)" + std::to_string(n) +
         R"(", "generation": 1, "resourceSliceCount": 1}, "devices": [)" + devices + "]}}";
}

/// The class `gpu` of gpu.example.com's devices whose model is `model` (any when empty).
std::string gpu_class(const std::string& model) {
  const std::string only =
      model.empty() ? "" : " && device.attributes['gpu.example.com'].model == '" + model + "'";
  return R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
     "spec": {"selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com')" +
         only + R"("}}], "extendedResourceName": "example.com/gpu"}})";
}

constexpr const char* kTemplates = R"(
    {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
     "metadata": {"name": "one", "namespace": "default"},
     "spec": {"spec": {"devices": {"requests": [{"name": "g", "exactly": {"deviceClassName": "gpu"}}]}}}},
    {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
     "metadata": {"name": "pair", "namespace": "default"},
     "spec": {"spec": {"devices": {"requests": [{"name": "g", "exactly": {"deviceClassName": "gpu", "count": 2}}],
              "constraints": [{"requests": ["g"], "matchAttribute": "gpu.example.com/model"}]}}}})";

std::string dra_node(int n) {
  return R"({"kind": "Node", "metadata": {"name": "n)" + std::to_string(n) +
         R"("}, "status": {"allocatable": {"cpu": "16", "memory": "64Gi", "pods": "110"}}})";
}

/// A pod of `claim_template`, or (empty) one asking example.com/gpu: 1.
std::string dra_pod(const std::string& name, const std::string& claim_template,
                    const std::string& duration) {
  const std::string spec =
      claim_template.empty()
          ? R"("containers": [{"name": "c", "resources": {"limits": {"example.com/gpu": "1"}}}])"
          : R"("resourceClaims": [{"name": "g", "resourceClaimTemplateName": ")" + claim_template +
                R"("}], "containers": [{"name": "c", "resources": {"claims": [{"name": "g"}]}}])";
  return R"({"kind": "Pod", "metadata": {"name": ")" + name +
         R"(", "namespace": "default", "annotations": {"gpusched.io/run-duration": ")" + duration +
         R"("}}, "spec": {"restartPolicy": "Never", )" + spec + "}}";
}

Scenario dra_scenario(const std::string& cluster, const std::string& timeline) {
  return io::parse_scenario(R"({"name": "t", "scheduler": {"seed": 3, "kubernetesVersion": "1.36"},
      "until": "3h", "cluster": [)" +
                                cluster + R"(], "timeline": )" + timeline + "}",
                            "t.json");
}

TEST_CASE("the engines agree on DRA allocations kept per node across pods of one shape",
          "[sim][reference][dra]") {
  // Six nodes of four devices, each in its own node-local slice; pods of two templates (one
  // device; two devices of one model) and pods asking example.com/gpu through the
  // extended-resource bridge, in runs and interleaved, ending at different times: a node's kept
  // outcome must go stale exactly when its pool's allocations change.
  std::string cluster = gpu_class("") + "," + kTemplates;
  for (int n = 0; n < 6; ++n)
    cluster += "," + dra_node(n) + "," + model_slice(n, n % 2 ? "aabb" : "abab");
  for (int i = 0; i < 60; ++i) {
    const std::string tmpl = i % 5 == 4 ? "" : i % 3 == 0 ? "pair" : "one";
    cluster += "," + dra_pod("p" + std::to_string(i), tmpl, std::to_string(5 + (i * 7) % 23) + "m");
  }
  const Scenario scenario = dra_scenario(cluster, "[]");
  CHECK(result_json(scenario, false) == result_json(scenario, true));
  // Every pod ran: the run exercised allocations, not only rejections.
  const SimulationResult result = simulate(scenario);
  CHECK(std::all_of(result.pods.begin(), result.pods.end(),
                    [](const PodRecord& p) { return p.scheduled.has_value(); }));
}

TEST_CASE("the engines agree when a DeviceClass or a ResourceSlice changes under a kept outcome",
          "[sim][reference][dra]") {
  SECTION("a class that selected nothing now selects the devices") {
    const Scenario scenario =
        dra_scenario(gpu_class("c") + "," + kTemplates + "," + dra_node(0) + "," +
                         model_slice(0, "aa") + "," + dra_pod("p", "one", "1h"),
                     "[{\"at\": \"10m\", \"apply\": [" + gpu_class("a") + "]}]");
    CHECK(result_json(scenario, false) == result_json(scenario, true));
    const SimulationResult result = simulate(scenario);
    REQUIRE(result.pods[0].scheduled);
    CHECK(*result.pods[0].scheduled == 10 * 60 * 1000);
  }
  SECTION("a slice whose two devices differed now has a pair") {
    const Scenario scenario =
        dra_scenario(gpu_class("") + "," + kTemplates + "," + dra_node(0) + "," +
                         model_slice(0, "ab") + "," + dra_pod("p", "pair", "1h"),
                     "[{\"at\": \"10m\", \"apply\": [" + model_slice(0, "bb") + "]}]");
    CHECK(result_json(scenario, false) == result_json(scenario, true));
    const SimulationResult result = simulate(scenario);
    REQUIRE(result.pods[0].scheduled);
    CHECK(*result.pods[0].scheduled == 10 * 60 * 1000);
  }
}

}  // namespace
}  // namespace gpusched
