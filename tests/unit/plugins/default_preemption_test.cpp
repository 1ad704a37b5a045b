// DefaultPreemption against upstream's
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go: TestPostFilter,
// TestDryRunPreemption, TestSelectBestCandidate, TestPodEligibleToPreemptOthers and TestPreempt.
// Rows that need pod (anti-)affinity, topology spread, extenders, pod groups, injected PreFilter
// errors, fake filter plugins with call counts or PDB DisruptedPods are left out (see the notes at
// each table); rows whose outcome upstream leaves to Go map order assert only what upstream
// asserts.
//
// Units: st.MakePod().Req(...) quantities are cpu milli-cores and memory bytes; StartTime
// time.Unix(0, n) becomes start_ms = n (only the order matters).
#include "plugins/default_preemption.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <climits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/cycle_state.hpp"
#include "gpusched/framework/diagnosis.hpp"
#include "gpusched/framework/rng.hpp"
#include "plugins/registry.hpp"
#include "unit/plugins/plugin_test_support.hpp"

namespace gpusched {
namespace {

constexpr std::int32_t kNegPriority = -100;
constexpr std::int32_t kLowPriority = 0;
constexpr std::int32_t kMidPriority = 100;
constexpr std::int32_t kHighPriority = 1000;
constexpr std::int32_t kVeryHighPriority = 10000;

ResourceList small_res() {
  return test::res(100, 100);
}
ResourceList medium_res() {
  return test::res(200, 200);
}
ResourceList large_res() {
  return test::res(300, 300);
}
ResourceList very_large_res() {
  return test::res(500, 500);
}
// TestPostFilter's onePodRes and nodeRes.
ResourceList one_pod_res() {
  return {{"pods", test::units(1)}};
}
ResourceList node_res() {
  return test::res(200, 400);
}

/// st.MakeNode().Name(name).Capacity(capacity): "pods" is 32 unless the capacity names it.
Node make_node(const std::string& name, ResourceList capacity = {}, Labels labels = {}) {
  capacity.try_emplace("pods", test::units(32));
  return test::make_node(name, std::move(capacity), std::move(labels));
}

/// st.MakePod(), with the setters the tables use.
class P {
 public:
  explicit P(std::string name) : pod_(test::make_pod(std::move(name))) {}
  P& ns(std::string n) {
    pod_.metadata.namespace_ = std::move(n);
    return *this;
  }
  P& node(std::string n) {
    pod_.spec.node_name = std::move(n);
    return *this;
  }
  P& priority(std::int32_t p) {
    pod_.spec.priority = p;
    return *this;
  }
  P& req(ResourceList requests) {
    pod_.spec.containers.push_back(test::container(std::move(requests)));
    return *this;
  }
  P& start(std::int64_t t) {
    pod_.status.start_ms = t;
    return *this;
  }
  P& label(std::string k, std::string v) {
    pod_.metadata.labels[std::move(k)] = std::move(v);
    return *this;
  }
  P& nominated(std::string n) {
    pod_.status.nominated_node_name = std::move(n);
    return *this;
  }
  P& preemption_policy(std::string policy) {
    pod_.spec.preemption_policy = std::move(policy);
    return *this;
  }
  /// Terminating(): a deletionTimestamp.
  P& terminating() {
    pod_.metadata.deletion_ms = 1;
    return *this;
  }
  P& condition(std::string type, std::string status, std::string reason) {
    pod_.status.conditions.push_back(
        PodCondition{std::move(type), std::move(status), std::move(reason), {}, 0});
    return *this;
  }
  operator Pod() const { return pod_; }  // NOLINT(google-explicit-constructor)

 private:
  Pod pod_;
};

/// A PDB as the scheduler reads it: namespace, matchLabels, status.disruptionsAllowed.
BudgetInfo pdb(std::string key, std::string value, std::int32_t disruptions_allowed,
               std::string ns = "default") {
  LabelSelector selector;
  selector.match_labels[std::move(key)] = std::move(value);
  return BudgetInfo{std::move(ns), std::move(selector), disruptions_allowed};
}

/// What Evaluator.prepareCandidate would evict.
class RecordingSink final : public PreemptionSink {
 public:
  struct Call {
    std::string preemptor;
    std::string node;
    std::vector<std::string> victims;
  };
  void preempt(const PodInfo& preemptor, const NodeInfo& node,
               const std::vector<PodInfo*>& victims) override {
    Call call{preemptor.pod.metadata.name, node.node.metadata.name, {}};
    for (const PodInfo* v : victims) call.victims.push_back(v->pod.metadata.name);
    calls.push_back(std::move(call));
  }
  std::vector<Call> calls;
};

/// A cluster, the default profile's framework over it, and its DefaultPreemption plugin.
struct Harness {
  explicit Harness(KubernetesVersion version = {}, DefaultPreemptionArgs args = {}) {
    config.kubernetes_version = version;
    profile.default_preemption = args;
    framework = std::make_unique<Framework>(
        profile, Handle{cluster, rng, version, config, sink, nullptr}, plugins::in_tree_registry());
    plugin = dynamic_cast<plugins::DefaultPreemption*>(framework->find("DefaultPreemption"));
    REQUIRE(plugin != nullptr);
  }

  /// internalcache.NewSnapshot(pods, nodes): bound pods hold their nodes.
  void add(const std::vector<Node>& nodes, const std::vector<Pod>& pods,
           const std::vector<BudgetInfo>& pdbs = {}) {
    for (const Node& n : nodes) cluster.add_node(n);
    for (Pod p : pods) {
      p.status.phase = PodPhase::Running;
      cluster.add_pod(std::move(p));
    }
    cluster.set_budgets(pdbs);
  }

  /// The pending preemptor (in the informer, not in the snapshot).
  PodInfo& add_preemptor(const Pod& pod) { return cluster.add_pod(pod); }

  /// RunPreFilterPlugins, which the tables run to populate the CycleState.
  CycleState pre_filter(const PodInfo& pod) {
    CycleState state(framework->num_plugins());
    PreFilterResult result;
    std::vector<std::string> narrowing;
    REQUIRE(framework->run_pre_filter(state, pod, result, narrowing).ok());
    return state;
  }

  /// framework.NewNodeToStatus(statuses, NewStatus(UnschedulableAndUnresolvable)); a status
  /// without reasons, as the tables write them.
  Diagnosis diagnosis(const std::vector<std::pair<std::string, Code>>& statuses) {
    Diagnosis d;
    for (const auto& [name, code] : statuses) {
      const NodeInfo* node = cluster.find_node(name);
      REQUIRE(node != nullptr);
      d.add(*node, Status{code, {}, {}});
    }
    d.absent = Status{Code::UnschedulableAndUnresolvable, {}, {}};
    return d;
  }

  /// Every node, sorted by name (TestDryRunPreemption sorts its NodeInfos).
  std::vector<const NodeInfo*> nodes_by_name() {
    std::vector<const NodeInfo*> out(cluster.node_list().begin(), cluster.node_list().end());
    std::sort(out.begin(), out.end(), [](const NodeInfo* a, const NodeInfo* b) {
      return a->node.metadata.name < b->node.metadata.name;
    });
    return out;
  }

  ClusterState cluster;
  Rng rng{1};
  SchedulerConfig config;
  RecordingSink sink;
  Profile profile;
  std::unique_ptr<Framework> framework;
  plugins::DefaultPreemption* plugin = nullptr;
};

const std::vector<KubernetesVersion> kVersions = {{33, -1}, {34, -1}, {35, -1}};

std::string version_name(const KubernetesVersion& v) {
  return "1." + std::to_string(v.minor);
}

// --------------------------------------------------------------------------------------------
// TestPostFilter. Left out: "preemption result filtered out by extenders" (extenders), "only one
// node but failed with TestPlugin" and "one failed with TestPlugin and the other pass" (a
// PreFilter extension that errors; adapted versions are below), and the pod-group rows
// (SchedulingGroup / topology-aware workload scheduling, not in 1.33-1.35).

struct PostFilterRow {
  std::string name;
  Pod pod;
  std::vector<Pod> pods;
  std::vector<BudgetInfo> pdbs;
  std::vector<Node> nodes;
  std::vector<std::pair<std::string, Code>> statuses;  // absent nodes: UnschedulableAndUnresolvable
  std::optional<std::string> want_nominated;           // nullopt: a nil PostFilterResult
  Code want_code;
  std::string want_message;
};

const std::string kViolatingKey = "test.kubernetes.io/is-violating-pdb";

std::vector<PostFilterRow> post_filter_rows() {
  const Code U = Code::Unschedulable;
  const Code UU = Code::UnschedulableAndUnresolvable;
  return {
      {"pod with higher priority can be made schedulable",
       P("p").priority(kHighPriority),
       {P("p1").node("node1")},
       {},
       {make_node("node1", one_pod_res())},
       {{"node1", U}},
       "node1",
       Code::Success,
       ""},
      {"pod with tied priority is still unschedulable",
       P("p"),
       {P("p1").node("node1")},
       {},
       {make_node("node1", one_pod_res())},
       {{"node1", U}},
       "",
       Code::Unschedulable,
       "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."},
      {"preemption should respect filteredNodesStatuses",
       P("p").priority(kHighPriority),
       {P("p1").node("node1")},
       {},
       {make_node("node1", one_pod_res())},
       {{"node1", UU}},
       "",
       Code::Unschedulable,
       "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
      {"preemption should respect absent NodeToStatusReader entry meaning "
       "UnschedulableAndUnresolvable",
       P("p").priority(kHighPriority),
       {P("p1").node("node1")},
       {},
       {make_node("node1", one_pod_res())},
       {},
       "",
       Code::Unschedulable,
       "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
      {"pod can be made schedulable on one node",
       P("p").priority(kMidPriority),
       {P("p1").priority(kHighPriority).node("node1"),
        P("p2").priority(kLowPriority).node("node2")},
       {},
       {make_node("node1", one_pod_res()), make_node("node2", one_pod_res())},
       {{"node1", U}, {"node2", U}},
       "node2",
       Code::Success,
       ""},
      {"pod can be made schedulable on minHighestPriority node",
       P("p").priority(kVeryHighPriority),
       {P("p1").label(kViolatingKey, "non-violating").priority(kHighPriority).node("node1"),
        P("p2").label(kViolatingKey, "violating").priority(kLowPriority).node("node1"),
        P("p3").label(kViolatingKey, "violating").priority(kMidPriority).node("node2")},
       // violating-pdb: minAvailable 100%, disruptionsAllowed 0; non-violating-pdb:
       // disruptionsAllowed MaxInt32.
       {pdb(kViolatingKey, "violating", 0), pdb(kViolatingKey, "non-violating", INT32_MAX)},
       {make_node("node1", one_pod_res()), make_node("node2", one_pod_res())},
       {{"node1", U}, {"node2", U}},
       "node2",
       Code::Success,
       ""},
      {"no candidate nodes found, no enough resource after removing low priority pods",
       P("p").priority(kHighPriority).req(large_res()),
       {P("p1").node("node1"), P("p2").node("node2")},
       {},
       {make_node("node1", node_res()), make_node("node2", node_res())},
       {{"node1", U}, {"node2", U}},
       "",
       Code::Unschedulable,
       "preemption: 0/2 nodes are available: 2 Insufficient cpu."},
      {"no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU "
       "resource",
       P("p").priority(kHighPriority).req(large_res()),
       {P("p1").node("node1").priority(kHighPriority), P("p2").node("node2"),
        P("p3").node("node3").priority(kHighPriority)},
       {},
       {make_node("node1", one_pod_res()), make_node("node2", node_res()),
        make_node("node3", one_pod_res())},
       {{"node1", U}, {"node2", U}, {"node3", U}},
       "",
       Code::Unschedulable,
       "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found "
       "for incoming pod."},
      {"no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2 "
       "nodes don't have enough CPU resource",
       P("p").priority(kHighPriority).req(large_res()),
       {P("p1").node("node1"), P("p2").node("node2")},
       {},
       {make_node("node1", node_res()), make_node("node2", node_res()),
        make_node("node3", node_res()), make_node("node4", node_res())},
       {{"node1", U}, {"node2", U}, {"node4", UU}},
       "",
       Code::Unschedulable,
       "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for "
       "scheduling."},
  };
}

void check_post_filter(const PostFilterRow& row, const KubernetesVersion& version) {
  Harness h(version);
  h.add(row.nodes, row.pods, row.pdbs);
  PodInfo& pod = h.add_preemptor(row.pod);
  CycleState state = h.pre_filter(pod);
  const PostFilterResult got = h.plugin->post_filter(state, pod, h.diagnosis(row.statuses));
  CHECK(got.code == row.want_code);
  CHECK(got.message == row.want_message);
  CHECK(got.nominated_node == row.want_nominated);
  // A success evicts on the nominated node, and only then.
  if (row.want_code == Code::Success) {
    REQUIRE(h.sink.calls.size() == 1);
    CHECK(h.sink.calls.front().node == row.want_nominated.value_or(""));
    CHECK(h.sink.calls.front().preemptor == row.pod.metadata.name);
  } else {
    CHECK(h.sink.calls.empty());
  }
}

TEST_CASE("DefaultPreemption: TestPostFilter", "[preemption]") {
  for (const PostFilterRow& row : post_filter_rows()) {
    for (const KubernetesVersion& version : kVersions) {
      DYNAMIC_SECTION(row.name << " (" << version_name(version) << ")") {
        check_post_filter(row, version);
      }
    }
  }
}

// The two TestPlugin rows without the failing PreFilter extension (no "error" label): node1 then
// passes the filters with every lower-priority pod back in place, so its dry-run needs no victim,
// which DryRunPreemption reports as an error ("expected at least one victim pod on node %q").
// With no other candidate, Evaluator.Preempt returns that error; with one, it is ignored.
TEST_CASE("DefaultPreemption: TestPostFilter TestPlugin rows without the injected error",
          "[preemption]") {
  const std::vector<PostFilterRow> rows = {
      {"only one node, which needs no victim",
       P("p").priority(kHighPriority).req(large_res()),
       {P("p1").node("node1")},
       {},
       {make_node("node1", large_res())},
       {{"node1", Code::Unschedulable}},
       std::nullopt,
       Code::Error,
       "preemption: expected at least one victim pod on node \"node1\""},
      {"one node needs no victim and the other pass",
       P("p").priority(kHighPriority).req(large_res()),
       {P("p1").node("node1"), P("p2").node("node2").req(medium_res())},
       {},
       {make_node("node1", large_res()), make_node("node2", large_res())},
       {{"node1", Code::Unschedulable}, {"node2", Code::Unschedulable}},
       "node2",
       Code::Success,
       ""},
  };
  for (const PostFilterRow& row : rows) {
    for (const KubernetesVersion& version : kVersions) {
      DYNAMIC_SECTION(row.name << " (" << version_name(version) << ")") {
        check_post_filter(row, version);
      }
    }
  }
}

// --------------------------------------------------------------------------------------------
// TestDryRunPreemption. The rows registering FalseFilter, or FakeFilter with fakeFilterRC
// Unschedulable, have a filter that rejects every node whatever its pods: here an untolerated
// NoSchedule taint plays that part. expectedNumFilterCalled is not checked (no counting filter).
// Left out: "pod with anti-affinity is preempted" (inter-pod affinity), "preemption to resolve
// pod topology spread filter failure" (topology spread), and the two rows whose victim is in the
// PDB's status.disruptedPods (the simulation never evicts through the API, so disruptedPods is
// always empty there). The row whose disruptedPods names a pod elsewhere is kept: it reads like
// an empty list.

struct Cand {
  std::string node;
  std::vector<std::string> victims;  // sorted by name, as the test sorts them
  std::int64_t pdb_violations = 0;
  friend bool operator==(const Cand&, const Cand&) = default;
};

std::ostream& operator<<(std::ostream& os, const Cand& c) {
  os << c.node << "{";
  for (const std::string& v : c.victims) os << v << " ";
  return os << "pdb=" << c.pdb_violations << "}";
}

struct DryRunRow {
  std::string name;
  std::vector<std::string> node_names;  // "name/zone/region" -> hostname, zone, region labels
  std::vector<Pod> test_pods;           // one scheduling cycle each
  std::vector<Pod> init_pods;
  std::vector<BudgetInfo> pdbs;
  bool reject_all = false;  // a filter that fails on every node
  std::optional<DefaultPreemptionArgs> args;
  std::vector<std::vector<Cand>> expected;  // per cycle, sorted by node name
  // getOffsetRand = rand.New(rand.NewSource(4)).Int31n, as the comments of the rows with args
  // give it per cycle; empty: the plugin's own offset (every node is tried anyway).
  std::vector<std::int64_t> offsets;
};

std::vector<DryRunRow> dry_run_rows() {
  const DefaultPreemptionArgs limit_to_2{40, 1};
  std::vector<DryRunRow> rows = {
      {"a pod that does not fit on any node",
       {"node1", "node2"},
       {P("p").priority(kHighPriority)},
       {P("p1").node("node1").priority(kMidPriority), P("p2").node("node2").priority(kMidPriority)},
       {},
       true,
       {},
       {{}},
       {}},
      {"a pod that fits with no preemption",
       {"node1", "node2"},
       {P("p").priority(kHighPriority)},
       {P("p1").node("node1").priority(kMidPriority), P("p2").node("node2").priority(kMidPriority)},
       {},
       true,
       {},
       {{}},
       {}},
      {"a pod that fits on one node with no preemption",
       {"node1", "node2"},
       {P("node1").priority(kHighPriority)},
       {P("p1").node("node1").priority(kMidPriority), P("p2").node("node2").priority(kMidPriority)},
       {},
       true,
       {},
       {{}},
       {}},
      {"a pod that fits on both nodes when lower priority pods are preempted",
       {"node1", "node2"},
       {P("p").priority(kHighPriority).req(large_res())},
       {P("p1").node("node1").priority(kMidPriority).req(large_res()),
        P("p2").node("node2").priority(kMidPriority).req(large_res())},
       {},
       false,
       {},
       {{{"node1", {"p1"}, 0}, {"node2", {"p2"}, 0}}},
       {}},
      {"a pod that would fit on the nodes, but other pods running are higher priority, no "
       "preemption would happen",
       {"node1", "node2"},
       {P("p").priority(kLowPriority).req(large_res())},
       {P("p1").node("node1").priority(kMidPriority).req(large_res()),
        P("p2").node("node2").priority(kMidPriority).req(large_res())},
       {},
       false,
       {},
       {{}},
       {}},
      {"medium priority pod is preempted, but lower priority one stays as it is small",
       {"node1", "node2"},
       {P("p").priority(kHighPriority).req(large_res())},
       {P("p1.1").node("node1").priority(kLowPriority).req(small_res()),
        P("p1.2").node("node1").priority(kMidPriority).req(large_res()),
        P("p2").node("node2").priority(kMidPriority).req(large_res())},
       {},
       false,
       {},
       {{{"node1", {"p1.2"}, 0}, {"node2", {"p2"}, 0}}},
       {}},
      {"mixed priority pods are preempted",
       {"node1", "node2"},
       {P("p").priority(kHighPriority).req(large_res())},
       {P("p1.1").node("node1").priority(kMidPriority).req(small_res()),
        P("p1.2").node("node1").priority(kLowPriority).req(small_res()),
        P("p1.3").node("node1").priority(kMidPriority).req(medium_res()),
        P("p1.4").node("node1").priority(kHighPriority).req(small_res()),
        P("p2").node("node2").priority(kHighPriority).req(large_res())},
       {},
       false,
       {},
       {{{"node1", {"p1.2", "p1.3"}, 0}}},
       {}},
      {"mixed priority pods are preempted, pick later StartTime one when priorities are equal",
       {"node1", "node2"},
       {P("p").priority(kHighPriority).req(large_res())},
       {P("p1.1").node("node1").priority(kLowPriority).req(small_res()).start(5),
        P("p1.2").node("node1").priority(kLowPriority).req(small_res()).start(4),
        P("p1.3").node("node1").priority(kMidPriority).req(medium_res()).start(3),
        P("p1.4").node("node1").priority(kHighPriority).req(small_res()).start(2),
        P("p2").node("node2").priority(kHighPriority).req(large_res()).start(1)},
       {},
       false,
       {},
       {{{"node1", {"p1.1", "p1.3"}, 0}}},
       {}},
      {"get Unschedulable in the preemption phase when the filter plugins filtering the nodes",
       {"node1", "node2"},
       {P("p").priority(kHighPriority).req(large_res())},
       {P("p1").node("node1").priority(kMidPriority).req(large_res()),
        P("p2").node("node2").priority(kMidPriority).req(large_res())},
       {},
       true,
       {},
       {{}},
       {}},
      {"preemption with violation of same pdb",
       {"node1"},
       {P("p").priority(kHighPriority).req(very_large_res())},
       {P("p1.1").node("node1").label("app", "foo").priority(kMidPriority).req(medium_res()),
        P("p1.2").node("node1").label("app", "foo").priority(kMidPriority).req(medium_res())},
       {pdb("app", "foo", 1)},
       false,
       {},
       {{{"node1", {"p1.1", "p1.2"}, 1}}},
       {}},
      {"preemption with violation of the pdb with pod whose eviction was processed, the victim "
       "doesn't belong to DisruptedPods",
       {"node1"},
       {P("p").priority(kHighPriority).req(very_large_res())},
       {P("p1.1").node("node1").label("app", "foo").priority(kMidPriority).req(medium_res()),
        P("p1.2").node("node1").label("app", "foo").priority(kMidPriority).req(medium_res())},
       {pdb("app", "foo", 1)},  // disruptedPods {"p2"}: no pod of this node
       false,
       {},
       {{{"node1", {"p1.1", "p1.2"}, 1}}},
       {}},
      {"all nodes are possible candidates, but DefaultPreemptionArgs limits to 2",
       {"node1", "node2", "node3", "node4", "node5"},
       {P("p").priority(kHighPriority).req(large_res())},
       {P("p1").node("node1").priority(kMidPriority).req(large_res()),
        P("p2").node("node2").priority(kMidPriority).req(large_res()),
        P("p3").node("node3").priority(kMidPriority).req(large_res()),
        P("p4").node("node4").priority(kMidPriority).req(large_res()),
        P("p5").node("node5").priority(kMidPriority).req(large_res())},
       {},
       false,
       limit_to_2,
       // cycle=0 => offset=4 => node5 (yes), node1 (yes)
       {{{"node1", {"p1"}, 0}, {"node5", {"p5"}, 0}}},
       {4}},
      {"some nodes are not possible candidates, DefaultPreemptionArgs limits to 2",
       {"node1", "node2", "node3", "node4", "node5"},
       {P("p").priority(kHighPriority).req(large_res())},
       {P("p1").node("node1").priority(kMidPriority).req(large_res()),
        P("p2").node("node2").priority(kVeryHighPriority).req(large_res()),
        P("p3").node("node3").priority(kMidPriority).req(large_res()),
        P("p4").node("node4").priority(kMidPriority).req(large_res()),
        P("p5").node("node5").priority(kVeryHighPriority).req(large_res())},
       {},
       false,
       limit_to_2,
       // cycle=0 => offset=4 => node5 (no), node1 (yes), node2 (no), node3 (yes)
       {{{"node1", {"p1"}, 0}, {"node3", {"p3"}, 0}}},
       {4}},
      {"preemption offset across multiple scheduling cycles and wrap around",
       {"node1", "node2", "node3", "node4", "node5"},
       {P("tp1").priority(kHighPriority).req(large_res()),
        P("tp2").priority(kHighPriority).req(large_res()),
        P("tp3").priority(kHighPriority).req(large_res())},
       {P("p1").node("node1").priority(kMidPriority).req(large_res()),
        P("p2").node("node2").priority(kMidPriority).req(large_res()),
        P("p3").node("node3").priority(kMidPriority).req(large_res()),
        P("p4").node("node4").priority(kMidPriority).req(large_res()),
        P("p5").node("node5").priority(kMidPriority).req(large_res())},
       {},
       false,
       limit_to_2,
       {
           // cycle=0 => offset=4 => node5 (yes), node1 (yes)
           {{"node1", {"p1"}, 0}, {"node5", {"p5"}, 0}},
           // cycle=1 => offset=1 => node2 (yes), node3 (yes)
           {{"node2", {"p2"}, 0}, {"node3", {"p3"}, 0}},
           // cycle=2 => offset=3 => node4 (yes), node5 (yes)
           {{"node4", {"p4"}, 0}, {"node5", {"p5"}, 0}},
       },
       {4, 1, 3}},
      {"preemption looks past numCandidates until a non-PDB violating node is found",
       {"node1", "node2", "node3", "node4", "node5"},
       {P("p").priority(kHighPriority).req(large_res())},
       {P("p1").node("node1").label("app", "foo").priority(kMidPriority).req(large_res()),
        P("p2").node("node2").label("app", "foo").priority(kMidPriority).req(large_res()),
        P("p3").node("node3").priority(kMidPriority).req(large_res()),
        P("p4").node("node4").priority(kMidPriority).req(large_res()),
        P("p5").node("node5").label("app", "foo").priority(kMidPriority).req(large_res())},
       {pdb("app", "foo", 0)},
       false,
       DefaultPreemptionArgs{40, 2},
       // cycle=0 => offset=4 => node5 (yes, pdb), node1 (yes, pdb), node2 (no, pdb: the violating
       // list holds numCandidates), node3 (yes)
       {{{"node1", {"p1"}, 1}, {"node3", {"p3"}, 0}, {"node5", {"p5"}, 1}}},
       {4}},
  };
  return rows;
}

TEST_CASE("DefaultPreemption: TestDryRunPreemption", "[preemption]") {
  const std::vector<std::string> label_keys = {"hostname", "zone", "region"};
  for (const DryRunRow& row : dry_run_rows()) {
    DYNAMIC_SECTION(row.name) {
      Harness h({}, row.args.value_or(DefaultPreemptionArgs{}));
      std::vector<Node> nodes;
      for (const std::string& spec : row.node_names) {
        std::vector<std::string> parts;
        for (std::size_t b = 0, e; b <= spec.size(); b = e + 1) {
          e = std::min(spec.find('/', b), spec.size());
          parts.push_back(spec.substr(b, e - b));
        }
        Labels labels;
        for (std::size_t i = 0; i < parts.size(); ++i) labels[label_keys[i]] = parts[i];
        Node node = make_node(parts.front(), very_large_res(), labels);
        if (row.reject_all) node.taints.push_back(Taint{"reject", "all", TaintEffect::NoSchedule});
        nodes.push_back(std::move(node));
      }
      h.add(nodes, row.init_pods, row.pdbs);
      REQUIRE(row.expected.size() == row.test_pods.size());
      for (std::size_t cycle = 0; cycle < row.test_pods.size(); ++cycle) {
        INFO("cycle " << cycle);
        PodInfo& pod = h.add_preemptor(row.test_pods[cycle]);
        const CycleState state = h.pre_filter(pod);
        const std::vector<const NodeInfo*> potential = h.nodes_by_name();
        auto [offset, num_candidates] =
            h.plugin->offset_and_num_candidates(static_cast<std::int64_t>(potential.size()));
        if (!row.offsets.empty()) offset = row.offsets[cycle];
        Diagnosis statuses;
        std::vector<std::string> errors;
        const auto got =
            h.plugin->dry_run(state, pod, potential, offset, num_candidates, statuses, errors);
        std::vector<Cand> candidates;
        for (const auto& c : got) {
          Cand out{c.node->node.metadata.name, {}, c.pdb_violations};
          for (const PodInfo* v : c.victims) out.victims.push_back(v->pod.metadata.name);
          std::sort(out.victims.begin(), out.victims.end());
          candidates.push_back(std::move(out));
        }
        std::sort(candidates.begin(), candidates.end(),
                  [](const Cand& a, const Cand& b) { return a.node < b.node; });
        CHECK(candidates == row.expected[cycle]);
        CHECK(errors.empty());
      }
    }
  }
}

// Victims come back most important first (MoreImportantPod), whatever the PDB split did.
TEST_CASE("DefaultPreemption: SelectVictimsOnNode orders victims", "[preemption]") {
  Harness h;
  h.add({make_node("node1", very_large_res())},
        {P("p1.1").node("node1").label("app", "foo").priority(kLowPriority).req(medium_res()),
         P("p1.2").node("node1").priority(kMidPriority).req(medium_res()).start(2),
         P("p1.3").node("node1").priority(kMidPriority).req(small_res()).start(1)},
        {pdb("app", "foo", 0)});
  PodInfo& pod = h.add_preemptor(P("p").priority(kHighPriority).req(very_large_res()));
  const CycleState state = h.pre_filter(pod);
  plugins::DefaultPreemption::Candidate candidate;
  Status status;
  REQUIRE(h.plugin->select_victims(state, pod, *h.cluster.find_node("node1"), candidate, status) ==
          Code::Success);
  std::vector<std::string> names;
  for (const PodInfo* v : candidate.victims) names.push_back(v->pod.metadata.name);
  CHECK(names == std::vector<std::string>{"p1.3", "p1.2", "p1.1"});
  CHECK(candidate.pdb_violations == 1);
}

// DryRunPreemption keeps each node's victim search for preemptors of one priority and Filter key
// while the node's version stands: what a search weighs besides the node's object and pods (their
// start times, the pods nominated to the node, of which the preemptor may be one) must change the
// version or the key.
TEST_CASE("DefaultPreemption: kept victim searches follow what they weighed", "[preemption]") {
  Harness h;
  h.add({make_node("node1", very_large_res())},
        {P("a").node("node1").priority(kLowPriority).req(medium_res()).start(2),
         P("b").node("node1").priority(kLowPriority).req(medium_res()).start(1)});
  auto victims_of = [&](const PodInfo& pod) {
    const CycleState state = h.pre_filter(pod);
    Diagnosis statuses;
    std::vector<std::string> errors;
    const auto got = h.plugin->dry_run(state, pod, h.nodes_by_name(), 0, 1, statuses, errors);
    CHECK(errors.empty());
    std::vector<std::string> names;
    for (const auto& c : got) {
      for (const PodInfo* v : c.victims) names.push_back(v->pod.metadata.name);
    }
    // No candidate: the node's rejection, the room taken by the pods nominated there.
    if (got.empty()) {
      REQUIRE(statuses.failed_nodes.size() == 1);
      CHECK(statuses.failed_runs.front().plugin == "NodeResourcesFit");
    }
    return names;
  };
  using Names = std::vector<std::string>;
  const PodInfo& p1 = h.add_preemptor(P("p1").priority(kHighPriority).req(large_res()));
  const PodInfo& p2 = h.add_preemptor(P("p2").priority(kHighPriority).req(large_res()));
  const PodInfo& mid = h.add_preemptor(P("mid").priority(kMidPriority).req(large_res()));
  // b started first: the more important, it is reprieved.
  CHECK(victims_of(p1) == Names{"a"});
  CHECK(victims_of(p2) == Names{"a"});
  // a's start is recorded earlier.
  h.cluster.start_pod(*h.cluster.find_pod("default", "a"), 0);
  CHECK(victims_of(p2) == Names{"b"});
  // A pod nominated to the node that only the lower preemptor yields to.
  PodInfo& r = h.add_preemptor(P("r").priority(kMidPriority).req(small_res()));
  h.cluster.nominate(r, "node1");
  CHECK(victims_of(p2) == Names{"b"});
  CHECK(victims_of(mid) == Names{"a", "b"});
  // p1 nominated there: p2 yields to it and finds no room; p1 does not count itself.
  h.cluster.nominate(*h.cluster.find_pod("default", "p1"), "node1");
  CHECK(victims_of(p2).empty());
  CHECK(victims_of(p1) == Names{"b"});
}

// --------------------------------------------------------------------------------------------
// TestSelectBestCandidate: DryRunPreemption over every node, then SelectCandidate. Every row.

struct SelectRow {
  std::string name;
  std::vector<std::string> node_names;
  Pod pod;
  std::vector<Pod> pods;
  std::vector<std::string> expected;  // any of them
};

std::vector<SelectRow> select_rows() {
  return {
      {"a pod that fits on both nodes when lower priority pods are preempted",
       {"node1", "node2"},
       P("p").priority(kHighPriority).req(large_res()),
       {P("p1").node("node1").priority(kMidPriority).req(large_res()).start(0),
        P("p2").node("node2").priority(kMidPriority).req(large_res()).start(0)},
       {"node1", "node2"}},
      {"node with min highest priority pod is picked",
       {"node1", "node2", "node3"},
       P("p").priority(kHighPriority).req(very_large_res()),
       {P("p1.1").node("node1").priority(kMidPriority).req(medium_res()).start(0),
        P("p1.2").node("node1").priority(kMidPriority).req(large_res()).start(0),
        P("p2.1").node("node2").priority(kMidPriority).req(medium_res()).start(0),
        P("p2.2").node("node2").priority(kLowPriority).req(medium_res()).start(0),
        P("p3.1").node("node3").priority(kLowPriority).req(medium_res()).start(0),
        P("p3.2").node("node3").priority(kLowPriority).req(medium_res()).start(0)},
       {"node3"}},
      {"when highest priorities are the same, minimum sum of priorities is picked",
       {"node1", "node2", "node3"},
       P("p").priority(kHighPriority).req(very_large_res()),
       {P("p1.1").node("node1").priority(kMidPriority).req(medium_res()).start(0),
        P("p1.2").node("node1").priority(kMidPriority).req(large_res()).start(0),
        P("p2.1").node("node2").priority(kMidPriority).req(large_res()).start(0),
        P("p2.2").node("node2").priority(kLowPriority).req(medium_res()).start(0),
        P("p3.1").node("node3").priority(kMidPriority).req(medium_res()).start(0),
        P("p3.2").node("node3").priority(kMidPriority).req(medium_res()).start(0)},
       {"node2"}},
      {"when highest priority and sum are the same, minimum number of pods is picked",
       {"node1", "node2", "node3"},
       P("p").priority(kHighPriority).req(very_large_res()),
       {P("p1.1").node("node1").priority(kMidPriority).req(small_res()).start(0),
        P("p1.2").node("node1").priority(kNegPriority).req(small_res()).start(0),
        P("p1.3").node("node1").priority(kMidPriority).req(small_res()).start(0),
        P("p1.4").node("node1").priority(kNegPriority).req(small_res()).start(0),
        P("p2.1").node("node2").priority(kMidPriority).req(large_res()).start(0),
        P("p2.2").node("node2").priority(kNegPriority).req(medium_res()).start(0),
        P("p3.1").node("node3").priority(kMidPriority).req(medium_res()).start(0),
        P("p3.2").node("node3").priority(kNegPriority).req(small_res()).start(0),
        P("p3.3").node("node3").priority(kLowPriority).req(small_res()).start(0)},
       {"node2"}},
      {"sum of adjusted priorities is considered",
       {"node1", "node2", "node3"},
       P("p").priority(kHighPriority).req(very_large_res()),
       {P("p1.1").node("node1").priority(kMidPriority).req(small_res()).start(0),
        P("p1.2").node("node1").priority(kNegPriority).req(small_res()).start(0),
        P("p1.3").node("node1").priority(kNegPriority).req(small_res()).start(0),
        P("p2.1").node("node2").priority(kMidPriority).req(large_res()).start(0),
        P("p2.2").node("node2").priority(kNegPriority).req(medium_res()).start(0),
        P("p3.1").node("node3").priority(kMidPriority).req(medium_res()).start(0),
        P("p3.2").node("node3").priority(kNegPriority).req(small_res()).start(0),
        P("p3.3").node("node3").priority(kLowPriority).req(small_res()).start(0)},
       {"node2"}},
      {"non-overlapping lowest high priority, sum priorities, and number of pods",
       {"node1", "node2", "node3", "node4"},
       P("p").priority(kVeryHighPriority).req(very_large_res()),
       {P("p1.1").node("node1").priority(kMidPriority).req(small_res()).start(0),
        P("p1.2").node("node1").priority(kLowPriority).req(small_res()).start(0),
        P("p1.3").node("node1").priority(kLowPriority).req(small_res()).start(0),
        P("p2.1").node("node2").priority(kHighPriority).req(large_res()).start(0),
        P("p3.1").node("node3").priority(kMidPriority).req(medium_res()).start(0),
        P("p3.2").node("node3").priority(kLowPriority).req(small_res()).start(0),
        P("p3.3").node("node3").priority(kLowPriority).req(small_res()).start(0),
        P("p3.4").node("node3").priority(kLowPriority).req(medium_res()).start(0),
        P("p4.1").node("node4").priority(kMidPriority).req(medium_res()).start(0),
        P("p4.2").node("node4").priority(kMidPriority).req(small_res()).start(0),
        P("p4.3").node("node4").priority(kMidPriority).req(small_res()).start(0),
        P("p4.4").node("node4").priority(kNegPriority).req(small_res()).start(0)},
       {"node1"}},
      {"same priority, same number of victims, different start time for each node's pod",
       {"node1", "node2", "node3"},
       P("p").priority(kHighPriority).req(very_large_res()),
       {P("p1.1").node("node1").priority(kMidPriority).req(medium_res()).start(2),
        P("p1.2").node("node1").priority(kMidPriority).req(medium_res()).start(2),
        P("p2.1").node("node2").priority(kMidPriority).req(medium_res()).start(3),
        P("p2.2").node("node2").priority(kMidPriority).req(medium_res()).start(3),
        P("p3.1").node("node3").priority(kMidPriority).req(medium_res()).start(1),
        P("p3.2").node("node3").priority(kMidPriority).req(medium_res()).start(1)},
       {"node2"}},
      {"same priority, same number of victims, different start time for all pods",
       {"node1", "node2", "node3"},
       P("p").priority(kHighPriority).req(very_large_res()),
       {P("p1.1").node("node1").priority(kMidPriority).req(medium_res()).start(4),
        P("p1.2").node("node1").priority(kMidPriority).req(medium_res()).start(2),
        P("p2.1").node("node2").priority(kMidPriority).req(medium_res()).start(5),
        P("p2.2").node("node2").priority(kMidPriority).req(medium_res()).start(1),
        P("p3.1").node("node3").priority(kMidPriority).req(medium_res()).start(3),
        P("p3.2").node("node3").priority(kMidPriority).req(medium_res()).start(6)},
       {"node3"}},
      {"different priority, same number of victims, different start time for all pods",
       {"node1", "node2", "node3"},
       P("p").priority(kHighPriority).req(very_large_res()),
       {P("p1.1").node("node1").priority(kLowPriority).req(medium_res()).start(4),
        P("p1.2").node("node1").priority(kMidPriority).req(medium_res()).start(2),
        P("p2.1").node("node2").priority(kMidPriority).req(medium_res()).start(6),
        P("p2.2").node("node2").priority(kLowPriority).req(medium_res()).start(1),
        P("p3.1").node("node3").priority(kLowPriority).req(medium_res()).start(3),
        P("p3.2").node("node3").priority(kMidPriority).req(medium_res()).start(5)},
       {"node2"}},
  };
}

TEST_CASE("DefaultPreemption: TestSelectBestCandidate", "[preemption]") {
  for (const SelectRow& row : select_rows()) {
    DYNAMIC_SECTION(row.name) {
      // Several seeds: the last tie-break is random, every other criterion must not be.
      for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        INFO("seed " << seed);
        Harness h;
        h.rng = Rng(seed);
        std::vector<Node> nodes;
        for (const std::string& n : row.node_names) nodes.push_back(make_node(n, very_large_res()));
        h.add(nodes, row.pods);
        PodInfo& pod = h.add_preemptor(row.pod);
        const CycleState state = h.pre_filter(pod);
        std::vector<const NodeInfo*> all(h.cluster.node_list().begin(),
                                         h.cluster.node_list().end());
        const auto [offset, num_candidates] =
            h.plugin->offset_and_num_candidates(static_cast<std::int64_t>(all.size()));
        Diagnosis statuses;
        std::vector<std::string> errors;
        const auto candidates =
            h.plugin->dry_run(state, pod, all, offset, num_candidates, statuses, errors);
        REQUIRE_FALSE(candidates.empty());
        const std::string picked = h.plugin->pick_one(candidates).node->node.metadata.name;
        CHECK_THAT(row.expected, Catch::Matchers::VectorContains(picked));

        // The whole PostFilter, every node Unschedulable, lands on the same choice.
        std::vector<std::pair<std::string, Code>> statuses_in;
        for (const std::string& n : row.node_names)
          statuses_in.emplace_back(n, Code::Unschedulable);
        CycleState post_state = h.pre_filter(pod);
        const PostFilterResult got =
            h.plugin->post_filter(post_state, pod, h.diagnosis(statuses_in));
        CHECK(got.code == Code::Success);
        REQUIRE(got.nominated_node.has_value());
        CHECK_THAT(row.expected, Catch::Matchers::VectorContains(*got.nominated_node));
      }
    }
  }
}

// --------------------------------------------------------------------------------------------
// TestPodEligibleToPreemptOthers: every row. nominatedNodeStatus nil is a Success status.

struct EligibleRow {
  std::string name;
  Pod pod;
  std::vector<Pod> pods;
  std::vector<std::string> nodes;
  Code nominated_status;  // the status of the nominated node in the filter results
  std::string want;       // "": eligible
};

TEST_CASE("DefaultPreemption: TestPodEligibleToPreemptOthers", "[preemption]") {
  const std::vector<EligibleRow> rows = {
      {"Pod with nominated node",
       P("p_with_nominated_node").priority(kHighPriority).nominated("node1"),
       {P("p1").priority(kLowPriority).node("node1").terminating()},
       {"node1"},
       Code::UnschedulableAndUnresolvable,
       ""},
      {"Pod without nominated node",
       P("p_without_nominated_node").priority(kHighPriority),
       {},
       {},
       Code::Success,
       ""},
      {"Pod with 'PreemptNever' preemption policy",
       P("p_with_preempt_never_policy").priority(kHighPriority).preemption_policy("Never"),
       {},
       {},
       Code::Success,
       "not eligible due to preemptionPolicy=Never."},
      {"preemption victim pod terminating, as indicated by the dedicated DisruptionTarget "
       "condition",
       P("p_with_nominated_node").priority(kHighPriority).nominated("node1"),
       {P("p1")
            .priority(kLowPriority)
            .node("node1")
            .terminating()
            .condition("DisruptionTarget", "True", "PreemptionByScheduler")},
       {"node1"},
       Code::Success,
       "not eligible due to a terminating pod on the nominated node."},
      {"non-victim Pods terminating",
       P("p_with_nominated_node").priority(kHighPriority).nominated("node1"),
       {P("p1").priority(kLowPriority).node("node1").terminating()},
       {"node1"},
       Code::Success,
       ""},
  };
  for (const EligibleRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      Harness h;
      std::vector<Node> nodes;
      for (const std::string& n : row.nodes) nodes.push_back(make_node(n));
      h.add(nodes, row.pods);
      PodInfo& pod = h.add_preemptor(row.pod);
      Diagnosis diagnosis;
      diagnosis.absent = Status{Code::UnschedulableAndUnresolvable, {}, {}};
      if (const NodeInfo* node = h.cluster.find_node(row.pod.status.nominated_node_name)) {
        diagnosis.add(*node, Status{row.nominated_status, {}, {}});
      }
      CHECK(h.plugin->eligibility(pod, diagnosis) == row.want);
      if (!row.want.empty()) {
        // PostFilter stops there, with the reason as its Unschedulable message and no result.
        CycleState state = h.pre_filter(pod);
        const PostFilterResult got = h.plugin->post_filter(state, pod, diagnosis);
        CHECK(got.code == Code::Unschedulable);
        CHECK(got.message == "preemption: " + row.want);
        CHECK_FALSE(got.nominated_node.has_value());
      }
    }
  }
}

// --------------------------------------------------------------------------------------------
// TestPreempt: Evaluator.Preempt with every node Unschedulable; the nominated node and the
// evicted pods. Left out: topology spread and the four extender rows.

struct PreemptRow {
  std::string name;
  Pod pod;
  std::vector<Pod> pods;
  std::vector<std::string> node_names;
  std::optional<std::string> want;    // nullopt: a nil result
  std::vector<std::string> expected;  // preempted pods
};

TEST_CASE("DefaultPreemption: TestPreempt", "[preemption]") {
  const std::vector<PreemptRow> rows = {
      {"basic preemption logic",
       P("p")
           .priority(kHighPriority)
           .req(very_large_res())
           .preemption_policy("PreemptLowerPriority"),
       {P("p1.1").node("node1").priority(kLowPriority).req(small_res()),
        P("p1.2").node("node1").priority(kLowPriority).req(small_res()),
        P("p2.1").node("node2").priority(kHighPriority).req(large_res()),
        P("p3.1").node("node3").priority(kMidPriority).req(medium_res())},
       {"node1", "node2", "node3"},
       "node1",
       {"p1.1", "p1.2"}},
      {"no preempting in pod",
       P("p").priority(kHighPriority).req(very_large_res()).preemption_policy("Never"),
       {P("p1.1").node("node1").priority(kLowPriority).req(small_res()),
        P("p1.2").node("node1").priority(kLowPriority).req(small_res()),
        P("p2.1").node("node2").priority(kHighPriority).req(large_res()),
        P("p3.1").node("node3").priority(kMidPriority).req(medium_res())},
       {"node1", "node2", "node3"},
       std::nullopt,
       {}},
      {"PreemptionPolicy is nil",
       P("p").priority(kHighPriority).req(very_large_res()),
       {P("p1.1").node("node1").priority(kLowPriority).req(small_res()),
        P("p1.2").node("node1").priority(kLowPriority).req(small_res()),
        P("p2.1").node("node2").priority(kHighPriority).req(large_res()),
        P("p3.1").node("node3").priority(kMidPriority).req(medium_res())},
       {"node1", "node2", "node3"},
       "node1",
       {"p1.1", "p1.2"}},
  };
  for (const PreemptRow& row : rows) {
    for (const KubernetesVersion& version : kVersions) {
      DYNAMIC_SECTION(row.name << " (" << version_name(version) << ")") {
        Harness h(version);
        std::vector<Node> nodes;
        std::vector<std::pair<std::string, Code>> statuses;
        for (const std::string& n : row.node_names) {
          nodes.push_back(make_node(n, very_large_res()));
          statuses.emplace_back(n, Code::Unschedulable);
        }
        h.add(nodes, row.pods);
        PodInfo& pod = h.add_preemptor(row.pod);
        CycleState state = h.pre_filter(pod);
        const PostFilterResult got = h.plugin->post_filter(state, pod, h.diagnosis(statuses));
        CHECK(got.nominated_node == row.want);
        std::vector<std::string> deleted;
        for (const auto& call : h.sink.calls) {
          CHECK(call.node == row.want.value_or(""));
          deleted.insert(deleted.end(), call.victims.begin(), call.victims.end());
        }
        std::sort(deleted.begin(), deleted.end());
        CHECK(deleted == row.expected);
      }
    }
  }
}

// --------------------------------------------------------------------------------------------
// Not from upstream's tables: NodeToStatus.NodesForStatusCode (preemption.go findCandidates).
// When the status of absent nodes is itself Unschedulable (a PreFilter plugin rejected the pod
// with Unschedulable), every node without an explicit status other than that is a potential
// node; an explicit UnschedulableAndUnresolvable still keeps a node out.
TEST_CASE("DefaultPreemption: an Unschedulable absent status makes every node a potential node",
          "[preemption]") {
  Harness h;
  h.add({make_node("node1", very_large_res()), make_node("node2", very_large_res())},
        {P("p1").node("node1").priority(kLowPriority).req(large_res()),
         P("p2").node("node2").priority(kLowPriority).req(large_res())});
  PodInfo& pod = h.add_preemptor(P("p").priority(kHighPriority).req(large_res()));
  CycleState state = h.pre_filter(pod);
  Diagnosis diagnosis;
  diagnosis.absent = Status{Code::Unschedulable, {}, {}};
  diagnosis.add(*h.cluster.find_node("node1"), Status{Code::UnschedulableAndUnresolvable, {}, {}});
  const PostFilterResult got = h.plugin->post_filter(state, pod, diagnosis);
  CHECK(got.code == Code::Success);
  CHECK(got.nominated_node == std::optional<std::string>("node2"));
  REQUIRE(h.sink.calls.size() == 1);
  CHECK(h.sink.calls.front().victims == std::vector<std::string>{"p2"});
}

}  // namespace
}  // namespace gpusched
