// SimulationResult::quota_spans: each Kueue Workload's wait for quota and the reservation that
// ended it, from which the per-queue metrics are computed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

const std::string kScenarios = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/";

const QuotaSpan& span_of(const SimulationResult& result, const std::string& workload_prefix) {
  auto it = std::find_if(
      result.quota_spans.begin(), result.quota_spans.end(),
      [&](const QuotaSpan& span) { return span.workload.rfind(workload_prefix, 0) == 0; });
  REQUIRE(it != result.quota_spans.end());
  return *it;
}

TEST_CASE("quota_spans record each workload's wait and the quota it held", "[sim][kueue]") {
  const SimulationResult result =
      simulate(io::load_scenario(kScenarios + "kueue-cohort-teams.json"));
  REQUIRE(result.quota_spans.size() == 3);
  // In the order their waits began.
  CHECK(result.quota_spans[0].workload.rfind("team-a/job-train-", 0) == 0);
  CHECK(result.quota_spans[2].workload.rfind("team-b/job-pretrain-", 0) == 0);

  // train: admitted at once, borrowing team-b's H100s, held until its pods finished at 1h.
  const QuotaSpan& train = span_of(result, "team-a/job-train-");
  CHECK(train.local_queue == "team-a/team-a");
  CHECK(train.cluster_queue == "team-a");
  CHECK(train.queued == 0);
  CHECK(train.reserved == TimeMs{0});
  REQUIRE(train.released.has_value());
  CHECK(*train.released >= 3'600'000);
  CHECK(train.usage.at("h100").at("nvidia.com/gpu") == Quantity::from_units(16));

  // finetune: no H100 left in the cohort, so A100, at once.
  const QuotaSpan& finetune = span_of(result, "team-b/job-finetune-");
  CHECK(finetune.queued == 10'000);
  CHECK(finetune.reserved == TimeMs{10'000});
  CHECK(finetune.usage.at("a100").at("nvidia.com/gpu") == Quantity::from_units(8));

  // pretrain: waited from 20s until train released the H100s.
  const QuotaSpan& pretrain = span_of(result, "team-b/job-pretrain-");
  CHECK(pretrain.cluster_queue == "team-b");
  CHECK(pretrain.queued == 20'000);
  REQUIRE(pretrain.reserved.has_value());
  CHECK(*pretrain.reserved == *train.released);
  CHECK(pretrain.usage.at("h100").at("nvidia.com/gpu") == Quantity::from_units(16));
}

TEST_CASE("a preempted workload gets a second span, from its requeue", "[sim][kueue]") {
  const SimulationResult result =
      simulate(io::load_scenario(kScenarios + "kueue-spot-preempted-by-production.json"));
  std::vector<const QuotaSpan*> spot_a;
  for (const QuotaSpan& span : result.quota_spans) {
    if (span.workload.rfind("research/job-spot-a-", 0) == 0) spot_a.push_back(&span);
  }
  REQUIRE(spot_a.size() == 2);
  // Admitted at once, evicted when production reclaimed its quota at 10m.
  CHECK(spot_a[0]->queued == 0);
  CHECK(spot_a[0]->reserved == TimeMs{0});
  CHECK(spot_a[0]->released == TimeMs{600'000});
  // Waiting again from the requeue until production finished at 1h10m30s.
  CHECK(spot_a[1]->queued == 600'000);
  CHECK(spot_a[1]->reserved == TimeMs{4'230'000});
  CHECK_FALSE(spot_a[1]->released);
  CHECK(spot_a[1]->cluster_queue == "spot");
}

TEST_CASE("kueue_preemptions name the preemptor, its victims and why", "[sim][kueue]") {
  const SimulationResult result =
      simulate(io::load_scenario(kScenarios + "kueue-spot-preempted-by-production.json"));
  REQUIRE(result.kueue_preemptions.size() == 2);
  for (const KueuePreemptionRecord& p : result.kueue_preemptions) {
    CHECK(p.time == 600'000);
    CHECK(p.preemptor.rfind("prod/job-train-", 0) == 0);
    CHECK(p.reason == "InCohortReclamation");
    CHECK(p.message.find("due to reclamation within the cohort; preemptor path: /gpus/production; "
                         "preemptee path: /gpus/spot") != std::string::npos);
  }
  CHECK(result.kueue_preemptions[0].victim.rfind("research/job-spot-a-", 0) == 0);
  CHECK(result.kueue_preemptions[1].victim.rfind("research/job-spot-b-", 0) == 0);
}

TEST_CASE("a Workload deleted while it holds quota releases it, with a notice", "[sim][kueue]") {
  // kueue-cohort-teams with team-a's Workload deleted at 5m, while its Job runs.
  std::ifstream in(kScenarios + "kueue-cohort-teams.json");
  nlohmann::json doc = nlohmann::json::parse(in);
  doc["expect"] = nlohmann::json::array();
  doc["timeline"].push_back(
      {{"at", "5m"},
       {"delete", {{"kind", "Workload"}, {"namespace", "team-a"}, {"name", "job-train-4e03c"}}}});
  const SimulationResult result = simulate(io::parse_scenario(doc.dump(), "deleted.json"));
  const QuotaSpan& train = span_of(result, "team-a/job-train-");
  CHECK(train.released == TimeMs{300'000});
  // Its quota went back to the cohort: team-b's pretrain got it at 5m.
  const QuotaSpan& pretrain = span_of(result, "team-b/job-pretrain-");
  CHECK(pretrain.reserved == TimeMs{300'000});
  REQUIRE(result.notices.size() == 1);
  CHECK(result.notices[0] ==
        "Workload team-a/job-train-4e03c was deleted while it held quota in ClusterQueue team-a: "
        "gpusched releases its quota at once, while Kueue's resource-in-use finalizer may keep it "
        "until its pods are gone");
  // The Job still runs its pods (a Job with active pods gets no new Workload).
  CHECK(std::none_of(result.workloads.begin(), result.workloads.end(),
                     [](const WorkloadRecord& w) { return w.owner == "Job/team-a/train"; }));
}

}  // namespace
}  // namespace gpusched
