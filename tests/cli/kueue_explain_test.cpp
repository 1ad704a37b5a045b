// `gpusched explain FILE Job/NS/NAME` (or Workload/NS/NAME): a Kueue Workload's quota story per
// pod set, resource and flavor with the flavor assigner's own reasons, and remedies that a
// replay verifies (scenarios/kueue-quota-remedies.json).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>

#include "support/run_cli.hpp"

namespace gpusched {
namespace {

using test::run_cli;

const std::string kScenario =
    std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/kueue-quota-remedies.json";
const std::string kMessage =
    "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in "
    "flavor a100, 8 more needed";

TEST_CASE("cli explain Job/ns/name: the quota story of a pending Workload and verified remedies",
          "[explain][cli][kueue]") {
  const auto r = run_cli({"explain", kScenario, "Job/team-b/pretrain", "--at", "1m"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out ==
        "Workload team-b/job-pretrain-526c0 (Job team-b/pretrain): pending (as of 1m)\n"
        "Queue: LocalQueue team-b/team-b -> ClusterQueue team-b (cohort ai), priority 0\n"
        "Condition: QuotaReserved=False Pending: " +
            kMessage +
            "\n"
            "Diagnosis: Kueue has not reserved quota for it (the condition says why): until it "
            "does, its Job stays suspended and has no pods, so kube-scheduler never sees them. "
            "The quota below is the ClusterQueue's as Kueue's flavor assigner weighs it now; "
            "more quota, a flavor with room, or other Workloads finishing would admit it.\n"
            "\n"
            "Quota of pod set main, per resource and flavor in ClusterQueue team-b's order:\n"
            "RESOURCE         REQUESTED   FLAVOR   NOMINAL   BORROWING LIMIT   USAGE   AVAILABLE "
            "  COHORT UNUSED   FLAVOR ASSIGNER\n"
            "nvidia.com/gpu   8           a100     8         0                 8       0         "
            "  8               insufficient unused quota for nvidia.com/gpu in flavor a100, 8 "
            "more needed\n"
            "\n"
            "Remedies, each verified by replaying the scenario with it:\n"
            "  raise ClusterQueue team-b's nominalQuota of nvidia.com/gpu in flavor a100 from 8 "
            "to 16: its pods all bound at 1m on a100-2\n"
            "  raise ClusterQueue team-b's borrowingLimit of nvidia.com/gpu in flavor a100 from 0 "
            "to 8: its pods all bound at 1m on a100-2\n"
            "  add ResourceFlavor h100 to ClusterQueue team-b with nominalQuota nvidia.com/gpu=8: "
            "its pods all bound at 1m on h100-1\n");
}

TEST_CASE("cli explain Workload/ns/name -o json: the same story as JSON", "[explain][cli][kueue]") {
  const auto r = run_cli(
      {"explain", kScenario, "Workload/team-b/job-pretrain-526c0", "--at", "1m", "-o", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto json = nlohmann::json::parse(r.out);
  CHECK(json["job"] == "team-b/pretrain");
  CHECK(json["workload"] == "team-b/job-pretrain-526c0");
  CHECK(json["time"] == "1m");
  CHECK(json["clusterQueue"] == "team-b");
  CHECK(json["cohort"] == "ai");
  CHECK(json["admitted"] == false);
  CHECK(json["condition"]["type"] == "QuotaReserved");
  CHECK(json["condition"]["reason"] == "Pending");
  CHECK(json["condition"]["message"] == kMessage);
  REQUIRE(json["quota"].size() == 1);
  const auto& row = json["quota"][0];
  CHECK(row["podSet"] == "main");
  CHECK(row["resource"] == "nvidia.com/gpu");
  CHECK(row["requested"] == "8");
  REQUIRE(row["flavors"].size() == 1);
  const auto& a100 = row["flavors"][0];
  CHECK(a100["flavor"] == "a100");
  CHECK(a100["nominalQuota"] == "8");
  CHECK(a100["borrowingLimit"] == "0");
  CHECK(a100["usage"] == "8");
  CHECK(a100["available"] == "0");
  CHECK(a100["cohortUnused"] == "8");
  CHECK(a100["reasons"] ==
        nlohmann::json::array(
            {"insufficient unused quota for nvidia.com/gpu in flavor a100, 8 more needed"}));
  REQUIRE(json["remedies"].size() == 3);
  CHECK(json["remedies"][2]["change"] ==
        "add ResourceFlavor h100 to ClusterQueue team-b with nominalQuota nvidia.com/gpu=8");
  CHECK(json["remedies"][2]["verified"] == true);
  CHECK(json["remedies"][2]["scheduledAt"] == "1m");
  CHECK(json["remedies"][2]["node"] == "h100-1");
}

TEST_CASE("cli explain Job/ns/name: an admitted Workload, then a finished one",
          "[explain][cli][kueue]") {
  const auto admitted = run_cli({"explain", kScenario, "Job/team-b/finetune", "--at", "1m"});
  REQUIRE(admitted.code == 0);
  CHECK(admitted.out ==
        "Workload team-b/job-finetune-447b1 (Job team-b/finetune): admitted (as of 1m)\n"
        "Queue: LocalQueue team-b/team-b -> ClusterQueue team-b (cohort ai), priority 0\n"
        "Condition: Admitted=True Admitted: The workload is admitted\n"
        "Diagnosis: Kueue admitted it in ClusterQueue team-b (nvidia.com/gpu of pod set main in "
        "a100): its Job runs with those flavors' node labels and tolerations. If its pods wait, "
        "explain them (--pod).\n");
  const auto finished = run_cli({"explain", kScenario, "Job/team-b/finetune"});
  REQUIRE(finished.code == 0);
  CHECK(finished.out ==
        "Workload team-b/job-finetune-447b1 (Job team-b/finetune): finished (as of 3h)\n"
        "Queue: LocalQueue team-b/team-b -> ClusterQueue team-b (cohort ai), priority 0\n"
        "Condition: Finished=True Succeeded: Reached expected number of succeeded pods\n"
        "Diagnosis: It has finished: it no longer holds quota. Nothing to fix.\n");
}

TEST_CASE("cli explain: a Workload that does not exist then, or nothing named, is exit 2",
          "[explain][cli][kueue]") {
  const auto early = run_cli({"explain", kScenario, "Job/team-b/pretrain", "--at", "5s"});
  CHECK(early.code == 2);
  CHECK(early.err ==
        "gpusched: error: Job team-b/pretrain: no Kueue Workload for Job team-b/pretrain at 5s; "
        "Workloads then: team-b/job-finetune-447b1 (Job/team-b/finetune)\n");
  const auto nothing = run_cli({"explain", kScenario});
  CHECK(nothing.code == 2);
  CHECK(nothing.err ==
        "gpusched: error: explain: name what to explain: --pod NS/NAME, or Job/NS/NAME or "
        "Workload/NS/NAME\n");
  CHECK(run_cli({"explain", kScenario, "Job/team-b/pretrain", "--pod", "team-b/x"}).code == 2);
  const auto deployment = run_cli({"explain", kScenario, "Deployment/team-b/web"});
  CHECK(deployment.code == 2);
  CHECK(deployment.err ==
        "gpusched: error: Deployment/team-b/web: explain tells a Pod (Pod/NS/NAME or NS/NAME), or "
        "a Kueue Workload (Job/NS/NAME or Workload/NS/NAME)\n");
}

}  // namespace
}  // namespace gpusched
