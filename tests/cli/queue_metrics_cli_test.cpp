// Kueue's per-queue metrics and quota plans end to end: replay -o queues / queues-csv / json,
// and plan --cluster-queue with queue objectives.
#include <catch2/catch.hpp>

#include "support/run_cli.hpp"

namespace gpusched::test {
namespace {

const std::string kCohort = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/kueue-cohort-teams.json";

TEST_CASE("replay -o queues prints each queue's waits, borrowing and usage", "[cli][kueue]") {
  const Outcome table = run_cli({"replay", kCohort, "-o", "queues"});
  CHECK(table.code == 0);
  CHECK_THAT(
      table.out,
      Catch::Contains("team-b          2       2          0         0s    59m40s   59m40s") &&
          Catch::Contains(
              "team-a          h100     nvidia.com/gpu   8         66.7%        8.000") &&
          Catch::Contains("team-b/team-b   2       2"));
  const Outcome csv = run_cli({"replay", kCohort, "-o", "queues-csv"});
  CHECK(csv.code == 0);
  CHECK(
      csv.out.starts_with("from_ms,to_ms,cluster_queue,flavor,resource,nominal,usage,ratio\n"
                          "0,60000,team-a,a100,nvidia.com/gpu,8,0.000,0.0000\n"
                          "0,60000,team-a,h100,nvidia.com/gpu,8,16.000,2.0000\n"));
  const Outcome json = run_cli({"replay", kCohort, "-o", "json"});
  CHECK_THAT(json.out, Catch::Contains("\"queueMetrics\": {\n    \"clusterQueues\": {") &&
                           Catch::Contains("\"p95\": \"59m40s\"") &&
                           Catch::Contains("\"borrowedHours\": 4.0") &&
                           Catch::Contains("\"kueue.wait.p95{clusterQueue=team-b}\": 3580000"));
}

TEST_CASE("plan --cluster-queue finds the smallest nominal GPU quota", "[cli][plan][kueue]") {
  // Worked out in tests/unit/plan/quota_plan_test.cpp: team-b needs 16 GPUs of quota per flavor.
  const Outcome outcome = run_cli({"plan", kCohort, "--cluster-queue", "team-b=0..32",
                                   "--objective", "cq/team-b:wait.p95<30m"});
  CHECK(outcome.code == 0);
  CHECK(outcome.out.starts_with(
      "nominalQuota of nvidia.com/gpu: team-b=16 meets cq/team-b:wait.p95<30m\n\nTEAM-B   MET"));
  const Outcome json = run_cli({"plan", kCohort, "--cluster-queue", "team-b:a100", "--max", "32",
                                "--objective", "lq/team-b/team-b:wait.p95<30m", "-o", "json"});
  CHECK(json.code == 0);
  CHECK_THAT(json.out,
             Catch::Contains("\"answer\": {\n    \"quotas\": {\n      \"team-b:a100\": 16") &&
                 Catch::Contains("\"kueue.wait.p95{localQueue=team-b/team-b}\": 0"));
  const Outcome csv = run_cli({"plan", kCohort, "--cluster-queue", "team-b=15..16", "--objective",
                               "cq/team-b:wait.p95<30m", "-o", "csv"});
  CHECK(csv.out.starts_with("team-b,met,"));
  // A quota too small for any replay to meet: exit 1.
  const Outcome none = run_cli({"plan", kCohort, "--cluster-queue", "team-b=0..15", "--objective",
                                "cq/team-b:wait.p95<30m"});
  CHECK(none.code == 1);
  CHECK(none.out.starts_with("No nominalQuota of nvidia.com/gpu in range meets"));
}

TEST_CASE("plan --cluster-queue refuses unknown queues with exit 2", "[cli][plan][kueue]") {
  const Outcome unknown = run_cli({"plan", kCohort, "--cluster-queue", "team-b=0..32",
                                   "--objective", "cq/team-c:wait.p95<30m"});
  CHECK(unknown.code == 2);
  CHECK(unknown.out.empty());
  CHECK_THAT(unknown.err, Catch::Contains("gpusched: error: --objective: objective "
                                          "\"cq/team-c:wait.p95<30m\" names ClusterQueue "
                                          "\"team-c\", which the replay does not have (its "
                                          "ClusterQueues: team-a, team-b)"));
  const Outcome no_queue = run_cli(
      {"plan", kCohort, "--cluster-queue", "team-z=0..8", "--objective", "cq/team-b:wait.p95<30m"});
  CHECK(no_queue.code == 2);
  CHECK_THAT(no_queue.err, Catch::Contains("--cluster-queue: scenario") &&
                               Catch::Contains("has no ClusterQueue \"team-z\""));
  for (const char* bad : {"team-b=4..2", "team-b:=0..2", "=0..2", "team-b=0..1000001"}) {
    const Outcome outcome =
        run_cli({"plan", kCohort, "--cluster-queue", bad, "--objective", "cq/team-b:wait.p95<1m"});
    CHECK(outcome.code == 2);
    CHECK_THAT(outcome.err, Catch::Contains("is not NAME[:FLAVOR][=MIN..MAX]"));
  }
  const Outcome missing = run_cli(
      {"plan", kCohort, "--cluster-queue", "team-b", "--objective", "cq/team-b:wait.p95<1m"});
  CHECK(missing.code == 2);
  CHECK_THAT(missing.err, Catch::Contains("give --max, or each ClusterQueue's quotas as "
                                          "--cluster-queue team-b=MIN..MAX"));
  const Outcome neither = run_cli({"plan", kCohort, "--objective", "cq/team-b:wait.p95<1m"});
  CHECK(neither.code == 2);
  CHECK_THAT(neither.err, Catch::Contains("give either node pools to size (--pool) or "
                                          "ClusterQueues whose quota to size (--cluster-queue)"));
}

}  // namespace
}  // namespace gpusched::test
