// Kueue's admission checks in a replay (lib/sim/kueue_controller.cpp with the cluster
// autoscaler's ProvisioningRequest classes in lib/sim/cluster_autoscaler.cpp): the
// ProvisioningRequest check's states and messages (Kueue v0.19.2
// pkg/controller/admissionchecks/provisioning/controller.go, as its controller_test.go
// "ActiveOrLastPRForChecks"/"syncCheckStates" cases do for one attempt), checks no controller of
// the replay manages, and the autoscaler's check-capacity and best-effort-atomic-scale-up.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"
#include "kueue/workload_status.hpp"

namespace gpusched {
namespace {

const std::string kScenarios = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/";

/// The flavor `default`, the ClusterQueue `gpu` with 16 GPUs of quota and the admission check
/// `check`, and its LocalQueue default/gpu (each followed by a comma).
const std::string kQueues = R"(
      {"kind": "ResourceFlavor", "metadata": {"name": "default"}},
      {"kind": "ClusterQueue", "metadata": {"name": "gpu"},
       "spec": {"namespaceSelector": {},
                "resourceGroups": [{"coveredResources": ["nvidia.com/gpu"],
                  "flavors": [{"name": "default", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": "16"}]}]}],
                "admissionChecksStrategy": {"admissionChecks": [{"name": "check"}]}}},
      {"kind": "LocalQueue", "metadata": {"name": "gpu", "namespace": "default"},
       "spec": {"clusterQueue": "gpu"}},
      )";

/// A cluster with one 8-GPU node, a ClusterQueue `gpu` with 16 GPUs of quota and the admission
/// check `check`, the objects given, and an autoscaled CPU pool so that a cluster autoscaler runs.
std::string scenario(const std::string& objects, const std::string& jobs) {
  return R"({"name": "checks", "scheduler": {"seed": 1},
    "nodePools": [{"count": 0, "autoscaling": {"minCount": 0, "maxCount": 1},
      "node": {"kind": "Node", "metadata": {"name": "cpu"},
               "status": {"capacity": {"cpu": "8", "memory": "32Gi", "pods": "110"}}}}],
    "cluster": [
      {"kind": "Node", "metadata": {"name": "gpu-0"},
       "status": {"capacity": {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": "8", "pods": "110"}}},
      )" +
         kQueues + objects +
         R"(]
    , "timeline": [)" +
         jobs + "]}";
}

std::string job(const std::string& at, const std::string& name, int gpus) {
  return R"({"at": ")" + at + R"(", "apply": {"apiVersion": "batch/v1", "kind": "Job",
     "metadata": {"name": ")" +
         name +
         R"(", "namespace": "default", "labels": {"kueue.x-k8s.io/queue-name": "gpu"}},
     "spec": {"template": {"metadata": {"annotations": {"gpusched.io/run-duration": "30m"}},
       "spec": {"restartPolicy": "Never", "containers": [{"name": "c",
         "resources": {"limits": {"nvidia.com/gpu": )" +
         std::to_string(gpus) + "}}}]}}}}}";
}

std::string check_objects(const std::string& class_name, const std::string& managed = "") {
  return R"({"kind": "ProvisioningRequestConfig", "metadata": {"name": "cfg"},
       "spec": {"provisioningClassName": ")" +
         class_name + "\"" + managed + R"(}},
      {"kind": "AdmissionCheck", "metadata": {"name": "check"},
       "spec": {"controllerName": "kueue.x-k8s.io/provisioning-request",
                "parameters": {"apiGroup": "kueue.x-k8s.io", "kind": "ProvisioningRequestConfig",
                               "name": "cfg"}}})";
}

const WorkloadRecord& workload(const SimulationResult& result, const std::string& owner) {
  auto it = std::find_if(result.workloads.begin(), result.workloads.end(),
                         [&](const WorkloadRecord& wl) { return wl.owner == owner; });
  REQUIRE(it != result.workloads.end());
  return *it;
}

bool has_event(const SimulationResult& result, const std::string& reason,
               const std::string& message) {
  return std::any_of(result.events.begin(), result.events.end(), [&](const EventRecord& e) {
    return e.reason == reason && e.message == message;
  });
}

}  // namespace

TEST_CASE("best-effort-atomic: the pool launches every node at once, then the Job starts",
          "[sim][kueue][admission-checks]") {
  const SimulationResult result =
      simulate(io::load_scenario(kScenarios + "kueue-provisioning-request-scale-up.json"));
  const WorkloadRecord& wl = workload(result, "Job/default/train");
  CHECK(wl.admitted);
  CHECK(wl.admitted_at == TimeMs{10'000});
  REQUIRE(wl.admission_checks.size() == 1);
  CHECK(wl.admission_checks[0].name == "h100-capacity");
  CHECK(wl.admission_checks[0].state == "Ready");
  CHECK(wl.admission_checks[0].message == "Capacity is found in the cluster");
  CHECK(wl.admission_checks[0].last_transition_time == 10'000);
  // The request's pods asked for two nodes at once; the Job's pods, consuming the request,
  // triggered no scale-up of their own.
  CHECK(result.provisioning.size() == 2);
  CHECK(std::none_of(result.events.begin(), result.events.end(),
                     [](const EventRecord& e) { return e.reason == "TriggeredScaleUp"; }));
  const std::string request = wl.name + "-h100-capacity-1";
  CHECK(has_event(result, "ProvisioningRequestCreated",
                  "Created ProvisioningRequest: \"" + request + "\""));
  CHECK(has_event(result, "AdmissionCheckUpdated",
                  "Admission check h100-capacity updated state from Pending to Ready with "
                  "message: Capacity is found in the cluster"));
  CHECK(has_event(result, "Admitted",
                  "Admitted by ClusterQueue gpu, wait time since reservation was 10s"));
  for (const PodRecord& pod : result.pods) {
    CHECK(pod.pod.spec.node_name->starts_with("h100-"));
    CHECK(pod.pod.metadata.annotations.at("autoscaling.x-k8s.io/consume-provisioning-request") ==
          request);
    CHECK(pod.pod.metadata.annotations.at("autoscaling.x-k8s.io/provisioning-class-name") ==
          "best-effort-atomic-scale-up.autoscaling.x-k8s.io");
  }
}

TEST_CASE("best-effort-atomic: a plain pod group's pods consume the request too",
          "[sim][kueue][admission-checks][pod]") {
  // Pod.RunWithPodSetsInfo merges the checks' pod set updates into each pod it ungates, as
  // Job.RunWithPodSetsInfo does into the template: without them the pods would ask the
  // autoscaler for nodes of their own.
  std::string pods;
  for (int i = 0; i < 2; ++i) {
    pods += R"(, {"kind": "Pod", "metadata": {"namespace": "default", "name": "w)" +
            std::to_string(i) + R"(",
        "labels": {"kueue.x-k8s.io/queue-name": "gpu", "kueue.x-k8s.io/pod-group-name": "train"},
        "annotations": {"kueue.x-k8s.io/pod-group-total-count": "2",
                        "gpusched.io/run-duration": "30m"}},
       "spec": {"restartPolicy": "Never", "containers": [{"name": "c",
         "resources": {"limits": {"nvidia.com/gpu": 8}}}]}})";
  }
  const SimulationResult result = simulate(io::parse_scenario(
      R"({"name": "group-checks", "scheduler": {"seed": 1},
    "kueue": {"configuration": {"integrations": {"frameworks": ["batch/job", "pod"]}}},
    "nodePools": [{"count": 0, "autoscaling": {"minCount": 0, "maxCount": 2},
      "node": {"kind": "Node", "metadata": {"name": "h100"},
               "status": {"capacity": {"cpu": "96", "memory": "1Ti", "nvidia.com/gpu": "8",
                                       "pods": "110"}}}}],
    "cluster": [
      )" + kQueues +
          check_objects("best-effort-atomic-scale-up.autoscaling.x-k8s.io") + pods + "]}",
      "group-checks.json"));
  REQUIRE(result.workloads.size() == 1);
  const WorkloadRecord& wl = result.workloads.front();
  CHECK(wl.name == "train");  // a group's Workload is named after it
  CHECK(wl.admitted);
  REQUIRE(wl.admission_checks.size() == 1);
  CHECK(wl.admission_checks[0].state == "Ready");
  // The request's two pods asked for both nodes; the pods themselves for none.
  CHECK(result.provisioning.size() == 2);
  CHECK(std::none_of(result.events.begin(), result.events.end(),
                     [](const EventRecord& e) { return e.reason == "TriggeredScaleUp"; }));
  REQUIRE(result.pods.size() == 2);
  for (const PodRecord& pod : result.pods) {
    CHECK(pod.pod.metadata.annotations.at("autoscaling.x-k8s.io/consume-provisioning-request") ==
          wl.name + "-check-1");
    CHECK(pod.pod.spec.node_name->starts_with("h100"));
  }
}

TEST_CASE("check-capacity: the check waits until the capacity is there",
          "[sim][kueue][admission-checks]") {
  const SimulationResult result =
      simulate(io::parse_scenario(scenario(check_objects("check-capacity.autoscaling.x-k8s.io"),
                                           job("0s", "first", 8) + "," + job("1m", "second", 8)),
                                  "checks.json"));
  const WorkloadRecord& first = workload(result, "Job/default/first");
  CHECK(first.admitted_at == TimeMs{10'000});  // the autoscaler's loop after the request
  const WorkloadRecord& second = workload(result, "Job/default/second");
  // gpu-0 is full until first ends at 30m10s: the check stays Pending with the request's
  // Provisioned=False message, then passes at the autoscaler's next loop.
  CHECK(has_event(result, "AdmissionCheckUpdated",
                  "Admission check check updated state from Pending to Ready with message: "
                  "Capacity is found in the cluster"));
  REQUIRE(second.admitted_at.has_value());
  CHECK(*second.admitted_at >= 30 * 60'000 + 10'000);
  CHECK(*second.admitted_at <= 30 * 60'000 + 20'000);
  CHECK(second.admission_checks.at(0).state == "Ready");
}

TEST_CASE("A request that is not needed passes the check at once",
          "[sim][kueue][admission-checks]") {
  // managedResources names a resource the Job does not use (reqIsNeeded).
  const SimulationResult result = simulate(
      io::parse_scenario(scenario(check_objects("check-capacity.autoscaling.x-k8s.io",
                                                R"(, "managedResources": ["example.com/fpga"])"),
                                  job("0s", "first", 8)),
                         "checks.json"));
  const WorkloadRecord& wl = workload(result, "Job/default/first");
  CHECK(wl.admitted_at == TimeMs{0});
  CHECK(wl.admission_checks.at(0).state == "Ready");
  CHECK(wl.admission_checks.at(0).message == "the provisioning request is not needed");
  CHECK(has_event(result, "AdmissionCheckUpdated",
                  "Admission check check updated state from Pending to Ready with message: the "
                  "provisioning request is not needed"));
  CHECK(std::none_of(result.events.begin(), result.events.end(), [](const EventRecord& e) {
    return e.reason == "ProvisioningRequestCreated";
  }));
}

TEST_CASE("A check no controller of the replay manages leaves its ClusterQueue inactive",
          "[sim][kueue][admission-checks]") {
  const SimulationResult result = simulate(
      io::parse_scenario(scenario(R"({"kind": "AdmissionCheck", "metadata": {"name": "check"},
                   "spec": {"controllerName": "example.com/approval"}})",
                                  job("0s", "first", 8)),
                         "checks.json"));
  const WorkloadRecord& wl = workload(result, "Job/default/first");
  CHECK_FALSE(wl.admitted);
  // The workload controller still lists the check (reconcileSyncAdmissionChecks).
  REQUIRE(wl.admission_checks.size() == 1);
  CHECK(wl.admission_checks[0].state == "Pending");
  const kueue::Condition* reserved = kueue::find_condition(wl.conditions, kueue::kQuotaReserved);
  REQUIRE(reserved != nullptr);
  CHECK(reserved->reason == "Inadmissible");
  CHECK(reserved->message == "ClusterQueue gpu is inactive");
  REQUIRE(result.notices.size() == 1);
  CHECK(result.notices[0] ==
        "ClusterQueue gpu references AdmissionCheck check of controller example.com/approval, "
        "which gpusched does not model: nothing marks the check Active, so the ClusterQueue is "
        "inactive (\"references inactive AdmissionCheck(s): check\") and admits no workload");
}

TEST_CASE("A ProvisioningRequest check without its config is inactive",
          "[sim][kueue][admission-checks]") {
  // admissioncheck_reconciler.go: Active=False (BadParametersRef) when the config is missing.
  const SimulationResult result = simulate(
      io::parse_scenario(scenario(R"({"kind": "AdmissionCheck", "metadata": {"name": "check"},
                   "spec": {"controllerName": "kueue.x-k8s.io/provisioning-request",
                            "parameters": {"apiGroup": "kueue.x-k8s.io",
                                           "kind": "ProvisioningRequestConfig", "name": "gone"}}})",
                                  job("0s", "first", 8)),
                         "checks.json"));
  const WorkloadRecord& wl = workload(result, "Job/default/first");
  CHECK_FALSE(wl.admitted);
  CHECK(result.notices.empty());
}

TEST_CASE("A stopped queue takes the reservation of a workload waiting for its checks",
          "[sim][kueue][admission-checks][stop-policy]") {
  // Kueue v0.19.2 workload_controller.go reconcileOnLocalQueueActiveState /
  // reconcileOnClusterQueueActiveState: a workload with quota but not admitted loses its
  // reservation under Hold (not only HoldAndDrain), without an eviction; the workload
  // controller's next look names the blocker (getQueueBlocker). Its check and request stay.
  struct Case {
    std::string target;
    std::string blocker;
  };
  for (const Case& c :
       {Case{R"("kind": "LocalQueue", "namespace": "default", "name": "gpu")",
             "LocalQueue gpu is inactive"},
        Case{R"("kind": "ClusterQueue", "name": "gpu")", "ClusterQueue gpu is inactive"}}) {
    CAPTURE(c.target);
    // second reserves 8 GPUs at 1m and waits for the capacity first holds until 30m10s.
    const std::string timeline = job("0s", "first", 8) + "," + job("1m", "second", 8) +
                                 R"(, {"at": "5m", "patch": {)" + c.target +
                                 R"(, "merge": {"spec": {"stopPolicy": "Hold"}}}},
                                 {"at": "10m", "patch": {)" +
                                 c.target + R"(, "merge": {"spec": {"stopPolicy": "None"}}}})";
    std::string text = scenario(check_objects("check-capacity.autoscaling.x-k8s.io"), timeline);
    const SimulationResult whole = simulate(io::parse_scenario(text, "checks.json"));
    text.insert(1, R"("until": "7m", )");
    const SimulationResult held = simulate(io::parse_scenario(text, "checks.json"));

    const WorkloadRecord& second = workload(held, "Job/default/second");
    CHECK_FALSE(second.admitted);
    const kueue::Condition* reserved =
        kueue::find_condition(second.conditions, kueue::kQuotaReserved);
    REQUIRE(reserved != nullptr);
    CHECK(reserved->status == "False");
    CHECK(reserved->reason == "Inadmissible");
    CHECK(reserved->message == c.blocker);
    CHECK(reserved->last_transition_time == 5 * 60'000);
    CHECK(std::none_of(second.conditions.begin(), second.conditions.end(),
                       [](const kueue::Condition& cond) { return cond.type == "Evicted"; }));
    REQUIRE(second.admission_checks.size() == 1);
    CHECK(second.admission_checks[0].state == "Pending");
    // Only first's 8 GPUs are held in the ClusterQueue.
    REQUIRE(held.cluster_queues.size() == 1);
    CHECK(held.cluster_queues[0].usage.at("default").at("nvidia.com/gpu") ==
          Quantity::from_units(8));
    CHECK(held.cluster_queues[0].reserving_workloads == 1);
    const auto span =
        std::find_if(held.quota_spans.begin(), held.quota_spans.end(),
                     [&](const QuotaSpan& q) { return q.workload == "default/" + second.name; });
    REQUIRE(span != held.quota_spans.end());
    CHECK(span->reserved == TimeMs{60'000});
    CHECK(span->released == TimeMs{5 * 60'000});

    // Started again at 10m, it reserves again and is admitted once first's capacity is free.
    const WorkloadRecord& again = workload(whole, "Job/default/second");
    REQUIRE(again.admitted_at.has_value());
    CHECK(*again.admitted_at >= 30 * 60'000 + 10'000);
    CHECK(*again.admitted_at <= 30 * 60'000 + 20'000);
    CHECK(
        std::count_if(whole.quota_spans.begin(), whole.quota_spans.end(), [&](const QuotaSpan& q) {
          return q.workload == "default/" + again.name && q.reserved == TimeMs{10 * 60'000};
        }) == 1);
  }
}

}  // namespace gpusched
