// Kueue v0.19.2's quota arithmetic tests, transcribed with the upstream names:
// - TestAvailable (pkg/cache/scheduler/resource_test.go): Available and PotentialAvailable of
//   every ClusterQueue's (flavor, resource) before usage, with usage and after removing it
//   again, across cohorts with quotas, borrowing and lending limits, and cohort trees.
// - TestSnapshot (pkg/cache/scheduler/snapshot_test.go), the cases about quotas and usage:
//   each node's subtree quota and usage, usage coming from admitted workloads (workload.NewInfo).
//   Its other cases cover what the snapshot carries besides quotas (preemption, fair sharing
//   weights, TAS) or leave out queues under a cohort cycle, which gpusched decides in the
//   admission scheduler, not in the quota tree.
// - TestDeleteCohortUpdatesAncestorSubtreeQuota (pkg/cache/scheduler/cache_test.go): the tree
//   is rebuilt from the objects, so deleting a Cohort is building without it.
// - TestSnapshotAddRemoveWorkload and TestSnapshotAddRemoveWorkloadWithLendingLimit
//   (pkg/cache/scheduler/snapshot_test.go): the usage of every ClusterQueue and cohort and the
//   subtree quotas after workloads leave and return (addUsage / removeUsage through the tree).
// TestCohortLendable (resource_node_test.go) is in fair_sharing_test.cpp, beside the only user
// of calculateLendable. FindHeightOfLowestSubtreeThatFits has no test of its own upstream
// (preemption tests cover it through the preemptor).

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "kueue/quota_tree.hpp"
#include "kueue/workload_info.hpp"
#include "unit/kueue/kueue_test_support.hpp"

namespace gpusched::kueue {
namespace {

using namespace testing;  // NOLINT: the builders read like upstream's wrappers

using PerQueue = std::map<std::string, FlavorResourceAmounts>;

struct AvailableCase {
  std::vector<Cohort> cohorts;
  std::vector<ClusterQueue> cluster_queues;
  PerQueue usage;
  PerQueue want_available;
  PerQueue want_potentially_available;
};

// What upstream's loop collects: for each queue, each (flavor, resource) it has a quota for.
void collect(const QuotaTree& tree, PerQueue& available, PerQueue& potential) {
  for (const auto& [name, cq] : tree.cluster_queues()) {
    auto& a = available[name];
    auto& p = potential[name];
    for (const auto& [fr, q] : cq->resources.quotas) {
      a[fr] = cq->available(fr);
      p[fr] = potential_available(*cq, fr);
    }
  }
}

void check(const AvailableCase& c) {
  QuotaTree tree = build_tree(c.cluster_queues, c.cohorts);
  {
    INFO("before adding usage, available == potentiallyAvailable");
    PerQueue available, potential;
    collect(tree, available, potential);
    CHECK(available == c.want_potentially_available);
    CHECK(potential == c.want_potentially_available);
  }
  {
    INFO("with usage");
    for (const auto& [name, usage] : c.usage) tree.cluster_queue(name)->add_usage(usage);
    PerQueue available, potential;
    collect(tree, available, potential);
    CHECK(available == c.want_available);
    CHECK(potential == c.want_potentially_available);
  }
  {
    INFO("after removing usage, available == potentiallyAvailable");
    for (const auto& [name, usage] : c.usage) tree.cluster_queue(name)->remove_usage(usage);
    PerQueue available, potential;
    collect(tree, available, potential);
    CHECK(available == c.want_potentially_available);
    CHECK(potential == c.want_potentially_available);
  }
}

FlavorResourceAmounts red_cpu(std::int64_t v) {
  return fr_amounts({{{"red", "cpu"}, v}});
}

}  // namespace

TEST_CASE("TestAvailable/base cqs", "[kueue][quota_tree]") {
  AvailableCase c;
  c.cluster_queues = {
      ClusterQueueBuilder("cq1").resource_group({FlavorQuotasBuilder("red").resource("cpu", "0")}),
      ClusterQueueBuilder("cq2").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "5"),
           FlavorQuotasBuilder("blue").resource("cpu", "10")}),
  };
  c.usage = {{"cq1", red_cpu(1000)},
             {"cq2", fr_amounts({{{"red", "cpu"}, 2'500}, {{"blue", "cpu"}, 1'000}})}};
  c.want_available = {{"cq1", red_cpu(0)},
                      {"cq2", fr_amounts({{{"red", "cpu"}, 2'500}, {{"blue", "cpu"}, 9'000}})}};
  c.want_potentially_available = {
      {"cq1", red_cpu(0)},
      {"cq2", fr_amounts({{{"red", "cpu"}, 5'000}, {{"blue", "cpu"}, 10'000}})}};
  check(c);
}

TEST_CASE("TestAvailable/cqs with cohort", "[kueue][quota_tree]") {
  AvailableCase c;
  c.cluster_queues = {
      ClusterQueueBuilder("cq1").cohort("cohort").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "10")}),
      ClusterQueueBuilder("cq2").cohort("cohort").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "10", "", "9")}),
  };
  c.cohorts = {
      CohortBuilder("cohort").resource_group({FlavorQuotasBuilder("red").resource("cpu", "10")})};
  c.usage = {{"cq1", red_cpu(1000)}, {"cq2", red_cpu(500)}};
  c.want_available = {{"cq1", red_cpu(28'000)}, {"cq2", red_cpu(28'500)}};
  c.want_potentially_available = {{"cq1", red_cpu(29'000)}, {"cq2", red_cpu(30'000)}};
  check(c);
}

TEST_CASE("TestAvailable/cq borrows from cohort", "[kueue][quota_tree]") {
  AvailableCase c;
  c.cluster_queues = {ClusterQueueBuilder("cq1").cohort("cohort").resource_group(
      {FlavorQuotasBuilder("red").resource("cpu", "10")})};
  c.cohorts = {
      CohortBuilder("cohort").resource_group({FlavorQuotasBuilder("red").resource("cpu", "10")})};
  c.usage = {{"cq1", red_cpu(11'000)}};
  c.want_available = {{"cq1", red_cpu(9'000)}};
  c.want_potentially_available = {{"cq1", red_cpu(20'000)}};
  check(c);
}

TEST_CASE("TestAvailable/cq oversubscription spills into cohort", "[kueue][quota_tree]") {
  AvailableCase c;
  c.cluster_queues = {
      ClusterQueueBuilder("cq1").cohort("cohort").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "10")}),
      ClusterQueueBuilder("cq2").cohort("cohort").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "10", "0", "0")}),
  };
  c.cohorts = {
      CohortBuilder("cohort").resource_group({FlavorQuotasBuilder("red").resource("cpu", "10")})};
  c.usage = {{"cq1", red_cpu(31'000)}};
  // Even though cq2 doesn't borrow or lend, cq1's usage spills into its available, to prevent
  // overadmission for (red, cpu) within the cohort tree.
  c.want_available = {{"cq1", red_cpu(0)}, {"cq2", red_cpu(0)}};
  c.want_potentially_available = {{"cq1", red_cpu(20'000)}, {"cq2", red_cpu(10'000)}};
  check(c);
}

TEST_CASE("TestAvailable/lending and borrowing limits respected", "[kueue][quota_tree]") {
  AvailableCase c;
  c.cluster_queues = {
      ClusterQueueBuilder("cq1").cohort("cohort").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "10")}),
      ClusterQueueBuilder("cq2").cohort("cohort").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "10", "2")}),
      ClusterQueueBuilder("cq3").cohort("cohort").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "10", "", "5")}),
  };
  c.cohorts = {
      CohortBuilder("cohort").resource_group({FlavorQuotasBuilder("red").resource("cpu", "10")})};
  c.usage = {{"cq1", red_cpu(20'000)}, {"cq2", red_cpu(10'000)}, {"cq3", red_cpu(6'000)}};
  c.want_available = {{"cq1", red_cpu(4'000)}, {"cq2", red_cpu(2'000)}, {"cq3", red_cpu(4'000)}};
  c.want_potentially_available = {
      {"cq1", red_cpu(35'000)}, {"cq2", red_cpu(12'000)}, {"cq3", red_cpu(40'000)}};
  check(c);
}

TEST_CASE("TestAvailable/hierarchical cohort", "[kueue][quota_tree]") {
  AvailableCase c;
  c.cluster_queues = {
      ClusterQueueBuilder("cq1").cohort("left").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "10")}),
      ClusterQueueBuilder("cq2").cohort("right").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "10", "", "0")}),
  };
  c.cohorts = {
      CohortBuilder("root"),
      CohortBuilder("left").parent("root").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "10")}),
      CohortBuilder("right").parent("root").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "10")}),
  };
  c.usage = {{"cq1", red_cpu(10'000)}, {"cq2", red_cpu(5'000)}};
  c.want_available = {{"cq1", red_cpu(20'000)}, {"cq2", red_cpu(25'000)}};
  c.want_potentially_available = {{"cq1", red_cpu(30'000)}, {"cq2", red_cpu(40'000)}};
  check(c);
}

TEST_CASE("TestAvailable/hierarchical cohort respects borrowing limit", "[kueue][quota_tree]") {
  AvailableCase c;
  c.cluster_queues = {
      ClusterQueueBuilder("left-cq1")
          .cohort("left")
          .resource_group({FlavorQuotasBuilder("red").resource("cpu", "10")}),
      ClusterQueueBuilder("left-cq2")
          .cohort("left")
          .resource_group({FlavorQuotasBuilder("red").resource("cpu", "10", "5")}),
      ClusterQueueBuilder("right-cq")
          .cohort("right")
          .resource_group({FlavorQuotasBuilder("red").resource("cpu", "10")}),
  };
  c.cohorts = {
      CohortBuilder("root"),
      CohortBuilder("left").parent("root").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "10", "5")}),
      CohortBuilder("right").parent("root").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "10")}),
  };
  c.want_available = {
      {"left-cq1", red_cpu(35'000)}, {"left-cq2", red_cpu(15'000)}, {"right-cq", red_cpu(50'000)}};
  c.want_potentially_available = c.want_available;
  check(c);
}

TEST_CASE("TestAvailable/hierarchical cohort respects lending limit", "[kueue][quota_tree]") {
  AvailableCase c;
  c.cluster_queues = {
      ClusterQueueBuilder("left-cq1")
          .cohort("left")
          .resource_group({FlavorQuotasBuilder("red").resource("cpu", "10", "", "5")}),
      ClusterQueueBuilder("left-cq2")
          .cohort("left")
          .resource_group({FlavorQuotasBuilder("red").resource("cpu", "10")}),
      ClusterQueueBuilder("right-cq")
          .cohort("right")
          .resource_group({FlavorQuotasBuilder("red").resource("cpu", "0")}),
      ClusterQueueBuilder("root-cq").cohort("root").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "0")}),
  };
  c.cohorts = {
      CohortBuilder("root"),
      CohortBuilder("left").parent("root").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "0", "", "5")}),
      CohortBuilder("right").parent("root").resource_group(
          {FlavorQuotasBuilder("red").resource("cpu", "0")}),
  };
  c.want_available = {{"left-cq1", red_cpu(20'000)},
                      {"left-cq2", red_cpu(15'000)},
                      {"right-cq", red_cpu(5'000)},
                      {"root-cq", red_cpu(5'000)}};
  c.want_potentially_available = c.want_available;
  check(c);
}

namespace {

// A workload's usage under its admission, named as upstream's workload keys.
using Workloads = std::map<std::string, std::pair<std::string, FlavorResourceAmounts>>;

struct NodeWant {
  FlavorResourceAmounts usage;
  FlavorResourceAmounts subtree_quota;
};

void check_node(const QuotaNode& node, const NodeWant& want) {
  for (const auto& [fr, v] : want.usage) {
    INFO(fr.flavor << "/" << fr.resource);
    CHECK(node.resources.used(fr) == v);
  }
  for (const auto& [fr, v] : want.subtree_quota) {
    INFO(fr.flavor << "/" << fr.resource);
    CHECK(node.resources.subtree(fr) == v);
  }
}

// The cache adds each admitted workload's usage; the case then removes and adds some.
QuotaTree tree_with(const std::vector<ClusterQueue>& cqs, const Workloads& workloads,
                    const std::vector<std::string>& remove, const std::vector<std::string>& add) {
  QuotaTree tree = build_tree(cqs);
  for (const auto& [key, wl] : workloads) tree.cluster_queue(wl.first)->add_usage(wl.second);
  for (const std::string& key : remove) {
    const auto& wl = workloads.at(key);
    tree.cluster_queue(wl.first)->remove_usage(wl.second);
  }
  for (const std::string& key : add) {
    const auto& wl = workloads.at(key);
    tree.cluster_queue(wl.first)->add_usage(wl.second);
  }
  return tree;
}

}  // namespace

TEST_CASE("TestSnapshotAddRemoveWorkload", "[kueue][quota_tree]") {
  const std::vector<ClusterQueue> cqs = {
      ClusterQueueBuilder("c1")
          .cohort("cohort")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "6")})
          .resource_group({FlavorQuotasBuilder("alpha").resource("memory", "6Gi"),
                           FlavorQuotasBuilder("beta").resource("memory", "6Gi")}),
      ClusterQueueBuilder("c2").cohort("cohort").resource_group(
          {FlavorQuotasBuilder("default").resource("cpu", "6")}),
  };
  const Workloads workloads = {
      {"/c1-cpu", {"c1", fr_amounts({{{"default", "cpu"}, 1'000}})}},
      {"/c1-memory-alpha", {"c1", fr_amounts({{{"alpha", "memory"}, Gi}})}},
      {"/c1-memory-beta", {"c1", fr_amounts({{{"beta", "memory"}, Gi}})}},
      {"/c2-cpu-1", {"c2", fr_amounts({{{"default", "cpu"}, 1'000}})}},
      {"/c2-cpu-2", {"c2", fr_amounts({{{"default", "cpu"}, 1'000}})}},
  };
  const FlavorResourceAmounts c1_quota = fr_amounts(
      {{{"default", "cpu"}, 6'000}, {{"alpha", "memory"}, 6 * Gi}, {{"beta", "memory"}, 6 * Gi}});
  const FlavorResourceAmounts c2_quota = fr_amounts({{{"default", "cpu"}, 6'000}});
  const FlavorResourceAmounts cohort_quota = fr_amounts(
      {{{"default", "cpu"}, 12'000}, {{"alpha", "memory"}, 6 * Gi}, {{"beta", "memory"}, 6 * Gi}});
  auto usage3 = [](std::int64_t cpu, std::int64_t alpha, std::int64_t beta) {
    return fr_amounts(
        {{{"default", "cpu"}, cpu}, {{"alpha", "memory"}, alpha}, {{"beta", "memory"}, beta}});
  };
  struct Want {
    NodeWant cohort, c1, c2;
  };
  const Want initial{{usage3(3'000, Gi, Gi), cohort_quota},
                     {usage3(1'000, Gi, Gi), c1_quota},
                     {fr_amounts({{{"default", "cpu"}, 2'000}}), c2_quota}};
  auto run = [&](const std::vector<std::string>& remove, const std::vector<std::string>& add,
                 const Want& want) {
    const QuotaTree tree = tree_with(cqs, workloads, remove, add);
    check_node(*tree.cohort("cohort"), want.cohort);
    check_node(*tree.cluster_queue("c1"), want.c1);
    check_node(*tree.cluster_queue("c2"), want.c2);
  };
  SECTION("no-op remove add") {
    run({"/c1-cpu", "/c2-cpu-1"}, {"/c1-cpu", "/c2-cpu-1"}, initial);
  }
  SECTION("remove all") {
    run({"/c1-cpu", "/c1-memory-alpha", "/c1-memory-beta", "/c2-cpu-1", "/c2-cpu-2"}, {},
        {{usage3(0, 0, 0), cohort_quota},
         {usage3(0, 0, 0), c1_quota},
         {fr_amounts({{{"default", "cpu"}, 0}}), c2_quota}});
  }
  SECTION("remove c1-cpu") {
    run({"/c1-cpu"}, {},
        {{usage3(2'000, Gi, Gi), cohort_quota},
         {usage3(0, Gi, Gi), c1_quota},
         {fr_amounts({{{"default", "cpu"}, 2'000}}), c2_quota}});
  }
  SECTION("remove c1-memory-alpha") {
    run({"/c1-memory-alpha"}, {},
        {{usage3(3'000, 0, Gi), cohort_quota},
         {usage3(1'000, 0, Gi), c1_quota},
         {fr_amounts({{{"default", "cpu"}, 2'000}}), c2_quota}});
  }
}

TEST_CASE("TestSnapshotAddRemoveWorkloadWithLendingLimit", "[kueue][quota_tree]") {
  const std::vector<ClusterQueue> cqs = {
      ClusterQueueBuilder("lend-a")
          .cohort("lend")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "10", "", "4")})
          .preemption(preemption(PreemptionPolicy::LowerPriority, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::LowerPriority)),
      ClusterQueueBuilder("lend-b")
          .cohort("lend")
          .resource_group({FlavorQuotasBuilder("default").resource("cpu", "10", "", "6")})
          .preemption(preemption(PreemptionPolicy::Any, BorrowWithinCohortPolicy::Never,
                                 PreemptionPolicy::Never)),
  };
  auto cpu = [](std::int64_t v) { return fr_amounts({{{"default", "cpu"}, v}}); };
  const Workloads workloads = {
      {"/lend-a-1", {"lend-a", cpu(1'000)}},
      {"/lend-a-2", {"lend-a", cpu(9'000)}},
      {"/lend-a-3", {"lend-a", cpu(6'000)}},
      {"/lend-b-1", {"lend-b", cpu(4'000)}},
  };
  // The cohort's subtree quota: what each queue lends, 4 + 6.
  const FlavorResourceAmounts cohort_quota = cpu(10'000);
  auto run = [&](const std::vector<std::string>& remove, const std::vector<std::string>& add,
                 std::int64_t cohort, std::int64_t a, std::int64_t b) {
    const QuotaTree tree = tree_with(cqs, workloads, remove, add);
    check_node(*tree.cohort("lend"), {cpu(cohort), cohort_quota});
    check_node(*tree.cluster_queue("lend-a"), {cpu(a), cpu(10'000)});
    check_node(*tree.cluster_queue("lend-b"), {cpu(b), cpu(10'000)});
  };
  const std::vector<std::string> all = {"/lend-a-1", "/lend-a-2", "/lend-a-3", "/lend-b-1"};
  SECTION("remove all then add all") {
    run(all, all, 10'000, 16'000, 4'000);
  }
  SECTION("remove all") {
    run(all, {}, 0, 0, 0);
  }
  SECTION("remove workload, but still using quota over GuaranteedQuota") {
    run({"/lend-a-2"}, {}, 1'000, 7'000, 4'000);
  }
  SECTION("remove wokload, using same quota as GuaranteedQuota") {
    run({"/lend-a-1", "/lend-a-2"}, {}, 0, 6'000, 4'000);
  }
  SECTION("remove workload, using less quota than GuaranteedQuota") {
    run({"/lend-a-2", "/lend-a-3"}, {}, 0, 1'000, 4'000);
  }
  SECTION("remove all then add workload, using less quota than GuaranteedQuota") {
    run(all, {"/lend-a-1"}, 0, 1'000, 0);
  }
  SECTION("remove all then add workload, using same quota as GuaranteedQuota") {
    run(all, {"/lend-a-3"}, 0, 6'000, 0);
  }
  SECTION("remove all then add workload, using quota over GuaranteedQuota") {
    run(all, {"/lend-a-2"}, 3'000, 9'000, 0);
  }
}

namespace {

struct AssignmentOf {
  std::string resource;
  std::string flavor;
  std::string usage;
};

// MakeWorkload(name).PodSets(MakePodSet("main", count).Request(...)).ReserveQuotaAt(
// MakeAdmission(cq).PodSets(MakePodSetAssignment("main").Assignment(resource, flavor, usage)...
// .Count(count))).
Workload admitted_workload(const std::string& name, std::int32_t count,
                           const std::vector<std::pair<std::string, std::string>>& requests,
                           const std::string& cq, const std::vector<AssignmentOf>& assignments) {
  PodSetBuilder ps("main", count);
  for (const auto& [r, q] : requests) ps.request(r, q);
  Workload wl;
  wl.metadata.name = name;
  wl.pod_sets = {ps};
  PodSetAssignment psa;
  psa.name = "main";
  for (const AssignmentOf& a : assignments) {
    psa.flavors[a.resource] = a.flavor;
    psa.resource_usage[a.resource] = qty(a.usage);
  }
  psa.count = count;
  wl.admission = Admission{cq, {psa}};
  return wl;
}

// The cache's usage: each admitted workload's usage added to its ClusterQueue.
void add_workloads(QuotaTree& tree, const std::vector<Workload>& workloads) {
  for (const Workload& wl : workloads) {
    const WorkloadInfo info = make_info(wl, "/" + wl.metadata.name);
    tree.cluster_queue(info.cluster_queue)->add_usage(info.usage());
  }
}

}  // namespace

TEST_CASE("TestSnapshot/cohort", "[kueue][quota_tree]") {
  QuotaTree tree = build_tree({
      ClusterQueueBuilder("a")
          .cohort("borrowing")
          .resource_group({FlavorQuotasBuilder("demand").resource("cpu", "100"),
                           FlavorQuotasBuilder("spot").resource("cpu", "200")}),
      ClusterQueueBuilder("b")
          .cohort("borrowing")
          .resource_group({FlavorQuotasBuilder("spot").resource("cpu", "100")})
          .resource_group({FlavorQuotasBuilder("default").resource("example.com/gpu", "50")}),
      ClusterQueueBuilder("c").resource_group(
          {FlavorQuotasBuilder("default").resource("cpu", "100")}),
  });
  // sigma has no admission: it holds no quota.
  add_workloads(
      tree, {admitted_workload("alpha", 5, {{"cpu", "2"}}, "a", {{"cpu", "demand", "10000m"}}),
             admitted_workload("beta", 5, {{"cpu", "1"}, {"example.com/gpu", "2"}}, "b",
                               {{"cpu", "spot", "5000m"}, {"example.com/gpu", "default", "10"}}),
             admitted_workload("gamma", 5, {{"cpu", "1"}, {"example.com/gpu", "1"}}, "b",
                               {{"cpu", "spot", "5000m"}, {"example.com/gpu", "default", "5"}})});
  check_node(*tree.cohort("borrowing"), {fr_amounts({{{"demand", "cpu"}, 10'000},
                                                     {{"spot", "cpu"}, 10'000},
                                                     {{"default", "example.com/gpu"}, 15}}),
                                         fr_amounts({{{"demand", "cpu"}, 100'000},
                                                     {{"spot", "cpu"}, 300'000},
                                                     {{"default", "example.com/gpu"}, 50}})});
  check_node(*tree.cluster_queue("a"),
             {fr_amounts({{{"demand", "cpu"}, 10'000}, {{"spot", "cpu"}, 0}}),
              fr_amounts({{{"demand", "cpu"}, 100'000}, {{"spot", "cpu"}, 200'000}})});
  check_node(*tree.cluster_queue("b"),
             {fr_amounts({{{"spot", "cpu"}, 10'000}, {{"default", "example.com/gpu"}, 15}}),
              fr_amounts({{{"spot", "cpu"}, 100'000}, {{"default", "example.com/gpu"}, 50}})});
  check_node(*tree.cluster_queue("c"),
             {fr_amounts({{{"default", "cpu"}, 0}}), fr_amounts({{{"default", "cpu"}, 100'000}})});
  CHECK(tree.cluster_queue("c")->parent == nullptr);
}

namespace {

// `copy` has the same nodes as `original`, linked among themselves, with the same quotas, usage
// and workload keys.
void check_same_tree(const QuotaTree& copy, const QuotaTree& original) {
  REQUIRE(copy.cluster_queues().size() == original.cluster_queues().size());
  REQUIRE(copy.cohorts().size() == original.cohorts().size());
  for (const auto& [name, cq] : original.cluster_queues()) {
    INFO("ClusterQueue " << name);
    const ClusterQueueNode* mine = copy.cluster_queue(name);
    REQUIRE(mine != nullptr);
    CHECK(mine != cq.get());
    CHECK(mine->resources.usage == cq->resources.usage);
    CHECK(mine->resources.subtree_quota == cq->resources.subtree_quota);
    CHECK(mine->workloads == cq->workloads);
    if (cq->parent == nullptr) {
      CHECK(mine->parent == nullptr);
    } else {
      CHECK(mine->parent == copy.cohort(cq->parent->name));
    }
  }
  for (const auto& [name, cohort] : original.cohorts()) {
    INFO("Cohort " << name);
    const CohortNode* mine = copy.cohort(name);
    REQUIRE(mine != nullptr);
    CHECK(mine->resources.usage == cohort->resources.usage);
    REQUIRE(mine->child_cqs.size() == cohort->child_cqs.size());
    for (std::size_t i = 0; i < mine->child_cqs.size(); ++i)
      CHECK(mine->child_cqs[i] == copy.cluster_queue(cohort->child_cqs[i]->name));
  }
}

}  // namespace

// The admission scheduler copies the cache into the same snapshot every cycle (nodes assigned in
// place when the queues and cohorts are the same ones) and then lets go of its workload keys.
TEST_CASE("QuotaTree: a copy onto a tree of the same or another shape is the original",
          "[kueue][quota_tree]") {
  const std::vector<ClusterQueue> cqs = {
      ClusterQueueBuilder("a")
          .cohort("borrowing")
          .resource_group({FlavorQuotasBuilder("spot").resource("cpu", "100")}),
      ClusterQueueBuilder("b")
          .cohort("borrowing")
          .resource_group({FlavorQuotasBuilder("spot").resource("cpu", "100")}),
  };
  QuotaTree cache = build_tree(cqs);
  const Workload alpha =
      admitted_workload("alpha", 1, {{"cpu", "2"}}, "a", {{"cpu", "spot", "10000m"}});
  add_workloads(cache, {alpha});
  cache.cluster_queue("a")->workloads.insert("/alpha");

  QuotaTree snapshot;
  snapshot = cache;
  check_same_tree(snapshot, cache);
  // The snapshot's arithmetic leaves the cache alone, and the next copy undoes it in place.
  const ClusterQueueNode* node_a = snapshot.cluster_queue("a");
  snapshot.cluster_queue("b")->add_usage(fr_amounts({{{"spot", "cpu"}, 50'000}}));
  CHECK(cache.cluster_queue("b")->resources.used({"spot", "cpu"}) == Amount(0));
  snapshot = cache;
  CHECK(snapshot.cluster_queue("a") == node_a);
  check_same_tree(snapshot, cache);
  // Letting go of the keys leaves the cache's.
  snapshot.release_workload_keys();
  CHECK_FALSE(snapshot.cluster_queue("a")->workloads.contains("/alpha"));
  CHECK(cache.cluster_queue("a")->workloads.contains("/alpha"));
  // Another shape: a queue more, no cohort.
  const QuotaTree other = build_tree({
      ClusterQueueBuilder("a").resource_group({FlavorQuotasBuilder("spot").resource("cpu", "1")}),
      ClusterQueueBuilder("c").resource_group({FlavorQuotasBuilder("spot").resource("cpu", "1")}),
      ClusterQueueBuilder("d").resource_group({FlavorQuotasBuilder("spot").resource("cpu", "1")}),
  });
  snapshot = other;
  check_same_tree(snapshot, other);
  CHECK(snapshot.cluster_queue("b") == nullptr);
  snapshot = cache;
  check_same_tree(snapshot, cache);
}

TEST_CASE(
    "TestSnapshot/lendingLimit with 2 clusterQueues and 2 flavors(whenCanBorrow: MayStopSearch)",
    "[kueue][quota_tree]") {
  QuotaTree tree = build_tree({
      ClusterQueueBuilder("a").cohort("lending").resource_group(
          {FlavorQuotasBuilder("arm").resource("cpu", "10", "", "5"),
           FlavorQuotasBuilder("x86").resource("cpu", "20", "", "10")}),
      ClusterQueueBuilder("b").cohort("lending").resource_group(
          {FlavorQuotasBuilder("arm").resource("cpu", "10", "", "5"),
           FlavorQuotasBuilder("x86").resource("cpu", "20", "", "10")}),
  });
  add_workloads(tree,
                {admitted_workload("alpha", 5, {{"cpu", "2"}}, "a", {{"cpu", "arm", "10000m"}}),
                 admitted_workload("beta", 5, {{"cpu", "1"}}, "a", {{"cpu", "arm", "5000m"}}),
                 admitted_workload("gamma", 5, {{"cpu", "2"}}, "a", {{"cpu", "x86", "10000m"}})});
  check_node(*tree.cohort("lending"),
             {fr_amounts({{{"arm", "cpu"}, 10'000}, {{"x86", "cpu"}, 0}}),
              fr_amounts({{{"arm", "cpu"}, 10'000}, {{"x86", "cpu"}, 20'000}})});
  check_node(*tree.cluster_queue("a"),
             {fr_amounts({{{"arm", "cpu"}, 15'000}, {{"x86", "cpu"}, 10'000}}),
              fr_amounts({{{"arm", "cpu"}, 10'000}, {{"x86", "cpu"}, 20'000}})});
  check_node(*tree.cluster_queue("b"),
             {fr_amounts({{{"arm", "cpu"}, 0}, {{"x86", "cpu"}, 0}}),
              fr_amounts({{{"arm", "cpu"}, 10'000}, {{"x86", "cpu"}, 20'000}})});
}

TEST_CASE("TestSnapshot/cohort provides resources", "[kueue][quota_tree]") {
  const QuotaTree tree =
      build_tree({ClusterQueueBuilder("cq").cohort("cohort").resource_group(
                     {FlavorQuotasBuilder("arm").resource("cpu", "7", "", "3"),
                      FlavorQuotasBuilder("x86").resource("cpu", "5")})},
                 {CohortBuilder("cohort")
                      .resource_group({FlavorQuotasBuilder("arm").resource("cpu", "10"),
                                       FlavorQuotasBuilder("x86").resource("cpu", "20")})
                      .resource_group({FlavorQuotasBuilder("mips").resource("cpu", "42")})});
  check_node(*tree.cohort("cohort"), {{},
                                      fr_amounts({{{"arm", "cpu"}, 13'000},
                                                  {{"x86", "cpu"}, 25'000},
                                                  {{"mips", "cpu"}, 42'000}})});
  check_node(*tree.cluster_queue("cq"),
             {{}, fr_amounts({{{"arm", "cpu"}, 7'000}, {{"x86", "cpu"}, 5'000}})});
  const NodeQuota arm = tree.cluster_queue("cq")->quota_for({"arm", "cpu"});
  CHECK(arm.nominal == Amount(7'000));
  CHECK_FALSE(arm.borrowing_limit.has_value());
  CHECK(arm.lending_limit == Amount(3'000));
}

namespace {

void check_subtree_quotas(const std::vector<ClusterQueue>& cqs, const std::vector<Cohort>& cohorts,
                          const std::map<std::string, FlavorResourceAmounts>& want) {
  const QuotaTree tree = build_tree(cqs, cohorts);
  for (const auto& [name, quota] : want) {
    INFO("cohort " << name);
    CHECK(tree.cohort(name)->resources.subtree_quota == quota);
  }
}

std::vector<Cohort> without(std::vector<Cohort> cohorts, const std::string& name) {
  std::erase_if(cohorts, [&](const Cohort& c) { return c.metadata.name == name; });
  return cohorts;
}

FlavorResourceAmounts default_cpu(std::int64_t v) {
  return fr_amounts({{{"default", "cpu"}, v}});
}

}  // namespace

TEST_CASE(
    "TestDeleteCohortUpdatesAncestorSubtreeQuota/deleting child cohort updates parent "
    "SubtreeQuota",
    "[kueue][quota_tree]") {
  const std::vector<Cohort> cohorts = {
      CohortBuilder("root").resource_group({FlavorQuotasBuilder("default").resource("cpu", "10")}),
      CohortBuilder("child").parent("root").resource_group(
          {FlavorQuotasBuilder("default").resource("cpu", "5")}),
  };
  check_subtree_quotas({}, cohorts, {{"root", default_cpu(15'000)}});
  check_subtree_quotas({}, without(cohorts, "child"), {{"root", default_cpu(10'000)}});
}

TEST_CASE(
    "TestDeleteCohortUpdatesAncestorSubtreeQuota/deleting grandchild cohort updates all "
    "ancestors SubtreeQuota",
    "[kueue][quota_tree]") {
  const std::vector<Cohort> cohorts = {
      CohortBuilder("root").resource_group({FlavorQuotasBuilder("default").resource("cpu", "10")}),
      CohortBuilder("mid").parent("root").resource_group(
          {FlavorQuotasBuilder("default").resource("cpu", "5")}),
      CohortBuilder("leaf").parent("mid").resource_group(
          {FlavorQuotasBuilder("default").resource("cpu", "3")}),
  };
  check_subtree_quotas({}, cohorts, {{"mid", default_cpu(8'000)}, {"root", default_cpu(18'000)}});
  check_subtree_quotas({}, without(cohorts, "leaf"),
                       {{"mid", default_cpu(5'000)}, {"root", default_cpu(15'000)}});
}

TEST_CASE(
    "TestDeleteCohortUpdatesAncestorSubtreeQuota/deleting cohort with children updates parent "
    "SubtreeQuota",
    "[kueue][quota_tree]") {
  const std::vector<Cohort> cohorts = {
      CohortBuilder("root").resource_group({FlavorQuotasBuilder("default").resource("cpu", "10")}),
      CohortBuilder("mid").parent("root").resource_group(
          {FlavorQuotasBuilder("default").resource("cpu", "5")}),
  };
  const std::vector<ClusterQueue> cqs = {ClusterQueueBuilder("cq").cohort("mid").resource_group(
      {FlavorQuotasBuilder("default").resource("cpu", "7")})};
  check_subtree_quotas(cqs, cohorts, {{"root", default_cpu(22'000)}});
  // The queue still names "mid": an implicit cohort with no parent and no quota of its own.
  check_subtree_quotas(cqs, without(cohorts, "mid"), {{"root", default_cpu(10'000)}});
}

}  // namespace gpusched::kueue
