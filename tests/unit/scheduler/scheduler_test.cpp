// The scheduling loop end to end through gpusched::simulate, on scenarios built in code
// (pkg/scheduler/schedule_one.go: FitError text, ErrNoNodesAvailable, numFeasibleNodesToFind,
// selectHost).
#include "gpusched/scheduler/scheduler.hpp"

#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpusched/model/policy.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

Node gpu_node(const std::string& name, std::int64_t gpus) {
  Node node;
  node.metadata.name = name;
  node.allocatable = {{"cpu", Quantity::from_units(8)},
                      {"memory", Quantity::from_units(32LL << 30, QuantityFormat::BinarySI)},
                      {"pods", Quantity::from_units(110)}};
  if (gpus > 0) node.allocatable["nvidia.com/gpu"] = Quantity::from_units(gpus);
  node.capacity = node.allocatable;
  return node;
}

Pod gpu_pod(const std::string& name, std::int64_t gpus) {
  Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  Container c;
  c.name = "main";
  c.requests = {{"cpu", Quantity(100)}};
  if (gpus > 0) {
    c.requests["nvidia.com/gpu"] = Quantity::from_units(gpus);
    c.limits["nvidia.com/gpu"] = Quantity::from_units(gpus);
  }
  pod.spec.containers.push_back(c);
  return pod;
}

Scenario scenario_of(std::vector<Object> cluster, KubernetesVersion version = {}) {
  Scenario s;
  s.name = "unit";
  s.source = "<unit>";
  s.scheduler.kubernetes_version = version;
  s.cluster = std::move(cluster);
  return s;
}

const PodRecord& pod_record(const SimulationResult& result, const std::string& name) {
  for (const PodRecord& p : result.pods) {
    if (p.pod.metadata.name == name) return p;
  }
  FAIL("no pod " << name);
  return result.pods.front();
}

std::string scheduled_message(const PodRecord& pod) {
  const PodCondition* c = pod.pod.status.condition("PodScheduled");
  return c == nullptr ? std::string("<none>") : c->message.get();
}

struct MessageRow {
  std::string name;
  KubernetesVersion version;
  std::string want;
};

TEST_CASE("simulate: the classic two pods, one GPU message per release", "[scheduler]") {
  const std::string filter = "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.";
  const std::string preemption =
      "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.";
  const std::vector<MessageRow> rows = {
      {"1.33", {33, -1}, filter + " " + preemption},
      {"1.34", {34, -1}, filter + " no new claims to deallocate, " + preemption},
      {"1.35", {35, -1}, filter + " no new claims to deallocate, " + preemption},
      {"1.36", {36, -1}, filter + " no new claims to deallocate, " + preemption},
  };
  for (const MessageRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const SimulationResult result = simulate(
          scenario_of({gpu_node("gpu-1", 1), gpu_pod("a", 1), gpu_pod("b", 1)}, row.version));
      const PodRecord& a = pod_record(result, "a");
      const PodRecord& b = pod_record(result, "b");
      CHECK(a.pod.spec.node_name == "gpu-1");
      CHECK(b.pod.spec.node_name.empty());
      const PodCondition* cond = b.pod.status.condition("PodScheduled");
      REQUIRE(cond != nullptr);
      CHECK(cond->status == "False");
      CHECK(cond->reason == "Unschedulable");
      CHECK(cond->message == row.want);
      bool event_seen = false;
      for (const EventRecord& e : result.events) {
        if (e.reason == "FailedScheduling" && e.object == "Pod/default/b") {
          event_seen = true;
          CHECK(e.type == "Warning");
          CHECK(e.message == row.want);
        }
      }
      CHECK(event_seen);
    }
  }
}

TEST_CASE("simulate: a request above allocatable is not helped by preemption in 1.34",
          "[scheduler]") {
  // 1.34 (PR #131345): NodeResourcesFit is UU when the request alone exceeds allocatable, so the
  // node is not a preemption candidate.
  struct Row {
    std::string name;
    KubernetesVersion version;
    std::string want;
  };
  const std::vector<Row> rows = {
      {"1.33",
       {33, -1},
       "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are "
       "available: 1 No preemption victims found for incoming pod."},
      {"1.34",
       {34, -1},
       "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to deallocate, "
       "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const SimulationResult result =
          simulate(scenario_of({gpu_node("gpu-1", 4), gpu_pod("big", 8)}, row.version));
      CHECK(scheduled_message(pod_record(result, "big")) == row.want);
    }
  }
}

TEST_CASE("simulate: no nodes available to schedule pods", "[scheduler]") {
  for (int minor : {33, 34, 35, 36}) {
    DYNAMIC_SECTION("1." << minor) {
      const SimulationResult result = simulate(scenario_of({gpu_pod("a", 0)}, {minor, -1}));
      const PodRecord& a = pod_record(result, "a");
      CHECK(a.pod.spec.node_name.empty());
      // ErrNoNodesAvailable: no FitError, no PostFilter postfix.
      CHECK(scheduled_message(a) == "no nodes available to schedule pods");
    }
  }
}

TEST_CASE("simulate: PreFilter rejection and PreFilterResult narrowing", "[scheduler]") {
  auto with_required = [](Pod pod, std::vector<std::vector<std::string>> names_per_requirement) {
    NodeSelectorTerm term;
    for (auto& names : names_per_requirement) {
      term.match_fields.push_back({"metadata.name", SelectorOperator::In, std::move(names)});
    }
    NodeAffinity na;
    na.required = std::vector<NodeSelectorTerm>{term};
    pod.spec.affinity.mut().node_affinity = na;
    return pod;
  };
  struct Row {
    std::string name;
    KubernetesVersion version;
    std::vector<std::vector<std::string>> names;
    std::string want;
  };
  const std::vector<Row> rows = {
      {"conflicting matchFields, 1.33",
       {33, -1},
       {{"n1"}, {"n2"}},
       "0/3 nodes are available: pod affinity terms conflict. preemption: 0/3 nodes are "
       "available: 3 Preemption is not helpful for scheduling."},
      {"conflicting matchFields, 1.34",
       {34, -1},
       {{"n1"}, {"n2"}},
       "0/3 nodes are available: pod affinity terms conflict. no new claims to deallocate, "
       "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."},
      // Only n1 is searched; the two nodes left out share the "didn't satisfy plugin(s)" status
      // and are not preemption candidates either.
      {"narrowed to a full node, 1.33",
       {33, -1},
       {{"n1"}},
       "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) "
       "[NodeAffinity]. preemption: 0/3 nodes are available: 1 No preemption victims found for "
       "incoming pod, 2 Preemption is not helpful for scheduling."},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      Pod filler = gpu_pod("filler", 0);
      filler.spec.containers.mut()[0].requests["cpu"] = Quantity::from_units(8);
      filler.spec.node_name = "n1";
      Pod pod = with_required(gpu_pod("p", 0), row.names);
      const SimulationResult result = simulate(scenario_of(
          {gpu_node("n0", 0), gpu_node("n1", 0), gpu_node("n2", 0), filler, pod}, row.version));
      CHECK(scheduled_message(pod_record(result, "p")) == row.want);
    }
  }
}

TEST_CASE("simulate: a successful preemption nominates the node without a postfix", "[scheduler]") {
  for (int minor : {33, 34, 35, 36}) {
    DYNAMIC_SECTION("1." << minor) {
      Pod low = gpu_pod("low", 1);
      low.spec.node_name = "gpu-1";
      Pod high = gpu_pod("high", 1);
      high.spec.priority_class_name = "serving";
      PriorityClass serving;
      serving.metadata.name = "serving";
      serving.value = 1000;
      const SimulationResult result =
          simulate(scenario_of({serving, gpu_node("gpu-1", 1), low, high}, {minor, -1}));
      bool event_seen = false;
      for (const EventRecord& e : result.events) {
        if (e.reason == "FailedScheduling" && e.object == "Pod/default/high") {
          event_seen = true;
          CHECK(e.message == "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
        }
      }
      CHECK(event_seen);
      // The victim goes away and the preemptor takes its place.
      CHECK(pod_record(result, "high").pod.spec.node_name == "gpu-1");
    }
  }
}

// One GPU held by `low` (priority 0); `high` (serving, 1000) preempts it, is nominated, and binds
// once the victim is gone (grace period 0: at once, after the failed cycle).
Scenario preemption_scenario(KubernetesVersion version) {
  Pod low = gpu_pod("low", 1);
  low.spec.node_name = "gpu-1";
  low.spec.termination_grace_period_seconds = 0;
  Pod high = gpu_pod("high", 1);
  high.spec.priority_class_name = "serving";
  PriorityClass serving;
  serving.metadata.name = "serving";
  serving.value = 1000;
  return scenario_of({serving, gpu_node("gpu-1", 1), low, high}, version);
}

TEST_CASE("simulate: whether the binding clears nominatedNodeName, by release and gate",
          "[scheduler][nomination]") {
  // KEP-5278: kube-apiserver clears it at binding with ClearingNominatedNodeNameAfterBinding
  // (alpha, off in 1.34; beta, on from 1.35).
  struct Row {
    std::string name;
    KubernetesVersion version;
    std::optional<bool> gate;
    std::string nominated_after_binding;
  };
  const std::vector<Row> rows = {
      {"1.33", {33, -1}, std::nullopt, "gpu-1"},
      {"1.34", {34, -1}, std::nullopt, "gpu-1"},
      {"1.34 with the gate", {34, -1}, true, ""},
      {"1.35", {35, -1}, std::nullopt, ""},
      {"1.35 without the gate", {35, -1}, false, "gpu-1"},
      {"1.36", {36, -1}, std::nullopt, ""},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      Scenario s = preemption_scenario(row.version);
      if (row.gate)
        s.scheduler.feature_gates.values["ClearingNominatedNodeNameAfterBinding"] = *row.gate;
      const SimulationResult result = simulate(s);
      const PodRecord& high = pod_record(result, "high");
      CHECK(high.pod.spec.node_name == "gpu-1");
      CHECK(high.pod.status.nominated_node_name == row.nominated_after_binding);
    }
  }
}

TEST_CASE("simulate: a failed cycle without PostFilter plugins clears nominatedNodeName from 1.35",
          "[scheduler][nomination]") {
  // schedule_one.go: ScheduleResult{} (no nominating info) up to 1.34, clearNominatedNode from
  // 1.35 (PR #135007).
  for (int minor : {33, 34, 35, 36}) {
    DYNAMIC_SECTION("1." << minor) {
      Pod holder = gpu_pod("holder", 1);
      holder.spec.node_name = "gpu-1";
      Pod waiting = gpu_pod("waiting", 1);
      waiting.status.nominated_node_name = "gpu-1";  // set by another component (KEP-5278)
      Scenario s = scenario_of({gpu_node("gpu-1", 1), holder, waiting}, {minor, -1});
      s.scheduler.profiles.front().plugins.post_filter.disabled.push_back({"*", 0});
      const SimulationResult result = simulate(s);
      const PodRecord& record = pod_record(result, "waiting");
      CHECK(scheduled_message(record) == "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
      CHECK(record.pod.status.nominated_node_name == (minor >= 35 ? "" : "gpu-1"));
    }
  }
}

// Nodes n0..n{count-1} in node-tree order (no zones: insertion order); only n{pick} has the
// label the pod prefers, so the pod lands there exactly when the search window reaches it.
std::string placement(std::size_t count, std::size_t pick, std::int32_t percentage = 0) {
  std::vector<Object> cluster;
  for (std::size_t i = 0; i < count; ++i) {
    Node node = gpu_node("n" + std::to_string(i), 0);
    if (i == pick) node.metadata.labels["pick"] = "yes";
    cluster.emplace_back(std::move(node));
  }
  Pod pod = gpu_pod("p", 0);
  NodeAffinity na;
  na.preferred = {{1, NodeSelectorTerm{{{"pick", SelectorOperator::In, {"yes"}}}, {}}}};
  pod.spec.affinity.mut().node_affinity = na;
  cluster.emplace_back(std::move(pod));
  Scenario s = scenario_of(std::move(cluster));
  s.scheduler.percentage_of_nodes_to_score = percentage;
  const SimulationResult result = simulate(s);
  return pod_record(result, "p").pod.spec.node_name;
}

TEST_CASE("simulate: percentageOfNodesToScore bounds the nodes searched", "[scheduler]") {
  // numFeasibleNodesToFind: < 100 nodes -> all; otherwise max(100, n * (50 - n/125) / 100) with
  // the percentage floored at 5: 500 -> 230, 5000 -> 500.
  struct Row {
    std::string name;
    std::size_t nodes, pick;
    std::int32_t percentage;
    bool reached;
  };
  const std::vector<Row> rows = {
      {"50 nodes: all are searched", 50, 49, 0, true},
      {"500 nodes: the 230th is searched", 500, 229, 0, true},
      {"500 nodes: the 231st is not", 500, 230, 0, false},
      {"5000 nodes: the 500th is searched", 5000, 499, 0, true},
      {"5000 nodes: the 501st is not", 5000, 500, 0, false},
      {"500 nodes at 10%: never fewer than 100", 500, 99, 10, true},
      {"500 nodes at 10%: the 101st is not searched", 500, 100, 10, false},
      {"500 nodes at 50%: 250", 500, 249, 50, true},
      {"500 nodes at 50%: the 251st is not searched", 500, 250, 50, false},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const std::string node = placement(row.nodes, row.pick, row.percentage);
      CHECK_FALSE(node.empty());
      if (row.reached) {
        CHECK(node == "n" + std::to_string(row.pick));
      } else {
        CHECK(node != "n" + std::to_string(row.pick));
      }
    }
  }
}

std::vector<std::string> placements(std::uint64_t seed, std::size_t nodes, std::size_t pods) {
  std::vector<Object> cluster;
  for (std::size_t i = 0; i < nodes; ++i)
    cluster.emplace_back(gpu_node("n" + std::to_string(i), 0));
  for (std::size_t i = 0; i < pods; ++i) cluster.emplace_back(gpu_pod("p" + std::to_string(i), 0));
  Scenario s = scenario_of(std::move(cluster));
  s.scheduler.seed = seed;
  const SimulationResult result = simulate(s);
  std::vector<std::string> out;
  for (const PodRecord& p : result.pods)
    out.push_back(p.pod.metadata.name + "@" + p.pod.spec.node_name);
  return out;
}

TEST_CASE("simulate: the same seed gives the same placements", "[scheduler]") {
  const auto first = placements(7, 10, 6);
  const auto second = placements(7, 10, 6);
  CHECK(first == second);
  REQUIRE(first.size() == 6);
  for (const std::string& p : first) CHECK(p.find('@') + 1 < p.size());  // all bound
}

TEST_CASE("simulate: a tie between equal nodes is broken by the seed", "[scheduler]") {
  // Two identical empty nodes score the same for a pod: selectHost picks uniformly at random.
  std::set<std::string> chosen;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto run = placements(seed, 2, 1);
    REQUIRE(run.size() == 1);
    CHECK(run == placements(seed, 2, 1));
    chosen.insert(run.front());
  }
  CHECK(chosen == std::set<std::string>{"p0@n0", "p0@n1"});
  // Also through the CLI override: SimulationOptions::seed wins over the scenario's seed.
  std::vector<Object> cluster{gpu_node("n0", 0), gpu_node("n1", 0), gpu_pod("p0", 0)};
  Scenario s = scenario_of(cluster);
  std::set<std::string> with_override;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SimulationOptions options;
    options.seed = seed;
    const SimulationResult r = simulate(s, options);
    with_override.insert(pod_record(r, "p0").pod.spec.node_name);
    CHECK("p0@" + pod_record(r, "p0").pod.spec.node_name == placements(seed, 2, 1).front());
  }
  CHECK(with_override.size() == 2);
}

}  // namespace
}  // namespace gpusched
