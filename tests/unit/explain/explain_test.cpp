// explain: every Filter plugin's verdict per node (not only the first failing one), groups of
// nodes rejected alike, preemption's dry run per node, the layer of the cause, and remedies that
// replays confirm, on the bundled scenarios of each layer.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>

#include "gpusched/error.hpp"
#include "gpusched/explain/explain.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

const std::string kScenarios = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/";

Explanation explain_file(const std::string& file, const std::string& pod,
                         std::optional<TimeMs> at = std::nullopt) {
  ExplainOptions options;
  options.at = at;
  return explain(io::load_scenario(kScenarios + file), pod, options);
}

const FilterVerdict& verdict(const NodeReport& node, const std::string& plugin) {
  const auto it = std::find_if(node.filters.begin(), node.filters.end(),
                               [&](const FilterVerdict& v) { return v.plugin == plugin; });
  REQUIRE(it != node.filters.end());
  return *it;
}

const Remedy* remedy_starting(const Explanation& e, const std::string& words) {
  const auto it = std::find_if(e.remedies.begin(), e.remedies.end(),
                               [&](const Remedy& r) { return r.change.starts_with(words); });
  return it == e.remedies.end() ? nullptr : &*it;
}

// The two-pods-one-GPU classic, where the Pending pod's name comes from its ReplicaSet.
const std::string kPending = "default/gpu-demo-d9c9cb49d-cwq86";

TEST_CASE("explain: the classic two pods on one GPU, per node and per plugin", "[explain]") {
  const Explanation e = explain_file("two-pods-one-gpu.json", kPending);
  CHECK(e.phase == "Pending");
  CHECK(e.time == 0);
  CHECK(e.layer == Layer::Scheduling);
  CHECK(e.message ==
        "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are "
        "available: 1 No preemption victims found for incoming pod.");
  REQUIRE(e.cycle.nodes.size() == 1);
  const NodeReport& node = e.cycle.nodes.front();
  CHECK(node.name == "gpu-node");
  CHECK_FALSE(node.feasible);
  // Every Filter plugin of the default profile, in its order.
  std::vector<std::string> plugins;
  for (const FilterVerdict& v : node.filters) plugins.push_back(v.plugin);
  CHECK(plugins == std::vector<std::string>{"NodeUnschedulable", "NodeName", "TaintToleration",
                                            "NodeAffinity", "NodePorts", "NodeResourcesFit",
                                            "PodTopologySpread", "InterPodAffinity"});
  CHECK(verdict(node, "TaintToleration").code == "Success");
  CHECK(verdict(node, "NodeAffinity").code == "Skip");
  const FilterVerdict& fit = verdict(node, "NodeResourcesFit");
  CHECK(fit.code == "Unschedulable");
  CHECK(fit.reasons == std::vector<std::string>{"Insufficient nvidia.com/gpu"});
  CHECK(fit.detail == "free 0, need 1");

  REQUIRE(e.groups.size() == 1);
  CHECK(e.groups[0].plugin == "NodeResourcesFit");
  CHECK(e.groups[0].nodes == std::vector<std::string>{"gpu-node"});

  REQUIRE(e.cycle.preemption.size() == 1);
  CHECK_FALSE(e.cycle.preemption[0].candidate);
  CHECK(e.cycle.preemption[0].why_not ==
        "no pod of lower priority runs there (No preemption victims found for incoming pod)");
  CHECK(e.diagnosis.find("Preemption cannot help") != std::string::npos);

  // Remedies, each replayed. The other replica would be made again if deleted: its Deployment
  // scaled down instead, whose ReplicaSet then deletes the unbound replica, the pod itself, so
  // it does not work. One more node does. A higher priority for the Deployment's template raises
  // its other pod too, so it preempts nothing: not verified.
  CHECK(remedy_starting(e, "delete") == nullptr);
  const Remedy* scale = remedy_starting(
      e,
      "make room on node gpu-node: scale Deployment gpu-demo from 2 to 1 replicas (its "
      "ReplicaSet would recreate default/gpu-demo-d9c9cb49d-2qbr7 if deleted)");
  REQUIRE(scale != nullptr);
  CHECK_FALSE(scale->verified);
  const Remedy* node_more = remedy_starting(e, "add one more node like gpu-node");
  REQUIRE(node_more != nullptr);
  CHECK(node_more->verified);
  CHECK(node_more->node == "gpu-node-copy");
  CHECK(node_more->scheduled_at == TimeMs{0});
  const Remedy* priority = remedy_starting(e, "create PriorityClass explain-preemptor");
  REQUIRE(priority != nullptr);
  CHECK_FALSE(priority->verified);
}

TEST_CASE("explain: a running pod is layer none, with its node", "[explain]") {
  const Explanation e = explain_file("serving-preempts-batch.json", "default/serving");
  CHECK(e.layer == Layer::None);
  CHECK(e.node == "gpu-node");
  CHECK(e.cycle.nodes.empty());
  CHECK(e.diagnosis ==
        "It is Running on gpu-node, bound at 1m30s after waiting 30s. Nothing to fix.");
}

TEST_CASE("explain: a preemptor waiting for its victim is told so", "[explain]") {
  const Explanation e = explain_file("serving-preempts-batch.json", "default/serving", 60'000);
  CHECK(e.phase == "Pending");
  CHECK(e.time == 60'000);
  CHECK(e.message == "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
  CHECK(e.diagnosis.find("An earlier preemption nominated it to gpu-node, where default/trainer "
                         "is still terminating") != std::string::npos);
}

TEST_CASE("explain: no node type can hold the pod: capacity supply", "[explain]") {
  const Explanation e =
      explain_file("gpu-request-above-allocatable-1-34.json", "default/eight-gpus");
  CHECK(e.layer == Layer::CapacitySupply);
  CHECK(e.diagnosis.find("the most any node offers is nvidia.com/gpu 4") != std::string::npos);
  // A node grown to the request is the remedy; the other pending pod (one GPU) competes for it.
  const Remedy* bigger = remedy_starting(e, "add ");
  REQUIRE(bigger != nullptr);
  CHECK(bigger->change.find("with nvidia.com/gpu 8") != std::string::npos);
  CHECK(bigger->verified);
}

TEST_CASE("explain: a GPU selected by hardware labels that no node has is capacity supply",
          "[explain]") {
  const Explanation e = explain_file("required-node-affinity-gpu-memory.json", "default/huge-gpu");
  CHECK(e.layer == Layer::CapacitySupply);
  CHECK(e.diagnosis.find("(nvidia.com/gpu.memory)") != std::string::npos);
  REQUIRE(e.groups.size() == 1);
  CHECK(e.groups[0].nodes.size() == 3);
  CHECK(e.groups[0].plugin == "NodeAffinity");
}

TEST_CASE("explain: a NotReady node is provisioning; making it Ready works", "[explain]") {
  const Explanation e = explain_file("not-ready-node.json", "default/trainer", 30'000);
  CHECK(e.layer == Layer::Provisioning);
  CHECK(e.diagnosis.find("gpu-1 is not Ready") != std::string::npos);
  const Remedy* ready = remedy_starting(e, "make node gpu-1 Ready");
  REQUIRE(ready != nullptr);
  CHECK(ready->verified);
  CHECK(ready->scheduled_at == TimeMs{0});
  // Tolerating the lifecycle controller's not-ready taint would hide the problem: not offered.
  CHECK(remedy_starting(e, "tolerate") == nullptr);
}

TEST_CASE("explain: MIG-partitioned GPUs are provisioning; all-disabled works", "[explain]") {
  const Explanation e = explain_file("gpu/mig-mixed-all-balanced.json", "default/whole");
  CHECK(e.layer == Layer::Provisioning);
  CHECK(e.diagnosis.find("MIG partitions them") != std::string::npos);
  const Remedy* mig = remedy_starting(e, "label node mig1 nvidia.com/mig.config=all-disabled");
  REQUIRE(mig != nullptr);
  CHECK(mig->verified);
}

TEST_CASE("explain: nodes still to be provisioned; a node now, as few as needed", "[explain]") {
  const Explanation e = explain_file("autoscaler-gpu-burst.json", "default/burst-xwbph", 60'000);
  CHECK(e.layer == Layer::Provisioning);
  CHECK(e.message == "no nodes available to schedule pods");
  // Three pods wait for the pool: the third copy is the one this pod gets. With no node at all
  // the pod retries on its error backoff (0, 2, 5, 10, 19, 30, 41, 52 s): the remedy's nodes
  // come at its last attempt before 60s, which then binds it.
  const Remedy* nodes = remedy_starting(e, "add 3 nodes like pool a100's template");
  REQUIRE(nodes != nullptr);
  CHECK(nodes->verified);
  CHECK(nodes->scheduled_at == TimeMs{52'000});
}

TEST_CASE("explain: a pod the kubelet rejected is layer workload", "[explain]") {
  const Explanation numa = explain_file("gpu/single-numa-node-rejection.json", "default/six");
  CHECK(numa.layer == Layer::Workload);
  CHECK(numa.phase == "Failed");
  CHECK(numa.message == "Resources cannot be allocated with Topology locality");
  const Remedy* policy = remedy_starting(numa, "run node b's kubelet with topology manager policy");
  REQUIRE(policy != nullptr);
  CHECK(policy->verified);

  const Explanation shared = explain_file("gpu/mps-and-fail-requests.json", "default/mps-two");
  CHECK(shared.layer == Layer::Workload);
  const Remedy* one = remedy_starting(shared, "ask for one shared nvidia.com/gpu replica");
  REQUIRE(one != nullptr);
  CHECK(one->verified);

  // Bound by its own spec.nodeName, the pod met only the kubelet's predicate admission.
  const Explanation by_hand = explain_file("kubelet-admission.json", "default/more-cpu");
  CHECK(by_hand.layer == Layer::Workload);
  CHECK(by_hand.message ==
        "Node didn't have enough resource: cpu, requested: 500, used: 1000, capacity: 1000");
  CHECK(by_hand.diagnosis.starts_with(
      "Its spec.nodeName binds it to small without the scheduler, and the kubelet refused it "
      "there (OutOfcpu)"));
  const Remedy* scheduler = remedy_starting(
      by_hand, "remove spec.nodeName from the pod's spec so that the scheduler places it");
  REQUIRE(scheduler != nullptr);
  CHECK(scheduler->verified);
}

TEST_CASE("explain: policy remedies for taints and pod affinity", "[explain]") {
  const Explanation taint = explain_file("untolerated-taint-with-value.json", "default/plain");
  CHECK(taint.layer == Layer::Scheduling);
  const Remedy* tolerate = remedy_starting(taint, "tolerate ");
  REQUIRE(tolerate != nullptr);
  CHECK(tolerate->verified);

  const Explanation affinity = explain_file("pod-affinity-co-locate.json", "default/orphan");
  const Remedy* drop = remedy_starting(affinity, "drop its required pod affinity");
  REQUIRE(drop != nullptr);
  CHECK(drop->verified);
}

// Nodes 0-9 full, 10-11 tainted and full, 12 free but tainted: groups by their whole verdict.
std::string grouping_scenario() {
  std::string cluster;
  for (int i = 0; i < 13; ++i) {
    const std::string taint =
        i >= 10 ? R"(, "spec": {"taints": [{"key": "team", "value": "a", "effect": "NoSchedule"}]})"
                : "";
    cluster +=
        R"({"kind": "Node", "metadata": {"name": "n)" + std::to_string(100 + i) +
        R"("}, "status": {"capacity": {"cpu": "8", "memory": "32Gi", "nvidia.com/gpu": "1", "pods": "110"}})" +
        taint + "},\n";
    if (i < 12) {
      cluster +=
          R"({"kind": "Pod", "metadata": {"name": "held-)" + std::to_string(i) +
          R"("}, "spec": {"nodeName": "n)" + std::to_string(100 + i) +
          R"(", "containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}},)" +
          "\n";
    }
  }
  cluster +=
      R"({"kind": "Pod", "metadata": {"name": "waiting"}, "spec": {"containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}})";
  return R"({"name": "groups", "scheduler": {"seed": 1}, "cluster": [)" + cluster + "]}";
}

TEST_CASE("explain: nodes are grouped by every failing verdict, largest group first", "[explain]") {
  const Explanation e =
      explain(io::parse_scenario(grouping_scenario(), "groups.json"), "default/waiting");
  REQUIRE(e.groups.size() == 3);
  CHECK(e.groups[0].nodes.size() == 10);
  CHECK(e.groups[0].plugin == "NodeResourcesFit");
  CHECK(e.groups[0].detail == "free 0, need 1");
  CHECK(e.groups[0].also.empty());
  CHECK(e.groups[0].nodes.front() == "n100");
  // Tainted and full: the taint is the first failing plugin, the room is listed too.
  CHECK(e.groups[1].nodes == std::vector<std::string>{"n110", "n111"});
  CHECK(e.groups[1].plugin == "TaintToleration");
  CHECK(e.groups[1].also ==
        std::vector<std::string>{"NodeResourcesFit: Insufficient nvidia.com/gpu"});
  CHECK(e.groups[2].nodes == std::vector<std::string>{"n112"});
  CHECK(e.groups[2].also.empty());
  // The message counts the first failing plugin only.
  CHECK(e.message ==
        "0/13 nodes are available: 10 Insufficient nvidia.com/gpu, 3 node(s) had untolerated "
        "taint(s). no new claims to deallocate, preemption: 0/13 nodes are available: 10 No "
        "preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.");
  // The free tainted node is the smallest change.
  const Remedy* tolerate = remedy_starting(e, "tolerate team=a:NoSchedule (node n112's taints)");
  REQUIRE(tolerate != nullptr);
  CHECK(tolerate->verified);
  CHECK(tolerate->node == "n112");
}

// One node with two GPUs; `holder` (a bare pod, a Deployment or a DaemonSet) takes what
// `serving` would need, created after it.
std::string held_gpu_scenario(const std::string& holder) {
  return R"({"name": "held", "scheduler": {"seed": 1}, "cluster": [
    {"kind": "Node", "metadata": {"name": "gpu"}, "status": {"capacity":
     {"cpu": "8", "memory": "32Gi", "nvidia.com/gpu": "2", "pods": "110"}}},
    )" + holder +
         R"(,
    {"kind": "Pod", "metadata": {"name": "serving"}, "spec": {"containers": [{"name": "c",
     "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}]})";
}

constexpr std::string_view kGpuTemplate = R"({"metadata": {"labels": {"app": "batch"}},
    "spec": {"containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}})";

TEST_CASE("explain: a replica its controller recreates is scaled down, not deleted", "[explain]") {
  const std::string deployment =
      R"({"kind": "Deployment", "metadata": {"name": "batch"}, "spec": {"replicas": 2,
      "selector": {"matchLabels": {"app": "batch"}}, "template": )" +
      std::string(kGpuTemplate) + "}}";
  const Explanation e =
      explain(io::parse_scenario(held_gpu_scenario(deployment), "held.json"), "default/serving");
  CHECK(remedy_starting(e, "delete") == nullptr);
  const Remedy* scale = remedy_starting(
      e,
      "make room on node gpu: scale Deployment batch from 2 to 1 replicas (its ReplicaSet "
      "would recreate default/batch-");
  REQUIRE(scale != nullptr);
  CHECK(scale->verified);
  CHECK(scale->node == "gpu");
  CHECK(scale->scheduled_at == TimeMs{0});

  // A bare pod is gone once deleted.
  const std::string bare = R"({"kind": "Pod", "metadata": {"name": "held"}, "spec": {
      "nodeName": "gpu", "containers": [{"name": "c", "resources": {"limits":
      {"nvidia.com/gpu": "2"}}}]}})";
  const Explanation b =
      explain(io::parse_scenario(held_gpu_scenario(bare), "held.json"), "default/serving");
  const Remedy* remove = remedy_starting(b, "delete (or let finish) default/held on node gpu");
  REQUIRE(remove != nullptr);
  CHECK(remove->verified);

  // A DaemonSet's pod comes back on its node whatever is deleted or scaled: no removal offered.
  const std::string daemon =
      R"({"kind": "DaemonSet", "metadata": {"name": "agent"}, "spec": {
      "selector": {"matchLabels": {"app": "batch"}}, "template": {"metadata": {"labels":
      {"app": "batch"}}, "spec": {"containers": [{"name": "c", "resources": {"limits":
      {"nvidia.com/gpu": "2"}}}]}}}})";
  const Explanation d =
      explain(io::parse_scenario(held_gpu_scenario(daemon), "held.json"), "default/serving");
  CHECK(remedy_starting(d, "delete") == nullptr);
  CHECK(remedy_starting(d, "make room") == nullptr);
  CHECK(remedy_starting(d, "add one more node like gpu (gpu-copy)") != nullptr);
}

TEST_CASE("explain: MIG is undone only on GPUs that have MIG", "[explain]") {
  // A T4 node still labelled for MIG (the label outlived a hardware swap): its GPUs have no MIG
  // profile, so all-disabled would change nothing and is not offered.
  const std::string t4 = R"({"kind": "Pod", "metadata": {"name": "held"}, "spec": {
      "nodeName": "gpu", "containers": [{"name": "c", "resources": {"limits":
      {"nvidia.com/gpu": "2"}}}]}})";
  std::string text = held_gpu_scenario(t4);
  const std::string node = R"("metadata": {"name": "gpu"})";
  text.replace(text.find(node), node.size(),
               R"("metadata": {"name": "gpu", "labels": {"nvidia.com/gpu.product": "Tesla-T4",
                  "nvidia.com/mig.config": "all-1g.5gb"}})");
  const Explanation e = explain(io::parse_scenario(text, "held.json"), "default/serving");
  CHECK(remedy_starting(e, "label node gpu nvidia.com/mig.config") == nullptr);
  CHECK(remedy_starting(e, "delete (or let finish) default/held on node gpu") != nullptr);
}

TEST_CASE("explain: an unknown pod, or one not created yet, is an input error", "[explain]") {
  CHECK_THROWS_AS(explain_file("two-pods-one-gpu.json", "default/nope"), InputError);
  CHECK_THROWS_WITH(explain_file("two-pods-one-gpu.json", "default/nope"),
                    Catch::Contains("no such pod at 0s"));
  CHECK_THROWS_AS(explain_file("job-two-waves.json", "default/x", 0), InputError);
}

TEST_CASE("explain: the same scenario gives the same explanation", "[explain]") {
  const Explanation a = explain_file("two-pods-one-gpu.json", kPending);
  const Explanation b = explain_file("two-pods-one-gpu.json", kPending);
  CHECK(a.diagnosis == b.diagnosis);
  REQUIRE(a.remedies.size() == b.remedies.size());
  for (std::size_t i = 0; i < a.remedies.size(); ++i)
    CHECK(a.remedies[i].change == b.remedies[i].change);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// Before the first step nothing is bound: waiting may go to either node.
constexpr std::string_view kTwoNodes = R"({"name": "two-nodes", "scheduler": {"seed": 1},
  "cluster": [
    {"kind": "Node", "metadata": {"name": "small"},
     "status": {"capacity": {"cpu": "8", "memory": "32Gi", "nvidia.com/gpu": "1", "pods": "110"}}},
    {"kind": "Node", "metadata": {"name": "big"},
     "status": {"capacity": {"cpu": "64", "memory": "256Gi", "nvidia.com/gpu": "2", "pods": "110"}}},
    {"kind": "Pod", "metadata": {"name": "a"}, "spec": {"nodeName": "small",
     "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}},
    {"kind": "Pod", "metadata": {"name": "waiting"}, "spec": {"containers": [{"name": "c",
     "resources": {"requests": {"cpu": "4"}, "limits": {"nvidia.com/gpu": "1"}}}]}}]})";

TEST_CASE("report_cycle: feasible nodes get each Score plugin's score and the weighted total",
          "[explain]") {
  Simulator simulator(io::parse_scenario(kTwoNodes, "two-nodes.json"));
  const CycleReport cycle = simulator.report_cycle("default/waiting");
  REQUIRE(cycle.nodes.size() == 2);
  REQUIRE_FALSE(cycle.score_weights.empty());
  for (const NodeReport& node : cycle.nodes) {
    CHECK(node.feasible);
    REQUIRE(node.scores.size() == cycle.score_weights.size());
    std::int64_t total = 0;
    for (std::size_t i = 0; i < node.scores.size(); ++i) {
      CHECK(node.scores[i].first == cycle.score_weights[i].first);
      CHECK(node.scores[i].second >= 0);
      CHECK(node.scores[i].second <= 100);
      total += node.scores[i].second * cycle.score_weights[i].second;
    }
    CHECK(node.total == total);
  }
  // The top total is what the cycle would pick, as evaluate() says.
  const auto top =
      std::max_element(cycle.nodes.begin(), cycle.nodes.end(),
                       [](const NodeReport& a, const NodeReport& b) { return a.total < b.total; });
  CHECK(std::find(cycle.placement.best.begin(), cycle.placement.best.end(), top->name) !=
        cycle.placement.best.end());
  CHECK(cycle.preemption.empty());
  // The question left the replay as it was: the pod binds where the cycle said it would.
  while (simulator.step()) {
  }
  const auto pods = simulator.pods();
  const auto waiting = std::find_if(pods.begin(), pods.end(), [](const PodRecord& r) {
    return r.pod.metadata.name == "waiting";
  });
  REQUIRE(waiting != pods.end());
  CHECK(waiting->pod.spec.node_name == top->name);
}

TEST_CASE("report_cycle: a bound or unknown pod is an input error", "[explain]") {
  Simulator simulator(io::parse_scenario(kTwoNodes, "two-nodes.json"));
  CHECK_THROWS_WITH(simulator.report_cycle("default/a"), Catch::Contains("bound to small"));
  CHECK_THROWS_WITH(simulator.report_cycle("default/zz"), Catch::Contains("no such pod"));
  CHECK_THROWS_AS(simulator.report_cycle("nonsense"), InputError);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// The issue's bar: every pod of the bundled scenarios (the seed scenarios and the GPU ones) that
// does not run at the end gets its layer and at least one remedy a replay confirms.
TEST_CASE("explain: every pod the bundled scenarios leave unscheduled gets a verified remedy",
          "[explain][scenarios]") {
  std::vector<std::filesystem::path> files;
  for (const char* dir : {"", "gpu/"}) {
    for (const auto& entry : std::filesystem::directory_iterator(kScenarios + dir)) {
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::size_t explained = 0;
  for (const auto& file : files) {
    const Scenario scenario = io::load_scenario(file);
    for (const PodRecord& record : simulate(scenario).pods) {
      const PodPhase phase = record.pod.status.phase;
      if (phase == PodPhase::Running || phase == PodPhase::Succeeded) continue;
      const Explanation e = explain(scenario, record.pod.key());
      INFO(file.filename().string() << " " << e.pod << ": " << e.diagnosis);
      CHECK(e.layer != Layer::None);
      CHECK_FALSE(e.message.empty());
      if (e.diagnosis.find("GangScheduling") != std::string::npos) {
        // A gang pod waiting at Permit or held at PreEnqueue: explain tells the gang's state
        // and proposes nothing.
        CHECK(record.pod.spec.workload_ref);
        continue;
      }
      if (!record.pod.spec.resource_claims.empty()) {
        // Devices through DRA: explain names the plugin that rejected the pod (remedies for
        // claims are not proposed yet).
        CHECK(e.diagnosis.find("DynamicResources") != std::string::npos);
        continue;
      }
      CHECK(std::any_of(e.remedies.begin(), e.remedies.end(),
                        [](const Remedy& r) { return r.verified; }));
      if (e.node.empty()) CHECK(e.cycle.nodes.size() == e.cycle.placement.nodes.size());
      ++explained;
    }
  }
  CHECK(explained >= 30);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST_CASE("explain_now: many pods of a replay as it stands, without replaying", "[explain]") {
  const Scenario scenario = io::load_scenario(kScenarios + "two-pods-one-gpu.json");
  Simulator simulator(scenario);
  while (simulator.step()) {
  }
  const std::vector<Explanation> told =
      explain_now(simulator, scenario, {kPending, "default/gpu-demo-d9c9cb49d-2qbr7"});
  REQUIRE(told.size() == 2);
  CHECK(told[0].layer == Layer::Scheduling);
  CHECK(told[0].message == explain_file("two-pods-one-gpu.json", kPending).message);
  CHECK(told[0].remedies.empty());
  CHECK(told[0].cycle.nodes.size() == 1);
  CHECK(told[1].layer == Layer::None);
  CHECK(told[1].node == "gpu-node");
  CHECK_THROWS_AS(explain_now(simulator, scenario, {"default/nope"}), InputError);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST_CASE("last_attempt_current: whether the cluster moved since the pod's last failure",
          "[explain]") {
  Simulator quiet(io::load_scenario(kScenarios + "two-pods-one-gpu.json"));
  while (quiet.step()) {
  }
  CHECK(quiet.last_attempt_current(kPending));
  CHECK_FALSE(quiet.last_attempt_current("default/gpu-demo-d9c9cb49d-2qbr7"));  // bound
  CHECK_FALSE(quiet.last_attempt_current("default/nope"));
  // The preemption at 1m evicts its victim after the attempt: the cluster has moved.
  Simulator moving(io::load_scenario(kScenarios + "serving-preempts-batch.json"));
  moving.run_until(60'000);
  CHECK_FALSE(moving.last_attempt_current("default/serving"));
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST_CASE("explain: a gang pod waiting at Permit, and one held at PreEnqueue", "[explain][gang]") {
  const Scenario waiting = io::load_scenario(kScenarios + "gang-scheduling-timeout-1-35.json");
  Simulator at_permit(waiting);
  at_permit.run_until(60'000);
  const std::vector<Explanation> told = explain_now(at_permit, waiting, {"default/w-0"});
  REQUIRE(told.size() == 1);
  CHECK(told[0].layer == Layer::Scheduling);
  CHECK(told[0].diagnosis ==
        "It waits at Permit on node gpu-a, which it holds (Pending, not bound): GangScheduling "
        "lets its gang, pod group \"workers\" of Workload \"train\", bind only once minCount 3 "
        "of its pods are waiting or bound; 3 pod(s) of the group exist, 2 waiting at Permit and "
        "0 bound. At 5m (5 minutes after the group's first Permit) every pod still waiting is "
        "rejected (\"rejected due to timeout after waiting … at plugin GangScheduling\") and "
        "releases its node; the gang then tries again. Room for the rest of the gang, or its "
        "missing pods, would let it bind.");

  const Scenario held = io::load_scenario(kScenarios + "gang-scheduling-preenqueue-1-35.json");
  Simulator before(held);
  before.run_until(45'000);
  const std::vector<Explanation> gated = explain_now(before, held, {"default/w-0"});
  REQUIRE(gated.size() == 1);
  CHECK(gated[0].diagnosis ==
        "GangScheduling's PreEnqueue keeps it out of the scheduling queue (\"waiting for "
        "minCount pods from a gang to appear in scheduling queue\"): pod group \"workers\" of "
        "Workload \"train\", minCount 3; 2 pod(s) of the group exist, 0 waiting at Permit and 0 "
        "bound. The scheduler has not tried it, so it has no event or condition; the missing "
        "pods (or the Workload) queue the gang when they are created.");
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST_CASE("explain: a 1.36 gang pod held at PreEnqueue names its PodGroup", "[explain][gang]") {
  const Scenario held = io::load_scenario(kScenarios + "gang-scheduling-preenqueue-1-36.json");
  Simulator before(held);
  before.run_until(15'000);
  const std::vector<Explanation> missing = explain_now(before, held, {"default/w-0"});
  REQUIRE(missing.size() == 1);
  CHECK(missing[0].diagnosis ==
        "GangScheduling's PreEnqueue keeps it out of the scheduling queue (\"waiting for pods's "
        "pod group \"train-workers\" to appear in scheduling queue\"): PodGroup "
        "\"train-workers\", minCount; 2 pod(s) of the group exist, 0 waiting at Permit and 0 "
        "bound. The scheduler has not tried it, so it has no event or condition; the missing "
        "pods (or the PodGroup) queue the gang when they are created.");
  before.run_until(45'000);
  const std::vector<Explanation> short_of = explain_now(before, held, {"default/w-1"});
  REQUIRE(short_of.size() == 1);
  CHECK(short_of[0].diagnosis ==
        "GangScheduling's PreEnqueue keeps it out of the scheduling queue (\"waiting for "
        "minCount pods from a gang to appear in scheduling queue\"): PodGroup \"train-workers\", "
        "minCount 3; 2 pod(s) of the group exist, 0 waiting at Permit and 0 bound. The "
        "scheduler has not tried it, so it has no event or condition; the missing pods (or the "
        "PodGroup) queue the gang when they are created.");
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST_CASE("explain: a 1.36 pod that fits while its PodGroup's cycle failed as a whole",
          "[explain][gang]") {
  const Scenario scenario = io::load_scenario(kScenarios + "gang-pod-group-cycle-1-36.json");
  Simulator at(scenario);
  at.run_until(60'000);
  const std::vector<Explanation> told = explain_now(at, scenario, {"default/w-0"});
  REQUIRE(told.size() == 1);
  CHECK(told[0].layer == Layer::Scheduling);
  CHECK(told[0].diagnosis ==
        "It fits a node, but its PodGroup \"train-workers\" was unschedulable as a whole in its "
        "last PodGroup scheduling cycle: no pod's Permit let the group through (minCount 3; 3 "
        "pod(s) of the group exist, 0 waiting at Permit and 0 bound), so every pod of it was "
        "forgotten and this one holds nothing. The group's pods that fit nowhere say why in "
        "their own FailedScheduling; room for them lets the whole group bind in one cycle.");
  // The pod that fits nowhere is told as any other.
  const std::vector<Explanation> w2 = explain_now(at, scenario, {"default/w-2"});
  REQUIRE(w2.size() == 1);
  CHECK(w2[0].message.starts_with("0/2 nodes are available: 2 Insufficient nvidia.com/gpu."));
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST_CASE("explain tells each device a DRA pod could not have, and why", "[explain][dra]") {
  const Scenario scenario = io::load_scenario(kScenarios + "dra-tainted-gpu-1-36.json");
  ExplainOptions options;
  options.remedies = false;
  const Explanation e = explain(scenario, "default/job-b", options);
  CHECK(e.diagnosis.starts_with("It asks for devices through its resource claim gpu. "));
  REQUIRE(e.cycle.nodes.size() == 1);
  const auto& filters = e.cycle.nodes.front().filters;
  const auto dra = std::find_if(filters.begin(), filters.end(), [](const FilterVerdict& v) {
    return v.plugin == "DynamicResources";
  });
  REQUIRE(dra != filters.end());
  CHECK(dra->reasons == std::vector<std::string>{"cannot allocate all claims"});
  // The claim job-a got is named by the controller: <pod>-<pod claim>-<5 characters>.
  const std::string held =
      "gpu-1 (gpu.nvidia.com, pool gpu-node): held by claim default/job-a-gpu-";
  CHECK(dra->detail.starts_with(
      "gpu-0 (gpu.nvidia.com, pool gpu-node): tainted gpu.nvidia.com/xid=48:NoSchedule, not "
      "tolerated by request gpu | " +
      held));
  CHECK(dra->detail.ends_with(" (for Pod/default/job-a)"));

  // A shared claim names every pod it is reserved for.
  const Explanation shared =
      explain(io::load_scenario(kScenarios + "dra-shared-claim.json"), "default/trainer", options);
  REQUIRE(shared.cycle.nodes.size() == 1);
  const auto& verdicts = shared.cycle.nodes.front().filters;
  const auto it = std::find_if(verdicts.begin(), verdicts.end(), [](const FilterVerdict& v) {
    return v.plugin == "DynamicResources";
  });
  REQUIRE(it != verdicts.end());
  CHECK(it->detail ==
        "gpu-0 (gpu.nvidia.com, pool gpu-node): held by claim default/shared-gpu (for "
        "Pod/default/inference-a, Pod/default/inference-b)");
}

TEST_CASE("explain says which partitionable device's counters are used up", "[explain][dra]") {
  // DynamicMIG: the 2g.20gb placements of GPU 0 are not held by any claim, but the 3g.40gb and
  // the 1g.10gb took the memory slices they would consume; GPU 1 is taken whole.
  ExplainOptions options;
  options.remedies = false;
  const Explanation e = explain(io::load_scenario(kScenarios + "dra-dynamic-mig-1-36.json"),
                                "default/infer-2g", options);
  REQUIRE(e.cycle.nodes.size() == 1);
  const auto& filters = e.cycle.nodes.front().filters;
  const auto dra = std::find_if(filters.begin(), filters.end(), [](const FilterVerdict& v) {
    return v.plugin == "DynamicResources";
  });
  REQUIRE(dra != filters.end());
  CHECK_THAT(dra->detail, Catch::Contains("gpu-0-mig-2g20gb-14-0 (gpu.nvidia.com, pool h100-dra): "
                                          "needs ") &&
                              Catch::Contains(" left by the allocated devices") &&
                              !Catch::Contains("free, matches"));
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST_CASE("explain: a pod whose template's claim was never made waits at PreEnqueue",
          "[explain][dra]") {
  const Scenario scenario = io::parse_scenario(R"({"name": "m",
      "scheduler": {"seed": 1, "kubernetesVersion": "1.35"}, "cluster": [
      {"kind": "Node", "metadata": {"name": "n1"},
       "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}},
      {"kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
       "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "nope"}],
                "containers": [{"name": "c"}]}}]})",
                                               "m.json");
  const Explanation e = explain(scenario, "default/p", ExplainOptions{});
  CHECK(e.layer == Layer::Scheduling);
  CHECK(e.diagnosis ==
        "Its ResourceClaim for \"gpu\" has not been created from ResourceClaimTemplate "
        "default/nope: DynamicResources' PreEnqueue keeps it out of the scheduling queue, so no "
        "node can help until the resourceclaim controller creates the claim. The controller "
        "said: PodResourceClaim gpu: resource claim template \"nope\": "
        "resourceclaimtemplate.resource.k8s.io \"nope\" not found.");
  CHECK(e.remedies.empty());
}

}  // namespace
}  // namespace gpusched
