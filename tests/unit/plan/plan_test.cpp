// plan_pool: the smallest pool size meeting objectives, found by replays run in parallel.
#include "gpusched/plan/plan.hpp"

#include <catch2/catch.hpp>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"

#include <algorithm>

namespace gpusched::plan {
namespace {

const std::string kScenarios = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/";

report::Objective objective(const std::string& text) {
  std::string error;
  return *report::parse_objective(text, &error);
}

PoolPlanRequest request(const std::string& pool, std::int32_t min, std::int32_t max,
                        const std::vector<std::string>& objectives, unsigned jobs) {
  PoolPlanRequest out;
  out.pool = pool;
  out.min = min;
  out.max = max;
  for (const std::string& text : objectives) out.objectives.push_back(objective(text));
  out.jobs = jobs;
  return out;
}

TEST_CASE("plan finds the smallest pool with no pod pending", "[plan]") {
  // Three 8-GPU training pods and two web pods need three 8-GPU nodes.
  const Scenario scenario = io::load_scenario(kScenarios + "node-pool-gpu.json");
  for (unsigned jobs : {1u, 2u, 5u}) {
    INFO("jobs " << jobs);
    const PoolPlan plan = plan_pool(scenario, request("h100", 0, 20, {"pending==0"}, jobs));
    REQUIRE(plan.answer);
    CHECK(*plan.answer == 3);
    // Every size tried is reported in order, and the search never needs all 21.
    CHECK(plan.trials.size() < 21);
    for (std::size_t i = 1; i < plan.trials.size(); ++i)
      CHECK(plan.trials[i - 1].size < plan.trials[i].size);
    bool saw_two = false;
    for (const PlanTrial& trial : plan.trials) {
      CHECK(trial.met == (trial.size >= 3));
      if (trial.size == 2) {
        saw_two = true;
        CHECK(trial.unmet == std::vector<std::string>{"pending==0"});
        CHECK(report::find_metric(trial.metrics, "pending")->value == 1);
      }
    }
    CHECK(saw_two);  // the answer is only proven by a miss just below it
  }
}

TEST_CASE("the sizes a plan tries depend on the request, not on the machine", "[plan]") {
  const Scenario scenario = io::load_scenario(kScenarios + "node-pool-gpu.json");
  auto sizes = [&](unsigned jobs) {
    std::vector<std::int32_t> out;
    for (const PlanTrial& trial :
         plan_pool(scenario, request("h100", 0, 20, {"pending==0"}, jobs)).trials)
      out.push_back(trial.size);
    return out;
  };
  // Four sizes per round by default: 3, 7, 12, 16 spread over 0..20, then 0, 1, 2 below 3.
  CHECK(sizes(0) == std::vector<std::int32_t>{0, 1, 2, 3, 7, 12, 16});
  CHECK(sizes(0) == sizes(kDefaultPlanWidth));
}

TEST_CASE("plan reports when no size in range meets the objectives", "[plan]") {
  const Scenario scenario = io::load_scenario(kScenarios + "node-pool-gpu.json");
  const PoolPlan plan = plan_pool(scenario, request("h100", 0, 2, {"pending==0"}, 2));
  CHECK_FALSE(plan.answer);
  REQUIRE_FALSE(plan.trials.empty());
  CHECK(plan.trials.back().size == 2);
  CHECK_FALSE(plan.trials.back().met);
}

TEST_CASE("plan with a wait objective counts the waiting pods", "[plan]") {
  // The default scoring spreads the four workers over the nodes: the 8-GPU pod waits an hour
  // until a node is left empty, which takes five nodes.
  const Scenario scenario = io::load_scenario(kScenarios + "gpu-fragmentation-spread.json");
  const PoolPlan plan = plan_pool(scenario, request("a100", 1, 6, {"wait.max<10m"}, 2));
  REQUIRE(plan.answer);
  CHECK(*plan.answer == 5);
  CHECK(report::find_metric(plan.trials.front().metrics, "wait.max")->value == 3'590'000);
}

TEST_CASE("plan refuses what it cannot answer", "[plan]") {
  const Scenario scenario = io::load_scenario(kScenarios + "node-pool-gpu.json");
  CHECK_THROWS_WITH(plan_pool(scenario, request("a100", 0, 4, {"pending==0"}, 1)),
                    Catch::Contains("has no node pool \"a100\" (its pools: h100)"));
  CHECK_THROWS_WITH(plan_pool(scenario, request("h100", 5, 4, {"pending==0"}, 1)),
                    Catch::Contains("0 <= min <= max <= 100000, got 5..4"));
  CHECK_THROWS_WITH(plan_pool(scenario, request("h100", 0, 100'001, {"pending==0"}, 1)),
                    Catch::Contains("max <= 100000"));
  CHECK_THROWS_WITH(plan_pool(scenario, request("h100", 0, 4, {}, 1)),
                    Catch::Contains("at least one objective"));
  CHECK_THROWS_WITH(plan_pool(scenario, request("h100", 0, 4, {"pendng==0"}, 1)),
                    Catch::Contains("names metric \"pendng\", which no replay reports"));
  CHECK_THROWS_WITH(plan_pool(scenario, request("h100", 0, 4, {"pending<5m"}, 1)),
                    Catch::Contains("pending is a number"));
  const Scenario autoscaled = io::load_scenario(kScenarios + "autoscaler-gpu-burst.json");
  CHECK_THROWS_WITH(plan_pool(autoscaled, request("a100", 0, 4, {"pending==0"}, 1)),
                    Catch::Contains("node pool \"a100\" autoscales"));
  const Scenario no_pools = io::load_scenario(kScenarios + "two-pods-one-gpu.json");
  CHECK_THROWS_WITH(plan_pool(no_pools, request("h100", 0, 4, {"pending==0"}, 1)),
                    Catch::Contains("it declares no nodePools"));
}

MixPlanRequest mix_request(const std::vector<PoolRange>& pools, unsigned jobs) {
  return MixPlanRequest{pools, {objective("pending==0")}, jobs, {}};
}

TEST_CASE("plan_mix finds the cheapest mix and skips mixes that cannot beat it", "[plan]") {
  const Scenario scenario = io::load_scenario(kScenarios + "gpu-pool-mix.json");
  const MixPlan plan = plan_mix(scenario, mix_request({{"h100", 0, 4}, {"l4", 0, 6}}, 2));
  REQUIRE(plan.answer);
  const MixTrial& best = plan.trials.at(*plan.answer);
  CHECK(best.sizes == std::vector<std::int32_t>{2, 3});
  CHECK(best.price_micros_per_hour == 2 * 8 * 4'000'000 + 3 * 2 * 800'000);
  CHECK(best.met);
  for (const MixTrial& trial : plan.trials) {
    // Three h100 nodes cost more than the answer whatever the l4 count: never replayed.
    CHECK(trial.sizes.at(0) <= 2);
    // Every mix cheaper than the answer missed the objective.
    if (trial.price_micros_per_hour < best.price_micros_per_hour) CHECK_FALSE(trial.met);
  }
  CHECK(std::is_sorted(plan.trials.begin(), plan.trials.end(),
                       [](const MixTrial& a, const MixTrial& b) { return a.sizes < b.sizes; }));
  // The same mixes whatever the machine: jobs 0 is the default width on every core.
  const MixPlan wide = plan_mix(scenario, mix_request({{"h100", 0, 4}, {"l4", 0, 6}}, 0));
  const MixPlan four = plan_mix(scenario, mix_request({{"h100", 0, 4}, {"l4", 0, 6}}, 4));
  REQUIRE(wide.trials.size() == four.trials.size());
  for (std::size_t i = 0; i < wide.trials.size(); ++i)
    CHECK(wide.trials[i].sizes == four.trials[i].sizes);
  CHECK(four.trials.at(*four.answer).sizes == best.sizes);
  // With the pools the other way round, the same answer.
  const MixPlan swapped = plan_mix(scenario, mix_request({{"l4", 0, 6}, {"h100", 0, 4}}, 2));
  REQUIRE(swapped.answer);
  CHECK(swapped.trials.at(*swapped.answer).sizes == std::vector<std::int32_t>{3, 2});
  // One pool: plan_pool's answer.
  const MixPlan single =
      plan_mix(with_pool_size(scenario, "h100", 2), mix_request({{"l4", 0, 6}}, 2));
  REQUIRE(single.answer);
  CHECK(single.trials.at(*single.answer).sizes == std::vector<std::int32_t>{3});
}

TEST_CASE("plan_mix refuses what it cannot answer", "[plan]") {
  const Scenario scenario = io::load_scenario(kScenarios + "gpu-pool-mix.json");
  CHECK_THROWS_WITH(plan_mix(scenario, mix_request({{"h100", 0, 2}, {"h100", 0, 2}}, 1)),
                    Catch::Contains("node pool \"h100\" is named twice"));
  CHECK_THROWS_WITH(plan_mix(scenario, mix_request({{"h100", 3, 2}, {"l4", 0, 2}}, 1)),
                    Catch::Contains("must satisfy 0 <= min <= max, got 3..2"));
  CHECK_THROWS_WITH(plan_mix(scenario, mix_request({{"h100", 0, 20'000}, {"l4", 0, 2}}, 1)),
                    Catch::Contains("more than 10000 combinations"));
  CHECK_THROWS_WITH(plan_mix(scenario, mix_request({{"h100", 0, 60'000}, {"l4", 0, 60'000}}, 1)),
                    Catch::Contains("add up to 120000 nodes"));
  CHECK_THROWS_WITH(plan_mix(scenario, mix_request({}, 1)), Catch::Contains("at least one"));
  const Scenario unpriced = io::load_scenario(kScenarios + "gpu-fragmentation-spread.json");
  CHECK_THROWS_WITH(plan_mix(unpriced, mix_request({{"a100", 0, 2}}, 1)),
                    Catch::Contains("has no pricePerGpuHour"));
  Scenario cpu_only = scenario;
  cpu_only.node_pools.at(1).node.capacity.erase("nvidia.com/gpu");
  cpu_only.node_pools.at(1).node.allocatable.erase("nvidia.com/gpu");
  CHECK_THROWS_WITH(plan_mix(cpu_only, mix_request({{"h100", 0, 2}, {"l4", 0, 2}}, 1)),
                    Catch::Contains("node pool \"l4\" has no GPUs"));
}

TEST_CASE("with_pool_size resizes one pool and drops the expectations", "[plan]") {
  const Scenario scenario = io::load_scenario(kScenarios + "node-pool-gpu.json");
  const Scenario resized = with_pool_size(scenario, "h100", 7);
  CHECK(resized.node_pools.at(0).count == 7);
  CHECK(resized.expect.empty());
  CHECK(scenario.node_pools.at(0).count == 2);
}

}  // namespace
}  // namespace gpusched::plan
