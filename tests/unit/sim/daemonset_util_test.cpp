// What the DaemonSet controller writes into its pods
// (pkg/controller/daemon/util/daemonset_util_test.go).
#include "sim/daemonset_util.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace gpusched::sim {
namespace {

Toleration exists(const std::string& key, TaintEffect effect) {
  Toleration t;
  t.key = key;
  t.op = TolerationOperator::Exists;
  t.effect = effect;
  return t;
}

NodeSelectorTerm pin(const std::string& node) {
  NodeSelectorTerm term;
  term.match_fields.push_back({"metadata.name", SelectorOperator::In, {node}});
  return term;
}

const std::vector<Toleration> kDaemonTolerations = {
    exists("node.kubernetes.io/not-ready", TaintEffect::NoExecute),
    exists("node.kubernetes.io/unreachable", TaintEffect::NoExecute),
    exists("node.kubernetes.io/disk-pressure", TaintEffect::NoSchedule),
    exists("node.kubernetes.io/memory-pressure", TaintEffect::NoSchedule),
    exists("node.kubernetes.io/pid-pressure", TaintEffect::NoSchedule),
    exists("node.kubernetes.io/unschedulable", TaintEffect::NoSchedule),
};

TEST_CASE("AddOrUpdateDaemonPodTolerations", "[sim][daemonset]") {
  SECTION("appends the daemon tolerations in upstream's order") {
    PodSpec spec;
    spec.tolerations.push_back(exists("nvidia.com/gpu", TaintEffect::NoSchedule));
    add_or_update_daemon_pod_tolerations(spec);
    std::vector<Toleration> want = {exists("nvidia.com/gpu", TaintEffect::NoSchedule)};
    want.insert(want.end(), kDaemonTolerations.begin(), kDaemonTolerations.end());
    CHECK(spec.tolerations == want);
  }
  SECTION("replaces a matching toleration in place, dropping tolerationSeconds") {
    PodSpec spec;
    Toleration bounded = exists("node.kubernetes.io/unreachable", TaintEffect::NoExecute);
    bounded.toleration_seconds = 300;
    spec.tolerations = {bounded, exists("a", TaintEffect::NoSchedule)};
    add_or_update_daemon_pod_tolerations(spec);
    REQUIRE(spec.tolerations.size() == 7);
    CHECK(spec.tolerations[0] == kDaemonTolerations[1]);
    CHECK(spec.tolerations[1] == exists("a", TaintEffect::NoSchedule));
    CHECK(spec.tolerations[2] == kDaemonTolerations[0]);
  }
  SECTION("keeps every toleration when one matching already equals it") {
    PodSpec spec;
    Toleration bounded = exists("node.kubernetes.io/unreachable", TaintEffect::NoExecute);
    bounded.toleration_seconds = 300;
    spec.tolerations = {bounded, kDaemonTolerations[1]};
    add_or_update_daemon_pod_tolerations(spec);
    CHECK(spec.tolerations[0] == bounded);
    CHECK(spec.tolerations[1] == kDaemonTolerations[1]);
  }
  SECTION("a toleration with another operator or effect is no match") {
    PodSpec spec;
    Toleration equal = exists("node.kubernetes.io/not-ready", TaintEffect::NoExecute);
    equal.op = TolerationOperator::Equal;
    spec.tolerations = {equal, exists("node.kubernetes.io/not-ready", TaintEffect::NoSchedule)};
    add_or_update_daemon_pod_tolerations(spec);
    CHECK(spec.tolerations.size() == 8);
  }
  SECTION("is idempotent") {
    PodSpec spec;
    add_or_update_daemon_pod_tolerations(spec);
    add_or_update_daemon_pod_tolerations(spec);
    CHECK(spec.tolerations == kDaemonTolerations);
  }
}

TEST_CASE("CreatePodTemplate labels the revision and generation", "[sim][daemonset]") {
  PodTemplateSpec tmpl;
  tmpl.metadata.labels = {{"name", "plugin"}};
  const PodTemplateSpec out = create_pod_template(tmpl, 3, "7b9c8d6f4");
  CHECK(out.metadata.labels == Labels{{"controller-revision-hash", "7b9c8d6f4"},
                                      {"name", "plugin"},
                                      {"pod-template-generation", "3"}});
  CHECK(out.spec.tolerations == kDaemonTolerations);
}

TEST_CASE("ReplaceDaemonSetPodNodeNameNodeAffinity", "[sim][daemonset]") {
  // The cases of TestReplaceDaemonSetPodNodeNameNodeAffinity.
  NodeSelectorTerm gpu;
  gpu.match_expressions.push_back({"gpu", SelectorOperator::Exists, {}});
  NodeSelectorTerm other_node = pin("host_2");
  PreferredSchedulingTerm preferred{10, gpu};
  struct Row {
    const char* name;
    Affinity affinity;
    Affinity want;
  };
  auto with = [](std::optional<std::vector<NodeSelectorTerm>> required,
                 std::vector<PreferredSchedulingTerm> prefer = {}) {
    Affinity a;
    a.node_affinity = NodeAffinity{std::move(required), std::move(prefer)};
    return a;
  };
  Affinity pod_affinity;
  pod_affinity.pod_anti_affinity = PodAffinity{};
  Affinity pod_affinity_pinned = pod_affinity;
  pod_affinity_pinned.node_affinity = NodeAffinity{std::vector{pin("host_1")}, {}};
  const std::vector<Row> rows = {
      {"no affinity", Affinity{}, with(std::vector{pin("host_1")})},
      {"other affinity kept", pod_affinity, pod_affinity_pinned},
      {"preferred terms only", with(std::nullopt, {preferred}),
       with(std::vector{pin("host_1")}, {preferred})},
      {"required terms replaced by one pinning term", with(std::vector{gpu, other_node}),
       with(std::vector{pin("host_1")})},
      {"a term pinning the same node becomes exactly one", with(std::vector{pin("host_1"), gpu}),
       with(std::vector{pin("host_1")})},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      Affinity affinity = row.affinity;
      replace_daemon_set_pod_node_name_node_affinity(affinity, "host_1");
      CHECK(affinity == row.want);
    }
  }
}

TEST_CASE("GetTargetNodeName", "[sim][daemonset]") {
  Pod bound;
  bound.spec.node_name = "w1";
  bound.spec.affinity.mut().node_affinity = NodeAffinity{std::vector{pin("w2")}, {}};
  CHECK(target_node_name(bound) == "w1");

  Pod pinned;
  NodeSelectorTerm labels;
  labels.match_expressions.push_back({"gpu", SelectorOperator::Exists, {}});
  pinned.spec.affinity.mut().node_affinity = NodeAffinity{std::vector{labels, pin("w2")}, {}};
  CHECK(target_node_name(pinned) == "w2");

  Pod two_values;
  NodeSelectorTerm both;
  both.match_fields.push_back({"metadata.name", SelectorOperator::In, {"w1", "w2"}});
  two_values.spec.affinity.mut().node_affinity = NodeAffinity{std::vector{both}, {}};
  CHECK_FALSE(target_node_name(two_values));

  Pod not_in;
  NodeSelectorTerm excluded;
  excluded.match_fields.push_back({"metadata.name", SelectorOperator::NotIn, {"w1"}});
  not_in.spec.affinity.mut().node_affinity = NodeAffinity{std::vector{excluded}, {}};
  CHECK_FALSE(target_node_name(not_in));
  CHECK_FALSE(target_node_name(Pod{}));
}

}  // namespace
}  // namespace gpusched::sim
