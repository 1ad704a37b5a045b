// NodeAffinity against upstream's
// pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go (TestNodeAffinity,
// TestNodeAffinityPriority).
#include "plugins/node_affinity.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "framework/string_pool.hpp"
#include "unit/plugins/plugin_test_support.hpp"

namespace gpusched {
namespace {

using Op = SelectorOperator;

SelectorRequirement req(std::string key, Op op, std::vector<std::string> values = {}) {
  return SelectorRequirement{std::move(key), op, std::move(values)};
}
NodeSelectorTerm exprs(std::vector<SelectorRequirement> r) {
  return NodeSelectorTerm{std::move(r), {}};
}
NodeSelectorTerm fields(std::vector<SelectorRequirement> r) {
  return NodeSelectorTerm{{}, std::move(r)};
}
SelectorRequirement name_in(std::vector<std::string> names) {
  return req("metadata.name", Op::In, std::move(names));
}

struct FilterRow {
  std::string name;
  Labels node_selector;
  std::optional<std::vector<NodeSelectorTerm>> required;  // nullopt: no required affinity
  std::string node_name;
  Labels node_labels;
  bool fits;
  Code pre_filter = Code::Success;  // Skip without nodeSelector and required affinity
  std::optional<std::set<std::string>> pre_filter_nodes{};  // nullopt: all nodes
};

constexpr Code kSkip = Code::Skip;
constexpr Code kOk = Code::Success;

TEST_CASE("NodeAffinity PreFilter and Filter: upstream TestNodeAffinity", "[plugins]") {
  const std::vector<FilterRow> rows = {
      {"missing labels", {{"foo", "bar"}}, std::nullopt, "node1", {}, false},
      {"same labels", {{"foo", "bar"}}, std::nullopt, "node1", {{"foo", "bar"}}, true},
      {"node labels are superset",
       {{"foo", "bar"}},
       std::nullopt,
       "node1",
       {{"foo", "bar"}, {"baz", "blah"}},
       true},
      {"node labels are subset",
       {{"foo", "bar"}, {"baz", "blah"}},
       std::nullopt,
       "node1",
       {{"foo", "bar"}},
       false},
      {"Pod with matchExpressions using In operator that matches the existing node",
       {},
       std::vector{exprs({req("foo", Op::In, {"bar", "value2"})})},
       "node1",
       {{"foo", "bar"}},
       true},
      {"Pod with matchExpressions using Gt operator that matches the existing node",
       {},
       std::vector{exprs({req("kernel-version", Op::Gt, {"0204"})})},
       "node1",
       {{"kernel-version", "0206"}},
       true},
      {"Pod with matchExpressions using NotIn operator that matches the existing node",
       {},
       std::vector{exprs({req("mem-type", Op::NotIn, {"DDR", "DDR2"})})},
       "node1",
       {{"mem-type", "DDR3"}},
       true},
      {"Pod with matchExpressions using Exists operator that matches the existing node",
       {},
       std::vector{exprs({req("GPU", Op::Exists)})},
       "node1",
       {{"GPU", "NVIDIA-GRID-K1"}},
       true},
      {"Pod with affinity that don't match node's labels won't schedule onto the node",
       {},
       std::vector{exprs({req("foo", Op::In, {"value1", "value2"})})},
       "node1",
       {{"foo", "bar"}},
       false},
      {"Pod with empty MatchExpressions is not a valid value will match no objects and won't "
       "schedule onto the node",
       {},
       std::vector{exprs({})},
       "node1",
       {{"foo", "bar"}},
       false},
      {"Pod with no Affinity will schedule onto a node",
       {},
       std::nullopt,
       "node1",
       {{"foo", "bar"}},
       true,
       kSkip},
      {"Pod with multiple matchExpressions ANDed that matches the existing node",
       {},
       std::vector{exprs({req("GPU", Op::Exists), req("GPU", Op::NotIn, {"AMD", "INTER"})})},
       "node1",
       {{"GPU", "NVIDIA-GRID-K1"}},
       true},
      {"Pod with multiple matchExpressions ANDed that doesn't match the existing node",
       {},
       std::vector{exprs({req("GPU", Op::Exists), req("GPU", Op::In, {"AMD", "INTER"})})},
       "node1",
       {{"GPU", "NVIDIA-GRID-K1"}},
       false},
      {"Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will "
       "schedule onto the node",
       {},
       std::vector{exprs({req("foo", Op::In, {"bar", "value2"})}),
                   exprs({req("diffkey", Op::In, {"wrong", "value2"})})},
       "node1",
       {{"foo", "bar"}},
       true},
      {"Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) "
       "both are satisfied, will schedule onto the node",
       {{"foo", "bar"}},
       std::vector{exprs({req("foo", Op::Exists)})},
       "node1",
       {{"foo", "bar"}},
       true},
      {"Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing "
       "that we are deprecating) is not satisfied, won't schedule onto the node",
       {{"foo", "bar"}},
       std::vector{exprs({req("foo", Op::Exists)})},
       "node1",
       {{"foo", "barrrrrr"}},
       false},
      {"Pod with matchFields using In operator that matches the existing node",
       {},
       std::vector{fields({name_in({"node1"})})},
       "node1",
       {},
       true,
       kOk,
       std::set<std::string>{"node1"}},
      {"Pod with matchFields using In operator that does not match the existing node",
       {},
       std::vector{fields({name_in({"node1"})})},
       "node2",
       {},
       false,
       kOk,
       std::set<std::string>{"node1"}},
      {"Pod with two terms: matchFields does not match, but matchExpressions matches",
       {},
       std::vector{fields({name_in({"node1"})}), exprs({req("foo", Op::In, {"bar"})})},
       "node2",
       {{"foo", "bar"}},
       true},
      {"Pod with one term: matchFields does not match, but matchExpressions matches",
       {},
       std::vector{NodeSelectorTerm{{req("foo", Op::In, {"bar"})}, {name_in({"node1"})}}},
       "node2",
       {{"foo", "bar"}},
       false,
       kOk,
       std::set<std::string>{"node1"}},
      {"Pod with one term: both matchFields and matchExpressions match",
       {},
       std::vector{NodeSelectorTerm{{req("foo", Op::In, {"bar"})}, {name_in({"node1"})}}},
       "node1",
       {{"foo", "bar"}},
       true,
       kOk,
       std::set<std::string>{"node1"}},
      {"Pod with two terms: both matchFields and matchExpressions do not match",
       {},
       std::vector{fields({name_in({"node1"})}), exprs({req("foo", Op::In, {"not-match-to-bar"})})},
       "node2",
       {{"foo", "bar"}},
       false},
      {"Pod with two terms of node.Name affinity",
       {},
       std::vector{fields({name_in({"node1"})}), fields({name_in({"node2"})})},
       "node2",
       {},
       true,
       kOk,
       std::set<std::string>{"node1", "node2"}},
      // Beyond upstream's table: the remaining operators and edge cases.
      {"Lt matches a smaller integer label",
       {},
       std::vector{exprs({req("gen", Op::Lt, {"5"})})},
       "node1",
       {{"gen", "4"}},
       true},
      {"Lt does not match an equal label",
       {},
       std::vector{exprs({req("gen", Op::Lt, {"5"})})},
       "node1",
       {{"gen", "5"}},
       false},
      {"Gt does not match a non-integer label",
       {},
       std::vector{exprs({req("gen", Op::Gt, {"1"})})},
       "node1",
       {{"gen", "v2"}},
       false},
      {"Gt does not match a missing label",
       {},
       std::vector{exprs({req("gen", Op::Gt, {"1"})})},
       "node1",
       {},
       false},
      {"DoesNotExist matches a node without the label",
       {},
       std::vector{exprs({req("spot", Op::DoesNotExist)})},
       "node1",
       {{"foo", "bar"}},
       true},
      {"DoesNotExist rejects a node with the label",
       {},
       std::vector{exprs({req("spot", Op::DoesNotExist)})},
       "node1",
       {{"spot", ""}},
       false},
      {"NotIn matches a node without the label",
       {},
       std::vector{exprs({req("zone", Op::NotIn, {"a"})})},
       "node1",
       {},
       true},
      {"matchFields NotIn excludes the named node",
       {},
       std::vector{fields({req("metadata.name", Op::NotIn, {"node1"})})},
       "node1",
       {},
       false},
      {"required affinity with zero terms matches nothing",
       {},
       std::vector<NodeSelectorTerm>{},
       "node1",
       {{"foo", "bar"}},
       false},
  };
  for (const FilterRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      test::Env env;
      const NodeInfo& node =
          env.cluster.add_node(test::make_node(row.node_name, {}, row.node_labels));
      Handle handle = env.handle();
      plugins::NodeAffinity plugin(handle);
      Pod pod = test::make_pod("p");
      pod.spec.node_selector = row.node_selector;
      if (row.required) {
        NodeAffinity na;
        na.required = *row.required;
        pod.spec.affinity.mut().node_affinity = na;
      }
      const PodInfo info = env.compile(pod);
      CycleState state(1);
      PreFilterResult result;
      const Status pre = plugin.pre_filter(state, info, result);
      CHECK(pre.code == row.pre_filter);
      CHECK(pre.reasons.empty());
      if (row.pre_filter_nodes) {
        REQUIRE(result.node_names.has_value());
        std::set<std::string> got;
        for (StrId id : *result.node_names) got.insert(env.cluster.pool().str(id));
        CHECK(got == *row.pre_filter_nodes);
      } else {
        CHECK_FALSE(result.node_names.has_value());
      }
      if (pre.code == Code::Skip) {
        CHECK(state.filter_skipped(0));
        continue;
      }
      Reasons reasons;
      const Code code = plugin.filter(state, info, node, reasons);
      if (row.fits) {
        CHECK(code == Code::Success);
        CHECK(reasons.empty());
      } else {
        CHECK(code == Code::UnschedulableAndUnresolvable);
        CHECK(env.text(reasons) ==
              std::vector<std::string>{"node(s) didn't match Pod's node affinity/selector"});
      }
    }
  }
}

TEST_CASE("NodeAffinity PreFilter: conflicting matchFields reject with UU", "[plugins]") {
  // Upstream row "Pod with two conflicting mach field requirements".
  test::Env env;
  env.cluster.add_node(test::make_node("node1"));
  Handle handle = env.handle();
  plugins::NodeAffinity plugin(handle);
  Pod pod = test::make_pod("p");
  NodeAffinity na;
  na.required = std::vector{fields({name_in({"node1"}), name_in({"node2"})})};
  pod.spec.affinity.mut().node_affinity = na;
  const PodInfo info = env.compile(pod);
  CycleState state(1);
  PreFilterResult result;
  const Status pre = plugin.pre_filter(state, info, result);
  CHECK(pre.code == Code::UnschedulableAndUnresolvable);
  CHECK(pre.message(env.cluster.pool()) == "pod affinity terms conflict");
}

struct ScoreRow {
  std::string name;
  std::vector<PreferredSchedulingTerm> preferred;  // empty: no affinity (PreScore Skip)
  std::vector<std::pair<std::string, Labels>> nodes;
  std::vector<std::int64_t> want;
};

TEST_CASE("NodeAffinity Score: upstream TestNodeAffinityPriority", "[plugins]") {
  const Labels label1{{"foo", "bar"}};
  const Labels label2{{"key", "value"}};
  const Labels label3{{"az", "az1"}};
  const Labels label4{{"abc", "az11"}, {"def", "az22"}};
  const Labels label5{{"foo", "bar"}, {"key", "value"}, {"az", "az1"}};
  const std::vector<PreferredSchedulingTerm> affinity1{{2, exprs({req("foo", Op::In, {"bar"})})}};
  const std::vector<PreferredSchedulingTerm> affinity2{
      {2, exprs({req("foo", Op::In, {"bar"})})},
      {4, exprs({req("key", Op::In, {"value"})})},
      {5, exprs({req("foo", Op::In, {"bar"}), req("key", Op::In, {"value"}),
                 req("az", Op::In, {"az1"})})},
  };
  const std::vector<ScoreRow> rows = {
      {"all nodes are same priority as NodeAffinity is nil",
       {},
       {{"node1", label1}, {"node2", label2}, {"node3", label3}},
       {}},
      {"no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' "
       "priority is zero",
       affinity1,
       {{"node1", label4}, {"node2", label2}, {"node3", label3}},
       {0, 0, 0}},
      {"only node1 matches the preferred scheduling requirements of pod",
       affinity1,
       {{"node1", label1}, {"node2", label2}, {"node3", label3}},
       {100, 0, 0}},
      {"all nodes matches the preferred scheduling requirements of pod but with different "
       "priorities ",
       affinity2,
       {{"node1", label1}, {"node5", label5}, {"node2", label2}},
       {18, 100, 36}},
  };
  for (const ScoreRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      test::Env env;
      std::vector<const NodeInfo*> nodes;
      for (const auto& [name, labels] : row.nodes) {
        nodes.push_back(&env.cluster.add_node(test::make_node(name, {}, labels)));
      }
      Handle handle = env.handle();
      plugins::NodeAffinity plugin(handle);
      Pod pod = test::make_pod("p");
      if (!row.preferred.empty()) {
        NodeAffinity na;
        na.preferred = row.preferred;
        pod.spec.affinity.mut().node_affinity = na;
      }
      const PodInfo info = env.compile(pod);
      CycleState state(1);
      const Code pre = plugin.pre_score(state, info, nodes);
      if (row.want.empty()) {
        CHECK(pre == Code::Skip);
        CHECK(state.score_skipped(0));
        continue;
      }
      REQUIRE(pre == Code::Success);
      std::vector<std::int64_t> scores;
      for (const NodeInfo* n : nodes) scores.push_back(plugin.score(state, info, *n));
      plugin.normalize(state, info, scores);
      CHECK(scores == row.want);
    }
  }
}

TEST_CASE("NodeAffinity queueing hint: only a node that starts matching requeues",
          "[plugins][queue]") {
  test::Env env;
  Handle handle = env.handle();
  plugins::NodeAffinity plugin(handle);
  Pod p = test::make_pod("p");
  p.spec.node_selector = {{"gpu", "a100"}};
  PodInfo& pod = env.cluster.add_pod(p);
  const ClusterEvent label_change{EventResource::Node, action::kUpdateNodeLabel, "NodeLabelChange"};
  NodeInfo& node = env.cluster.add_node(test::make_node("n", {}, {{"gpu", "t4"}}));
  const Node old_node = node.node;
  CHECK(plugin.queueing_hint({EventResource::Node, action::kAdd, "NodeAdd"}, pod,
                             {nullptr, &node, nullptr}) == QueueingHint::QueueSkip);
  env.cluster.update_node(node, test::make_node("n", {}, {{"gpu", "a100"}}));
  CHECK(plugin.queueing_hint(label_change, pod, {&old_node, &node, nullptr}) ==
        QueueingHint::Queue);
  const Node matching = node.node;
  env.cluster.update_node(node, test::make_node("n", {}, {{"gpu", "a100"}, {"x", "y"}}));
  CHECK(plugin.queueing_hint(label_change, pod, {&matching, &node, nullptr}) ==
        QueueingHint::QueueSkip);
}

}  // namespace
}  // namespace gpusched
