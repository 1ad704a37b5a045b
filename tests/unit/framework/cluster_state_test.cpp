// ClusterState's nominator: unbound pods by the node they are nominated to, in nomination order;
// and its invariants, checked in every build.
#include "gpusched/framework/cluster_state.hpp"
#include "framework/string_pool.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/error.hpp"

namespace gpusched {
namespace {

Pod named(const std::string& name) {
  Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  return pod;
}

Node node_named(const std::string& name) {
  Node node;
  node.metadata.name = name;
  return node;
}

std::vector<PodInfo*> listed(const ClusterState& cluster, StrId node) {
  const auto pods = cluster.nominated_pods(node);
  return {pods.begin(), pods.end()};
}

TEST_CASE("ClusterState: nominations, to nodes that exist yet or not", "[framework]") {
  ClusterState cluster;
  PodInfo& p = cluster.add_pod(named("p"));
  PodInfo& q = cluster.add_pod(named("q"));
  CHECK(cluster.nominated_pods(StringPool::kMissing).empty());
  cluster.nominate(p, "later");
  cluster.nominate(q, "later");
  const StrId later = cluster.pool().find("later");
  CHECK(listed(cluster, later) == std::vector<PodInfo*>{&p, &q});
  CHECK(cluster.nominated_pods(cluster.pool().intern("elsewhere")).empty());

  NodeInfo& node = cluster.add_node(node_named("later"));
  CHECK(node.name == later);
  cluster.nominate(p, "");
  CHECK(listed(cluster, later) == std::vector<PodInfo*>{&q});
  // A bound pod leaves the nominator.
  cluster.bind(q, node);
  CHECK(cluster.nominated_pods(later).empty());
}

TEST_CASE("ClusterState: a node's version follows its nominated pods and its pods' starts",
          "[framework]") {
  // Kept results (Filter verdicts, victim searches) weigh the pods nominated to a node and the
  // start times of its pods: each change of them is a new version, mirrored unless the node has
  // nominated pods (then kJudgeAfresh).
  ClusterState cluster;
  NodeInfo& node = cluster.add_node(node_named("n"));
  PodInfo& running = cluster.add_pod(named("running"));
  PodInfo& pending = cluster.add_pod(named("pending"));
  cluster.bind(running, node);
  const auto mirrored = [&] { return cluster.node_versions()[0]; };
  std::uint64_t before = node.version;
  CHECK(mirrored() == before);
  cluster.start_pod(running, 42);
  CHECK(running.pod.status.start_ms == 42);
  CHECK(running.pod.status.phase == PodPhase::Running);
  CHECK(node.version > before);
  CHECK(mirrored() == node.version);
  before = node.version;
  cluster.nominate(pending, "n");
  CHECK(node.version > before);
  CHECK(mirrored() == VersionMirror::kJudgeAfresh);
  before = node.version;
  // Nominated again to the same node: nothing changed.
  cluster.nominate(pending, "n");
  CHECK(node.version == before);
  cluster.nominate(pending, "");
  CHECK(node.version > before);
  CHECK(mirrored() == node.version);
  // A pending pod's start holds no node: nothing to follow.
  before = node.version;
  cluster.start_pod(pending, 50);
  CHECK(node.version == before);
}

TEST_CASE("ClusterState: pods found by name and listed in key order", "[framework]") {
  // The indexes hold the pods, not key strings: a name in two namespaces, a removed pod's name
  // taken again, and "a-b/x" before "a/y" ('-' sorts before '/').
  ClusterState cluster;
  auto in = [](const std::string& ns, const std::string& name) {
    Pod pod = named(name);
    pod.metadata.namespace_ = ns;
    return pod;
  };
  PodInfo& a_x = cluster.add_pod(in("a", "x"));
  PodInfo& ab_x = cluster.add_pod(in("a-b", "x"));
  PodInfo& a_y = cluster.add_pod(in("a", "y"));
  CHECK(cluster.find_pod("a", "x") == &a_x);
  CHECK(cluster.find_pod("a-b", "x") == &ab_x);
  CHECK(cluster.find_pod("a", "y") == &a_y);
  CHECK(cluster.find_pod("a", "z") == nullptr);
  CHECK(cluster.find_pod("a-b", "y") == nullptr);
  auto keys = [&] {
    std::vector<std::string> out;
    for (const PodInfo* pod : cluster.pods()) out.push_back(pod->pod.key());
    return out;
  };
  CHECK(keys() == std::vector<std::string>{"a-b/x", "a/x", "a/y"});
  cluster.remove_pod(a_x);
  CHECK(cluster.find_pod("a", "x") == nullptr);
  CHECK(cluster.find_pod("a-b", "x") == &ab_x);
  CHECK(keys() == std::vector<std::string>{"a-b/x", "a/y"});
  PodInfo& again = cluster.add_pod(in("a", "x"));
  CHECK(cluster.find_pod("a", "x") == &again);
  CHECK(keys() == std::vector<std::string>{"a-b/x", "a/x", "a/y"});
}

TEST_CASE("ClusterState: each pod's compiled request, pods asking alike in runs", "[framework]") {
  // compile_pod computes a request once per run of pods asking alike (same_requests): the
  // request and the non-zero cpu and memory (100m and 200Mi for a container asking none) stay
  // each pod's own, however the runs change.
  ClusterState cluster;
  auto asking = [](const std::string& name, const ResourceList& requests) {
    Pod pod = named(name);
    Container c;
    c.name = "c";
    c.requests = requests;
    pod.spec.containers = std::vector<Container>{c};
    return pod;
  };
  const ResourceList one_cpu = {{"cpu", Quantity::from_units(1)}};
  const ResourceList gpu = {{"cpu", Quantity(500)}, {"nvidia.com/gpu", Quantity::from_units(1)}};
  const ResourceList memory = {{"memory", Quantity::from_units(1LL << 30)}};
  Pod shared = asking("shared-1", one_cpu);
  Pod shared_copy = shared;
  shared_copy.metadata.name = "shared-2";
  struct Want {
    std::int64_t cpu;
    std::int64_t gpu;
    std::int64_t nonzero_cpu;
    std::int64_t nonzero_memory;
  };
  const std::int64_t default_memory = 200LL << 20;
  const std::vector<std::pair<Pod, Want>> pods = {
      {shared, {1000, 0, 1000, default_memory * 1000}},
      {shared_copy, {1000, 0, 1000, default_memory * 1000}},
      {asking("alike", one_cpu), {1000, 0, 1000, default_memory * 1000}},
      {asking("none", {}), {0, 0, 100, default_memory * 1000}},
      {asking("gpu", gpu), {500, 1000, 500, default_memory * 1000}},
      {asking("gpu-again", gpu), {500, 1000, 500, default_memory * 1000}},
      {asking("memory", memory), {0, 0, 100, (1LL << 30) * 1000}},
      {asking("one-cpu-again", one_cpu), {1000, 0, 1000, default_memory * 1000}},
  };
  const ResId gpu_id = cluster.resources().intern("nvidia.com/gpu");
  std::vector<PodInfo*> infos;
  for (const auto& [pod, want] : pods) {
    PodInfo& info = cluster.add_pod(pod);
    infos.push_back(&info);
    INFO(pod.metadata.name);
    CHECK(info.request(res::kCpu) == want.cpu);
    CHECK(info.request(gpu_id) == want.gpu);
    CHECK(info.nonzero_cpu == want.nonzero_cpu);
    CHECK(info.nonzero_memory == want.nonzero_memory);
    // The request as written (formats kept), which a result's records and sums read.
    CHECK(info.request_list.get() == pod_requests(pod.spec));
  }
  // One list per run of pods asking alike.
  CHECK(infos[0]->request_list.shares(infos[1]->request_list));
  CHECK(infos[1]->request_list.shares(infos[2]->request_list));
  CHECK(infos[4]->request_list.shares(infos[5]->request_list));
  CHECK_FALSE(infos[2]->request_list.shares(infos[3]->request_list));
  CHECK_FALSE(infos[6]->request_list.shares(infos[7]->request_list));
  // An update compiles the pod again.
  cluster.update_pod(*infos[0], asking("shared-1", memory));
  CHECK(infos[0]->request_list.get() == memory);
  CHECK(infos[1]->request_list.get() == one_cpu);
}

TEST_CASE("ClusterState: pods whose spec shares its placement share its compiled form",
          "[framework]") {
  // compile_pod compiles tolerations, node selector, node affinity and host ports once for a
  // run of pods whose spec shares them (a template's pods, created one after the other): the
  // compiled lists are the same values. A pod with other ones gets its own, compiled from its own
  // spec, and the template's next pod is compiled afresh, to equal lists.
  ClusterState cluster;
  Pod templ = named("t");
  templ.spec.tolerations = std::vector<Toleration>{
      Toleration{"gpu", TolerationOperator::Exists, "", TaintEffect::NoSchedule, std::nullopt}};
  templ.spec.node_selector = {{"pool", "a100"}};
  NodeAffinity affinity;
  affinity.required = std::vector<NodeSelectorTerm>{
      NodeSelectorTerm{{SelectorRequirement{"zone", SelectorOperator::In, {"z1", "z2"}}}, {}}};
  templ.spec.affinity.mut().node_affinity = affinity;
  Container c;
  c.name = "c";
  c.ports = {ContainerPort{"http", 80, 8080, "TCP", ""}};
  templ.spec.containers = std::vector<Container>{c};
  Pod first = templ;
  first.metadata.name = "first";
  Pod second = templ;
  second.metadata.name = "second";
  Pod third = templ;
  third.metadata.name = "third";
  Pod other = named("other");
  other.spec.tolerations = std::vector<Toleration>{
      Toleration{"spot", TolerationOperator::Equal, "yes", std::nullopt, std::nullopt}};
  const PodInfo& a = cluster.add_pod(first);
  const PodInfo& b = cluster.add_pod(second);
  const PodInfo& o = cluster.add_pod(other);
  const PodInfo& t = cluster.add_pod(third);
  CHECK(b.tolerations.shares(a.tolerations));
  CHECK(b.node_selector.shares(a.node_selector));
  CHECK(b.host_ports.shares(a.host_ports));
  REQUIRE(a.required_terms);
  REQUIRE(a.required_terms->size() == 1);
  CHECK(a.required_terms->front().match_expressions.front().values.size() == 2);
  CHECK(&*b.required_terms == &*a.required_terms);
  REQUIRE(a.tolerations.size() == 1);
  CHECK(a.tolerations.front().op == TolerationOperator::Exists);
  CHECK(a.tolerations.front().key == cluster.pool().intern("gpu"));
  REQUIRE(a.node_selector.size() == 1);
  CHECK(a.node_selector.front() ==
        std::pair<StrId, StrId>{cluster.pool().intern("pool"), cluster.pool().intern("a100")});
  REQUIRE(a.host_ports.size() == 1);
  CHECK(a.host_ports.front().port == 8080);
  // The other pod's own lists; what it does not ask for is empty.
  REQUIRE(o.tolerations.size() == 1);
  CHECK(o.tolerations.front().key == cluster.pool().intern("spot"));
  CHECK(o.tolerations.front().value == cluster.pool().intern("yes"));
  CHECK(o.node_selector.empty());
  CHECK_FALSE(o.required_terms);
  CHECK(o.preferred_terms.empty());
  CHECK(o.host_ports.empty());
  CHECK_FALSE(t.tolerations.shares(a.tolerations));
  CHECK(t.tolerations.size() == 1);
  CHECK(t.tolerations.front().key == a.tolerations.front().key);
  CHECK(t.node_selector.get() == a.node_selector.get());
  CHECK(t.host_ports.get() == a.host_ports.get());
  REQUIRE(t.required_terms);
  CHECK(t.required_terms->size() == 1);
}

TEST_CASE("ClusterState: the pods bound to a node share its name's text", "[framework]") {
  ClusterState cluster;
  NodeInfo& n1 = cluster.add_node(node_named("n1"));
  NodeInfo& n2 = cluster.add_node(node_named("n2"));
  PodInfo& a = cluster.add_pod(named("a"));
  PodInfo& b = cluster.add_pod(named("b"));
  PodInfo& c = cluster.add_pod(named("c"));
  cluster.bind(a, n1);
  cluster.bind(b, n1);
  cluster.assume(c, n2);
  CHECK(a.pod.spec.node_name == "n1");
  CHECK(b.pod.spec.node_name.shares(a.pod.spec.node_name));
  CHECK(c.pod.spec.node_name == "n2");
  CHECK_FALSE(c.pod.spec.node_name.shares(a.pod.spec.node_name));
}

TEST_CASE("ClusterState: the pod indexes dropped, the pods stay until drained", "[framework]") {
  ClusterState cluster;
  NodeInfo& node = cluster.add_node(node_named("n1"));
  PodInfo& bound = cluster.add_pod(named("bound"));
  cluster.bind(bound, node);
  cluster.add_pod(named("waiting"));
  cluster.drop_pod_indexes();
  CHECK(cluster.pods().size() == 0);
  CHECK(cluster.find_pod("default", "bound") == nullptr);
  REQUIRE(node.pods.size() == 1);  // nodes still list the pods they hold
  CHECK(node.pods.front()->pod.metadata.name == "bound");
  std::vector<std::string> drained;
  cluster.drain_pods([&](PodInfo& pod) { drained.push_back(pod.pod.metadata.name); });
  std::sort(drained.begin(), drained.end());
  CHECK(drained == std::vector<std::string>{"bound", "waiting"});
}

TEST_CASE("ClusterState: the lowest priority of the pods holding a node", "[framework]") {
  ClusterState cluster;
  NodeInfo& node_a = cluster.add_node(node_named("a"));
  auto with_priority = [](const std::string& name, std::int32_t priority) {
    Pod pod = named(name);
    pod.spec.priority = priority;
    return pod;
  };
  PodInfo& low = cluster.add_pod(with_priority("low", -5));
  PodInfo& high = cluster.add_pod(with_priority("high", 100));
  CHECK_FALSE(cluster.lowest_holding_priority());  // pending pods hold no node
  cluster.bind(high, node_a);
  CHECK(cluster.lowest_holding_priority() == 100);
  cluster.bind(low, node_a);
  CHECK(cluster.lowest_holding_priority() == -5);
  // A pod that finished holds no node any more.
  Pod done = low.pod;
  done.status.phase = PodPhase::Succeeded;
  cluster.update_pod(low, done);
  CHECK(cluster.lowest_holding_priority() == 100);
  // A pod bound to a node that comes later holds it from then on, and no longer once it goes.
  Pod early = with_priority("early", 7);
  early.spec.node_name = "b";
  cluster.add_pod(early);
  CHECK(cluster.lowest_holding_priority() == 100);
  NodeInfo& node_b = cluster.add_node(node_named("b"));
  CHECK(cluster.lowest_holding_priority() == 7);
  cluster.remove_node(node_b);
  CHECK(cluster.lowest_holding_priority() == 100);
  // Assumed and waiting pods hold their node too.
  PodInfo& waiting = cluster.add_pod(with_priority("waiting", 1));
  cluster.hold_waiting(waiting, node_a);
  CHECK(cluster.lowest_holding_priority() == 1);
  cluster.release_waiting(waiting);
  cluster.remove_pod(high);
  CHECK_FALSE(cluster.lowest_holding_priority());
}

TEST_CASE("ClusterState: a broken invariant is an InternalError, never a wrong answer",
          "[framework]") {
  ClusterState cluster;
  NodeInfo& node = cluster.add_node(node_named("n"));
  PodInfo& p = cluster.add_pod(named("p"));
  try {
    (void)cluster.add_pod(named("p"));
    FAIL("a taken name was added");
  } catch (const InternalError& e) {
    CHECK(e.invariant() == "a pod added to the cluster has a name no pod has");
    CHECK(e.file() == "lib/framework/cluster_state.cpp");
  }
  CHECK(cluster.find_pod("default", "p") == &p);  // the failed add left the cluster as it was
  // The indexes order and hash a pod by its name: an update may not rename it.
  CHECK_THROWS_WITH(cluster.update_pod(p, named("renamed")),
                    Catch::StartsWith("invariant \"an updated pod keeps its namespace and name\""));
  CHECK(cluster.find_pod("default", "p") == &p);
  CHECK_THROWS_AS(cluster.forget(p), InternalError);
  cluster.bind(p, node);
  CHECK_THROWS_WITH(cluster.bind(p, node),
                    Catch::StartsWith("invariant \"a pod bound to a node is not bound yet\""));
  CHECK_THROWS_AS(cluster.assume(p, node), InternalError);

  // A Gt value validation should have refused: compiling it is a bug, not "never matches".
  Pod gt = named("gt");
  NodeAffinity affinity;
  affinity.required.emplace().push_back(
      NodeSelectorTerm{{SelectorRequirement{"gpus", SelectorOperator::Gt, {"1-2"}}}, {}});
  gt.spec.affinity.mut().node_affinity = affinity;
  CHECK_THROWS_WITH(cluster.add_pod(gt),
                    Catch::StartsWith("invariant \"a Gt/Lt requirement's value is an int64\""));
  CHECK(cluster.find_pod("default", "gt") == nullptr);
}

}  // namespace
}  // namespace gpusched
