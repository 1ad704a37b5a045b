// Kueue's queues over a replay (report/queue_metrics.hpp): waits for quota per ClusterQueue and
// LocalQueue, borrowed unit-hours and quota usage, with numbers worked out by hand.
#include "gpusched/report/queue_metrics.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <variant>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/report/metrics.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched::report {
namespace {

const std::string kScenarios = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/";
constexpr TimeMs kHour = 3'600'000;

const QuotaUse& quota_of(const ClusterQueueMetrics& cq, const std::string& flavor) {
  for (const QuotaUse& use : cq.quota) {
    if (use.flavor == flavor && use.resource == "nvidia.com/gpu") return use;
  }
  FAIL("no quota of nvidia.com/gpu in flavor " << flavor);
  return cq.quota.front();
}

double metric(const std::vector<Metric>& metrics, const std::string& name) {
  const std::optional<Metric> found = find_metric(metrics, name);
  INFO(name);
  REQUIRE(found);
  return found->value;
}

TEST_CASE("kueue-cohort-teams: waits, borrowing and quota usage per queue", "[report][kueue]") {
  // team-a's train (16 GPUs) holds the cohort's 16 H100s from 0s to 1h, 8 of them above
  // team-a's nominal 8; team-b's finetune (8) takes A100s from 10s for 2h; team-b's pretrain (16)
  // waits from 20s until train returns the H100s at 1h, then holds them for 30m, 8 above
  // team-b's nominal 8. The run ends at 3h.
  const SimulationResult result =
      simulate(io::load_scenario(kScenarios + "kueue-cohort-teams.json"));
  REQUIRE(result.time == 3 * kHour);
  const KueueMetrics metrics = kueue_metrics(result);
  REQUIRE(metrics.cluster_queues.size() == 2);

  const ClusterQueueMetrics& a = metrics.cluster_queues.at("team-a");
  CHECK(a.waits.all.pods == 1);
  CHECK(a.waits.reserved == 1);
  CHECK(a.waits.all.p95 == 0);
  CHECK(quota_of(a, "h100").borrowed_hours == Approx(8.0));  // 8 GPUs x 1h
  CHECK(quota_of(a, "h100").usage_hours == Approx(16.0));
  CHECK(quota_of(a, "h100").mean_ratio == Approx(16.0 / 24));  // of 8 GPUs x 3h
  CHECK(quota_of(a, "a100").usage_hours == 0);

  const ClusterQueueMetrics& b = metrics.cluster_queues.at("team-b");
  CHECK(b.waits.all.pods == 2);
  CHECK(b.waits.reserved == 2);
  CHECK(b.waits.waiting == 0);
  CHECK(b.waits.all.p50 == 0);               // finetune, at once
  CHECK(b.waits.all.p95 == kHour - 20'000);  // pretrain, 20s to 1h
  CHECK(b.waits.all.p99 == kHour - 20'000);
  CHECK(quota_of(b, "h100").borrowed_hours == Approx(4.0));  // 8 GPUs x 30m
  CHECK(quota_of(b, "h100").mean_ratio == Approx(8.0 / 24));
  CHECK(quota_of(b, "a100").borrowed_hours == 0);
  CHECK(quota_of(b, "a100").usage_hours == Approx(16.0));  // 8 GPUs x 2h
  CHECK(quota_of(b, "a100").nominal == Quantity::from_units(8));

  // Over time, in gpu_series' buckets: train's 16 H100s are twice team-a's quota until 1h.
  const QuotaUse& a_h100 = quota_of(a, "h100");
  REQUIRE(a_h100.usage.size() == result.gpu_series.size());
  CHECK(a_h100.usage.front() == Approx(16.0));
  CHECK(a_h100.usage.back() == Approx(0.0));
  // The first bucket (0s to 1m) holds finetune's 8 A100s for 50s of its 60.
  CHECK(quota_of(b, "a100").usage.front() == Approx(8.0 * 50 / 60));

  // A LocalQueue per team, each feeding its team's ClusterQueue.
  REQUIRE(metrics.local_queues.size() == 2);
  CHECK(metrics.local_queues.at("team-b/team-b").all.p95 == kHour - 20'000);

  // As summary metrics, which objectives name (cq/team-b:wait.p95 reads the first).
  const std::vector<Metric> summary = summary_metrics(result);
  CHECK(metric(summary, "kueue.wait.p95{clusterQueue=team-b}") == 3'580'000);
  CHECK(metric(summary, "kueue.wait.p50{localQueue=team-b/team-b}") == 0);
  CHECK(metric(summary, "kueue.reserved{clusterQueue=team-b}") == 2);
  CHECK(metric(summary, "kueue.borrowedHours.nvidia.com/gpu{clusterQueue=team-a}") == Approx(8.0));
  CHECK(metric(summary, "kueue.borrowedHours.nvidia.com/gpu{clusterQueue=team-b}") == Approx(4.0));
  CHECK(metric(summary, "kueue.quotaUsage.nvidia.com/gpu{clusterQueue=team-b,flavor=a100}") ==
        Approx(16.0 / 24));
}

TEST_CASE("waits still open at the end count with their wait so far", "[report][kueue]") {
  SimulationResult result;
  result.time = 100'000;
  ClusterQueueRecord cq;
  cq.name = "research";
  cq.nominal["h100"]["nvidia.com/gpu"] = Quantity::from_units(0);
  result.cluster_queues.push_back(cq);
  result.local_queues = {"ml/idle", "ml/train"};
  auto span = [](TimeMs queued, std::optional<TimeMs> reserved, std::optional<TimeMs> released) {
    QuotaSpan s;
    s.workload = "ml/w";
    s.local_queue = "ml/train";
    s.cluster_queue = "research";
    s.queued = queued;
    s.reserved = reserved;
    s.released = released;
    if (reserved) s.usage["h100"]["nvidia.com/gpu"] = Quantity::from_units(2);
    return s;
  };
  result.quota_spans = {
      span(0, 10'000, 50'000),              // waited 10s, then held 2 GPUs for 40s
      span(0, std::nullopt, std::nullopt),  // never reserved: 100s so far
      span(5'000, std::nullopt, 25'000),    // deleted while waiting: 20s
  };
  const KueueMetrics metrics = kueue_metrics(result);
  const QuotaWaits& waits = metrics.cluster_queues.at("research").waits;
  CHECK(waits.all.pods == 3);
  CHECK(waits.reserved == 1);
  CHECK(waits.waiting == 1);
  CHECK(waits.longest_waiting == 100'000);
  // Nearest rank over 10s, 20s, 100s: the open wait is the p95, not dropped.
  CHECK(waits.all.p50 == 20'000);
  CHECK(waits.all.p95 == 100'000);
  // With a nominal quota of 0 everything held is borrowed: 2 GPUs x 40s.
  const QuotaUse& use = metrics.cluster_queues.at("research").quota.front();
  CHECK(use.borrowed_hours == Approx(2.0 * 40 / 3600));
  CHECK(use.mean_ratio == 0);
  // Every LocalQueue is listed, waits or not.
  CHECK(metrics.local_queues.at("ml/idle").all.pods == 0);
  CHECK(metrics.local_queues.at("ml/train").all.pods == 3);

  const std::vector<Metric> summary = summary_metrics(result);
  CHECK(metric(summary, "kueue.waiting{clusterQueue=research}") == 1);
  CHECK(metric(summary, "kueue.waiting.longest{localQueue=ml/train}") == 100'000);
  // A ratio against a quota of 0 has no value: the metric is left out.
  CHECK_FALSE(
      find_metric(summary, "kueue.quotaUsage.nvidia.com/gpu{clusterQueue=research,flavor=h100}"));
}

TEST_CASE("a timeline that changes a ClusterQueue is named in a notice", "[report][kueue]") {
  Scenario scenario = io::load_scenario(kScenarios + "kueue-cohort-teams.json");
  Action apply;
  apply.at = 60'000;
  apply.pointer = "/timeline/2";
  for (const Object& object : scenario.cluster) {
    if (std::holds_alternative<kueue::ClusterQueue>(object)) apply.objects.push_back(object);
  }
  scenario.timeline.push_back(apply);
  const SimulationResult result = simulate(scenario);
  for (const char* cq : {"team-a", "team-b"}) {
    CHECK(std::find(result.notices.begin(), result.notices.end(),
                    "ClusterQueue " + std::string(cq) +
                        " changes in the timeline (/timeline/2): its per-queue metrics (borrowed "
                        "hours, quota usage) measure the whole run against its nominal quotas at "
                        "the end") != result.notices.end());
  }
}

TEST_CASE("a replay without Kueue has no queue metrics", "[report][kueue]") {
  const SimulationResult result = simulate(io::load_scenario(kScenarios + "node-pool-gpu.json"));
  CHECK(kueue_metrics(result).cluster_queues.empty());
  for (const Metric& m : summary_metrics(result)) CHECK_FALSE(m.name.starts_with("kueue."));
}

}  // namespace
}  // namespace gpusched::report
