// The API server's update rules for the objects a timeline `patch` or `apply` changes
// (ValidatePodUpdate, ValidateJobSpecUpdate, the apps/v1 selectors, ValidateStatefulSetUpdate),
// and the names the controllers generate (names.SimpleNameGenerator).
#include <catch2/catch.hpp>

#include <string>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

constexpr const char* kNode =
    R"({"kind": "Node", "metadata": {"name": "n1"},
        "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "nvidia.com/gpu": "2"}}})";

constexpr const char* kPod =
    R"({"kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
        "spec": {"tolerations": [{"key": "k", "operator": "Exists"}],
                 "containers": [{"name": "c",
                   "resources": {"limits": {"cpu": "1", "nvidia.com/gpu": 1}}}]}})";

Scenario scenario_of(const std::string& cluster, const std::string& timeline) {
  return io::parse_scenario(R"({"name": "t", "scheduler": {"seed": 1}, "cluster": [)" + cluster +
                                R"(], "timeline": )" + timeline + "}",
                            "t.json");
}

std::string patch_of(const std::string& kind, const std::string& name, const std::string& merge) {
  return R"([{"at": "10s", "patch": {"kind": ")" + kind +
         R"(", "namespace": "default", "name": ")" + name + R"(", "merge": )" + merge + "}}]";
}

/// The error a run ends with, or "" when it runs to its end.
std::string run_error(const Scenario& scenario, std::string* pointer = nullptr) {
  try {
    (void)simulate(scenario);
  } catch (const InputError& e) {
    if (pointer != nullptr) *pointer = e.pointer();
    return e.reason();
  }
  return "";
}

const std::string kForbidden =
    "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,"
    "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only "
    "additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set "
    "to 1 if it was previously negative)\n";

TEST_CASE("a running pod's resources and priority are immutable", "[sim][apiserver]") {
  std::string pointer;
  const std::string resources = run_error(
      scenario_of(std::string(kNode) + "," + kPod,
                  patch_of("Pod", "p",
                           R"({"spec": {"containers": [{"name": "c", "resources": {"limits":
                               {"cpu": "1", "nvidia.com/gpu": 2}}}]}})")),
      &pointer);
  CHECK(resources == "Pod \"p\" is invalid: " + kForbidden +
                         "(gpusched: changed spec.containers[0].resources.requests, "
                         "spec.containers[0].resources.limits)");
  CHECK(pointer == "/timeline/0");
  CHECK(run_error(scenario_of(std::string(kNode) + "," + kPod,
                              patch_of("Pod", "p", R"({"spec": {"priority": 1000}})"))) ==
        "Pod \"p\" is invalid: " + kForbidden + "(gpusched: changed spec.priority)");
  // An apply of the same pod with other requests is the same update.
  const std::string bigger = R"([{"at": "10s", "apply": {"kind": "Pod", "metadata": {"name": "p"},
      "spec": {"tolerations": [{"key": "k", "operator": "Exists"}], "containers": [{"name": "c",
      "resources": {"limits": {"cpu": "2", "nvidia.com/gpu": 1}}}]}}}])";
  CHECK(run_error(scenario_of(std::string(kNode) + "," + kPod, bigger))
            .starts_with("Pod \"p\" is invalid: " + kForbidden));
  CHECK(run_error(scenario_of(
            std::string(kNode) + "," + kPod,
            patch_of("Pod", "p", R"({"spec": {"containers": [{"name": "c"}, {"name": "d"}]}})"))) ==
        "Pod \"p\" is invalid: spec.containers: Forbidden: pod updates may not add or remove "
        "containers");
}

TEST_CASE("a pod update may add tolerations and change labels, not remove tolerations",
          "[sim][apiserver]") {
  CHECK(run_error(
            scenario_of(std::string(kNode) + "," + kPod,
                        patch_of("Pod", "p",
                                 R"({"metadata": {"labels": {"a": "b"}}, "spec": {"tolerations": [
                         {"key": "k", "operator": "Exists"}, {"key": "x", "operator": "Exists"}]}})"))) ==
        "");
  // The apply of the manifest as it was, without the priority admission filled in, is no change.
  const std::string same = R"([{"at": "10s", "apply": )" + std::string(kPod) + "}]";
  CHECK(run_error(scenario_of(std::string(kNode) + "," + kPod, same)) == "");
  CHECK(run_error(scenario_of(std::string(kNode) + "," + kPod,
                              patch_of("Pod", "p", R"({"spec": {"tolerations": []}})"))) ==
        "Pod \"p\" is invalid: spec.tolerations: Forbidden: existing toleration can not be "
        "modified except its tolerationSeconds");
  // Moving a bound pod is no exception.
  CHECK(run_error(scenario_of(std::string(kNode) + "," + kPod,
                              patch_of("Pod", "p", R"({"spec": {"nodeName": "n2"}})"))) ==
        "Pod \"p\" is invalid: " + kForbidden + "(gpusched: changed spec.nodeName)");
}

TEST_CASE("a gated pod may gain nodeSelector entries but not change them", "[sim][apiserver]") {
  const std::string gated =
      R"({"kind": "Pod", "metadata": {"name": "g", "namespace": "default"},
          "spec": {"schedulingGates": [{"name": "x.io/g"}], "nodeSelector": {"a": "1"},
                   "containers": [{"name": "c"}]}})";
  CHECK(run_error(scenario_of(std::string(kNode) + "," + gated,
                              patch_of("Pod", "g", R"({"spec": {"nodeSelector": {"b": "2"}}})"))) ==
        "");
  CHECK(run_error(scenario_of(std::string(kNode) + "," + gated,
                              patch_of("Pod", "g", R"({"spec": {"nodeSelector": {"a": "3"}}})"))) ==
        "Pod \"g\" is invalid: spec.nodeSelector: Invalid value: map[string]string{\"a\":\"3\"}: "
        "only additions to spec.nodeSelector are allowed (no mutations or deletions)");
}

TEST_CASE("workload fields the API server keeps immutable are refused", "[sim][apiserver]") {
  const std::string deployment =
      R"({"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "web"},
          "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
                   "template": {"metadata": {"labels": {"app": "web", "tier": "x"}},
                                "spec": {"containers": [{"name": "c"}]}}}})";
  CHECK(run_error(scenario_of(
            std::string(kNode) + "," + deployment,
            patch_of("Deployment", "web",
                     R"({"spec": {"selector": {"matchLabels": {"app": "web", "tier": "x"}}}})"))) ==
        "Deployment.apps \"web\" is invalid: spec.selector: Invalid value: "
        "v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"web\", \"tier\":\"x\"}, "
        "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable");
  // replicas and the template stay mutable.
  CHECK(run_error(scenario_of(std::string(kNode) + "," + deployment,
                              patch_of("Deployment", "web", R"({"spec": {"replicas": 2}})"))) ==
        "");

  const std::string job =
      R"({"kind": "Job", "apiVersion": "batch/v1", "metadata": {"name": "train"},
          "spec": {"completions": 2, "template": {"spec": {"restartPolicy": "Never",
                   "containers": [{"name": "c"}]}}}})";
  CHECK(run_error(scenario_of(std::string(kNode) + "," + job,
                              patch_of("Job", "train", R"({"spec": {"completions": 3}})"))) ==
        "Job.batch \"train\" is invalid: spec.completions: Invalid value: 3: field is immutable");
  CHECK(
      run_error(scenario_of(
          std::string(kNode) + "," + job,
          patch_of(
              "Job", "train",
              R"({"spec": {"template": {"spec": {"priorityClassName": "system-node-critical"}}}})"))) ==
      "Job.batch \"train\" is invalid: spec.template: Invalid value: core.PodTemplateSpec{…}: "
      "field is immutable");
  CHECK(run_error(scenario_of(std::string(kNode) + "," + job,
                              patch_of("Job", "train", R"({"spec": {"parallelism": 2}})"))) == "");

  // A Job suspended and never started may change its template's scheduling directives
  // (AllowMutableSchedulingDirectives, pkg/registry/batch/job/strategy.go), nothing else of it;
  // once it has run, none of them.
  const std::string suspended =
      R"({"kind": "Job", "apiVersion": "batch/v1", "metadata": {"name": "train"},
          "spec": {"suspend": true, "template": {"spec": {"restartPolicy": "Never",
                   "containers": [{"name": "c"}]}}}})";
  const std::string directives =
      R"({"spec": {"suspend": false, "template": {"metadata": {"labels": {"kueue": "x"}},
          "spec": {"nodeSelector": {"gpu": "h100"},
                   "tolerations": [{"key": "spot", "operator": "Exists"}]}}}})";
  CHECK(run_error(scenario_of(std::string(kNode) + "," + suspended,
                              patch_of("Job", "train", directives))) == "");
  CHECK(run_error(scenario_of(
            std::string(kNode) + "," + suspended,
            patch_of("Job", "train",
                     R"({"spec": {"template": {"spec": {"priorityClassName": "x"}}}})"))) ==
        "Job.batch \"train\" is invalid: spec.template: Invalid value: core.PodTemplateSpec{…}: "
        "field is immutable");
  CHECK(run_error(scenario_of(
            std::string(kNode) + "," + job,
            patch_of("Job", "train",
                     R"({"spec": {"template": {"spec": {"nodeSelector": {"gpu": "h100"}}}}})"))) ==
        "Job.batch \"train\" is invalid: spec.template: Invalid value: core.PodTemplateSpec{…}: "
        "field is immutable");

  const std::string set =
      R"({"kind": "StatefulSet", "apiVersion": "apps/v1", "metadata": {"name": "db"},
          "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "db"}},
                   "template": {"metadata": {"labels": {"app": "db"}},
                                "spec": {"containers": [{"name": "c"}]}}}})";
  CHECK(run_error(scenario_of(
            std::string(kNode) + "," + set,
            patch_of("StatefulSet", "db", R"({"spec": {"podManagementPolicy": "Parallel"}})"))) ==
        "StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for "
        "fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', "
        "'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' "
        "are forbidden");
  CHECK(run_error(scenario_of(std::string(kNode) + "," + set,
                              patch_of("StatefulSet", "db", R"({"spec": {"replicas": 2}})"))) ==
        "");

  const std::string daemons =
      R"({"kind": "DaemonSet", "apiVersion": "apps/v1", "metadata": {"name": "agent"},
          "spec": {"selector": {"matchLabels": {"app": "agent"}},
                   "template": {"metadata": {"labels": {"app": "agent", "v": "1"}},
                                "spec": {"containers": [{"name": "c"}]}}}})";
  CHECK(
      run_error(scenario_of(std::string(kNode) + "," + daemons,
                            patch_of("DaemonSet", "agent",
                                     R"({"spec": {"selector": {"matchLabels": {"v": "1"}}}})"))) ==
      "DaemonSet.apps \"agent\" is invalid: spec.selector: Invalid value: "
      "v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"agent\", \"v\":\"1\"}, "
      "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable");
}

TEST_CASE("generated pod names fit 63 characters", "[sim][apiserver][names]") {
  const std::string name(60, 'w');
  const std::string deployment =
      R"({"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": ")" + name +
      R"("}, "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
          "template": {"metadata": {"labels": {"app": "web"}},
                       "spec": {"containers": [{"name": "c"}]}}}})";
  const SimulationResult result =
      simulate(scenario_of(std::string(kNode) + "," + deployment, "[]"));
  REQUIRE(result.pods.size() == 2);
  for (const PodRecord& pod : result.pods) {
    // names.SimpleNameGenerator: the "<replicaset>-" prefix cut to 58, then 5 random characters.
    CHECK(pod.pod.metadata.name.size() == 63);
    CHECK(pod.pod.metadata.name.starts_with(std::string(58, 'w')));
  }
}

}  // namespace
}  // namespace gpusched
