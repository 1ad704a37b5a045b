// `gpusched whatif` on a snapshot holding Kueue's objects (scenarios/snapshots/kueue-lab.json):
// each added Job Kueue manages is told by its Workload (admitted now or Kueue's exact reason,
// its flavors, when its quota is reserved as the running Jobs finish), a Workload the snapshot
// holds quota for is named in a warning, and the snapshot round-trips into a scenario.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::cli {
namespace {

using test::run_cli;
using test::TempDir;

const std::string kSource = GPUSCHED_SOURCE_DIR;
const std::string kSnapshot = kSource + "/scenarios/snapshots/kueue-lab.json";
const std::string kJobs = kSource + "/scenarios/manifests/kueue-training-jobs.yaml";
const std::string kShort =
    "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in "
    "flavor a100, 4 more needed";

TEST_CASE("whatif tells an added Kueue Job: admitted now or why not, and when it gets quota",
          "[cli][whatif][kueue]") {
  const auto result = run_cli({"whatif", "--cluster", kSnapshot, "--add", kJobs});
  INFO(result.err);
  REQUIRE(result.code == 0);
  CHECK(result.err.empty());
  // train-big (8 GPUs) takes the ClusterQueue's 8 at once; train-small (4) waits for them until
  // train-big's 1h run-duration ends.
  CHECK(result.out ==
        "What if on snapshot kueue-lab.json taken at 2026-12-01T10:00:00Z (6 objects), settled "
        "at 1h30m\n"
        "\n"
        "ADDED PODS\n"
        "NAMESPACE   NAME                STATUS      NODE     NOMINATED NODE   VICTIMS\n"
        "research    train-big-4kg5t     Completed   a100-2   <none>           0\n"
        "research    train-big-dtg5g     Completed   a100-1   <none>           0\n"
        "research    train-small-v2hp2   Completed   a100-2   <none>           0\n"
        "\n"
        "ADDED KUEUE WORKLOADS\n"
        "JOB                    WORKLOAD                         CLUSTERQUEUE   ADMITTED NOW   "
        "QUOTA RESERVED   FLAVORS                     PODS BOUND   STARTED\n"
        "research/train-big     research/job-train-big-143dc     research       true           "
        "0s               main: nvidia.com/gpu=a100   2/2          0s\n"
        "research/train-small   research/job-train-small-8ad9f   research       false          "
        "1h               main: nvidia.com/gpu=a100   1/1          1h\n"
        "\n"
        "KUEUE AT THE SNAPSHOT'S INSTANT\n"
        "research/job-train-big-143dc: Admitted=True Admitted: The workload is admitted\n"
        "research/job-train-small-8ad9f: QuotaReserved=False Pending: " +
            kShort +
            "\n"
            "\n"
            "3 of 3 added pods would get a node\n"
            "2 of 2 added Kueue workloads would get quota\n");
}

TEST_CASE("whatif -o json: the added Kueue Workloads", "[cli][whatif][kueue]") {
  const auto result = run_cli({"whatif", "--cluster", kSnapshot, "--add", kJobs, "-o", "json"});
  REQUIRE(result.code == 0);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["allAddedBound"] == true);
  REQUIRE(json["workloads"].size() == 2);
  const auto& small = json["workloads"][1];
  CHECK(small["job"] == "research/train-small");
  CHECK(small["workload"] == "research/job-train-small-8ad9f");
  CHECK(small["clusterQueue"] == "research");
  CHECK(small["admittedNow"] == false);
  CHECK(small["condition"] == nlohmann::json::parse(R"({"type": "QuotaReserved",
      "status": "False", "reason": "Pending", "message": ")" +
                                                    kShort + R"("})"));
  CHECK(small["quotaReservedAt"] == "1h");
  CHECK(small["flavors"] == nlohmann::json::parse(R"({"main": {"nvidia.com/gpu": "a100"}})"));
  CHECK(small["pods"] == nlohmann::json::array({"research/train-small-v2hp2"}));
  CHECK(small["podsBound"] == 1);
  CHECK(small["startedAt"] == "1h");
}

// The snapshot with a Workload that holds 4 GPUs for a Job the snapshot leaves out.
std::string with_held_workload() {
  auto json = nlohmann::json::parse(std::ifstream(kSnapshot));
  json["items"].push_back(nlohmann::json::parse(R"({
    "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
    "metadata": {"name": "job-eval-1a2b3", "namespace": "research",
                 "creationTimestamp": "2026-12-01T09:30:00Z",
                 "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "eval",
                                      "uid": "eval-uid", "controller": true}]},
    "spec": {"queueName": "research",
             "podSets": [{"name": "main", "count": 1, "template": {"spec": {
               "restartPolicy": "Never",
               "containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": "4"}}}]}}}]},
    "status": {"admission": {"clusterQueue": "research", "podSetAssignments": [
                 {"name": "main", "flavors": {"nvidia.com/gpu": "a100"},
                  "resourceUsage": {"nvidia.com/gpu": "4"}, "count": 1}]},
               "conditions": [
                 {"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved",
                  "message": "Quota reserved in ClusterQueue research",
                  "lastTransitionTime": "2026-12-01T09:30:00Z"},
                 {"type": "Admitted", "status": "True", "reason": "Admitted",
                  "message": "The workload is admitted",
                  "lastTransitionTime": "2026-12-01T09:30:00Z"}]}})"));
  return json.dump(1);
}

TEST_CASE("whatif: a snapshot's Workload holding quota is named, and an added Job never gets it",
          "[cli][whatif][kueue]") {
  const TempDir dir;
  const std::string snapshot = dir.write("held.json", with_held_workload());
  const auto result = run_cli({"whatif", "--cluster", snapshot, "--add", kJobs});
  CHECK(result.code == 1);
  CHECK(result.err ==
        "gpusched: warning: " + snapshot +
            ": Workload research/job-eval-1a2b3 of Job research/eval holds quota in ClusterQueue "
            "research until Kueue evicts it: a snapshot leaves Jobs out, so nothing finishes "
            "it\n");
  CHECK(result.out.find("research/train-big     research/job-train-big-403cf     research       "
                        "false          never            <none>                      0/0        "
                        "  <none>\n") != std::string::npos);
  CHECK(
      result.out.ends_with("1 of 1 added pods would get a node\n"
                           "1 of 2 added Kueue workloads would get quota\n"));
}

TEST_CASE("whatif: an added Job of a higher WorkloadPriorityClass preempts a snapshot's Workload",
          "[cli][whatif][kueue]") {
  auto json = nlohmann::json::parse(with_held_workload());
  for (auto& item : json["items"]) {
    if (item["kind"] == "ClusterQueue")
      item["spec"]["preemption"] = {{"withinClusterQueue", "LowerPriority"}};
  }
  json["items"].push_back(nlohmann::json::parse(R"({
    "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "WorkloadPriorityClass",
    "metadata": {"name": "urgent", "creationTimestamp": "2026-11-02T09:00:00Z"}, "value": 100})"));
  const TempDir dir;
  const std::string snapshot = dir.write("preempt.json", json.dump(1));
  const std::string urgent = dir.write("urgent.yaml", R"(apiVersion: batch/v1
kind: Job
metadata:
  name: urgent
  namespace: research
  labels:
    kueue.x-k8s.io/queue-name: research
    kueue.x-k8s.io/priority-class: urgent
spec:
  parallelism: 2
  completions: 2
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: cuda
          resources:
            limits:
              nvidia.com/gpu: 4
)");
  const auto result = run_cli({"whatif", "--cluster", snapshot, "--add", urgent, "-o", "json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const auto out = nlohmann::json::parse(result.out);
  REQUIRE(out["workloads"].size() == 1);
  const auto& w = out["workloads"][0];
  CHECK(w["admittedNow"] == true);
  REQUIRE(w["preemptions"].size() == 1);
  CHECK(w["preemptions"][0]["time"] == "0s");
  const std::string message = w["preemptions"][0]["message"];
  CHECK(message.starts_with("Preempted workload research/job-eval-1a2b3 (UID: "));
  CHECK(
      message.ends_with(") in ClusterQueue research; preemptor effective priority: 100 (base: "
                        "100, boost: 0); preemptee effective priority: 0 (base: 0, boost: 0)"));
  const auto table = run_cli({"whatif", "--cluster", snapshot, "--add", urgent});
  CHECK(table.out.find("\nKUEUE PREEMPTIONS\nresearch/job-urgent-") != std::string::npos);
}

TEST_CASE("snapshot --to-scenario keeps Kueue's objects, and the scenario replays the same",
          "[cli][snapshot][kueue]") {
  const auto summary = run_cli({"snapshot", kSnapshot});
  REQUIRE(summary.code == 0);
  CHECK(summary.out ==
        "snapshot kueue-lab.json taken at 2026-12-01T10:00:00Z (6 objects)\n"
        "nodes: 2, nvidia.com/gpu allocatable: 16, requested by bound pods: 4\n"
        "pods bound: 1\n"
        "kueue: 1 ClusterQueue, 1 LocalQueue, 1 ResourceFlavor\n");
  const auto written = run_cli({"snapshot", kSnapshot, "--to-scenario", "--add", kJobs});
  REQUIRE(written.code == 0);
  const auto json = nlohmann::json::parse(written.out);
  std::vector<std::string> kinds;
  for (const auto& object : json["cluster"]) kinds.push_back(object["kind"]);
  CHECK(kinds == std::vector<std::string>{"Node", "Node", "Pod", "ResourceFlavor", "ClusterQueue",
                                          "LocalQueue", "Job", "Job"});
  const TempDir dir;
  const std::string file = dir.write("kueue-lab.json", written.out);
  const auto checked = run_cli({"check", file});
  CHECK(checked.code == 0);
  CHECK(checked.out.find("PASS") == 0);
  // The scenario's replay admits the Jobs as whatif's did.
  const auto replayed = run_cli({"replay", file, "-o", "json"});
  REQUIRE(replayed.code == 0);
  const auto result = nlohmann::json::parse(replayed.out);
  REQUIRE(result["workloads"].size() == 2);
  CHECK(result["workloads"][1]["owner"] == "Job/research/train-small");
  CHECK(result["workloads"][1]["admittedAt"] == "1h");
}

}  // namespace
}  // namespace gpusched::cli
