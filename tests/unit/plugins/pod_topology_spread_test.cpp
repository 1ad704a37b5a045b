// PodTopologySpread against upstream's
// pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go (TestSingleConstraint,
// TestMultipleConstraints, minDomains and node inclusion policy rows, TestPreFilterStateAddPod)
// and scoring_test.go (TestPodTopologySpreadScore). Expected scores are derived by hand from
// scoring.go's formula, shown beside each row.
#include "plugins/pod_topology_spread.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "unit/plugins/plugin_test_support.hpp"

namespace gpusched {
namespace {

using Op = SelectorOperator;
constexpr Code kOk = Code::Success;
constexpr Code kU = Code::Unschedulable;
constexpr Code kUU = Code::UnschedulableAndUnresolvable;

LabelSelector exists(std::string key) {
  LabelSelector s;
  s.match_expressions.push_back(SelectorRequirement{std::move(key), Op::Exists, {}});
  return s;
}

TopologySpreadConstraint spread(std::int32_t max_skew, std::string key, std::string when,
                                std::optional<LabelSelector> selector) {
  TopologySpreadConstraint c;
  c.max_skew = max_skew;
  c.topology_key = std::move(key);
  c.when_unsatisfiable = std::move(when);
  c.label_selector = std::move(selector);
  return c;
}

TopologySpreadConstraint hard(std::int32_t max_skew, std::string key, LabelSelector selector) {
  return spread(max_skew, std::move(key), "DoNotSchedule", std::move(selector));
}

TopologySpreadConstraint soft(std::int32_t max_skew, std::string key, LabelSelector selector) {
  return spread(max_skew, std::move(key), "ScheduleAnyway", std::move(selector));
}

Pod labelled(std::string name, Labels labels, std::string ns = "default") {
  Pod pod = test::make_pod(std::move(name), {test::container({})});
  pod.metadata.labels = std::move(labels);
  pod.metadata.namespace_ = std::move(ns);
  return pod;
}

struct Placed {
  std::string name;
  std::string node;
  Labels labels;
  std::string ns = "default";
  bool terminating = false;
};

Node zoned(std::string name, std::optional<std::string> zone) {
  Labels labels{{"node", name}};
  if (zone) labels["zone"] = *zone;
  return test::make_node(std::move(name), {}, std::move(labels));
}

/// node-a, node-b in zone1 and node-x, node-y in zone2, as upstream's tests.
std::vector<Node> four_nodes() {
  return {zoned("node-a", "zone1"), zoned("node-b", "zone1"), zoned("node-x", "zone2"),
          zoned("node-y", "zone2")};
}

/// Pods spread across nodes as 2/1/0/3.
std::vector<Placed> spread_2_1_0_3() {
  return {{"p-a1", "node-a", {{"foo", ""}}}, {"p-a2", "node-a", {{"foo", ""}}},
          {"p-b1", "node-b", {{"foo", ""}}}, {"p-y1", "node-y", {{"foo", ""}}},
          {"p-y2", "node-y", {{"foo", ""}}}, {"p-y3", "node-y", {{"foo", ""}}}};
}

struct Cluster {
  explicit Cluster(const std::vector<Node>& nodes, const std::vector<Placed>& pods) {
    for (const Node& n : nodes) env.cluster.add_node(n);
    for (const Placed& p : pods) {
      Pod pod = labelled(p.name, p.labels, p.ns);
      if (p.terminating) pod.metadata.deletion_ms = 0;
      env.add_bound(std::move(pod), p.node);
    }
  }
  test::Env env;
};

struct FilterRow {
  std::string name;
  Pod pod;
  std::vector<Node> nodes;
  std::vector<Placed> existing;
  std::map<std::string, Code> want;
};

Pod with(Pod pod, std::vector<TopologySpreadConstraint> constraints) {
  pod.spec.topology_spread_constraints = std::move(constraints);
  return pod;
}

Pod with_node_affinity_in(Pod pod, std::string key, std::vector<std::string> values) {
  NodeAffinity affinity;
  affinity.required.emplace();
  affinity.required->push_back(
      NodeSelectorTerm{{SelectorRequirement{std::move(key), Op::In, std::move(values)}}, {}});
  pod.spec.affinity.mut().node_affinity = std::move(affinity);
  return pod;
}

void run_filter_rows(const std::vector<FilterRow>& rows) {
  for (const FilterRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      Cluster c(row.nodes, row.existing);
      Handle handle = c.env.handle();
      plugins::PodTopologySpread pl(handle);
      CycleState state(1);
      PreFilterResult result;
      const PodInfo pod = c.env.compile(row.pod);
      REQUIRE(pl.pre_filter(state, pod, result).code == kOk);
      for (const Node& n : row.nodes) {
        Reasons reasons;
        INFO(n.metadata.name);
        const Code code = pl.filter(state, pod, *c.env.cluster.find_node(n.metadata.name), reasons);
        CHECK(code == row.want.at(n.metadata.name));
        if (code == kU) {
          CHECK(c.env.text(reasons) ==
                std::vector<std::string>{"node(s) didn't match pod topology spread constraints"});
        } else if (code == kUU) {
          CHECK(c.env.text(reasons) ==
                std::vector<std::string>{
                    "node(s) didn't match pod topology spread constraints (missing required "
                    "label)"});
        }
      }
    }
  }
}

const Labels kFoo{{"foo", ""}};

TEST_CASE("PodTopologySpread Filter: upstream TestSingleConstraint", "[plugins][spread]") {
  const Pod zone_foo = with(labelled("p", kFoo), {hard(1, "zone", exists("foo"))});
  const Pod node_foo = with(labelled("p", kFoo), {hard(1, "node", exists("foo"))});
  std::vector<Node> b_without_zone = four_nodes();
  b_without_zone[1] = test::make_node("node-b", {}, {{"zon", "zone1"}, {"node", "node-b"}});
  run_filter_rows({
      {"no existing pods",
       zone_foo,
       four_nodes(),
       {},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
      {"no existing pods, incoming pod doesn't match itself",
       with(labelled("p", kFoo), {hard(1, "zone", exists("bar"))}),
       four_nodes(),
       {},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
      // zone1 0 (other namespaces), zone2 2: 0+1-0 fits, 2+1-0 > 1.
      {"existing pods in a different namespace do not count",
       zone_foo,
       four_nodes(),
       {{"p-a1", "node-a", kFoo, "ns1"},
        {"p-b1", "node-a", kFoo, "ns2"},
        {"p-x1", "node-x", kFoo},
        {"p-y1", "node-y", kFoo}},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kU}, {"node-y", kU}}},
      {"pods spread across zones as 3/3, all nodes fit",
       zone_foo,
       four_nodes(),
       {{"p-a1", "node-a", kFoo},
        {"p-a2", "node-a", kFoo},
        {"p-b1", "node-b", kFoo},
        {"p-y1", "node-y", kFoo},
        {"p-y2", "node-y", kFoo},
        {"p-y3", "node-y", kFoo}},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
      {"pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
       zone_foo,
       b_without_zone,
       {{"p-a1", "node-a", kFoo},
        {"p-b1", "node-b", kFoo},
        {"p-x1", "node-x", kFoo},
        {"p-y1", "node-y", kFoo}},
       {{"node-a", kOk}, {"node-b", kUU}, {"node-x", kU}, {"node-y", kU}}},
      {"pod cannot be scheduled as all nodes don't have label 'rack'",
       with(labelled("p", kFoo), {hard(1, "rack", exists("foo"))}),
       {zoned("node-a", "zone1"), zoned("node-x", "zone2")},
       {},
       {{"node-a", kUU}, {"node-x", kUU}}},
      {"pods spread across nodes as 2/1/0/3, only node-x fits",
       node_foo,
       four_nodes(),
       spread_2_1_0_3(),
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kOk}, {"node-y", kU}}},
      {"pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
       with(labelled("p", kFoo), {hard(2, "node", exists("foo"))}),
       four_nodes(),
       spread_2_1_0_3(),
       {{"node-a", kU}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kU}}},
      {"pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
       with(labelled("p", {{"bar", ""}}), {hard(1, "node", exists("foo"))}),
       four_nodes(),
       spread_2_1_0_3(),
       {{"node-a", kU}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kU}}},
      // Only node-a and node-y are counted (2/~1~/~0~/3); NodeAffinity's Filter, not run here,
      // rejects node-b and node-x.
      {"incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
       with_node_affinity_in(node_foo, "node", {"node-a", "node-y"}),
       four_nodes(),
       spread_2_1_0_3(),
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kU}}},
      {"terminating Pods should be excluded",
       node_foo,
       {test::make_node("node-a", {}, {{"node", "node-a"}}),
        test::make_node("node-b", {}, {{"node", "node-b"}})},
       {{"p-a", "node-a", kFoo, "default", true}, {"p-b", "node-b", kFoo}},
       {{"node-a", kOk}, {"node-b", kU}}},
  });
}

TEST_CASE("PodTopologySpread Filter: upstream TestMultipleConstraints", "[plugins][spread]") {
  const Pod zone_and_node =
      with(labelled("p", kFoo), {hard(1, "zone", exists("foo")), hard(1, "node", exists("foo"))});
  run_filter_rows({
      // zone: any node (3/3); node: node-x only.
      {"two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
       zone_and_node,
       four_nodes(),
       spread_2_1_0_3(),
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kOk}, {"node-y", kU}}},
      // Pods 2/1/1/3: zones 3/4 allow zone1 only; nodes (minimum 1) allow node-b and node-x;
      // node-b is the intersection.
      {"two Constraints on zone and node, spreads = [3/4, 2/1/1/3]",
       zone_and_node,
       four_nodes(),
       [] {
         auto pods = spread_2_1_0_3();
         pods.push_back({"p-x1", "node-x", kFoo});
         return pods;
       }(),
       {{"node-a", kU}, {"node-b", kOk}, {"node-x", kU}, {"node-y", kU}}},
      // "foo" on zones is 1/1 (any zone); "bar" on nodes is 0/0/1/1 (node-a or node-b).
      {"Constraints hold different labelSelectors, spreads = [1/1, 0/0/1/1]",
       with(labelled("p", {{"foo", ""}, {"bar", ""}}),
            {hard(1, "zone", exists("foo")), hard(1, "node", exists("bar"))}),
       four_nodes(),
       {{"p-a1", "node-a", kFoo},
        {"p-x1", "node-x", {{"bar", ""}}},
        {"p-y1", "node-y", {{"foo", ""}, {"bar", ""}}}},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kU}, {"node-y", kU}}},
  });
}

TEST_CASE("PodTopologySpread Filter: minDomains, inclusion policies, matchLabelKeys",
          "[plugins][spread]") {
  TopologySpreadConstraint min3 = hard(1, "zone", exists("foo"));
  min3.min_domains = 3;
  TopologySpreadConstraint ignore_affinity = hard(1, "node", exists("foo"));
  ignore_affinity.node_affinity_policy = "Ignore";
  TopologySpreadConstraint honor_taints = hard(1, "node", exists("foo"));
  honor_taints.node_taints_policy = "Honor";
  Node tainted = zoned("node-b", "zone1");
  tainted.taints.push_back(Taint{"dedicated", "gpu", TaintEffect::NoSchedule});
  TopologySpreadConstraint by_version = hard(1, "node", exists("foo"));
  by_version.match_label_keys = {"version"};
  run_filter_rows({
      // Two domains < minDomains 3: the global minimum is 0, so 1+1-0 > 1 everywhere.
      {"minDomains 3 with 2 zones: the global minimum is 0",
       with(labelled("p", kFoo), {min3}),
       four_nodes(),
       {{"p-a1", "node-a", kFoo}, {"p-x1", "node-x", kFoo}},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kU}, {"node-y", kU}}},
      {"minDomains 3 with 2 empty zones: 0+1-0 fits",
       with(labelled("p", kFoo), {min3}),
       four_nodes(),
       {},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
      // nodeAffinityPolicy Ignore: every node counts (2/1/0/3), only node-x fits.
      {"nodeAffinityPolicy Ignore counts nodes outside the pod's node affinity",
       with_node_affinity_in(with(labelled("p", kFoo), {ignore_affinity}), "node",
                             {"node-a", "node-y"}),
       four_nodes(),
       spread_2_1_0_3(),
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kOk}, {"node-y", kU}}},
      // Ignore (default): node-b (0) is the minimum, so node-a and node-x (1) are too skewed.
      {"nodeTaintsPolicy Ignore counts the tainted node",
       with(labelled("p", kFoo), {hard(1, "node", exists("foo"))}),
       {zoned("node-a", "zone1"), tainted, zoned("node-x", "zone2")},
       {{"p-a1", "node-a", kFoo}, {"p-x1", "node-x", kFoo}},
       {{"node-a", kU}, {"node-b", kOk}, {"node-x", kU}}},
      // Honor: node-b is left out, the minimum is 1 and 1+1-1 fits.
      {"nodeTaintsPolicy Honor leaves out the node with an untolerated taint",
       with(labelled("p", kFoo), {honor_taints}),
       {zoned("node-a", "zone1"), tainted, zoned("node-x", "zone2")},
       {{"p-a1", "node-a", kFoo}, {"p-x1", "node-x", kFoo}},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}}},
      // matchLabelKeys: version=v2 is ANDed with the selector; the v1 pods no longer count.
      {"matchLabelKeys narrows the selector to the pod's version",
       with(labelled("p", {{"foo", ""}, {"version", "v2"}}), {by_version}),
       four_nodes(),
       {{"p-a1", "node-a", {{"foo", ""}, {"version", "v1"}}},
        {"p-a2", "node-a", {{"foo", ""}, {"version", "v1"}}}},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
      {"without matchLabelKeys the v1 pods count",
       with(labelled("p", {{"foo", ""}, {"version", "v2"}}), {hard(1, "node", exists("foo"))}),
       four_nodes(),
       {{"p-a1", "node-a", {{"foo", ""}, {"version", "v1"}}},
        {"p-a2", "node-a", {{"foo", ""}, {"version", "v1"}}}},
       {{"node-a", kU}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
      // A nil labelSelector selects nothing: counts are 0 and the pod does not match itself.
      {"nil labelSelector counts nothing",
       with(labelled("p", kFoo), {spread(1, "node", "DoNotSchedule", std::nullopt)}),
       four_nodes(),
       spread_2_1_0_3(),
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
      // An empty labelSelector is Everything: countPodsMatchSelector counts 0 for it, yet the
      // pod matches itself (0+1-0 <= 1).
      {"empty labelSelector counts nothing but matches the pod",
       with(labelled("p", kFoo), {hard(1, "node", LabelSelector{})}),
       four_nodes(),
       spread_2_1_0_3(),
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
  });
}

TEST_CASE("PodTopologySpread PreFilter skips pods without hard constraints", "[plugins][spread]") {
  Cluster c(four_nodes(), {});
  Handle handle = c.env.handle();
  plugins::PodTopologySpread pl(handle);
  CycleState state(1);
  PreFilterResult result;
  const PodInfo plain = c.env.compile(labelled("p", kFoo));
  CHECK(pl.pre_filter(state, plain, result).code == Code::Skip);
  CHECK(state.filter_skipped(0));
  CycleState state2(1);
  const PodInfo soft_only =
      c.env.compile(with(labelled("p", kFoo), {soft(1, "zone", exists("foo"))}));
  CHECK(pl.pre_filter(state2, soft_only, result).code == Code::Skip);
}

// TestPreFilterStateAddPod-style: AddPod / RemovePod update the counts and critical paths as
// preemption's dry-runs do.
TEST_CASE("PodTopologySpread AddPod and RemovePod", "[plugins][spread]") {
  Cluster c(four_nodes(), spread_2_1_0_3());
  Handle handle = c.env.handle();
  plugins::PodTopologySpread pl(handle);
  CycleState state(1);
  PreFilterResult result;
  const PodInfo pod = c.env.compile(with(labelled("p", kFoo), {hard(1, "node", exists("foo"))}));
  REQUIRE(pl.pre_filter(state, pod, result).code == kOk);
  auto codes = [&](const CycleState& s) {
    std::vector<Code> out;
    for (const char* n : {"node-a", "node-b", "node-x", "node-y"}) {
      Reasons reasons;
      out.push_back(pl.filter(s, pod, *c.env.cluster.find_node(n), reasons));
    }
    return out;
  };
  CHECK(codes(state) == std::vector<Code>{kU, kU, kOk, kU});

  // 2/1/1/3: the minimum becomes 1, node-b and node-x fit.
  CycleState added = state;
  const PodInfo x1 = c.env.compile(labelled("p-x1", kFoo));
  pl.add_pod(added, pod, x1, *c.env.cluster.find_node("node-x"));
  CHECK(codes(added) == std::vector<Code>{kU, kOk, kOk, kU});
  CHECK(codes(state) == std::vector<Code>{kU, kU, kOk, kU});  // the original is untouched

  // Another namespace or a non-matching pod changes nothing.
  CycleState other = state;
  pl.add_pod(other, pod, c.env.compile(labelled("q", kFoo, "ns1")),
             *c.env.cluster.find_node("node-x"));
  pl.add_pod(other, pod, c.env.compile(labelled("r", {{"bar", ""}})),
             *c.env.cluster.find_node("node-x"));
  CHECK(codes(other) == std::vector<Code>{kU, kU, kOk, kU});

  // Removing both pods of node-a: 0/1/0/3, node-a and node-x fit.
  CycleState removed = state;
  for (const char* name : {"p-a1", "p-a2"}) {
    pl.remove_pod(removed, pod, *c.env.cluster.find_pod("default", name),
                  *c.env.cluster.find_node("node-a"));
  }
  CHECK(codes(removed) == std::vector<Code>{kOk, kU, kOk, kU});
}

struct ScoreRow {
  std::string name;
  Pod pod;
  std::vector<Node> nodes;
  std::vector<std::string> filtered;  // the nodes passed to PreScore / Score
  std::vector<Placed> existing;
  std::vector<std::int64_t> want;  // normalized, per filtered node
};

void run_score_rows(const std::vector<ScoreRow>& rows) {
  for (const ScoreRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      Cluster c(row.nodes, row.existing);
      Handle handle = c.env.handle();
      plugins::PodTopologySpread pl(handle);
      CycleState state(1);
      const PodInfo pod = c.env.compile(row.pod);
      std::vector<const NodeInfo*> nodes;
      for (const std::string& n : row.filtered) nodes.push_back(c.env.cluster.find_node(n));
      REQUIRE(pl.pre_score(state, pod, nodes) == kOk);
      std::vector<std::int64_t> scores;
      for (const NodeInfo* n : nodes) scores.push_back(pl.score(state, pod, *n));
      pl.normalize(state, pod, scores);
      CHECK(scores == row.want);
    }
  }
}

TEST_CASE("PodTopologySpread Score: upstream TestPodTopologySpreadScore", "[plugins][spread]") {
  const Pod node_foo = with(labelled("p", kFoo), {soft(1, "node", exists("foo"))});
  std::vector<Node> with_z = four_nodes();
  with_z.push_back(test::make_node("node-z", {}, {{"node", "node-z"}}));
  run_score_rows({
      {"one constraint on node, no existing pods",
       node_foo,
       {zoned("node-a", "zone1"), zoned("node-b", "zone1")},
       {"node-a", "node-b"},
       {},
       {100, 100}},
      // One domain: weight log(3); node-a 2*1.0986 = 2.197 -> 2; max = min = 2 -> 100.
      {"one constraint on node, only one node is candidate",
       node_foo,
       {zoned("node-a", "zone1"), zoned("node-b", "zone1")},
       {"node-a"},
       {{"p-a1", "node-a", kFoo}, {"p-a2", "node-a", kFoo}, {"p-b1", "node-b", kFoo}},
       {100}},
      {"one constraint on node, all nodes have the same number of matching pods",
       node_foo,
       {zoned("node-a", "zone1"), zoned("node-b", "zone1")},
       {"node-a", "node-b"},
       {{"p-a1", "node-a", kFoo}, {"p-b1", "node-b", kFoo}},
       {100, 100}},
      // Pods 6/3/0/1, weight log(6) = 1.7918: raw 11/5/0/2 (10.75, 5.38, 0, 1.79);
      // 100*(11+0-s)/11 = 0/54/100/81.
      {"one constraint on node, all 4 nodes are candidates",
       node_foo,
       four_nodes(),
       {"node-a", "node-b", "node-x", "node-y"},
       [] {
         std::vector<Placed> pods;
         for (int i = 0; i < 6; ++i) pods.push_back({"p-a" + std::to_string(i), "node-a", kFoo});
         for (int i = 0; i < 3; ++i) pods.push_back({"p-b" + std::to_string(i), "node-b", kFoo});
         pods.push_back({"p-y0", "node-y", kFoo});
         return pods;
       }(),
       {0, 54, 100, 81}},
      // Pods 1/0/2/1; zone weight log(4) = 1.3863 (zone1 1, zone2 3), node weight log(6):
      // a 1.386+1.792 = 3.18 -> 3, b 1.39 -> 1, x 4.159+3.584 = 7.74 -> 8, y 4.159+1.792 = 5.95
      // -> 6; 100*(8+1-s)/8 = 75/100/12/37.
      {"two constraints on zone and node",
       with(labelled("p", kFoo), {soft(1, "zone", exists("foo")), soft(1, "node", exists("foo"))}),
       four_nodes(),
       {"node-a", "node-b", "node-x", "node-y"},
       {{"p-a1", "node-a", kFoo},
        {"p-x1", "node-x", kFoo},
        {"p-x2", "node-x", kFoo},
        {"p-y1", "node-y", kFoo}},
       {75, 100, 12, 37}},
      // node-z lacks "zone": ignored (0) and left out of the domain counts.
      {"two constraints, a node missing a topology label is ignored",
       with(labelled("p", kFoo), {soft(1, "zone", exists("foo")), soft(1, "node", exists("foo"))}),
       with_z,
       {"node-a", "node-b", "node-x", "node-y", "node-z"},
       {{"p-a1", "node-a", kFoo},
        {"p-x1", "node-x", kFoo},
        {"p-x2", "node-x", kFoo},
        {"p-y1", "node-y", kFoo},
        {"p-z1", "node-z", kFoo}},
       {75, 100, 12, 37, 0}},
      // maxSkew 3 adds 2 to every raw score: 6/3/0/1 -> 13/7/2/4 (12.75, 7.38, 2, 3.79);
      // 100*(13+2-s)/13 = 15/61/100/84.
      {"one constraint on node with maxSkew 3",
       with(labelled("p", kFoo), {soft(3, "node", exists("foo"))}),
       four_nodes(),
       {"node-a", "node-b", "node-x", "node-y"},
       [] {
         std::vector<Placed> pods;
         for (int i = 0; i < 6; ++i) pods.push_back({"p-a" + std::to_string(i), "node-a", kFoo});
         for (int i = 0; i < 3; ++i) pods.push_back({"p-b" + std::to_string(i), "node-b", kFoo});
         pods.push_back({"p-y0", "node-y", kFoo});
         return pods;
       }(),
       {15, 61, 100, 84}},
  });
}

// System defaulting: hostname maxSkew 3, zone maxSkew 5, with the owning ReplicaSet's selector.
TEST_CASE("PodTopologySpread system default constraints", "[plugins][spread]") {
  std::vector<Node> nodes{
      test::make_node("n1", {},
                      {{"kubernetes.io/hostname", "n1"}, {"topology.kubernetes.io/zone", "z1"}}),
      test::make_node("n2", {},
                      {{"kubernetes.io/hostname", "n2"}, {"topology.kubernetes.io/zone", "z1"}}),
      test::make_node("n3", {}, {{"kubernetes.io/hostname", "n3"}})};
  const Labels web{{"app", "web"}};
  Cluster c(nodes, {{"w1", "n1", web}, {"w2", "n1", web}, {"w3", "n3", web}});
  LabelSelector rs_selector;
  rs_selector.match_labels = web;
  c.env.cluster.set_replica_set_selectors({{"default/web-1", rs_selector}});
  Handle handle = c.env.handle();
  plugins::PodTopologySpread pl(handle);

  Pod owned = labelled("web-1-x", web);
  owned.metadata.owner_references.push_back(OwnerReference{"ReplicaSet", "web-1", "u", true});
  const PodInfo pod = c.env.compile(owned);

  CycleState state(1);
  PreFilterResult result;
  CHECK(pl.pre_filter(state, pod, result).code == Code::Skip);  // defaults are soft

  // Hostname: 3 scored nodes, log(5) = 1.6094; zone: z1 and "" (n3), log(4) = 1.3863, z1 = 2.
  // n1: 2*1.609+2 + 2*1.386+4 = 11.99 -> 12; n2: 2 + 6.77 = 8.77 -> 9; n3 (no zone label, not
  // ignored with system defaults): 1.609+2 = 3.61 -> 4. 100*(12+4-s)/12 = 33/58/100.
  std::vector<const NodeInfo*> filtered;
  for (const char* n : {"n1", "n2", "n3"}) filtered.push_back(c.env.cluster.find_node(n));
  REQUIRE(pl.pre_score(state, pod, filtered) == kOk);
  std::vector<std::int64_t> scores;
  for (const NodeInfo* n : filtered) scores.push_back(pl.score(state, pod, *n));
  CHECK(scores == std::vector<std::int64_t>{12, 9, 4});
  pl.normalize(state, pod, scores);
  CHECK(scores == std::vector<std::int64_t>{33, 58, 100});

  // No controller, or an unknown ReplicaSet: no default constraints, Score is skipped.
  CycleState plain_state(1);
  CHECK(pl.pre_score(plain_state, c.env.compile(labelled("solo", web)), filtered) == Code::Skip);
  Pod orphan = owned;
  orphan.metadata.owner_references.mut()[0].name = "gone";
  CycleState orphan_state(1);
  CHECK(pl.pre_score(orphan_state, c.env.compile(orphan), filtered) == Code::Skip);
}

// helper.DefaultSelector: the selectors of the Services in the pod's namespace that select it,
// merged, plus its controlling ReplicaSet's or StatefulSet's.
TEST_CASE("PodTopologySpread default selector from Services and StatefulSets",
          "[plugins][spread]") {
  std::vector<Node> nodes{test::make_node("n1", {}, {{"kubernetes.io/hostname", "n1"}})};
  Cluster c(nodes, {});
  LabelSelector set_selector;
  set_selector.match_labels = Labels{{"app", "llm"}};
  set_selector.match_expressions.push_back({"tier", SelectorOperator::Exists, {}});
  c.env.cluster.set_stateful_set_selectors({{"serving/llm", set_selector}});
  c.env.cluster.set_service_selectors(
      {{"serving", {Labels{{"app", "llm"}, {"port", "http"}}, Labels{{"app", "other"}}}},
       {"default", {Labels{{"app", "llm"}}}}});
  Handle handle = c.env.handle();
  plugins::PodTopologySpread pl(handle);
  auto selector_of = [&](const Pod& pod) -> std::optional<LabelSelector> {
    const std::vector<plugins::SpreadConstraint> constraints =
        pl.constraints_for(pod, "ScheduleAnyway");
    if (constraints.empty()) return std::nullopt;
    REQUIRE(constraints.size() == 2);  // the system defaults: hostname and zone
    CHECK(constraints[0].selector == constraints[1].selector);
    return constraints[0].selector;
  };

  const Labels labels{{"app", "llm"}, {"port", "http"}, {"tier", "gpu"}};
  Pod owned = labelled("llm-0", labels, "serving");
  owned.metadata.owner_references.push_back(OwnerReference{"StatefulSet", "llm", "u", true});
  // The Service selecting the pod (not the other one, nor the other namespace's), then the set.
  LabelSelector merged;
  merged.match_labels = Labels{{"app", "llm"}, {"port", "http"}};
  merged.match_expressions = set_selector.match_expressions;
  CHECK(selector_of(owned) == merged);

  // A bare pod a Service selects gets the Service's selector.
  LabelSelector service_only;
  service_only.match_labels = Labels{{"app", "llm"}, {"port", "http"}};
  CHECK(selector_of(labelled("solo", labels, "serving")) == service_only);

  // A StatefulSet's pod no Service selects: the set's selector alone.
  Pod unserved = labelled("llm-1", Labels{{"app", "llm"}, {"tier", "gpu"}}, "serving");
  unserved.metadata.owner_references.push_back(OwnerReference{"StatefulSet", "llm", "u", true});
  CHECK(selector_of(unserved) == set_selector);

  // Nothing selects it: no default constraints.
  CHECK_FALSE(selector_of(labelled("lone", Labels{{"app", "x"}}, "serving")));
  Pod job_pod = labelled("train-x", Labels{{"app", "x"}}, "serving");
  job_pod.metadata.owner_references.push_back(OwnerReference{"Job", "train", "j", true});
  CHECK_FALSE(selector_of(job_pod));
}

TEST_CASE("PodTopologySpread queueing hints", "[plugins][spread]") {
  Cluster c(four_nodes(), {{"p-a1", "node-a", kFoo}, {"q-a1", "node-a", {{"bar", ""}}}});
  Handle handle = c.env.handle();
  plugins::PodTopologySpread pl(handle);
  const PodInfo pod = c.env.compile(with(labelled("p", kFoo), {hard(1, "zone", exists("foo"))}));
  const ClusterEvent del{EventResource::Pod, action::kDelete, "AssignedPodDelete"};
  CHECK(pl.queueing_hint(del, pod, {nullptr, nullptr, c.env.cluster.find_pod("default", "p-a1")}) ==
        QueueingHint::Queue);
  CHECK(pl.queueing_hint(del, pod, {nullptr, nullptr, c.env.cluster.find_pod("default", "q-a1")}) ==
        QueueingHint::QueueSkip);

  const ClusterEvent add{EventResource::Node, action::kAdd, "NodeAdd"};
  NodeInfo& a = *c.env.cluster.find_node("node-a");
  CHECK(pl.queueing_hint(add, pod, {nullptr, &a, nullptr}) == QueueingHint::Queue);
  NodeInfo& bare = c.env.cluster.add_node(test::make_node("bare", {}, {}));
  CHECK(pl.queueing_hint(add, pod, {nullptr, &bare, nullptr}) == QueueingHint::QueueSkip);

  // A label update that changes the zone value requeues; one that does not, skips.
  const ClusterEvent label{EventResource::Node, action::kUpdateNodeLabel, "NodeLabelChange"};
  Node old_a = a.node;
  old_a.metadata.labels["zone"] = "zone9";
  CHECK(pl.queueing_hint(label, pod, {&old_a, &a, nullptr}) == QueueingHint::Queue);
  Node same_zone = a.node;
  same_zone.metadata.labels["other"] = "x";
  CHECK(pl.queueing_hint(label, pod, {&same_zone, &a, nullptr}) == QueueingHint::QueueSkip);
}

}  // namespace
}  // namespace gpusched
