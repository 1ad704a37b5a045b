// Kueue v0.19.2's dominant resource share tests, transcribed with the upstream names:
// - TestDominantResourceShare (pkg/cache/scheduler/fair_sharing_test.go): the rounded weighted
//   share (roundedWeightedShare, as the ClusterQueue status' weightedShare), the dominant
//   resource and whether it borrows, of each ClusterQueue and Cohort after usage is added to
//   "cq". Its cases "usage with workload above nominal" and "multiple flavors" pass a workload's
//   request to dominantResourceShare, which no caller in Kueue does, and "borrowing against
//   unlimited lendable capacity (exabyte-scale quota)" needs a 1E cpu quota, past what a
//   gpusched Quantity holds in milli-units; not transcribed.
// - TestCohortLendable (pkg/cache/scheduler/resource_node_test.go): calculateLendable.
// - CompareDRS of nodes with weight 0 (fair_sharing.go).

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "kueue/fair_sharing.hpp"
#include "unit/kueue/kueue_test_support.hpp"

namespace gpusched::kueue {
namespace {

using namespace testing;  // NOLINT: the builders read like upstream's wrappers

struct Result {
  std::int64_t value = 0;
  std::string resource;
  bool borrowing = false;
  friend bool operator==(const Result&, const Result&) = default;
};

struct DrsCase {
  const char* name;
  FlavorResourceAmounts usage;
  std::vector<ClusterQueue> cluster_queues;
  std::vector<Cohort> cohorts;
  std::map<std::string, Result> want;
};

Result result_of(const QuotaNode& node) {
  const Drs drs = dominant_resource_share(node);
  return Result{weighted_share_status(drs), drs.dominant_resource, drs.borrowing};
}

ClusterQueue lending_cq(std::string_view weight, std::string_view cpu, std::string_view gpu) {
  FlavorQuotasBuilder flavor("default");
  if (!cpu.empty()) flavor.resource("cpu", cpu);
  flavor.resource("example.com/gpu", gpu);
  return ClusterQueueBuilder("lending-cq")
      .cohort("test-cohort")
      .fair_weight(weight)
      .resource_group({flavor});
}

ClusterQueue test_cq(std::string_view weight, std::string_view cpu, std::string_view gpu) {
  FlavorQuotasBuilder flavor("default");
  if (!cpu.empty()) flavor.resource("cpu", cpu);
  flavor.resource("example.com/gpu", gpu);
  return ClusterQueueBuilder("cq")
      .cohort("test-cohort")
      .fair_weight(weight)
      .resource_group({flavor});
}

const Result kZero{};

TEST_CASE("TestDominantResourceShare", "[kueue][fair_sharing]") {
  const FlavorResource cpu{"default", "cpu"};
  const FlavorResource gpu{"default", "example.com/gpu"};
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  const std::vector<DrsCase> cases = {
      {"no cohort",
       {{cpu, Amount(1000)}, {gpu, Amount(2)}},
       {ClusterQueueBuilder("cq").resource_group({FlavorQuotasBuilder("default")
                                                      .resource("cpu", "2000")
                                                      .resource("example.com/gpu", "5")})},
       {},
       {{"cq", kZero}}},
      {"usage below nominal",
       {{cpu, Amount(1000)}, {gpu, Amount(2)}},
       {test_cq("1", "2", "5"), lending_cq("1", "8", "5")},
       {},
       {{"cq", kZero}, {"lending-cq", kZero}, {"test-cohort", kZero}}},
      {"usage above nominal",
       {{cpu, Amount(3000)}, {gpu, Amount(7)}},
       {test_cq("1", "2", "5"), lending_cq("1", "8", "5")},
       {},
       // (7-5)*1000/10
       {{"cq", {200, "example.com/gpu", true}}, {"lending-cq", kZero}, {"test-cohort", kZero}}},
      {"usage slightly above nominal in a cohort with large quotas",
       {{gpu, Amount(501)}},
       {test_cq("1", "", "500"), lending_cq("300", "", "1000")},
       {},
       {{"cq", {1, "example.com/gpu", true}}, {"lending-cq", kZero}, {"test-cohort", kZero}}},
      {"usage way above nominal in a cohort with large quotas and weights",
       {{gpu, Amount(800)}},
       {test_cq("300", "", "500"), lending_cq("300", "", "1000")},
       {},
       {{"cq", {1, "example.com/gpu", true}}, {"lending-cq", kZero}, {"test-cohort", kZero}}},
      {"one resource above nominal",
       {{cpu, Amount(3000)}, {gpu, Amount(3)}},
       {test_cq("1", "2", "5"), lending_cq("1", "8", "5")},
       {},
       // (3-2)*1000/10
       {{"cq", {100, "cpu", true}}, {"lending-cq", kZero}, {"test-cohort", kZero}}},
      {"above nominal with integer weight",
       {{gpu, Amount(7)}},
       {test_cq("2", "", "5"), lending_cq("1", "", "5")},
       {},
       // ((7-5)*1000/10)/2
       {{"cq", {100, "example.com/gpu", true}}, {"lending-cq", kZero}, {"test-cohort", kZero}}},
      {"above nominal with decimal weight",
       {{gpu, Amount(7)}},
       {test_cq("0.5", "", "5"), lending_cq("1", "", "5")},
       {},
       // ((7-5)*1000/10)/(1/2)
       {{"cq", {400, "example.com/gpu", true}}, {"lending-cq", kZero}, {"test-cohort", kZero}}},
      {"above nominal with zero weight",
       {{gpu, Amount(7)}},
       {test_cq("0", "", "5"), lending_cq("1", "", "10")},
       {},
       {{"cq", {max, "example.com/gpu", true}}, {"lending-cq", kZero}, {"test-cohort", kZero}}},
      {"cohort has resource share",
       {{gpu, Amount(10)}},
       {ClusterQueueBuilder("cq")
            .cohort("child-cohort")
            .fair_weight("1")
            .resource_group({FlavorQuotasBuilder("default").resource("example.com/gpu", "5")})},
       {CohortBuilder("child-cohort").fair_weight("2").parent("root"),
        CohortBuilder("root").resource_group(
            {FlavorQuotasBuilder("default").resource("example.com/gpu", "45")})},
       // (5 / 50) * 1000, and that over the cohort's weight 2
       {{"cq", {100, "example.com/gpu", true}},
        {"child-cohort", {50, "example.com/gpu", true}},
        {"root", kZero}}},
      {"resource share defined for resources only available at the root cohort",
       {{gpu, Amount(10)}},
       {ClusterQueueBuilder("cq")
            .cohort("child-cohort")
            .fair_weight("1")
            .resource_group({FlavorQuotasBuilder("default").resource("example.com/gpu", "0")})},
       {CohortBuilder("child-cohort").fair_weight("2").parent("root"),
        CohortBuilder("root").resource_group(
            {FlavorQuotasBuilder("default").resource("example.com/gpu", "50")})},
       {{"cq", {200, "example.com/gpu", true}},
        {"child-cohort", {100, "example.com/gpu", true}},
        {"root", kZero}}},
      {"resource share affected by borrowing limit",
       {{gpu, Amount(10)}},
       {ClusterQueueBuilder("cq")
            .cohort("child-cohort")
            .resource_group({FlavorQuotasBuilder("default").resource("example.com/gpu", "0")})},
       {CohortBuilder("child-cohort")
            .resource_group({FlavorQuotasBuilder("default").resource("example.com/gpu", "0", "10")})
            .parent("root"),
        CohortBuilder("root").resource_group(
            {FlavorQuotasBuilder("default").resource("example.com/gpu", "50")})},
       // (10 / 10) * 1000, and (10 / 50) * 1000
       {{"cq", {1000, "example.com/gpu", true}},
        {"child-cohort", {200, "example.com/gpu", true}},
        {"root", kZero}}},
  };
  for (const DrsCase& c : cases) {
    SECTION(c.name) {
      QuotaTree tree = build_tree(c.cluster_queues, c.cohorts);
      tree.cluster_queue("cq")->add_usage(c.usage);
      std::map<std::string, Result> got;
      for (const auto& [name, cq] : tree.cluster_queues()) got[name] = result_of(*cq);
      for (const auto& [name, cohort] : tree.cohorts()) got[name] = result_of(*cohort);
      CHECK(got == c.want);
    }
  }
}

TEST_CASE("CompareDRS: weight 0 borrowing ranks above all, others by weighted share",
          "[kueue][fair_sharing]") {
  Drs zero_weight_small;
  zero_weight_small.fair_weight = 0;
  zero_weight_small.unweighted_ratio = 10;
  Drs zero_weight_big = zero_weight_small;
  zero_weight_big.unweighted_ratio = 20;
  Drs heavy;
  heavy.unweighted_ratio = 5000;
  Drs not_borrowing;
  not_borrowing.fair_weight = 0;
  CHECK(compare_drs(zero_weight_small, heavy) == 1);
  CHECK(compare_drs(heavy, zero_weight_small) == -1);
  CHECK(compare_drs(zero_weight_small, zero_weight_big) == -1);
  CHECK(compare_drs(not_borrowing, heavy) == -1);
  CHECK(not_borrowing.precise_weighted_share() == 0.0);
  CHECK(compare_drs(Drs::negative(), not_borrowing) == -1);
}

TEST_CASE("TestCohortLendable", "[kueue][fair_sharing]") {
  const QuotaTree tree = build_tree(
      {ClusterQueueBuilder("cq1")
           .cohort("test-cohort")
           .resource_group({FlavorQuotasBuilder("default")
                                .resource("cpu", "8", "", "8")
                                .resource("example.com/gpu", "3", "", "3")}),
       ClusterQueueBuilder("cq2")
           .cohort("test-cohort")
           .resource_group({FlavorQuotasBuilder("default").resource("cpu", "2", "", "2")})});
  const std::map<std::string, Amount> want{{"cpu", Amount(10'000)}, {"example.com/gpu", Amount(3)}};
  CHECK(calculate_lendable(*tree.cohort("test-cohort")) == want);
}

}  // namespace
}  // namespace gpusched::kueue
