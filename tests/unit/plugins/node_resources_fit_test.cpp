// NodeResourcesFit against upstream's pkg/scheduler/framework/plugins/noderesources/fit_test.go
// (TestEnoughRequests, TestNotEnoughRequests, TestStorageRequests, TestRestartableInitContainers,
// TestFitScore), transcribed in /work/research/tables.md.
#include "plugins/node_resources_fit.hpp"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "unit/plugins/plugin_test_support.hpp"

namespace gpusched {
namespace {

using test::bytes;
using test::container;
using test::milli;
using test::res;
using test::units;

constexpr const char* kA = "example.com/aaa";
constexpr const char* kB = "example.com/bbb";
constexpr const char* kIoA = "kubernetes.io/something";
constexpr const char* kIoB = "subdomain.kubernetes.io/something";
constexpr const char* kHp = "hugepages-2Mi";

// makeAllocatableResources(milliCPU, memory, pods, extendedA, storage, hugePageA).
ResourceList make_allocatable(std::int64_t cpu, std::int64_t memory, std::int64_t pods,
                              std::int64_t extended_a, std::int64_t storage,
                              std::int64_t hugepage_a) {
  return ResourceList{{"cpu", milli(cpu)},
                      {"memory", bytes(memory)},
                      {"pods", units(pods)},
                      {kA, units(extended_a)},
                      {"ephemeral-storage", bytes(storage)},
                      {kHp, bytes(hugepage_a)}};
}

struct FilterRow {
  std::string name;
  Pod pod;
  std::optional<ResourceList> existing;  // requests of the single existing pod, if any
  std::vector<std::string> reasons;      // empty: fits
  Code code_133 = Code::Success;
  Code code_134 = Code::Success;
  NodeResourcesFitArgs args{};
};

Pod pod_c(std::vector<ResourceList> containers, std::vector<ResourceList> inits = {}) {
  std::vector<Container> cs, is;
  for (auto& r : containers) cs.push_back(container(std::move(r)));
  for (auto& r : inits) is.push_back(container(std::move(r)));
  return test::make_pod("p", std::move(cs), std::move(is));
}

Pod with_overhead(Pod pod, ResourceList overhead) {
  pod.spec.overhead = std::move(overhead);
  return pod;
}

constexpr Code U = Code::Unschedulable;
constexpr Code UU = Code::UnschedulableAndUnresolvable;
constexpr Code OK = Code::Success;

void run_filter_rows(const std::vector<FilterRow>& rows, const ResourceList& allocatable) {
  for (const FilterRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      for (int minor : {33, 34, 35}) {
        INFO("Kubernetes 1." << minor);
        test::Env env(KubernetesVersion{minor});
        env.cluster.add_node(test::make_node("node", allocatable));
        if (row.existing) env.add_bound(pod_c({*row.existing}), "node");
        Handle handle = env.handle();
        plugins::NodeResourcesFit fit(handle, row.args);
        const PodInfo pod = env.compile(row.pod);
        CycleState state(1);
        Reasons reasons;
        const Code code = fit.filter(state, pod, *env.cluster.find_node("node"), reasons);
        CHECK(env.text(reasons) == row.reasons);
        CHECK(code == (minor == 33 ? row.code_133 : row.code_134));
      }
    }
  }
}

TEST_CASE("NodeResourcesFit Filter: upstream TestEnoughRequests", "[plugins]") {
  NodeResourcesFitArgs ignore_b;
  ignore_b.ignored_resources = {kB};
  NodeResourcesFitArgs ignore_group;
  ignore_group.ignored_resource_groups = {"example.com"};
  const std::vector<FilterRow> rows = {
      {"no resources requested always fits", test::make_pod("p"), res(10, 20), {}, OK, OK},
      {"too many resources fails",
       pod_c({res(1, 1)}),
       res(10, 20),
       {"Insufficient cpu", "Insufficient memory"},
       U,
       U},
      {"too many resources fails due to init container cpu",
       pod_c({res(1, 1)}, {res(3, 1)}),
       res(8, 19),
       {"Insufficient cpu"},
       U,
       U},
      {"too many resources fails due to highest init container cpu",
       pod_c({res(1, 1)}, {res(3, 1), res(2, 1)}),
       res(8, 19),
       {"Insufficient cpu"},
       U,
       U},
      {"too many resources fails due to init container memory",
       pod_c({res(1, 1)}, {res(1, 3)}),
       res(9, 19),
       {"Insufficient memory"},
       U,
       U},
      {"too many resources fails due to highest init container memory",
       pod_c({res(1, 1)}, {res(1, 3), res(1, 2)}),
       res(9, 19),
       {"Insufficient memory"},
       U,
       U},
      {"init container fits because it's the max, not sum, of containers and init containers",
       pod_c({res(1, 1)}, {res(1, 1)}),
       res(9, 19),
       {},
       OK,
       OK},
      {"multiple init containers fit because it's the max, not sum, of containers and init "
       "containers",
       pod_c({res(1, 1)}, {res(1, 1), res(1, 1)}),
       res(9, 19),
       {},
       OK,
       OK},
      {"both resources fit", pod_c({res(1, 1)}), res(5, 5), {}, OK, OK},
      {"one resource memory fits", pod_c({res(2, 1)}), res(9, 5), {"Insufficient cpu"}, U, U},
      {"one resource cpu fits", pod_c({res(1, 2)}), res(5, 19), {"Insufficient memory"}, U, U},
      {"equal edge case", pod_c({res(5, 1)}), res(5, 19), {}, OK, OK},
      {"equal edge case for init container",
       pod_c({res(4, 1)}, {res(5, 1)}),
       res(5, 19),
       {},
       OK,
       OK},
      {"extended resource fits", pod_c({res(0, 0, {{kA, 1}})}), res(0, 0), {}, OK, OK},
      {"extended resource fits for init container",
       pod_c({res(0, 0)}, {res(0, 0, {{kA, 1}})}),
       res(0, 0),
       {},
       OK,
       OK},
      {"extended resource capacity enforced",
       pod_c({res(1, 1, {{kA, 10}})}),
       res(0, 0, {{kA, 0}}),
       {"Insufficient example.com/aaa"},
       U,
       UU},
      {"extended resource capacity enforced for init container",
       pod_c({res(0, 0)}, {res(1, 1, {{kA, 10}})}),
       res(0, 0, {{kA, 0}}),
       {"Insufficient example.com/aaa"},
       U,
       UU},
      {"extended resource allocatable enforced",
       pod_c({res(1, 1, {{kA, 1}})}),
       res(0, 0, {{kA, 5}}),
       {"Insufficient example.com/aaa"},
       U,
       U},
      {"extended resource allocatable enforced for init container",
       pod_c({res(0, 0)}, {res(1, 1, {{kA, 1}})}),
       res(0, 0, {{kA, 5}}),
       {"Insufficient example.com/aaa"},
       U,
       U},
      {"extended resource allocatable enforced for multiple containers",
       pod_c({res(1, 1, {{kA, 3}}), res(1, 1, {{kA, 3}})}),
       res(0, 0, {{kA, 2}}),
       {"Insufficient example.com/aaa"},
       U,
       UU},
      {"extended resource allocatable admits multiple init containers",
       pod_c({res(0, 0)}, {res(1, 1, {{kA, 3}}), res(1, 1, {{kA, 3}})}),
       res(0, 0, {{kA, 2}}),
       {},
       OK,
       OK},
      {"extended resource allocatable enforced for multiple init containers",
       pod_c({res(0, 0)}, {res(1, 1, {{kA, 6}}), res(1, 1, {{kA, 3}})}),
       res(0, 0, {{kA, 2}}),
       {"Insufficient example.com/aaa"},
       U,
       UU},
      {"extended resource allocatable enforced for unknown resource",
       pod_c({res(1, 1, {{kB, 1}})}),
       res(0, 0),
       {"Insufficient example.com/bbb"},
       U,
       UU},
      {"extended resource allocatable enforced for unknown resource for init container",
       pod_c({res(0, 0)}, {res(1, 1, {{kB, 1}})}),
       res(0, 0),
       {"Insufficient example.com/bbb"},
       U,
       UU},
      {"kubernetes.io resource capacity enforced",
       pod_c({res(1, 1, {{kIoA, 10}})}),
       res(0, 0),
       {"Insufficient kubernetes.io/something"},
       U,
       UU},
      {"kubernetes.io resource capacity enforced for init container",
       pod_c({res(0, 0)}, {res(1, 1, {{kIoB, 10}})}),
       res(0, 0),
       {"Insufficient subdomain.kubernetes.io/something"},
       U,
       UU},
      {"hugepages resource capacity enforced",
       pod_c({res(1, 1, {{kHp, 10}})}),
       res(0, 0, {{kHp, 0}}),
       {"Insufficient hugepages-2Mi"},
       U,
       UU},
      {"hugepages resource capacity enforced for init container",
       pod_c({res(0, 0)}, {res(1, 1, {{kHp, 10}})}),
       res(0, 0, {{kHp, 0}}),
       {"Insufficient hugepages-2Mi"},
       U,
       UU},
      {"hugepages resource allocatable enforced for multiple containers",
       pod_c({res(1, 1, {{kHp, 3}}), res(1, 1, {{kHp, 3}})}),
       res(0, 0, {{kHp, 2}}),
       {"Insufficient hugepages-2Mi"},
       U,
       UU},
      {"skip checking ignored extended resource",
       pod_c({res(1, 1, {{kB, 1}})}),
       res(0, 0),
       {},
       OK,
       OK,
       ignore_b},
      {"resources + pod overhead fits",
       with_overhead(pod_c({res(1, 1)}), {{"cpu", milli(3)}, {"memory", bytes(13)}}),
       res(5, 5),
       {},
       OK,
       OK},
      {"requests + overhead does not fit for memory",
       with_overhead(pod_c({res(1, 1)}), {{"cpu", milli(1)}, {"memory", bytes(15)}}),
       res(5, 5),
       {"Insufficient memory"},
       U,
       U},
      {"skip checking ignored extended resource via resource groups",
       pod_c({res(1, 1, {{kB, 1}, {kIoA, 1}})}),
       res(0, 0),
       {"Insufficient kubernetes.io/something"},
       U,
       UU,
       ignore_group},
      {"skip checking extended resource request with quantity zero via resource groups",
       pod_c({res(1, 1, {{kA, 0}})}),
       res(0, 0, {{kA, 6}}),
       {},
       OK,
       OK},
      {"skip checking resource request with quantity zero",
       pod_c({res(0, 0, {{kA, 1}})}),
       res(20, 30, {{kA, 1}}),
       {},
       OK,
       OK},
      // Rows 36-42 ("pod-level ... (PLR on)") need spec.resources and the PodLevelResources gate,
      // alpha and off in 1.33; the model has no pod-level resources, so they do not apply.
  };
  REQUIRE(rows.size() == 35);
  run_filter_rows(rows, make_allocatable(10, 20, 32, 5, 20, 5));
}

TEST_CASE("NodeResourcesFit Filter: upstream TestNotEnoughRequests", "[plugins]") {
  const std::vector<FilterRow> rows = {
      {"even without specified resources, predicate fails when there's no space for additional "
       "pod",
       test::make_pod("p"),
       res(10, 20),
       {"Too many pods"},
       U,
       U},
      {"even if both resources fit, predicate fails when there's no space for additional pod",
       pod_c({res(1, 1)}),
       res(5, 5),
       {"Too many pods"},
       U,
       U},
      {"even for equal edge case, predicate fails when there's no space for additional pod",
       pod_c({res(5, 1)}),
       res(5, 19),
       {"Too many pods"},
       U,
       U},
      {"even for equal edge case, predicate fails when there's no space for additional pod due "
       "to init container",
       pod_c({res(5, 1)}, {res(5, 1)}),
       res(5, 19),
       {"Too many pods"},
       U,
       U},
  };
  ResourceList allocatable = make_allocatable(10, 20, 1, 0, 0, 0);
  for (const FilterRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      for (int minor : {33, 34}) {
        test::Env env(KubernetesVersion{minor});
        Node node = test::make_node("node", allocatable);
        node.capacity.clear();  // upstream: Capacity {}
        env.cluster.add_node(node);
        env.add_bound(pod_c({*row.existing}), "node");
        Handle handle = env.handle();
        plugins::NodeResourcesFit fit(handle, row.args);
        const PodInfo pod = env.compile(row.pod);
        CycleState state(1);
        Reasons reasons;
        // "Too many pods" never makes the status unresolvable.
        CHECK(fit.filter(state, pod, *env.cluster.find_node("node"), reasons) == U);
        CHECK(env.text(reasons) == row.reasons);
      }
    }
  }
}

TEST_CASE("NodeResourcesFit Filter: upstream TestStorageRequests", "[plugins]") {
  auto es = [](std::int64_t cpu, std::int64_t mem, std::int64_t storage) {
    ResourceList r = res(cpu, mem);
    r["ephemeral-storage"] = bytes(storage);
    return r;
  };
  const std::vector<FilterRow> rows = {
      {"empty storage requested, and pod fits", pod_c({res(1, 1)}), res(2, 10), {}, OK, OK},
      {"storage ephemeral local storage request exceeds allocatable",
       pod_c({es(0, 0, 25)}),
       res(2, 2),
       {"Insufficient ephemeral-storage"},
       U,
       UU},
      {"ephemeral local storage is sufficient", pod_c({es(0, 0, 5)}), es(2, 2, 10), {}, OK, OK},
      {"pod fits", pod_c({es(0, 0, 10)}), res(2, 2), {}, OK, OK},
  };
  run_filter_rows(rows, make_allocatable(10, 20, 32, 5, 20, 5));
}

TEST_CASE("NodeResourcesFit Filter: upstream TestRestartableInitContainers", "[plugins]") {
  // SidecarContainers is GA in 1.33: the "feature disabled" rows do not apply.
  auto sidecar_pod = [](std::optional<std::int64_t> regular_cpu,
                        std::optional<std::int64_t> sidecar_cpu, bool with_sidecar) {
    Pod pod = test::make_pod(
        "p",
        {container(regular_cpu ? ResourceList{{"cpu", milli(*regular_cpu)}} : ResourceList{})});
    if (with_sidecar) {
      pod.spec.init_containers.push_back(container(
          sidecar_cpu ? ResourceList{{"cpu", milli(*sidecar_cpu)}} : ResourceList{}, "Always"));
    }
    return pod;
  };
  const std::vector<FilterRow> rows = {
      {"allow pod without restartable init containers if sidecar containers is enabled",
       sidecar_pod(std::nullopt, std::nullopt, false),
       std::nullopt,
       {},
       OK,
       OK},
      {"allow pod with restartable init containers if sidecar containers is enabled",
       sidecar_pod(std::nullopt, std::nullopt, true),
       std::nullopt,
       {},
       OK,
       OK},
      {"allow pod if the total requested resources do not exceed the node's allocatable resources",
       sidecar_pod(1, 1, true),
       std::nullopt,
       {},
       OK,
       OK},
      {"not allow pod if the total requested resources do exceed the node's allocatable resources",
       sidecar_pod(1, 2, true),
       std::nullopt,
       {"Insufficient cpu"},
       U,
       UU},
  };
  run_filter_rows(rows, make_allocatable(2, 0, 1, 0, 0, 0));
}

TEST_CASE(
    "NodeResourcesFit Filter: the whole status is UU when one request alone exceeds "
    "allocatable (1.34+)",
    "[plugins]") {
  // One reason is resolvable (cpu: 6m free of 10m, asks 8m), one is not (memory 25 > 20).
  const std::vector<FilterRow> rows = {
      {"cpu resolvable, memory over allocatable",
       pod_c({res(8, 25)}),
       res(4, 0),
       {"Insufficient cpu", "Insufficient memory"},
       U,
       UU},
      {"too many pods and an unresolvable cpu request",
       pod_c({res(11, 1)}),
       std::nullopt,
       {"Too many pods", "Insufficient cpu"},
       U,
       UU},
  };
  ResourceList allocatable = make_allocatable(10, 20, 32, 5, 20, 5);
  // Second row: a node full of pods (pods=0).
  run_filter_rows({rows[0]}, allocatable);
  run_filter_rows({rows[1]}, make_allocatable(10, 20, 0, 5, 20, 5));
}

// ---- Score ---------------------------------------------------------------------------------

struct ScoreRow {
  std::string name;
  ScoringStrategyType strategy;
  std::vector<UtilizationShapePoint> shape;
  ResourceList request;
  bool sidecar;  // the sidecar rows: node2 has 4000 cpu; node1's existing pod has a sidecar
  std::int64_t want_node1, want_node2;
  bool run_pre_score;
};

// st.MakeNode().Capacity(map): pods 32 plus the map. "cpu": "4000" is 4000 cores.
Node score_node(const std::string& name, std::int64_t cores, std::int64_t memory) {
  return test::make_node(
      name, ResourceList{{"cpu", units(cores)}, {"memory", units(memory)}, {"pods", units(32)}});
}

ResourceList req(std::int64_t cores, std::int64_t memory) {
  return ResourceList{{"cpu", units(cores)}, {"memory", units(memory)}};
}

TEST_CASE("NodeResourcesFit Score: upstream TestFitScore", "[plugins]") {
  using S = ScoringStrategyType;
  const std::vector<UtilizationShapePoint> shape1{{0, 10}, {100, 0}};
  const std::vector<UtilizationShapePoint> shape2{{0, 0}, {100, 10}};
  const std::vector<ScoreRow> rows = {
      {"test case for ScoringStrategy RequestedToCapacityRatio case1", S::RequestedToCapacityRatio,
       shape1, req(3000, 5000), false, 10, 32, true},
      {"test case for ScoringStrategy RequestedToCapacityRatio case2", S::RequestedToCapacityRatio,
       shape2, req(3000, 5000), false, 95, 68, true},
      {"test case for ScoringStrategy MostAllocated",
       S::MostAllocated,
       {},
       req(1000, 2000),
       false,
       67,
       36,
       true},
      {"test case for ScoringStrategy LeastAllocated",
       S::LeastAllocated,
       {},
       req(1000, 2000),
       false,
       32,
       63,
       true},
      {"test case for ScoringStrategy RequestedToCapacityRatio case1 if PreScore is not called",
       S::RequestedToCapacityRatio, shape1, req(3000, 5000), false, 10, 32, false},
      {"test case for ScoringStrategy MostAllocated if PreScore is not called",
       S::MostAllocated,
       {},
       req(1000, 2000),
       false,
       67,
       36,
       false},
      {"test case for ScoringStrategy LeastAllocated if PreScore is not called",
       S::LeastAllocated,
       {},
       req(1000, 2000),
       false,
       32,
       63,
       false},
      {"test case for ScoringStrategy MostAllocated with sidecar container",
       S::MostAllocated,
       {},
       req(1000, 2000),
       true,
       67,
       45,
       true},
      {"test case for ScoringStrategy LeastAllocated with sidecar container",
       S::LeastAllocated,
       {},
       req(1000, 2000),
       true,
       32,
       55,
       true},
  };
  for (const ScoreRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      test::Env env;
      env.cluster.add_node(score_node("node1", 4000, 10000));
      env.cluster.add_node(score_node("node2", row.sidecar ? 4000 : 6000, 10000));
      if (row.sidecar) {
        Pod p1 = test::make_pod("e1", {container(req(1000, 2000))},
                                {container(req(1000, 2000), "Always")});
        env.add_bound(p1, "node1");
        env.add_bound(test::make_pod("e2", {container(req(1000, 2000))}), "node2");
      } else {
        env.add_bound(test::make_pod("e1", {container(req(2000, 4000))}), "node1");
        env.add_bound(test::make_pod("e2", {container(req(1000, 2000))}), "node2");
      }
      NodeResourcesFitArgs args;
      args.scoring_type = row.strategy;
      args.shape = row.shape;
      Handle handle = env.handle();
      plugins::NodeResourcesFit fit(handle, args);
      const PodInfo pod = env.compile(test::make_pod("p", {container(row.request)}));
      std::vector<const NodeInfo*> nodes{env.cluster.find_node("node1"),
                                         env.cluster.find_node("node2")};
      CycleState state(1);
      if (row.run_pre_score) REQUIRE(fit.pre_score(state, pod, nodes) == Code::Success);
      CHECK(fit.score(state, pod, *nodes[0]) == row.want_node1);
      CHECK(fit.score(state, pod, *nodes[1]) == row.want_node2);
    }
  }
}

TEST_CASE("NodeResourcesFit Score: missing cpu/memory requests count 100m / 200Mi", "[plugins]") {
  // NonMissingContainerRequests: LeastAllocated sees 100m of 1000m and 200Mi of 1000Mi.
  test::Env env;
  env.cluster.add_node(
      test::make_node("n", {{"cpu", milli(1000)}, {"memory", bytes(1000LL * 1024 * 1024)}}));
  Handle handle = env.handle();
  plugins::NodeResourcesFit fit(handle, {});
  const PodInfo pod = env.compile(test::make_pod("p", {container({})}));
  CycleState state(1);
  std::vector<const NodeInfo*> nodes{env.cluster.find_node("n")};
  REQUIRE(fit.pre_score(state, pod, nodes) == Code::Success);
  // cpu (1000-100)*100/1000 = 90, memory (1000-200)*100/1000 = 80 -> 85.
  CHECK(fit.score(state, pod, *nodes[0]) == 85);
}

TEST_CASE("NodeResourcesFit Score: a scalar resource the pod does not request is ignored",
          "[plugins]") {
  // calculateResourceAllocatableRequest returns (0, 0) for an unrequested scalar resource.
  test::Env env;
  env.cluster.add_node(test::make_node(
      "n", {{"cpu", milli(4000)}, {"memory", bytes(4000)}, {"nvidia.com/gpu", units(8)}}));
  NodeResourcesFitArgs args;
  args.scoring_type = ScoringStrategyType::MostAllocated;
  args.resources = {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 3}};
  Handle handle = env.handle();
  plugins::NodeResourcesFit fit(handle, args);
  std::vector<const NodeInfo*> nodes{env.cluster.find_node("n")};
  SECTION("pod without GPUs: cpu 50, memory 25") {
    const PodInfo pod = env.compile(test::make_pod("p", {container(res(2000, 1000))}));
    CycleState state(1);
    REQUIRE(fit.pre_score(state, pod, nodes) == Code::Success);
    CHECK(fit.score(state, pod, *nodes[0]) == (50 + 25) / 2);
  }
  SECTION("pod with 2 of 8 GPUs: (50 + 25 + 25*3) / 5") {
    const PodInfo pod =
        env.compile(test::make_pod("p", {container(res(2000, 1000, {{"nvidia.com/gpu", 2}}))}));
    CycleState state(1);
    REQUIRE(fit.pre_score(state, pod, nodes) == Code::Success);
    CHECK(fit.score(state, pod, *nodes[0]) == (50 + 25 + 25 * 3) / 5);
  }
}

TEST_CASE("NodeResourcesFit queueing hints", "[plugins][queue]") {
  test::Env env;
  NodeInfo& node = env.cluster.add_node(test::make_node("n", {{"cpu", milli(1000)}}));
  PodInfo& assigned = env.add_bound(test::make_pod("a", {container({{"cpu", milli(500)}})}), "n");
  PodInfo& unassigned =
      env.cluster.add_pod(test::make_pod("u", {container({{"cpu", milli(500)}})}));
  Handle handle = env.handle();
  plugins::NodeResourcesFit fit(handle, {});
  const PodInfo pod = env.compile(test::make_pod("p", {container({{"cpu", milli(800)}})}));
  const ClusterEvent pod_delete{EventResource::Pod, action::kDelete, "AssignedPodDelete"};
  CHECK(fit.queueing_hint(pod_delete, pod, {nullptr, nullptr, &assigned}) == QueueingHint::Queue);
  CHECK(fit.queueing_hint(pod_delete, pod, {nullptr, nullptr, &unassigned}) ==
        QueueingHint::QueueSkip);

  const ClusterEvent node_add{EventResource::Node, action::kAdd, "NodeAdd"};
  CHECK(fit.queueing_hint(node_add, pod, {nullptr, &node, nullptr}) == QueueingHint::Queue);
  NodeInfo& small = env.cluster.add_node(test::make_node("small", {{"cpu", milli(500)}}));
  CHECK(fit.queueing_hint(node_add, pod, {nullptr, &small, nullptr}) == QueueingHint::QueueSkip);

  const ClusterEvent update{EventResource::Node, action::kUpdateNodeAllocatable, "NodeUpdate"};
  const Node old_small = small.node;
  env.cluster.update_node(small, test::make_node("small", {{"cpu", milli(900)}}));
  CHECK(fit.queueing_hint(update, pod, {&old_small, &small, nullptr}) == QueueingHint::Queue);
  // Memory grew but the pod asks no memory: nothing it requests increased.
  const Node old_small2 = small.node;
  env.cluster.update_node(small,
                          test::make_node("small", {{"cpu", milli(900)}, {"memory", bytes(10)}}));
  CHECK(fit.queueing_hint(update, pod, {&old_small2, &small, nullptr}) == QueueingHint::QueueSkip);
}

}  // namespace
}  // namespace gpusched
