// InterPodAffinity against upstream's
// pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go
// (TestRequiredAffinitySingleNode, TestRequiredAffinityMultipleNodes) and scoring_test.go
// (TestPreferredAffinity), Kubernetes 1.33. Expected values are upstream's, re-derived by hand.
#include "plugins/inter_pod_affinity.hpp"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "framework/string_pool.hpp"
#include "unit/plugins/plugin_test_support.hpp"

namespace gpusched {
namespace {

using Op = SelectorOperator;

LabelSelector sel(std::vector<SelectorRequirement> exprs) {
  LabelSelector s;
  s.match_expressions = std::move(exprs);
  return s;
}
SelectorRequirement req(std::string key, Op op, std::vector<std::string> values = {}) {
  return SelectorRequirement{std::move(key), op, std::move(values)};
}
PodAffinityTerm term(LabelSelector selector, std::string topology,
                     std::vector<std::string> namespaces = {},
                     std::optional<LabelSelector> ns_selector = std::nullopt) {
  PodAffinityTerm t;
  t.label_selector = std::move(selector);
  t.topology_key = std::move(topology);
  t.namespaces = std::move(namespaces);
  t.namespace_selector = std::move(ns_selector);
  return t;
}

/// A pod with labels and required (anti-)affinity terms (nullopt: no such affinity at all).
Pod pod_with(std::string name, Labels labels, std::optional<std::vector<PodAffinityTerm>> affinity,
             std::optional<std::vector<PodAffinityTerm>> anti, std::string ns = "default") {
  Pod p = test::make_pod(std::move(name));
  p.metadata.namespace_ = std::move(ns);
  p.metadata.labels = std::move(labels);
  if (affinity) p.spec.affinity.mut().pod_affinity = PodAffinity{*affinity, {}};
  if (anti) p.spec.affinity.mut().pod_anti_affinity = PodAffinity{*anti, {}};
  return p;
}

constexpr std::string_view kAffinity = "node(s) didn't match pod affinity rules";
constexpr std::string_view kAnti = "node(s) didn't match pod anti-affinity rules";
constexpr std::string_view kExisting = "node(s) didn't satisfy existing pods anti-affinity rules";

struct Outcome {
  Code code = Code::Success;
  std::string reason;  // empty on success
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

const Outcome kFits{};
const Outcome kSkip{Code::Skip, ""};  // PreFilter Skip: Filter does not run
const Outcome kUUAffinity{Code::UnschedulableAndUnresolvable, std::string(kAffinity)};
const Outcome kUAnti{Code::Unschedulable, std::string(kAnti)};
const Outcome kUExisting{Code::Unschedulable, std::string(kExisting)};

/// PreFilter then Filter on every node, in `nodes` order; kSkip when PreFilter skips.
std::vector<Outcome> run_filter(test::Env& env, const Pod& incoming,
                                const std::vector<std::string>& nodes) {
  Handle handle = env.handle();
  plugins::InterPodAffinity plugin(handle);
  plugin.set_slot(0);
  const PodInfo info = env.compile(incoming);
  CycleState state(1);
  PreFilterResult result;
  const Code pre = plugin.pre_filter(state, info, result).code;
  std::vector<Outcome> out;
  for (const std::string& name : nodes) {
    if (pre == Code::Skip) {
      out.push_back(kSkip);
      continue;
    }
    Reasons reasons;
    const Code code = plugin.filter(state, info, *env.cluster.find_node(name), reasons);
    out.push_back(
        Outcome{code, reasons.empty() ? std::string() : env.cluster.pool().str(reasons.front())});
  }
  return out;
}

struct SingleRow {
  std::string name;
  Pod pod;
  std::vector<std::pair<Pod, std::string>> pods;  // existing pods and their node
  Outcome want;
};

TEST_CASE("InterPodAffinity Filter: upstream TestRequiredAffinitySingleNode",
          "[plugins][affinity]") {
  const Labels pod_label{{"service", "securityscan"}};
  const Labels pod_label2{{"security", "S1"}};
  const Labels labels1{{"region", "r1"}, {"zone", "z11"}};
  const auto securityscan_in = sel({req("service", Op::In, {"securityscan", "value2"})});
  const std::vector<SingleRow> rows = {
      {"A pod that has no required pod affinity scheduling rules can schedule onto a node with "
       "no existing pods",
       pod_with("p", {}, std::nullopt, std::nullopt),
       {},
       kSkip},
      {"satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In "
       "operator that matches the existing pod",
       pod_with("p", pod_label2, std::vector{term(securityscan_in, "region")}, std::nullopt),
       {{pod_with("e", pod_label, std::nullopt, std::nullopt), "node1"}},
       kFits},
      {"satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity "
       "using not in operator in labelSelector that matches the existing pod",
       pod_with("p", pod_label2,
                std::vector{
                    term(sel({req("service", Op::NotIn, {"securityscan3", "value3"})}), "region")},
                std::nullopt),
       {{pod_with("e", pod_label, std::nullopt, std::nullopt), "node1"}},
       kFits},
      {"Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
       pod_with("p", pod_label2, std::vector{term(securityscan_in, "region", {"DiffNameSpace"})},
                std::nullopt),
       {{pod_with("e", pod_label, std::nullopt, std::nullopt, "ns"), "node1"}},
       kUUAffinity},
      {"Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing "
       "pod",
       pod_with(
           "p", pod_label,
           std::vector{term(sel({req("service", Op::In, {"antivirusscan", "value2"})}), "region")},
           std::nullopt),
       {{pod_with("e", pod_label, std::nullopt, std::nullopt), "node1"}},
       kUUAffinity},
      {"satisfies the PodAffinity with different label Operators in multiple "
       "RequiredDuringSchedulingIgnoredDuringExecution",
       pod_with("p", pod_label2,
                std::vector{
                    term(sel({req("service", Op::Exists), req("wrongkey", Op::DoesNotExist)}),
                         "region"),
                    term(sel({req("service", Op::In, {"securityscan"}),
                              req("service", Op::NotIn, {"WrongValue"})}),
                         "region")},
                std::nullopt),
       {{pod_with("e", pod_label, std::nullopt, std::nullopt), "node1"}},
       kFits},
      {"The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot "
       "schedule onto the node because one of the matchExpression item don't match.",
       pod_with("p", pod_label2,
                std::vector{
                    term(sel({req("service", Op::Exists), req("wrongkey", Op::DoesNotExist)}),
                         "region"),
                    term(sel({req("service", Op::In, {"securityscan2"}),
                              req("service", Op::NotIn, {"WrongValue"})}),
                         "region")},
                std::nullopt),
       {{pod_with("e", pod_label, std::nullopt, std::nullopt), "node1"}},
       kUUAffinity},
      {"satisfies the PodAffinity and PodAntiAffinity with the existing pod",
       pod_with("p", pod_label2, std::vector{term(securityscan_in, "region")},
                std::vector{
                    term(sel({req("service", Op::In, {"antivirusscan", "value2"})}), "node")}),
       {{pod_with("e", pod_label, std::nullopt, std::nullopt), "node1"}},
       kFits},
      {"satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the "
       "existing pod",
       pod_with("p", pod_label2, std::vector{term(securityscan_in, "region")},
                std::vector{
                    term(sel({req("service", Op::In, {"antivirusscan", "value2"})}), "node")}),
       {{pod_with("e", pod_label, std::nullopt,
                  std::vector{
                      term(sel({req("service", Op::In, {"antivirusscan", "value2"})}), "zone")}),
         "node1"}},
       kFits},
      {"satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
       pod_with("p", pod_label2, std::vector{term(securityscan_in, "region")},
                std::vector{term(securityscan_in, "zone")}),
       {{pod_with("e", pod_label, std::nullopt, std::nullopt), "node1"}},
       kUAnti},
      {"satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity "
       "symmetry with the existing pod",
       pod_with("p", pod_label, std::vector{term(securityscan_in, "region")},
                std::vector{
                    term(sel({req("service", Op::In, {"antivirusscan", "value2"})}), "node")}),
       {{pod_with("e", pod_label, std::nullopt, std::vector{term(securityscan_in, "zone")}),
         "node1"}},
       kUExisting},
      {"pod matches its own Label in PodAffinity and that matches the existing pod Labels",
       pod_with("p", pod_label,
                std::vector{
                    term(sel({req("service", Op::NotIn, {"securityscan", "value2"})}), "region")},
                std::nullopt),
       {{pod_with("e", pod_label, std::nullopt, std::nullopt), "node2"}},
       kUUAffinity},
      {"verify that PodAntiAffinity from existing pod is respected when pod has no "
       "AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
       pod_with("p", pod_label, std::nullopt, std::nullopt),
       {{pod_with("e", pod_label, std::nullopt, std::vector{term(securityscan_in, "zone")}),
         "node1"}},
       kUExisting},
      {"verify that PodAntiAffinity from existing pod is respected when pod has no "
       "AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod",
       pod_with("p", pod_label, std::nullopt, std::nullopt),
       {{pod_with("e", pod_label, std::nullopt,
                  std::vector{
                      term(sel({req("service", Op::NotIn, {"securityscan", "value2"})}), "zone")}),
         "node1"}},
       kSkip},
      {"satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity "
       "symmetry with incoming pod",
       pod_with("p", pod_label, std::nullopt,
                std::vector{term(sel({req("service", Op::Exists)}), "region"),
                            term(sel({req("security", Op::Exists)}), "region")}),
       {{pod_with("e", pod_label2, std::nullopt,
                  std::vector{term(sel({req("security", Op::Exists)}), "zone")}),
         "node1"}},
       kUAnti},
      {"PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each "
       "other on AffinityTerms",
       pod_with("p", pod_label, std::nullopt,
                std::vector{term(sel({req("service", Op::Exists)}), "zone"),
                            term(sel({req("security", Op::Exists)}), "zone")}),
       {{pod_with("e", pod_label2, std::nullopt,
                  std::vector{term(sel({req("security", Op::Exists)}), "zone")}),
         "node1"}},
       kUAnti},
      {"PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each "
       "other on AffinityTerms",
       pod_with("p", pod_label2, std::nullopt,
                std::vector{term(sel({req("security", Op::Exists)}), "zone")}),
       {{pod_with("e", pod_label, std::nullopt,
                  std::vector{term(sel({req("service", Op::Exists)}), "zone"),
                              term(sel({req("security", Op::Exists)}), "zone")}),
         "node1"}},
       kUExisting},
      {"PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each "
       "other on AffinityTerms",
       pod_with("p", {{"abc", ""}, {"xyz", ""}}, std::nullopt,
                std::vector{term(sel({req("abc", Op::Exists)}), "zone"),
                            term(sel({req("def", Op::Exists)}), "zone")}),
       {{pod_with("e", {{"def", ""}, {"xyz", ""}}, std::nullopt,
                  std::vector{term(sel({req("abc", Op::Exists)}), "zone"),
                              term(sel({req("def", Op::Exists)}), "zone")}),
         "node1"}},
       kUAnti},
      {"PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each "
       "other on AffinityTerms",
       pod_with("p", {{"def", ""}, {"xyz", ""}}, std::nullopt,
                std::vector{term(sel({req("abc", Op::Exists)}), "zone"),
                            term(sel({req("def", Op::Exists)}), "zone")}),
       {{pod_with("e", {{"abc", ""}, {"xyz", ""}}, std::nullopt,
                  std::vector{term(sel({req("abc", Op::Exists)}), "zone"),
                              term(sel({req("def", Op::Exists)}), "zone")}),
         "node1"}},
       kUAnti},
      {"A pod with affinity to itself can be the first of its series: no pod matches anywhere",
       pod_with("p", pod_label, std::vector{term(securityscan_in, "region")}, std::nullopt),
       {},
       kFits},
      {"The first pod of a series still needs every topology key on the node",
       pod_with("p", pod_label, std::vector{term(securityscan_in, "rack")}, std::nullopt),
       {},
       kUUAffinity},
      {"affinity with namespaceSelector matching the existing pod's namespace",
       pod_with("p", pod_label2,
                std::vector{
                    term(securityscan_in, "region", {}, sel({req("team", Op::In, {"team1"})}))},
                std::nullopt),
       {{pod_with("e", pod_label, std::nullopt, std::nullopt, "subteam"), "node1"}},
       kFits},
      {"affinity with namespaceSelector not matching the existing pod's namespace",
       pod_with("p", pod_label2,
                std::vector{
                    term(securityscan_in, "region", {}, sel({req("team", Op::In, {"team2"})}))},
                std::nullopt),
       {{pod_with("e", pod_label, std::nullopt, std::nullopt, "subteam"), "node1"}},
       kUUAffinity},
      {"anti-affinity with an empty namespaceSelector selects every namespace",
       pod_with("p", pod_label2, std::nullopt,
                std::vector{term(securityscan_in, "region", {}, LabelSelector{})}),
       {{pod_with("e", pod_label, std::nullopt, std::nullopt, "subteam"), "node1"}},
       kUAnti},
      {"existing pod's anti-affinity with namespaceSelector selecting the incoming namespace",
       pod_with("p", pod_label, std::nullopt, std::nullopt, "subteam"),
       {{pod_with("e", pod_label2, std::nullopt,
                  std::vector{
                      term(securityscan_in, "zone", {}, sel({req("team", Op::In, {"team1"})}))}),
         "node1"}},
       kUExisting},
      {"undeclared namespaces carry kubernetes.io/metadata.name",
       pod_with("p", pod_label2, std::nullopt,
                std::vector{term(securityscan_in, "region", {},
                                 sel({req("kubernetes.io/metadata.name", Op::In, {"other"})}))}),
       {{pod_with("e", pod_label, std::nullopt, std::nullopt, "other"), "node1"}},
       kUAnti},
  };
  for (const SingleRow& row : rows) {
    SECTION(row.name) {
      test::Env env;
      env.cluster.add_node(test::make_node("node1", {}, labels1));
      ObjectMeta subteam;
      subteam.name = "subteam";
      subteam.labels = {{"team", "team1"}, {"kubernetes.io/metadata.name", "subteam"}};
      env.cluster.apply_namespace(subteam);
      for (const auto& [p, node] : row.pods) env.add_bound(p, node);
      CHECK(run_filter(env, row.pod, {"node1"}) == std::vector{row.want});
    }
  }
}

struct MultiRow {
  std::string name;
  Pod pod;
  std::vector<std::pair<Pod, std::string>> pods;
  std::vector<std::pair<std::string, Labels>> nodes;
  std::vector<Outcome> want;
};

TEST_CASE("InterPodAffinity Filter: upstream TestRequiredAffinityMultipleNodes",
          "[plugins][affinity]") {
  const Labels pod_label_a{{"foo", "bar"}};
  const Labels labels_r1{{"region", "r1"}, {"zone", "z11"}, {"hostname", "h1"}};
  const Labels labels_r1_b{{"region", "r1"}, {"zone", "z12"}, {"hostname", "h2"}};
  const Labels labels_r2{{"region", "r2"}, {"zone", "z21"}, {"hostname", "h3"}};
  const auto foo_bar = sel({req("foo", Op::In, {"bar"})});
  const std::vector<MultiRow> rows = {
      {"A pod can be scheduled onto all the nodes that have the same topology key & label value "
       "with one of them has an existing pod that matches the affinity rules",
       pod_with("p", {}, std::vector{term(foo_bar, "region")}, std::nullopt),
       {{pod_with("e", pod_label_a, std::nullopt, std::nullopt), "machine1"}},
       {{"machine1", labels_r1}, {"machine2", labels_r1_b}, {"machine3", labels_r2}},
       {kFits, kFits, kUUAffinity}},
      {"The affinity rule is to schedule all of the pods of this collection to the same zone. "
       "The first pod of the collection should not be blocked from being scheduled onto any "
       "node, even there's no existing pod that matches the rule anywhere.",
       pod_with("p", pod_label_a, std::vector{term(foo_bar, "zone")}, std::nullopt),
       {},
       {{"machine1", labels_r1}, {"machine2", labels_r1_b}},
       {kFits, kFits}},
      {"The first pod of a collection is blocked once another pod matches anywhere",
       pod_with("p", pod_label_a, std::vector{term(foo_bar, "zone")}, std::nullopt),
       {{pod_with("e", pod_label_a, std::nullopt, std::nullopt), "machine1"}},
       {{"machine1", labels_r1}, {"machine2", labels_r1_b}},
       {kFits, kUUAffinity}},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that "
       "matches the inter pod anti-affinity rule. The pod can not be scheduled onto nodeA and "
       "nodeB.",
       pod_with("p", {}, std::nullopt, std::vector{term(foo_bar, "region")}),
       {{pod_with("e", pod_label_a, std::nullopt, std::nullopt), "machine1"}},
       {{"machine1", labels_r1}, {"machine2", labels_r1_b}, {"machine3", labels_r2}},
       {kUAnti, kUAnti, kFits}},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod whose "
       "anti-affinity matches the incoming pod. The pod can not be scheduled onto nodeA and "
       "nodeB but can be scheduled onto nodeC",
       pod_with("p", pod_label_a, std::nullopt, std::nullopt),
       {{pod_with("e", {}, std::nullopt, std::vector{term(foo_bar, "region")}), "machine1"}},
       {{"machine1", labels_r1}, {"machine2", labels_r1_b}, {"machine3", labels_r2}},
       {kUExisting, kUExisting, kFits}},
      {"Anti-affinity on hostname spreads one pod per node",
       pod_with("p", pod_label_a, std::nullopt, std::vector{term(foo_bar, "hostname")}),
       {{pod_with("e", pod_label_a, std::nullopt, std::vector{term(foo_bar, "hostname")}),
         "machine1"}},
       {{"machine1", labels_r1}, {"machine2", labels_r1_b}},
       {kUAnti, kFits}},
      {"Nodes without the anti-affinity topology key are not constrained by it",
       pod_with("p", {}, std::nullopt, std::vector{term(foo_bar, "region")}),
       {{pod_with("e", pod_label_a, std::nullopt, std::nullopt), "machine1"}},
       {{"machine1", labels_r1}, {"machine4", {{"zone", "z11"}}}},
       {kUAnti, kFits}},
  };
  for (const MultiRow& row : rows) {
    SECTION(row.name) {
      test::Env env;
      std::vector<std::string> names;
      for (const auto& [name, labels] : row.nodes) {
        env.cluster.add_node(test::make_node(name, {}, labels));
        names.push_back(name);
      }
      for (const auto& [p, node] : row.pods) env.add_bound(p, node);
      CHECK(run_filter(env, row.pod, names) == row.want);
    }
  }
}

TEST_CASE("InterPodAffinity AddPod / RemovePod update the PreFilter counts",
          "[plugins][affinity]") {
  test::Env env;
  const Labels app{{"app", "web"}};
  env.cluster.add_node(test::make_node("n1", {}, {{"hostname", "n1"}}));
  env.cluster.add_node(test::make_node("n2", {}, {{"hostname", "n2"}}));
  PodInfo& existing =
      env.add_bound(pod_with("e", app, std::nullopt,
                             std::vector{term(sel({req("app", Op::In, {"web"})}), "hostname")}),
                    "n1");
  Handle handle = env.handle();
  plugins::InterPodAffinity plugin(handle);
  plugin.set_slot(0);
  const PodInfo info = env.compile(pod_with("p", app, std::nullopt, std::nullopt));
  CycleState state(1);
  PreFilterResult result;
  REQUIRE(plugin.pre_filter(state, info, result).code == Code::Success);
  NodeInfo& n1 = *env.cluster.find_node("n1");
  NodeInfo& n2 = *env.cluster.find_node("n2");
  Reasons reasons;
  CHECK(plugin.filter(state, info, n1, reasons) == Code::Unschedulable);
  CHECK(env.text(reasons) == std::vector<std::string>{std::string(kExisting)});
  // A preemption dry-run removes the existing pod: the node fits in the copy only.
  CycleState copy = state;
  plugin.remove_pod(copy, info, existing, n1);
  reasons.clear();
  CHECK(plugin.filter(copy, info, n1, reasons) == Code::Success);
  // Adding it to n2 blocks n2 in the copy.
  plugin.add_pod(copy, info, existing, n2);
  CHECK(plugin.filter(copy, info, n2, reasons) == Code::Unschedulable);
  reasons.clear();
  CHECK(plugin.filter(state, info, n2, reasons) == Code::Success);
}

struct ScoreRow {
  std::string name;
  Pod pod;
  std::vector<std::pair<Pod, std::string>> pods;
  std::vector<std::pair<std::string, Labels>> nodes;
  std::vector<std::int64_t> want;  // empty: PreScore Skip
};

Pod preferred_pod(std::string name, Labels labels, std::vector<WeightedPodAffinityTerm> affinity,
                  std::vector<WeightedPodAffinityTerm> anti) {
  Pod p = test::make_pod(std::move(name));
  p.metadata.labels = std::move(labels);
  if (!affinity.empty()) p.spec.affinity.mut().pod_affinity = PodAffinity{{}, std::move(affinity)};
  if (!anti.empty()) p.spec.affinity.mut().pod_anti_affinity = PodAffinity{{}, std::move(anti)};
  return p;
}

TEST_CASE("InterPodAffinity Score: upstream TestPreferredAffinity", "[plugins][affinity]") {
  const Labels s1{{"security", "S1"}};
  const Labels s2{{"security", "S2"}};
  const Labels china{{"region", "China"}};
  const Labels china_az1{{"region", "China"}, {"az", "az1"}};
  const Labels india{{"region", "India"}};
  const Labels az1{{"az", "az1"}};
  const Labels az2{{"az", "az2"}};
  const auto s1_in = sel({req("security", Op::In, {"S1"})});
  const auto s2_in = sel({req("security", Op::In, {"S2"})});
  const std::vector<WeightedPodAffinityTerm> stay_with_s1_in_region{{5, term(s1_in, "region")}};
  const std::vector<WeightedPodAffinityTerm> stay_with_s2_in_region{{6, term(s2_in, "region")}};
  const std::vector<WeightedPodAffinityTerm> away_from_s1_in_az{{5, term(s1_in, "az")}};
  const std::vector<WeightedPodAffinityTerm> away_from_s2_in_az{{5, term(s2_in, "az")}};
  const std::vector<ScoreRow> rows = {
      {"all nodes have same score when there are no existing pods: PreScore skips",
       preferred_pod("p", s1, stay_with_s1_in_region, {}),
       {},
       {{"node1", china}, {"node2", india}, {"node3", az1}},
       {}},
      {"Affinity: pod that matches topology key & pods in nodes will get high score comparing "
       "to others which doesn't match either pods in nodes or in topology key",
       preferred_pod("p", s1, stay_with_s1_in_region, {}),
       {{test::make_pod("e1"), "node1"},
        {test::make_pod("e2"), "node2"},
        {test::make_pod("e3"), "node3"}},
       {{"node1", china}, {"node2", india}, {"node3", az1}},
       {100, 0, 0}},
      {"Affinity: all the nodes in the same region as a matching pod get the same score",
       preferred_pod("p", {}, stay_with_s1_in_region, {}),
       {{test::make_pod("e1"), "node1"}},
       {{"node1", china}, {"node2", china_az1}, {"node3", india}},
       {100, 100, 0}},
      {"Affinity: nodes in one region has more matching pods comparing to other region, so the "
       "region which has more matches will get high score",
       preferred_pod("p", {}, {{5, term(s1_in, "region")}, {6, term(s2_in, "region")}}, {}),
       {{test::make_pod("e1"), "node1"},
        {test::make_pod("e2"), "node1"},
        {test::make_pod("e3"), "node2"},
        {test::make_pod("e4"), "node3"}},
       {{"node1", china}, {"node2", china_az1}, {"node3", india}},
       // China: S1 (5) + S1 (5) + S2 (6) = 16; India: S1 = 5 -> (5-5)/(16-5).
       {100, 100, 0}},
      {"Anti Affinity: pod that does not match existing pods in node will get high score",
       preferred_pod("p", {}, {}, away_from_s1_in_az),
       {{test::make_pod("e1"), "node1"}, {test::make_pod("e2"), "node2"}},
       {{"node1", az1}, {"node2", az2}},
       {0, 100}},
      {"Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to "
       "schedule and existing pods have the same labels",
       preferred_pod("p", {}, stay_with_s1_in_region, away_from_s1_in_az),
       {{test::make_pod("e1"), "node1"}, {test::make_pod("e2"), "node2"}},
       {{"node1", china_az1}, {"node2", india}},
       // node1: +5 (region China) - 5 (az az1) = 0; node2: 0 + nothing = 0 -> all equal.
       {0, 0}},
      {"Affinity symmetry: considered RequiredDuringScheduling in pod affinity symmetry",
       preferred_pod("p", s1, {}, {}),
       {{pod_with("e1", {}, std::vector{term(s1_in, "region")}, std::nullopt), "node1"},
        {test::make_pod("e2"), "node2"}},
       {{"node1", china}, {"node2", india}},
       {100, 0}},
      {"Affinity symmetry: considered preferred pod affinity and anti-affinity of existing pods",
       preferred_pod("p", s1, {}, {}),
       {{preferred_pod("e1", {}, stay_with_s1_in_region, {}), "node1"},
        {preferred_pod("e2", {}, {}, away_from_s1_in_az), "node2"}},
       {{"node1", china}, {"node2", az1}, {"node3", india}},
       // node1 +5, node2 -5, node3 0 -> (x+5)*100/10.
       {100, 0, 50}},
  };
  // The existing pods' labels: e1/e3 S1, e2/e4 S2 except where a row builds its own.
  for (const ScoreRow& row : rows) {
    SECTION(row.name) {
      test::Env env;
      std::vector<const NodeInfo*> nodes;
      for (const auto& [name, labels] : row.nodes) {
        nodes.push_back(&env.cluster.add_node(test::make_node(name, {}, labels)));
      }
      for (auto [p, node] : row.pods) {
        if (p.metadata.labels.empty()) {
          const bool odd = p.metadata.name == "e1" || p.metadata.name == "e3";
          p.metadata.labels = odd ? s1 : s2;
          if (row.name.starts_with("Affinity: nodes in one region") && p.metadata.name == "e2") {
            p.metadata.labels = s1;  // two S1 pods and one S2 pod in China
          }
          if (row.name.starts_with("Affinity: nodes in one region") && p.metadata.name == "e3") {
            p.metadata.labels = s2;
          }
          if (row.name.starts_with("Affinity: nodes in one region") && p.metadata.name == "e4") {
            p.metadata.labels = s1;
          }
        }
        env.add_bound(p, node);
      }
      Handle handle = env.handle();
      plugins::InterPodAffinity plugin(handle);
      plugin.set_slot(0);
      const PodInfo info = env.compile(row.pod);
      CycleState state(1);
      const Code pre = plugin.pre_score(state, info, nodes);
      if (row.want.empty()) {
        CHECK(pre == Code::Skip);
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

TEST_CASE("InterPodAffinity queueing hints", "[plugins][affinity]") {
  test::Env env;
  Handle handle = env.handle();
  plugins::InterPodAffinity plugin(handle);
  const auto web = sel({req("app", Op::In, {"web"})});
  const PodInfo pending = env.compile(
      pod_with("p", {}, std::vector{term(web, "zone")}, std::vector{term(web, "rack")}));
  PodInfo deleted = env.compile(pod_with("d", {{"app", "web"}}, std::nullopt, std::nullopt));
  deleted.pod.spec.node_name = "n1";
  const ClusterEvent del{EventResource::Pod, action::kDelete, "AssignedPodDelete"};
  CHECK(plugin.queueing_hint(del, pending, EventObjects{nullptr, nullptr, &deleted}) ==
        QueueingHint::Queue);
  PodInfo other = env.compile(pod_with("o", {{"app", "db"}}, std::nullopt, std::nullopt));
  other.pod.spec.node_name = "n1";
  CHECK(plugin.queueing_hint(del, pending, EventObjects{nullptr, nullptr, &other}) ==
        QueueingHint::QueueSkip);
  NodeInfo& with_zone = env.cluster.add_node(test::make_node("n1", {}, {{"zone", "a"}}));
  NodeInfo& bare = env.cluster.add_node(test::make_node("n2", {}, {{"x", "y"}}));
  const ClusterEvent add{EventResource::Node, action::kAdd, "NodeAdd"};
  CHECK(plugin.queueing_hint(add, pending, EventObjects{nullptr, &with_zone, nullptr}) ==
        QueueingHint::Queue);
  CHECK(plugin.queueing_hint(add, pending, EventObjects{nullptr, &bare, nullptr}) ==
        QueueingHint::QueueSkip);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST_CASE("ClusterState counts pods with pod affinity and keeps namespaces",
          "[plugins][affinity]") {
  test::Env env;
  NodeInfo& n1 = env.cluster.add_node(test::make_node("n1"));
  const auto any = sel({req("app", Op::Exists)});
  PodInfo& anti = env.add_bound(pod_with("a", {}, std::nullopt, std::vector{term(any, "z")}), "n1");
  env.add_bound(pod_with("b", {}, std::vector{term(any, "z")}, std::nullopt), "n1");
  env.add_bound(pod_with("c", {}, std::nullopt, std::nullopt), "n1");
  CHECK(env.cluster.pods_with_affinity() == 2);
  CHECK(env.cluster.pods_with_required_anti_affinity() == 1);
  env.cluster.remove_pod(anti);
  CHECK(env.cluster.pods_with_affinity() == 1);
  CHECK(env.cluster.pods_with_required_anti_affinity() == 0);
  env.cluster.remove_node(n1);
  CHECK(env.cluster.pods_with_affinity() == 0);

  CHECK(env.cluster.namespace_labels("team") == Labels{{"kubernetes.io/metadata.name", "team"}});
  ObjectMeta meta;
  meta.name = "team";
  meta.labels = {{"tier", "gold"}};
  env.cluster.apply_namespace(meta);
  CHECK(env.cluster.namespace_labels("team") == Labels{{"tier", "gold"}});
  CHECK(env.cluster.remove_namespace("team"));
  CHECK_FALSE(env.cluster.remove_namespace("team"));
  CHECK(env.cluster.find_namespace("team") == nullptr);
}

}  // namespace
}  // namespace gpusched
