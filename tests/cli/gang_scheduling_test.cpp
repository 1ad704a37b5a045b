// The Workload API and GangScheduling at the command line (issue 20): what each release's API
// server refuses, located in the file with exit code 2, and a gang's replay.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::cli {
namespace {

using test::run_cli;
using test::TempDir;

/// A scenario of one node, one Workload (`workload`: its spec) and one pod naming it.
std::string scenario(const std::string& scheduler, const std::string& workload_spec,
                     const std::string& workload_ref = R"({"name": "train", "podGroup": "w"})") {
  return R"({"name": "g",
  "scheduler": )" +
         scheduler + R"(,
  "cluster": [
    {"kind": "Node", "metadata": {"name": "n1"},
     "status": {"allocatable": {"cpu": "8", "memory": "8Gi", "pods": "110"}}},
    {"apiVersion": "scheduling.k8s.io/v1alpha1", "kind": "Workload",
     "metadata": {"name": "train"},
     "spec": )" +
         workload_spec + R"(},
    {"kind": "Pod", "metadata": {"name": "p"},
     "spec": {"workloadRef": )" +
         workload_ref + R"(,
              "containers": [{"name": "c", "image": "busybox"}]}}]})";
}

constexpr const char* kGates =
    R"({"kubernetesVersion": "1.35", "featureGates": {"GenericWorkload": true, "GangScheduling": true}})";
constexpr const char* kGang =
    R"({"podGroups": [{"name": "w", "policy": {"gang": {"minCount": 1}}}]})";

struct Row {
  const char* what;
  std::string text;
  std::string message;  ///< after "gpusched: error: <file>"
};

TEST_CASE("Workload API input the API server refuses is an error at its place", "[cli][gang]") {
  const Row rows[] = {
      {"a Workload without GenericWorkload", scenario(R"({"kubernetesVersion": "1.35"})", kGang),
       ":6: /cluster/1: no matches for kind \"Workload\" in version "
       "\"scheduling.k8s.io/v1alpha1\" (Kubernetes 1.35 serves it only with the feature gate "
       "GenericWorkload)\n"},
      {"a Workload on 1.36 (its shape is not modelled)",
       scenario(R"({"kubernetesVersion": "1.36", "featureGates": {"GenericWorkload": true}})",
                kGang),
       ":6: /cluster/1: no matches for kind \"Workload\" in version "
       "\"scheduling.k8s.io/v1alpha1\" (gpusched models the Workload API of Kubernetes 1.35; "
       "Kubernetes 1.36's, with scheduling.k8s.io/v1alpha2 Workload and PodGroup objects and "
       "pods' spec.schedulingGroup, is not modelled yet)\n"},
      {"a minCount of 0",
       scenario(kGates, R"({"podGroups": [{"name": "w", "policy": {"gang": {"minCount": 0}}}]})"),
       ":8: /cluster/1/spec/podGroups/0/policy/gang/minCount: The Workload \"train\" is invalid: "
       "spec.podGroups[0].policy.gang.minCount: Invalid value: 0: must be greater than 0\n"},
      {"both policies",
       scenario(
           kGates,
           R"({"podGroups": [{"name": "w", "policy": {"basic": {}, "gang": {"minCount": 1}}}]})"),
       ":8: /cluster/1/spec/podGroups/0/policy: The Workload \"train\" is invalid: "
       "spec.podGroups[0].policy: Invalid value: \"{`basic`, `gang`}\": exactly one of `basic`, "
       "`gang` is required, but multiple fields are set\n"},
      {"no policy", scenario(kGates, R"({"podGroups": [{"name": "w"}]})"),
       ":8: /cluster/1/spec/podGroups/0/policy: The Workload \"train\" is invalid: "
       "spec.podGroups[0].policy: Required value: exactly one of `basic`, `gang` is required\n"},
      {"no pod group", scenario(kGates, R"({"podGroups": []})"),
       ":8: /cluster/1/spec/podGroups: The Workload \"train\" is invalid: spec.podGroups: "
       "Required value: must have at least one item\n"},
      {"a pod group twice",
       scenario(
           kGates,
           R"({"podGroups": [{"name": "w", "policy": {"basic": {}}}, {"name": "w", "policy": {"basic": {}}}]})"),
       ":8: /cluster/1/spec/podGroups/1/name: The Workload \"train\" is invalid: "
       "spec.podGroups[1].name: Duplicate value: \"w\"\n"},
      {"a controllerRef without kind",
       scenario(
           kGates,
           R"({"controllerRef": {"name": "j"}, "podGroups": [{"name": "w", "policy": {"basic": {}}}]})"),
       ":8: /cluster/1/spec/controllerRef/kind: The Workload \"train\" is invalid: "
       "spec.controllerRef.kind: Required value\n"},
      {"a workloadRef without podGroup", scenario(kGates, kGang, R"({"name": "train"})"),
       ":10: /cluster/2/spec/workloadRef/podGroup: The Pod \"p\" is invalid: "
       "spec.workloadRef.podGroup: Required value\n"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.what) {
      TempDir dir;
      const std::string file = dir.write("g.json", row.text);
      const auto result = run_cli({"replay", file});
      CHECK(result.code == 2);
      CHECK(result.out.empty());
      CHECK(result.err == "gpusched: error: " + file + row.message);
    }
  }
}

TEST_CASE(
    "a workloadRef on a release without it is an error; without GenericWorkload it is dropped",
    "[cli][gang]") {
  TempDir dir;
  const std::string pod = R"({"name": "g", "scheduler": {"kubernetesVersion": "VERSION"},
  "cluster": [
    {"kind": "Node", "metadata": {"name": "n1"},
     "status": {"allocatable": {"cpu": "8", "memory": "8Gi", "pods": "110"}}},
    {"kind": "Pod", "metadata": {"name": "p"},
     "spec": {"workloadRef": {"name": "train", "podGroup": "w"},
              "containers": [{"name": "c", "image": "busybox"}]}}],
  "expect": [{"at": "0s", "pod": "default/p", "phase": "Running"}]})";
  auto with = [&](const std::string& version) {
    std::string text = pod;
    text.replace(text.find("VERSION"), 7, version);
    return dir.write("p" + version + ".json", text);
  };
  const std::string old = with("1.34");
  const auto refused = run_cli({"replay", old});
  CHECK(refused.code == 2);
  CHECK(refused.err == "gpusched: error: " + old +
                           ":6: /cluster/1/spec/workloadRef: spec.workloadRef: Kubernetes 1.34 "
                           "has no such pod field (1.35 added it, with the feature gate "
                           "GenericWorkload)\n");
  // 1.35 without the gate: the API server drops the field and the pod schedules alone.
  const auto dropped = run_cli({"check", with("1.35")});
  CHECK(dropped.code == 0);
}

TEST_CASE("replay --json shows pods waiting at Permit Pending and unbound", "[cli][gang]") {
  TempDir dir;
  const std::string file = dir.write("g.json", R"({"name": "g", "until": "1m",
  "scheduler": {"kubernetesVersion": "1.35",
                "featureGates": {"GenericWorkload": true, "GangScheduling": true}},
  "cluster": [
    {"kind": "Node", "metadata": {"name": "n1"},
     "status": {"allocatable": {"cpu": "1", "memory": "8Gi", "pods": "110"}}},
    {"apiVersion": "scheduling.k8s.io/v1alpha1", "kind": "Workload", "metadata": {"name": "train"},
     "spec": {"podGroups": [{"name": "w", "policy": {"gang": {"minCount": 2}}}]}},
    {"kind": "Pod", "metadata": {"name": "p0"},
     "spec": {"workloadRef": {"name": "train", "podGroup": "w"},
              "containers": [{"name": "c", "image": "busybox", "resources": {"requests": {"cpu": "1"}}}]}},
    {"kind": "Pod", "metadata": {"name": "p1"},
     "spec": {"workloadRef": {"name": "train", "podGroup": "w"},
              "containers": [{"name": "c", "image": "busybox", "resources": {"requests": {"cpu": "1"}}}]}}]})");
  const auto result = run_cli({"replay", file, "--output", "json"});
  CHECK(result.code == 0);
  const nlohmann::json out = nlohmann::json::parse(result.out);
  const nlohmann::json& waiting = out["pods"][0];
  CHECK(waiting["name"] == "p0");
  CHECK(waiting["phase"] == "Pending");
  CHECK(waiting["nodeName"].is_null());
  CHECK(waiting["reason"].is_null());  // no event, no condition while it waits
  CHECK(waiting["nominatedNodeName"] == "n1");
  // The node it holds in the scheduler's cache does not list it: it is not bound.
  CHECK(out["nodes"][0]["pods"].empty());
  CHECK(out["pods"][1]["reason"] == "Unschedulable");
}

}  // namespace
}  // namespace gpusched::cli
