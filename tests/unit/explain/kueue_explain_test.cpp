// explain_workload: a Kueue Workload's quota story per pod set, resource and flavor, in the
// ClusterQueue's order with the flavor assigner's own reasons, and remedies kept only when a
// replay shows its pods running sooner.
#include <catch2/catch.hpp>

#include <string>

#include "gpusched/error.hpp"
#include "gpusched/explain/explain.hpp"
#include "gpusched/io/scenario_loader.hpp"

namespace gpusched {
namespace {

const std::string kScenarios = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/";

KueueExplanation explain_file(const std::string& file, const std::string& object, TimeMs at) {
  ExplainOptions options;
  options.at = at;
  return explain_workload(io::load_scenario(kScenarios + file), object, options);
}

TEST_CASE("explain_workload: both flavors short, each with Kueue's reason, in the queue's order",
          "[explain][kueue]") {
  // team-b's 16-GPU pretrain at 30s: team-a borrows every H100 and team-b's fine-tune holds its
  // A100 quota (kueue-cohort-teams.json).
  const KueueExplanation e = explain_file("kueue-cohort-teams.json", "Job/team-b/pretrain", 30'000);
  CHECK(e.job == "team-b/pretrain");
  CHECK(e.workload.starts_with("team-b/job-pretrain-"));
  CHECK(e.cluster_queue == "team-b");
  CHECK(e.cohort == "ai");
  CHECK_FALSE(e.admitted);
  REQUIRE(e.condition);
  CHECK(e.condition->message ==
        "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in "
        "flavor a100, 8 more needed, insufficient unused quota for nvidia.com/gpu in flavor h100, "
        "16 more needed");
  REQUIRE(e.quota.size() == 1);
  const KueueResourceQuota& gpu = e.quota[0];
  CHECK(gpu.pod_set == "main");
  CHECK(gpu.resource == "nvidia.com/gpu");
  CHECK(gpu.requested == "16");
  REQUIRE(gpu.flavors.size() == 2);
  const KueueFlavorQuota& h100 = gpu.flavors[0];
  CHECK(h100.flavor == "h100");
  CHECK(h100.nominal_quota == "8");
  CHECK_FALSE(h100.borrowing_limit);
  CHECK(h100.usage == "0");
  CHECK(h100.available == "0");
  CHECK(h100.cohort_unused == "0");
  CHECK(h100.reasons == std::vector<std::string>{"insufficient unused quota for nvidia.com/gpu in "
                                                 "flavor h100, 16 more needed"});
  const KueueFlavorQuota& a100 = gpu.flavors[1];
  CHECK(a100.flavor == "a100");
  CHECK(a100.usage == "8");
  CHECK(a100.available == "8");
  CHECK(a100.cohort_unused == "8");
  CHECK(a100.reasons == std::vector<std::string>{"insufficient unused quota for nvidia.com/gpu in "
                                                 "flavor a100, 8 more needed"});
  // More H100 quota would admit it at once, but team-a's job holds both H100 nodes until 1h,
  // when it runs anyway: not offered. More A100 quota admits it at once, but only one pod finds
  // a free A100 node; the other waits for it to end at 30m30s, when waitForPodsReady's 30m
  // timeout evicts the Job: not offered either.
  CHECK(e.remedies.empty());
}

TEST_CASE("explain_workload: an unknown kind or Workload is an InputError", "[explain][kueue]") {
  CHECK_THROWS_AS(explain_file("kueue-cohort-teams.json", "Deployment/team-b/x", 0), InputError);
  CHECK_THROWS_AS(explain_file("kueue-cohort-teams.json", "Job/team-b/missing", 0), InputError);
}

}  // namespace
}  // namespace gpusched
