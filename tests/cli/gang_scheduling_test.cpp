// The Workload API and GangScheduling at the command line (issue 20): what each release's API
// server refuses, located in the file with exit code 2, and a gang's replay.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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
      {"a v1alpha1 Workload on 1.36",
       scenario(R"({"kubernetesVersion": "1.36", "featureGates": {"GenericWorkload": true}})",
                kGang),
       ":6: /cluster/1: no matches for kind \"Workload\" in version "
       "\"scheduling.k8s.io/v1alpha1\" (Kubernetes 1.36 serves the Workload API as "
       "scheduling.k8s.io/v1alpha2, with spec.podGroupTemplates and PodGroup objects; v1alpha1 "
       "is 1.35's)\n"},
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

// --- Kubernetes 1.36: scheduling.k8s.io/v1alpha2 Workload and PodGroup, spec.schedulingGroup ---

/// A scenario of one node, then `objects` (one line each, from line 6), then one pod (line 6 +
/// objects) whose spec starts with `pod_field`.
std::string scenario_136(
    const std::string& scheduler, const std::vector<std::string>& objects,
    const std::string& pod_field = R"("schedulingGroup": {"podGroupName": "train-w"})") {
  std::string text = R"({"name": "g",
  "scheduler": )" + scheduler +
                     R"(,
  "cluster": [
    {"kind": "Node", "metadata": {"name": "n1"},
     "status": {"allocatable": {"cpu": "8", "memory": "8Gi", "pods": "110"}}},
)";
  for (const std::string& object : objects) text += "    " + object + ",\n";
  text += R"(    {"kind": "Pod", "metadata": {"name": "p"},
     "spec": {)" +
          pod_field + R"(, "containers": [{"name": "c", "image": "busybox"}]}}]})";
  return text;
}

constexpr const char* kGates136 =
    R"({"kubernetesVersion": "1.36", "featureGates": {"GenericWorkload": true, "GangScheduling": true}})";

std::string workload_136(const std::string& spec) {
  return R"({"apiVersion": "scheduling.k8s.io/v1alpha2", "kind": "Workload", "metadata": {"name": "train"}, "spec": )" +
         spec + "}";
}
std::string pod_group_136(const std::string& spec) {
  return R"({"apiVersion": "scheduling.k8s.io/v1alpha2", "kind": "PodGroup", "metadata": {"name": "train-w"}, "spec": )" +
         spec + "}";
}
constexpr const char* kTemplates =
    R"({"podGroupTemplates": [{"name": "w", "schedulingPolicy": {"gang": {"minCount": 1}}}]})";
constexpr const char* kPodGroup =
    R"({"podGroupTemplateRef": {"workload": {"workloadName": "train", "podGroupTemplateName": "w"}}, "schedulingPolicy": {"gang": {"minCount": 1}}})";

TEST_CASE("1.36's Workload API input the API server refuses is an error at its place",
          "[cli][gang]") {
  const std::string nine_templates = [] {
    std::string out = R"({"podGroupTemplates": [)";
    for (int i = 0; i < 9; ++i) {
      out += std::string(i == 0 ? "" : ", ") + R"({"name": "w)" + std::to_string(i) +
             R"(", "schedulingPolicy": {"basic": {}}})";
    }
    return out + "]}";
  }();
  const Row rows[] = {
      {"a v1alpha2 Workload on 1.35",
       scenario_136(R"({"kubernetesVersion": "1.35", "featureGates": {"GenericWorkload": true}})",
                    {workload_136(kTemplates)}, R"("restartPolicy": "Always")"),
       ":6: /cluster/1: no matches for kind \"Workload\" in version "
       "\"scheduling.k8s.io/v1alpha2\" (Kubernetes 1.35 does not have it: 1.36 added "
       "scheduling.k8s.io/v1alpha2 Workload and PodGroup; 1.35 serves scheduling.k8s.io/v1alpha1 "
       "Workload, which pods join with spec.workloadRef)\n"},
      {"a PodGroup on 1.36 without GenericWorkload",
       scenario_136(R"({"kubernetesVersion": "1.36"})", {pod_group_136(kPodGroup)}),
       ":6: /cluster/1: no matches for kind \"PodGroup\" in version "
       "\"scheduling.k8s.io/v1alpha2\" (Kubernetes 1.36 serves it only with the feature gate "
       "GenericWorkload)\n"},
      {"a schedulingGroup on 1.35",
       scenario_136(R"({"kubernetesVersion": "1.35", "featureGates": {"GenericWorkload": true}})",
                    {}),
       ":7: /cluster/1/spec/schedulingGroup: spec.schedulingGroup: Kubernetes 1.35 has no such "
       "pod field (1.36 added it, with the feature gate GenericWorkload; 1.35 names a pod's "
       "group with spec.workloadRef)\n"},
      {"a workloadRef on 1.36",
       scenario_136(kGates136, {}, R"("workloadRef": {"name": "train", "podGroup": "w"})"),
       ":7: /cluster/1/spec/workloadRef: spec.workloadRef: Kubernetes 1.36 has no such pod field "
       "(1.36 names a pod's PodGroup with spec.schedulingGroup.podGroupName)\n"},
      {"a gang minCount of 0",
       scenario_136(kGates136,
                    {pod_group_136(R"({"schedulingPolicy": {"gang": {"minCount": 0}}})")}),
       ":6: /cluster/1/spec/schedulingPolicy/gang/minCount: The PodGroup \"train-w\" is invalid: "
       "spec.schedulingPolicy.gang.minCount: Required value\n"},
      {"a negative minCount",
       scenario_136(kGates136,
                    {pod_group_136(R"({"schedulingPolicy": {"gang": {"minCount": -1}}})")}),
       ":6: /cluster/1/spec/schedulingPolicy/gang/minCount: The PodGroup \"train-w\" is invalid: "
       "spec.schedulingPolicy.gang.minCount: Invalid value: -1: must be greater than 0\n"},
      {"no policy", scenario_136(kGates136, {pod_group_136(R"({})")}),
       ":6: /cluster/1/spec/schedulingPolicy: The PodGroup \"train-w\" is invalid: "
       "spec.schedulingPolicy: Invalid value: \"\": must specify one of: `basic`, `gang`\n"},
      {"a template reference without its template",
       scenario_136(
           kGates136,
           {pod_group_136(
               R"({"podGroupTemplateRef": {"workload": {"workloadName": "train"}}, "schedulingPolicy": {"basic": {}}})")}),
       ":6: /cluster/1/spec/podGroupTemplateRef/workload/podGroupTemplateName: The PodGroup "
       "\"train-w\" is invalid: spec.podGroupTemplateRef.workload.podGroupTemplateName: "
       "Required value\n"},
      {"no template", scenario_136(kGates136, {workload_136(R"({"podGroupTemplates": []})")}),
       ":6: /cluster/1/spec/podGroupTemplates: The Workload \"train\" is invalid: "
       "spec.podGroupTemplates: Required value: must have at least one item\n"},
      {"nine templates", scenario_136(kGates136, {workload_136(nine_templates)}),
       ":6: /cluster/1/spec/podGroupTemplates: The Workload \"train\" is invalid: "
       "spec.podGroupTemplates: Too many: 9: must have at most 8 items\n"},
      {"a template twice",
       scenario_136(
           kGates136,
           {workload_136(
               R"({"podGroupTemplates": [{"name": "w", "schedulingPolicy": {"basic": {}}}, {"name": "w", "schedulingPolicy": {"basic": {}}}]})")}),
       ":6: /cluster/1/spec/podGroupTemplates/1: The Workload \"train\" is invalid: "
       "spec.podGroupTemplates[1]: Duplicate value: \"w\"\n"},
      {"a podGroupName that is no DNS subdomain",
       scenario_136(kGates136, {}, R"("schedulingGroup": {"podGroupName": "Train"})"),
       ":7: /cluster/1/spec/schedulingGroup/podGroupName: The Pod \"p\" is invalid: "
       "spec.schedulingGroup.podGroupName: Invalid value: \"Train\": a lowercase RFC 1123 "
       "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
       "start and end with an alphanumeric character (e.g. 'example.com', regex used for "
       "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n"},
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

TEST_CASE("1.36: a PodGroup's policy is immutable; a deleted PodGroup holds its pods again",
          "[cli][gang]") {
  TempDir dir;
  const std::string base =
      scenario_136(kGates136, {workload_136(kTemplates), pod_group_136(kPodGroup)});
  std::string text = base;
  text.insert(
      text.rfind('}'),
      R"(, "timeline": [{"at": "10s", "apply": )" +
          pod_group_136(
              R"({"podGroupTemplateRef": {"workload": {"workloadName": "train", "podGroupTemplateName": "w"}}, "schedulingPolicy": {"gang": {"minCount": 2}}})") +
          "}]");
  const std::string file = dir.write("g.json", text);
  const auto result = run_cli({"replay", file});
  CHECK(result.code == 2);
  CHECK_THAT(result.err, Catch::EndsWith(": PodGroup.scheduling.k8s.io \"train-w\" is invalid: "
                                         "spec.schedulingPolicy: Invalid value: field is "
                                         "immutable\n"));
  // A PodGroup of minCount 1 lets its pod schedule at once.
  const auto fits = run_cli({"replay", dir.write("ok.json", base), "--output", "json"});
  REQUIRE(fits.code == 0);
  CHECK(nlohmann::json::parse(fits.out)["pods"][0]["phase"] == "Running");
}

}  // namespace
}  // namespace gpusched::cli
