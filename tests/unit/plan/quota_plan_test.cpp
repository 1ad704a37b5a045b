// plan_quotas: the smallest Kueue nominalQuota of nvidia.com/gpu meeting objectives, on
// kueue-cohort-teams (two ClusterQueues in a cohort, each with H100 and A100 quota; two 8-GPU
// nodes of each).
#include "gpusched/plan/plan.hpp"

#include <catch2/catch.hpp>

#include <variant>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"

namespace gpusched::plan {
namespace {

const std::string kCohort = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/kueue-cohort-teams.json";

QuotaPlanRequest request(const std::vector<QuotaRange>& queues,
                         const std::vector<std::string>& objectives) {
  QuotaPlanRequest out;
  out.queues = queues;
  for (const std::string& text : objectives) {
    std::string error;
    out.objectives.push_back(*report::parse_objective(text, &error));
  }
  out.jobs = 2;
  return out;
}

TEST_CASE("plan_quotas finds team-b's smallest GPU quota for its p95 wait", "[plan][kueue]") {
  // team-b's quota Q in each flavor; team-a keeps 8 + 8. The cohort has 8 + Q of each flavor.
  // - Q < 8: train (team-a, 16 GPUs) fits no flavor and never runs; finetune (8) borrows H100s;
  //   pretrain (16) then finds Q H100s and 8 + Q A100s free, fewer than 16, and waits to the end.
  // - 8 <= Q < 16: train takes 16 H100s, finetune team-b's A100s; pretrain finds Q - 8 H100s and
  //   Q A100s free and waits from 20s until train returns the H100s at 1h (59m40s > 30m).
  // - Q >= 16: finetune takes the 8 H100s left, pretrain team-b's own 16 A100s at once.
  const Scenario scenario = io::load_scenario(kCohort);
  const QuotaPlan plan =
      plan_quotas(scenario, request({{"team-b", "", 0, 32}}, {"cq/team-b:wait.p95<30m"}));
  REQUIRE(plan.answer);
  const QuotaTrial& answer = plan.trials[*plan.answer];
  CHECK(answer.quotas == std::vector<std::int32_t>{16});
  CHECK(answer.met);
  for (const QuotaTrial& trial : plan.trials) CHECK(trial.met == (trial.quotas[0] >= 16));
  const auto wait = report::find_metric(answer.metrics, "kueue.wait.p95{clusterQueue=team-b}");
  REQUIRE(wait);
  CHECK(wait->value == 0);

  // Only the A100 quota (H100 stays 8): train borrows team-b's H100s, finetune needs A100s, and
  // pretrain needs 16 A100s beside finetune's 8 within the cohort's 8 + Q.
  const QuotaPlan a100 =
      plan_quotas(scenario, request({{"team-b", "a100", 0, 32}}, {"cq/team-b:wait.p95<30m"}));
  REQUIRE(a100.answer);
  CHECK(a100.trials[*a100.answer].quotas == std::vector<std::int32_t>{16});
}

TEST_CASE("plan_quotas searches several ClusterQueues one after the other", "[plan][kueue]") {
  // team-a first, with team-b at 32: the cohort always has H100s for train, so team-a needs 0.
  // Then team-b with team-a at 0: the cohort has Q of each flavor, all of it team-b's. Train
  // (16) needs Q >= 16; then finetune takes A100s unless Q - 16 >= 8 H100s are left, and
  // pretrain needs 16 A100s beside finetune's 8 (Q >= 24) or finetune on H100s (Q >= 24).
  const Scenario scenario = io::load_scenario(kCohort);
  const QuotaPlan plan =
      plan_quotas(scenario, request({{"team-a", "", 0, 32}, {"team-b", "", 0, 32}},
                                    {"cq/team-a:wait.p95<30m", "cq/team-b:wait.p95<30m"}));
  REQUIRE(plan.answer);
  CHECK(plan.trials[*plan.answer].quotas == std::vector<std::int32_t>{0, 24});
  for (const QuotaTrial& trial : plan.trials) {
    if (trial.quotas[0] == 0) CHECK(trial.met == (trial.quotas[1] >= 24));
  }
}

TEST_CASE("plan_quotas refuses what it cannot search", "[plan][kueue]") {
  const Scenario scenario = io::load_scenario(kCohort);
  const std::vector<std::string> objectives{"cq/team-b:wait.p95<30m"};
  CHECK_THROWS_WITH(plan_quotas(scenario, request({{"team-z", "", 0, 8}}, objectives)),
                    Catch::Contains("has no ClusterQueue \"team-z\" among its starting objects "
                                    "(its ClusterQueues: team-a, team-b)"));
  CHECK_THROWS_WITH(plan_quotas(scenario, request({{"team-b", "v100", 0, 8}}, objectives)),
                    Catch::Contains("ClusterQueue \"team-b\" has no nominalQuota of "
                                    "nvidia.com/gpu in flavor \"v100\""));
  CHECK_THROWS_WITH(
      plan_quotas(scenario, request({{"team-b", "", 0, 8}, {"team-b", "h100", 0, 8}}, objectives)),
      Catch::Contains("ClusterQueue \"team-b\"'s quota is named twice"));
  CHECK_THROWS_WITH(plan_quotas(scenario, request({{"team-b", "", 4, 2}}, objectives)),
                    Catch::Contains("must satisfy 0 <= min <= max <= 1000000, got 4..2"));
  CHECK_THROWS_WITH(
      plan_quotas(scenario, request({{"team-b", "", 0, 8}}, {"cq/team-c:wait.p95<30m"})),
      Catch::Contains("names ClusterQueue \"team-c\", which the replay does not have"));

  // Kueue refuses a lendingLimit above the nominalQuota, so the search starts at it.
  Scenario lending = scenario;
  for (Object& object : lending.cluster) {
    auto* cq = std::get_if<kueue::ClusterQueue>(&object);
    if (cq != nullptr && cq->metadata.name == "team-b")
      cq->resource_groups[0].flavors[0].resources[0].lending_limit = Quantity::from_units(4);
  }
  CHECK_THROWS_WITH(plan_quotas(lending, request({{"team-b", "", 2, 8}}, objectives)),
                    Catch::Contains("lends at most 4 nvidia.com/gpu of flavor h100"));
  CHECK_NOTHROW(plan_quotas(lending, request({{"team-b", "", 4, 4}}, objectives)));

  // A ClusterQueue the timeline applies again would lose the planned quota mid-run.
  Scenario reapplied = scenario;
  Action apply;
  apply.at = 60'000;
  apply.pointer = "/timeline/2";
  for (const Object& object : scenario.cluster) {
    const auto* cq = std::get_if<kueue::ClusterQueue>(&object);
    if (cq != nullptr && cq->metadata.name == "team-b") apply.objects.push_back(object);
  }
  reapplied.timeline.push_back(apply);
  CHECK_THROWS_WITH(
      plan_quotas(reapplied, request({{"team-b", "", 0, 8}}, objectives)),
      "--cluster-queue: the timeline changes ClusterQueue \"team-b\" (/timeline/2), which would "
      "undo the quota the plan sets");
}

TEST_CASE("with_nominal_quota sets the GPU quota of one flavor or all", "[plan][kueue]") {
  const Scenario scenario = io::load_scenario(kCohort);
  auto quotas = [](const Scenario& s) {
    std::vector<std::int64_t> out;
    for (const Object& object : s.cluster) {
      const auto* cq = std::get_if<kueue::ClusterQueue>(&object);
      if (cq == nullptr || cq->metadata.name != "team-b") continue;
      for (const kueue::FlavorQuotas& f : cq->resource_groups[0].flavors)
        out.push_back(f.resources[0].nominal_quota.milli() / 1000);
    }
    return out;
  };
  CHECK(quotas(with_nominal_quota(scenario, {"team-b", "", 0, 0}, 12)) ==
        std::vector<std::int64_t>{12, 12});
  CHECK(quotas(with_nominal_quota(scenario, {"team-b", "a100", 0, 0}, 3)) ==
        std::vector<std::int64_t>{8, 3});
  CHECK(with_nominal_quota(scenario, {"team-b", "", 0, 0}, 1).expect.empty());
}

}  // namespace
}  // namespace gpusched::plan
