// The openb trace as a scenario: each column's mapping, GPU shares, gpu_spec, arrivals grouped
// by second, run times, the scenario written and read back, and a small trace replayed.

#include "gpusched/io/openb.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/scenario_writer.hpp"
#include "gpusched/report/gpu_allocation.hpp"
#include "gpusched/sim/simulator.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::io {
namespace {

using test::TempDir;

const std::string kNodeHeader = "sn,cpu_milli,memory_mib,gpu,model\n";
const std::string kPodHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
    "deletion_time,scheduled_time\n";

const std::string kNodes = kNodeHeader +
                           "cpu-0,8000,32768,0,\n"
                           "gpu-t4,16000,65536,2,T4\n"
                           "gpu-v100,16000,65536,1,V100M16\n";

/// The trace in a fresh directory, imported.
struct Imported {
  TempDir dir;
  std::string nodes_csv;
  std::string pods_csv;
  Scenario scenario;

  Imported(const std::string& nodes, const std::string& pods)
      : nodes_csv(dir.write("nodes.csv", nodes)),
        pods_csv(dir.write("pods.csv", pods)),
        scenario(import_openb(nodes_csv, pods_csv)) {}
};

const Node& node_at(const Scenario& scenario, std::size_t i) {
  return std::get<Node>(scenario.cluster.at(i));
}

/// Every pod of the scenario, with the time it is created, in creation order.
std::vector<std::pair<TimeMs, const Pod*>> pods_of(const Scenario& scenario) {
  std::vector<std::pair<TimeMs, const Pod*>> out;
  for (const Object& object : scenario.cluster) {
    if (const auto* pod = std::get_if<Pod>(&object)) out.emplace_back(0, pod);
  }
  for (const Action& action : scenario.timeline) {
    for (const Object& object : action.objects) out.emplace_back(action.at, &std::get<Pod>(object));
  }
  return out;
}

const Pod& pod_named(const Scenario& scenario, const std::string& name) {
  for (const auto& [at, pod] : pods_of(scenario)) {
    if (pod->metadata.name == name) return *pod;
  }
  FAIL("no pod " << name);
  throw std::logic_error("unreachable");
}

std::string quantity(const ResourceList& list, std::string_view name) {
  const auto it = list.find(name);
  return it == list.end() ? "<none>" : it->second.to_string();
}

TEST_CASE("openb nodes: capacity, allocatable and GPU hardware labels", "[io][openb]") {
  const Imported trace(kNodes + "gpu-nomodel,4000,1024,4,\n", kPodHeader);
  const Scenario& s = trace.scenario;
  CHECK(s.name == "pods");
  CHECK(s.source == trace.pods_csv);
  CHECK(s.description ==
        "Alibaba openb trace: 4 nodes from " + trace.nodes_csv + ", 0 pods from " + trace.pods_csv);
  REQUIRE(s.cluster.size() == 4);
  CHECK(s.cluster_pointers ==
        std::vector<std::string>{trace.nodes_csv + ":2", trace.nodes_csv + ":3",
                                 trace.nodes_csv + ":4", trace.nodes_csv + ":5"});

  const Node& cpu = node_at(s, 0);
  CHECK(cpu.metadata.name == "cpu-0");
  CHECK(cpu.metadata.labels == Labels{{"kubernetes.io/hostname", "cpu-0"}});
  CHECK(quantity(cpu.capacity, "cpu") == "8");
  CHECK(quantity(cpu.capacity, "memory") == "32Gi");
  CHECK(quantity(cpu.capacity, "pods") == "110");
  CHECK(quantity(cpu.capacity, "nvidia.com/gpu") == "<none>");
  CHECK(cpu.allocatable == cpu.capacity);

  const Node& t4 = node_at(s, 1);
  CHECK(t4.metadata.labels == Labels{{"kubernetes.io/hostname", "gpu-t4"},
                                     {"nvidia.com/gpu.count", "2"},
                                     {"nvidia.com/gpu.product", "T4"}});
  CHECK(quantity(t4.capacity, "cpu") == "16");
  CHECK(quantity(t4.capacity, "memory") == "64Gi");
  CHECK(quantity(t4.allocatable, "nvidia.com/gpu") == "2");
  CHECK(t4.allocatable == t4.capacity);

  // A GPU count without a model: counts only, no hardware labels.
  const Node& bare = node_at(s, 3);
  CHECK(bare.metadata.labels == Labels{{"kubernetes.io/hostname", "gpu-nomodel"}});
  CHECK(quantity(bare.allocatable, "nvidia.com/gpu") == "4");
  CHECK(quantity(bare.capacity, "memory") == "1Gi");
  CHECK(quantity(bare.capacity, "cpu") == "4");
}

TEST_CASE("openb pods: requests, GPU counts and shares, gpu_spec, qos and run time",
          "[io][openb]") {
  const Imported trace(kNodes, kPodHeader +
                                   "whole,12000,16384,1,1000,,LS,Running,0,100,0\n"
                                   "multi,88000,327680,8,1000,G2,Burstable,Succeeded,5,65,7\n"
                                   "share,6000,12288,1,460,,BE,Running,5,50,5\n"
                                   "cpu,500,0,0,0,,,Failed,9,9,9\n"
                                   "choice,3152,5600,1,1000,V100M16|V100M32,BE,Failed,9,20,10\n"
                                   "never,11908,47104,1,1000,,BE,Pending,9,70,\n");
  const Pod& whole = pod_named(trace.scenario, "whole");
  CHECK(whole.metadata.namespace_ == "default");
  CHECK(whole.metadata.labels == Labels{{"openb.alibaba.com/qos", "LS"}});
  CHECK(whole.metadata.annotations == Labels{{"gpusched.io/run-duration", "1m40s"}});
  CHECK(whole.spec.restart_policy == "Never");
  REQUIRE(whole.spec.containers.size() == 1);
  const Container& c = whole.spec.containers[0];
  CHECK(c.name == "main");
  CHECK(quantity(c.requests, "cpu") == "12");
  CHECK(quantity(c.requests, "memory") == "16Gi");
  CHECK(quantity(c.requests, "nvidia.com/gpu") == "1");
  CHECK(c.limits == ResourceList{{"nvidia.com/gpu", Quantity::from_units(1)}});
  CHECK_FALSE(whole.spec.affinity->node_affinity);

  const Pod& multi = pod_named(trace.scenario, "multi");
  CHECK(quantity(multi.spec.containers[0].requests, "nvidia.com/gpu") == "8");
  CHECK(quantity(multi.spec.containers[0].limits, "nvidia.com/gpu") == "8");
  CHECK(quantity(multi.spec.containers[0].requests, "memory") == "320Gi");
  CHECK(multi.metadata.annotations.at("gpusched.io/run-duration") == "58s");  // 65 - 7
  const NodeSelectorTerm g2{{{"nvidia.com/gpu.product", SelectorOperator::In, {"G2"}}}, {}};
  REQUIRE(multi.spec.affinity->node_affinity);
  CHECK(multi.spec.affinity->node_affinity->required == std::vector<NodeSelectorTerm>{g2});
  CHECK(multi.spec.affinity->node_affinity->preferred.empty());

  // A share of one GPU takes the whole GPU.
  const Pod& share = pod_named(trace.scenario, "share");
  CHECK(quantity(share.spec.containers[0].requests, "nvidia.com/gpu") == "1");
  CHECK(quantity(share.spec.containers[0].requests, "cpu") == "6");
  CHECK(quantity(share.spec.containers[0].requests, "memory") == "12Gi");

  const Pod& cpu = pod_named(trace.scenario, "cpu");
  CHECK(cpu.metadata.labels.empty());  // no qos
  CHECK(cpu.spec.containers[0].requests ==
        ResourceList{{"cpu", Quantity(500)}, {"memory", Quantity(0, QuantityFormat::BinarySI)}});
  CHECK(cpu.spec.containers[0].limits.empty());
  CHECK(cpu.metadata.annotations.at("gpusched.io/run-duration") == "0s");

  const Pod& choice = pod_named(trace.scenario, "choice");
  const NodeSelectorTerm v100{
      {{"nvidia.com/gpu.product", SelectorOperator::In, {"V100M16", "V100M32"}}}, {}};
  REQUIRE(choice.spec.affinity->node_affinity);
  CHECK(choice.spec.affinity->node_affinity->required == std::vector<NodeSelectorTerm>{v100});
  CHECK(choice.metadata.annotations.at("gpusched.io/run-duration") == "10s");  // 20 - 10

  // Never scheduled in the trace: it would run from creation to deletion.
  const Pod& never = pod_named(trace.scenario, "never");
  CHECK(never.metadata.annotations.at("gpusched.io/run-duration") == "1m1s");  // 70 - 9
}

TEST_CASE("openb arrivals: one apply per creation second, in time then file order", "[io][openb]") {
  // Not sorted by creation time, as some sampled pod lists are.
  const Imported trace(kNodes, kPodHeader +
                                   "p0,1000,1024,0,0,,LS,Running,0,10,0\n"
                                   "p1,1000,1024,0,0,,LS,Running,7,10,7\n"
                                   "p2,1000,1024,0,0,,LS,Running,3,10,3\n"
                                   "p3,1000,1024,0,0,,LS,Running,7,10,7\n"
                                   "p4,1000,1024,0,0,,LS,Running,0,10,0\n"
                                   "p5,1000,1024,0,0,,LS,Running,3,10,3\n");
  const Scenario& s = trace.scenario;
  std::vector<std::pair<TimeMs, std::string>> order;
  for (const auto& [at, pod] : pods_of(s)) order.emplace_back(at, pod->metadata.name);
  CHECK(order == std::vector<std::pair<TimeMs, std::string>>{
                     {0, "p0"}, {0, "p4"}, {3000, "p2"}, {3000, "p5"}, {7000, "p1"}, {7000, "p3"}});
  // Pods at 0s are in the cluster after the nodes, each with its row.
  REQUIRE(s.cluster.size() == 5);
  CHECK(s.cluster_pointers[3] == trace.pods_csv + ":2");
  CHECK(s.cluster_pointers[4] == trace.pods_csv + ":6");
  REQUIRE(s.timeline.size() == 2);
  for (const Action& action : s.timeline) CHECK(action.verb == Verb::Apply);
  CHECK(s.timeline[0].pointer == trace.pods_csv + ":4");  // the first row of that second
  CHECK(s.timeline[1].pointer == trace.pods_csv + ":3");
}

TEST_CASE("the imported scenario, written, loads back equal", "[io][openb]") {
  const Imported trace(kNodes, kPodHeader +
                                   "whole,12000,16384,1,1000,,LS,Running,0,100,0\n"
                                   "share,6000,12288,1,460,T4|V100M16,BE,Running,5,50,5\n"
                                   "never,11908,47104,0,0,,BE,Pending,9,70,\n");
  const Scenario& s = trace.scenario;
  const Scenario loaded = parse_scenario(scenario_json_text(s), trace.dir.at("openb.json"));
  CHECK(loaded.name == s.name);
  CHECK(loaded.description == s.description);
  CHECK(loaded.cluster == s.cluster);
  REQUIRE(loaded.timeline.size() == s.timeline.size());
  for (std::size_t i = 0; i < s.timeline.size(); ++i) {
    CHECK(loaded.timeline[i].at == s.timeline[i].at);
    CHECK(loaded.timeline[i].verb == Verb::Apply);
    CHECK(loaded.timeline[i].objects == s.timeline[i].objects);
  }
  CHECK(loaded.warnings.empty());
}

TEST_CASE("openb errors are InputErrors naming the file, the line and the column", "[io][openb]") {
  TempDir dir;
  const std::string nodes = dir.write("nodes.csv", kNodes);
  const std::string pods = dir.write("pods.csv", kPodHeader +
                                                     "a,1000,1024,0,0,,LS,Running,0,10,0\n"
                                                     "b,1000,1024,0,0,,LS,Running,20,10,20\n");
  try {
    (void)import_openb(nodes, pods);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == pods);
    CHECK(e.line() == 3);
    CHECK(e.pointer().empty());
    CHECK(e.reason() == "column deletion_time: 10 is before creation_time 20");
  }
  try {
    (void)import_openb(dir.at("missing.csv"), pods);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == dir.at("missing.csv"));
    CHECK(e.reason() == "no such file");
  }
}

TEST_CASE("a small openb trace replays: placements, waits, run times and GPU allocation",
          "[io][openb][sim]") {
  const Imported trace(kNodes,
                       kPodHeader +
                           // Both T4 GPUs from 0s to 100s.
                           "train,8000,16384,2,1000,T4,LS,Running,0,100,0\n"
                           // Half of a V100M16, rounded up to the whole GPU, from 10s for 30s.
                           "infer,2000,4096,1,500,V100M16,LS,Running,10,40,10\n"
                           // Wants a T4 at 20s: waits for train to end, then runs its 30s.
                           "late,2000,4096,1,1000,T4,BE,Running,20,50,20\n"
                           // No A10 anywhere: pending to the end.
                           "never,2000,4096,1,1000,A10,BE,Pending,30,90,\n"
                           // CPU only, 10s.
                           "cpu,1000,1024,0,0,,BE,Succeeded,30,40,30\n");
  const SimulationResult result = simulate(trace.scenario);
  struct Expected {
    const char* name;
    PodPhase phase;
    const char* node;
    std::optional<TimeMs> scheduled;
    std::optional<TimeMs> finished;
  };
  const std::vector<Expected> expected = {
      {"cpu", PodPhase::Succeeded, nullptr, 30'000, 40'000},
      {"infer", PodPhase::Succeeded, "gpu-v100", 10'000, 40'000},
      {"late", PodPhase::Succeeded, "gpu-t4", 100'000, 130'000},
      {"never", PodPhase::Pending, "", std::nullopt, std::nullopt},
      {"train", PodPhase::Succeeded, "gpu-t4", 0, 100'000},
  };
  REQUIRE(result.pods.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const PodRecord& record = result.pods[i];
    const Expected& want = expected[i];
    INFO(want.name);
    CHECK(record.pod.metadata.name == want.name);
    CHECK(record.pod.status.phase == want.phase);
    if (want.node != nullptr) CHECK(record.pod.spec.node_name == want.node);
    CHECK(record.scheduled == want.scheduled);
    CHECK(record.finished == want.finished);
  }
  // At 50s train holds both T4s as devices (GFD's labels declare them) and late waits for one.
  SimulationOptions at_50s;
  at_50s.until = 50'000;
  const SimulationResult midway = simulate(trace.scenario, at_50s);
  CHECK(midway.pods[4].devices.at("nvidia.com/gpu").size() == 2);
  CHECK(midway.pods[2].pod.status.phase == PodPhase::Pending);
  CHECK_THAT(*midway.pods[2].pod.message(), Catch::Contains("1 Insufficient nvidia.com/gpu"));
  const PodCondition* waiting = result.pods[3].pod.status.condition("PodScheduled");
  REQUIRE(waiting != nullptr);
  CHECK(waiting->message ==
        "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. no new "
        "claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful "
        "for scheduling.");

  // 3 GPUs from 0s to the last end at 130s; held: train 2 x 100s, infer 1 x 30s, late 1 x 30s.
  const report::GpuAllocation allocation = report::gpu_allocation(result);
  CHECK(allocation.begin == 0);
  CHECK(allocation.end == 130'000);
  CHECK(allocation.allocatable == 3'000 * 130'000);
  CHECK(allocation.held == 2'000 * 100'000 + 1'000 * 30'000 + 1'000 * 30'000);
  CHECK(report::gpu_allocation_ratio(result) == Approx(2.0 / 3.0));
}

}  // namespace
}  // namespace gpusched::io

namespace gpusched::io {
namespace {

TEST_CASE("openb with shared GPUs: the artifact's annotations, labels and profile",
          "[io][openb][gpushare]") {
  TempDir dir;
  const std::string nodes = dir.write("nodes.csv", kNodes);
  const std::string pods =
      dir.write("pods.csv", kPodHeader +
                                "share,4000,1024,1,300,,LS,Running,0,100,0\n"
                                "whole,4000,1024,2,1000,T4|P100,LS,Running,0,100,0\n"
                                "cpu,4000,1024,0,0,,LS,Running,0,100,0\n");
  const Scenario s = import_openb(nodes, pods, OpenbGpus::Shared);
  const Node& t4 = node_at(s, 1);
  CHECK(quantity(t4.capacity, "alibabacloud.com/gpu-count") == "2");
  CHECK(quantity(t4.capacity, "alibabacloud.com/gpu-milli") == "2k");
  CHECK(quantity(t4.capacity, "nvidia.com/gpu") == "<none>");
  CHECK(t4.metadata.labels.find("alibabacloud.com/gpu-card-model")->second == "T4");
  CHECK_FALSE(t4.metadata.labels.contains("nvidia.com/gpu.product"));
  const Pod& share = pod_named(s, "share");
  CHECK(gpu_share_request(share.metadata.annotations, nullptr) == GpuShareRequest{300, 1, ""});
  CHECK(quantity(share.spec.containers.front().requests, "nvidia.com/gpu") == "<none>");
  const Pod& whole = pod_named(s, "whole");
  CHECK(gpu_share_request(whole.metadata.annotations, nullptr) ==
        GpuShareRequest{1000, 2, "T4|P100"});
  CHECK_FALSE(whole.spec.affinity->node_affinity.has_value());
  CHECK_FALSE(pod_named(s, "cpu").metadata.annotations->contains("alibabacloud.com/gpu-milli"));
  const Profile& profile = s.scheduler.profiles.front();
  CHECK(profile.plugins.multi_point.enabled == std::vector<PluginRef>{{"Open-Gpu-Share", 0}});
  CHECK(profile.plugins.score.enabled == std::vector<PluginRef>{{"FGDScore", 1000}});
  // Written and read back, and replayed: the share and the two whole GPUs on the T4 node.
  const Scenario back = parse_scenario(scenario_json_text(s), "back.json");
  CHECK(back.scheduler == s.scheduler);
  const SimulationResult result = simulate(back);
  for (const PodRecord& r : result.pods) {
    if (r.pod.metadata.name == "cpu") continue;
    INFO(r.pod.metadata.name);
    CHECK(r.pod.spec.node_name == (r.pod.metadata.name == "whole" ? "gpu-t4" : "gpu-v100"));
  }
}

}  // namespace
}  // namespace gpusched::io
