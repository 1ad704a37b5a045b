// What gpusched does with each kind a manifest may hold (lib/io/kind_filter.cpp): modelled,
// skipped with one warning per kind, or ignored with a warning naming what is lost (an error
// under --strict), the same in a scenario's cluster, include and timeline and in snapshots.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/snapshot.hpp"
#include "io/kind_filter.hpp"
#include "support/temp_dir.hpp"

namespace gpusched {
namespace {

using io::KindHandling;

TEST_CASE("classify_kind: modelled, skipped or ignored, by API group and kind", "[io][kinds]") {
  struct Row {
    const char* api_version;
    const char* kind;
    KindHandling handling;
  };
  const std::vector<Row> rows = {
      {"apps/v1", "StatefulSet", KindHandling::Modelled},
      {"v1", "Service", KindHandling::Modelled},
      {"scheduling.k8s.io/v1alpha1", "Workload", KindHandling::Modelled},
      {"", "Pod", KindHandling::Modelled},
      // A version that does not serve the kind is the parser's error, not a skip.
      {"extensions/v1beta1", "Deployment", KindHandling::Modelled},
      {"v1", "ConfigMap", KindHandling::Skipped},
      {"", "Secret", KindHandling::Skipped},
      {"v1", "ServiceAccount", KindHandling::Skipped},
      {"rbac.authorization.k8s.io/v1", "ClusterRoleBinding", KindHandling::Skipped},
      {"apiextensions.k8s.io/v1", "CustomResourceDefinition", KindHandling::Skipped},
      {"networking.k8s.io/v1", "NetworkPolicy", KindHandling::Skipped},
      {"monitoring.coreos.com/v1", "ServiceMonitor", KindHandling::Skipped},
      {"example.com/v1", "Widget", KindHandling::Skipped},
      {"v1", "LimitRange", KindHandling::Ignored},
      {"v1", "ResourceQuota", KindHandling::Ignored},
      {"v1", "PersistentVolumeClaim", KindHandling::Ignored},
      {"node.k8s.io/v1", "RuntimeClass", KindHandling::Ignored},
      {"batch/v1", "CronJob", KindHandling::Ignored},
      {"autoscaling/v2", "HorizontalPodAutoscaler", KindHandling::Ignored},
      {"resource.k8s.io/v1", "ResourceClaimTemplate", KindHandling::Modelled},
      {"resource.k8s.io/v1beta1", "DeviceClass", KindHandling::Modelled},
      {"resource.k8s.io/v1alpha3", "DeviceTaintRule", KindHandling::Ignored},
      {"scheduling.k8s.io/v1alpha2", "PodGroup", KindHandling::Modelled},
      // Kueue's modelled kinds (kueue_json.cpp); the rest of kueue.x-k8s.io is named.
      {"kueue.x-k8s.io/v1beta1", "ClusterQueue", KindHandling::Modelled},
      {"kueue.x-k8s.io/v1beta2", "Workload", KindHandling::Modelled},
      {"", "LocalQueue", KindHandling::Modelled},
      {"kueue.x-k8s.io/v1beta2", "Topology", KindHandling::Ignored},
      {"kueue.x-k8s.io/v1beta2", "MultiKueueConfig", KindHandling::Ignored},
      {"kueue.x-k8s.io/v1beta2", "ProvisioningRequestConfig", KindHandling::Modelled},
      {"autoscaling.x-k8s.io/v1", "ProvisioningRequest", KindHandling::Ignored},
      {"admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", KindHandling::Ignored},
      {"monitoring.coreos.com/v1", "Prometheus", KindHandling::Ignored},
      // The same kind name in another API is that API's: Volcano's Job, Knative's Service.
      {"batch.volcano.sh/v1alpha1", "Job", KindHandling::Ignored},
      {"serving.knative.dev/v1", "Service", KindHandling::Skipped},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.api_version << " " << row.kind) {
      const io::KindVerdict verdict = io::classify_kind(row.api_version, row.kind);
      CHECK(verdict.handling == row.handling);
      CHECK(verdict.why.empty() == (row.handling == KindHandling::Modelled));
    }
  }
}

/// A bundle as `kubectl apply -f` takes it: a Service, two ConfigMaps, a ServiceAccount, a
/// LimitRange and a StatefulSet with a volumeClaimTemplate.
constexpr const char* kBundle = R"(apiVersion: v1
kind: Service
metadata: {name: llm}
spec: {clusterIP: None, selector: {app: llm}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: a}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: llm}
---
apiVersion: v1
kind: LimitRange
metadata: {name: defaults}
spec: {limits: [{type: Container, defaultRequest: {cpu: 500m}}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: llm}
spec:
  replicas: 2
  selector: {matchLabels: {app: llm}}
  template:
    metadata: {labels: {app: llm}}
    spec: {containers: [{name: c}]}
  volumeClaimTemplates:
  - metadata: {name: cache}
)";

TEST_CASE("an included bundle: one note per kind left out, the StatefulSet modelled",
          "[io][kinds]") {
  const test::TempDir dir;
  const std::string bundle = dir.write("bundle.yaml", kBundle);
  const std::string file = dir.write("s.json", R"({"name": "s", "include": ["bundle.yaml"],
    "cluster": [{"kind": "ConfigMap", "metadata": {"name": "c"}}]})");
  const Scenario scenario = io::load_scenario(file);
  REQUIRE(scenario.cluster.size() == 2);
  CHECK(kind_of(scenario.cluster[0]) == "Service");
  CHECK(kind_of(scenario.cluster[1]) == "StatefulSet");
  CHECK(scenario.notes ==
        std::vector<std::string>{
            file + ":2: /cluster/0: 3 ConfigMap objects skipped: they do not change where or "
                   "whether pods run",
            bundle + ":14: /3: 1 ServiceAccount object skipped: they do not change where or "
                     "whether pods run",
            bundle + ":18: /4: 1 LimitRange object ignored: the LimitRanger admission plugin's "
                     "default requests and limits are not applied to pods (refused under "
                     "--strict)",
            bundle + ":33: /5/spec/volumeClaimTemplates: spec.volumeClaimTemplates of 1 "
                     "StatefulSet object ignored: volume binding is not modelled: pods are placed "
                     "as if their volumes could bind on any node (refused under --strict)"});

  io::LoadOptions strict;
  strict.strict = true;
  try {
    (void)io::load_scenario(file, strict);
    FAIL("--strict accepted a LimitRange");
  } catch (const InputError& e) {
    CHECK(e.file() == bundle);
    CHECK(e.pointer() == "/4");
    CHECK(e.line() == 18);
    CHECK(e.reason() ==
          "LimitRange is not modelled, and --strict refuses what would change placement: the "
          "LimitRanger admission plugin's default requests and limits are not applied to pods");
  }
}

TEST_CASE("a timeline apply leaves out kinds as the cluster does", "[io][kinds]") {
  const Scenario scenario = io::parse_scenario(R"({"name": "t", "timeline": [
      {"at": "1m", "apply": [{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}},
                             {"kind": "Pod", "metadata": {"name": "p"},
                              "spec": {"containers": [{}]}}]},
      {"at": "2m", "apply": {"apiVersion": "batch/v1", "kind": "CronJob",
                             "metadata": {"name": "nightly"}}}]})",
                                               "t.json");
  REQUIRE(scenario.timeline.size() == 2);
  CHECK(scenario.timeline[0].objects.size() == 1);
  CHECK(scenario.timeline[1].objects.empty());
  CHECK(scenario.notes ==
        std::vector<std::string>{
            "t.json:2: /timeline/0/apply/0: 1 Secret object skipped: they do not change where "
            "or whether pods run",
            "t.json:5: /timeline/1/apply: 1 CronJob (batch/v1) object ignored: its schedule "
            "creates no Jobs (refused under --strict)"});
  io::LoadOptions strict;
  strict.strict = true;
  CHECK_THROWS_WITH(io::parse_scenario(R"({"name": "t", "timeline": [
      {"at": "2m", "apply": {"apiVersion": "batch/v1", "kind": "CronJob",
                             "metadata": {"name": "nightly"}}}]})",
                                       "t.json", strict),
                    Catch::StartsWith("t.json:2: /timeline/0/apply: CronJob (batch/v1) is not "
                                      "modelled"));
}

TEST_CASE("a pod's spec.schedulingGroup on 1.36 with GenericWorkload is kept, the cycle modelled",
          "[io][kinds]") {
  const std::string pod = R"(
      {"kind": "Pod", "metadata": {"name": "w0"},
       "spec": {"schedulingGroup": {"podGroupName": "train"}, "containers": [{"name": "c"}]}}]})";
  const std::string text =
      R"({"name": "g", "scheduler": {"featureGates": {"GenericWorkload": true}}, "cluster": [)" +
      pod;
  io::LoadOptions strict;
  strict.strict = true;
  const Scenario scenario = io::parse_scenario(text, "g.json", strict);
  REQUIRE(scenario.cluster.size() == 1);
  const SharedOptional<std::string>& group =
      std::get<Pod>(scenario.cluster[0]).spec.scheduling_group;
  REQUIRE(group);
  CHECK(*group == "train");
  CHECK(scenario.notes.empty());
  const Scenario gate_off = io::parse_scenario(R"({"name": "g", "cluster": [)" + pod, "g.json");
  CHECK(gate_off.notes.empty());
}

TEST_CASE("whatif --add: the additions' kinds are sorted as a scenario's", "[io][kinds]") {
  const test::TempDir dir;
  const std::string snapshot = dir.write("snap.json", R"({"apiVersion": "v1", "kind": "List",
    "items": [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "w1"},
               "status": {"capacity": {"cpu": "4"}}},
              {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kube-root-ca.crt"}}]})");
  const std::string bundle = dir.write("bundle.yaml", kBundle);
  io::SnapshotOptions options;
  options.additions = {bundle};
  const io::Snapshot loaded = io::load_snapshot(snapshot, options);
  CHECK(loaded.snapshot_objects == 1);
  REQUIRE(loaded.scenario.cluster.size() == 3);
  CHECK(kind_of(loaded.scenario.cluster[2]) == "StatefulSet");
  REQUIRE(loaded.scenario.notes.size() == 4);
  CHECK(loaded.scenario.notes[0] ==
        snapshot +
            ":4: /items/1: 3 ConfigMap objects skipped: they do not change where or "
            "whether pods run");
  options.strict = true;
  CHECK_THROWS_AS(io::load_snapshot(snapshot, options), InputError);
}

}  // namespace
}  // namespace gpusched
