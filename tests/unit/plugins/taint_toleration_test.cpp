// TaintToleration against upstream's
// pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go
// (TestTaintTolerationFilter, TestTaintTolerationScore).
#include "plugins/taint_toleration.hpp"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "unit/plugins/plugin_test_support.hpp"

namespace gpusched {
namespace {

constexpr auto NoSchedule = TaintEffect::NoSchedule;
constexpr auto PreferNoSchedule = TaintEffect::PreferNoSchedule;
constexpr auto NoExecute = TaintEffect::NoExecute;

Toleration tol_equal(std::string key, std::string value, std::optional<TaintEffect> effect) {
  return Toleration{std::move(key), TolerationOperator::Equal, std::move(value), effect, {}};
}
Toleration tol_exists(std::string key, std::optional<TaintEffect> effect) {
  return Toleration{std::move(key), TolerationOperator::Exists, "", effect, {}};
}

Pod pod_with(std::vector<Toleration> tolerations) {
  Pod pod = test::make_pod("pod1");
  pod.spec.tolerations = std::move(tolerations);
  return pod;
}

Node node_with(std::string name, std::vector<Taint> taints) {
  Node node = test::make_node(std::move(name));
  node.taints = std::move(taints);
  return node;
}

struct FilterRow {
  // A constructor, not an aggregate: each braced argument initializes its own parameter.
  FilterRow(std::string n, std::vector<Toleration> t, std::vector<Taint> ts,
            std::optional<std::string> r)
      : name(std::move(n)),
        tolerations(std::move(t)),
        taints(std::move(ts)),
        reason_133(std::move(r)) {}
  std::string name;
  std::vector<Toleration> tolerations;
  std::vector<Taint> taints;
  std::optional<std::string> reason_133;  // nullopt: fits
};

TEST_CASE("TaintToleration Filter: upstream TestTaintTolerationFilter", "[plugins]") {
  const std::vector<FilterRow> rows = {
      {"A pod having no tolerations can't be scheduled onto a node with nonempty taints",
       {},
       {{"dedicated", "user1", NoSchedule}},
       "node(s) had untolerated taint {dedicated: user1}"},
      {"A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
       {tol_equal("dedicated", "user1", NoSchedule)},
       {{"dedicated", "user1", NoSchedule}},
       std::nullopt},
      {"A pod which can't be scheduled on a dedicated node assigned to user2 with effect "
       "NoSchedule",
       {tol_equal("dedicated", "user2", NoSchedule)},
       {{"dedicated", "user1", NoSchedule}},
       "node(s) had untolerated taint {dedicated: user1}"},
      {"A pod can be scheduled onto the node, with a toleration uses operator Exists that "
       "tolerates the taints on the node",
       {tol_exists("foo", NoSchedule)},
       {{"foo", "bar", NoSchedule}},
       std::nullopt},
      {"A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, "
       "pod can be scheduled onto the node",
       {tol_equal("dedicated", "user2", NoSchedule), tol_exists("foo", NoSchedule)},
       {{"dedicated", "user2", NoSchedule}, {"foo", "bar", NoSchedule}},
       std::nullopt},
      {"A pod has a toleration that keys and values match the taint on the node, but (non-empty) "
       "effect doesn't match, can't be scheduled onto the node",
       {tol_equal("foo", "bar", PreferNoSchedule)},
       {{"foo", "bar", NoSchedule}},
       "node(s) had untolerated taint {foo: bar}"},
      {"The pod has a toleration that keys and values match the taint on the node, the effect of "
       "toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the "
       "node",
       {tol_equal("foo", "bar", std::nullopt)},
       {{"foo", "bar", NoSchedule}},
       std::nullopt},
      {"The pod has a toleration that key and value don't match the taint on the node, but the "
       "effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
       {tol_equal("dedicated", "user2", NoSchedule)},
       {{"dedicated", "user1", PreferNoSchedule}},
       std::nullopt},
      {"The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be "
       "scheduled onto the node",
       {},
       {{"dedicated", "user1", PreferNoSchedule}},
       std::nullopt},
      // Beyond upstream's table: the first untolerated taint in node order is named; NoExecute
      // counts; an empty value renders as "{key: }".
      {"the first untolerated NoSchedule/NoExecute taint is reported",
       {tol_exists("a", std::nullopt)},
       {{"a", "1", NoSchedule},
        {"p", "x", PreferNoSchedule},
        {"b", "2", NoExecute},
        {"c", "3", NoSchedule}},
       "node(s) had untolerated taint {b: 2}"},
      {"an empty taint value renders as an empty string",
       {},
       {{"node-role.kubernetes.io/control-plane", "", NoSchedule}},
       "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"},
      {"an empty key with Exists tolerates every taint",
       {tol_exists("", std::nullopt)},
       {{"a", "1", NoSchedule}, {"b", "2", NoExecute}},
       std::nullopt},
  };
  for (const FilterRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      struct Version {
        KubernetesVersion v;
        bool aggregated;
      };
      for (const Version& version : {Version{{33, -1}, false}, Version{{34, 1}, false},
                                     Version{{34, 2}, true}, Version{{35, -1}, true}}) {
        INFO("Kubernetes " << version.v.to_string());
        test::Env env(version.v);
        const NodeInfo& node = env.cluster.add_node(node_with("nodeA", row.taints));
        Handle handle = env.handle();
        plugins::TaintToleration plugin(handle);
        const PodInfo pod = env.compile(pod_with(row.tolerations));
        CycleState state(1);
        Reasons reasons;
        const Code code = plugin.filter(state, pod, node, reasons);
        if (!row.reason_133) {
          CHECK(code == Code::Success);
          CHECK(reasons.empty());
        } else {
          CHECK(code == Code::UnschedulableAndUnresolvable);
          const std::string want =
              version.aggregated ? "node(s) had untolerated taint(s)" : *row.reason_133;
          CHECK(env.text(reasons) == std::vector<std::string>{want});
        }
      }
    }
  }
}

struct ScoreRow {
  ScoreRow(std::string n, std::vector<Toleration> t, std::vector<std::vector<Taint>> ns,
           std::vector<std::int64_t> w)
      : name(std::move(n)), tolerations(std::move(t)), nodes(std::move(ns)), want(std::move(w)) {}
  std::string name;
  std::vector<Toleration> tolerations;
  std::vector<std::vector<Taint>> nodes;
  std::vector<std::int64_t> want;
};

TEST_CASE("TaintToleration Score: upstream TestTaintTolerationScore", "[plugins]") {
  const std::vector<ScoreRow> rows = {
      {"node with taints tolerated by the pod, gets a higher score than those node with "
       "intolerable taints",
       {tol_equal("foo", "bar", PreferNoSchedule)},
       {{{"foo", "bar", PreferNoSchedule}}, {{"foo", "blah", PreferNoSchedule}}},
       {100, 0}},
      {"the nodes that all of their taints are tolerated by the pod, get the same score, no "
       "matter how many tolerable taints a node has",
       {tol_equal("cpu-type", "arm64", PreferNoSchedule),
        tol_equal("disk-type", "ssd", PreferNoSchedule)},
       {{},
        {{"cpu-type", "arm64", PreferNoSchedule}},
        {{"cpu-type", "arm64", PreferNoSchedule}, {"disk-type", "ssd", PreferNoSchedule}}},
       {100, 100, 100}},
      {"the more intolerable taints a node has, the lower score it gets.",
       {tol_equal("foo", "bar", PreferNoSchedule)},
       {{},
        {{"cpu-type", "arm64", PreferNoSchedule}},
        {{"cpu-type", "arm64", PreferNoSchedule}, {"disk-type", "ssd", PreferNoSchedule}}},
       {100, 50, 0}},
      {"only taints and tolerations that have effect PreferNoSchedule are checked by "
       "prioritizeTaintToleration function",
       {tol_equal("cpu-type", "arm64", NoSchedule), tol_equal("disk-type", "ssd", NoSchedule)},
       {{},
        {{"cpu-type", "arm64", NoSchedule}},
        {{"cpu-type", "arm64", PreferNoSchedule}, {"disk-type", "ssd", PreferNoSchedule}}},
       {100, 100, 0}},
      {"Default behaviour No taints and tolerations",
       {},
       {{}, {{"cpu-type", "arm64", PreferNoSchedule}, {"disk-type", "ssd", PreferNoSchedule}}},
       {100, 0}},
      // Beyond upstream's table: no intolerable taint anywhere -> every node gets MaxNodeScore;
      // a toleration without effect also tolerates PreferNoSchedule taints.
      {"no intolerable taints: every node scores 100",
       {},
       {{}, {{"x", "y", NoSchedule}}},
       {100, 100}},
      {"a toleration without effect tolerates PreferNoSchedule; three levels normalize",
       {tol_equal("a", "1", std::nullopt)},
       {{{"a", "1", PreferNoSchedule}},
        {{"b", "1", PreferNoSchedule}},
        {{"b", "1", PreferNoSchedule}, {"c", "1", PreferNoSchedule}, {"d", "1", PreferNoSchedule}}},
       {100, 67, 0}},
  };
  for (const ScoreRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      test::Env env;
      std::vector<const NodeInfo*> nodes;
      for (std::size_t i = 0; i < row.nodes.size(); ++i) {
        nodes.push_back(&env.cluster.add_node(node_with("node" + std::to_string(i), row.nodes[i])));
      }
      Handle handle = env.handle();
      plugins::TaintToleration plugin(handle);
      const PodInfo pod = env.compile(pod_with(row.tolerations));
      CycleState state(1);
      REQUIRE(plugin.pre_score(state, pod, nodes) == Code::Success);
      std::vector<std::int64_t> scores;
      for (const NodeInfo* n : nodes) scores.push_back(plugin.score(state, pod, *n));
      plugin.normalize(state, pod, scores);
      CHECK(scores == row.want);
    }
  }
}

TEST_CASE("TaintToleration queueing hints", "[plugins][queue]") {
  test::Env env;
  Handle handle = env.handle();
  plugins::TaintToleration plugin(handle);
  PodInfo& pod = env.cluster.add_pod(pod_with({tol_equal("dedicated", "a", NoSchedule)}));
  const ClusterEvent node_event{EventResource::Node, action::kUpdateNodeTaint, "NodeTaintChange"};
  NodeInfo& node = env.cluster.add_node(node_with("n", {{"dedicated", "b", NoSchedule}}));
  const Node old_node = node.node;
  SECTION("untolerated -> tolerated: Queue") {
    env.cluster.update_node(node, node_with("n", {{"dedicated", "a", NoSchedule}}));
    CHECK(plugin.queueing_hint(node_event, pod, {&old_node, &node, nullptr}) ==
          QueueingHint::Queue);
  }
  SECTION("untolerated -> still untolerated: QueueSkip") {
    env.cluster.update_node(node, node_with("n", {{"dedicated", "c", NoSchedule}}));
    CHECK(plugin.queueing_hint(node_event, pod, {&old_node, &node, nullptr}) ==
          QueueingHint::QueueSkip);
  }
  SECTION("a new node without taints: Queue") {
    const NodeInfo& fresh = env.cluster.add_node(node_with("m", {}));
    CHECK(plugin.queueing_hint({EventResource::Node, action::kAdd, "NodeAdd"}, pod,
                               {nullptr, &fresh, nullptr}) == QueueingHint::Queue);
  }
  SECTION("a toleration update of this pod: Queue; of another pod: QueueSkip") {
    PodInfo& other = env.cluster.add_pod(test::make_pod("other"));
    const ClusterEvent update{EventResource::Pod, action::kUpdatePodToleration, "PodUpdate"};
    CHECK(plugin.queueing_hint(update, pod, {nullptr, nullptr, &pod}) == QueueingHint::Queue);
    CHECK(plugin.queueing_hint(update, pod, {nullptr, nullptr, &other}) == QueueingHint::QueueSkip);
  }
}

}  // namespace
}  // namespace gpusched
