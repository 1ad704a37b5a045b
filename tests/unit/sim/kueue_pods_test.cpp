// Kueue's pod integration in the replay (lib/sim/kueue_pods.cpp; Kueue v0.19.2
// pkg/controller/jobs/pod): which pods Kueue manages, a single pod's Workload, a pod group's
// eviction, and a queue-named pod without the integration.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"
#include "kueue/workload_name.hpp"

namespace gpusched {
namespace {

constexpr const char* kQueues = R"(
  {"kind": "Node", "metadata": {"name": "n1", "labels": {"gpu-type": "h100"}},
   "status": {"capacity": {"cpu": "96", "memory": "1Ti", "nvidia.com/gpu": "8", "pods": "110"}}},
  {"kind": "PriorityClass", "apiVersion": "scheduling.k8s.io/v1", "metadata": {"name": "high"},
   "value": 1000},
  {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor", "metadata": {"name": "h100"},
   "spec": {"nodeLabels": {"gpu-type": "h100"}}},
  {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "q"},
   "spec": {"namespaceSelector": {}, "preemption": {"withinClusterQueue": "LowerPriority"},
            "resourceGroups": [{"coveredResources": ["nvidia.com/gpu"], "flavors": [
              {"name": "h100", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": 8}]}]}]}},
  {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
   "metadata": {"namespace": "default", "name": "q"}, "spec": {"clusterQueue": "q"}},
  {"kind": "Namespace", "metadata": {"name": "kube-system"}})";

constexpr const char* kPodIntegration = R"({"configuration": {
    "integrations": {"frameworks": ["batch/job", "pod"]}}})";

SimulationResult run(const std::string& kueue, const std::string& pods,
                     const std::string& timeline = "[]") {
  const std::string text =
      R"({"name": "pods", "scheduler": {"seed": 1}, "until": "1h", "kueue": )" + kueue +
      R"(, "cluster": [)" + kQueues + "," + pods + R"(], "timeline": )" + timeline + "}";
  return simulate(io::parse_scenario(text, "pods.json"));
}

std::string gpu_pod(const std::string& name, const std::string& labels, int gpus,
                    const std::string& extra = "") {
  return R"({"kind": "Pod", "metadata": {"name": ")" + name + R"(", "labels": {)" + labels +
         R"(}, "annotations": {"gpusched.io/run-duration": "10m")" + extra +
         R"(}}, "spec": {"restartPolicy": "Never", "containers": [{"name": "c",
         "resources": {"limits": {"nvidia.com/gpu": ")" +
         std::to_string(gpus) + R"("}}}]}})";
}

const PodRecord& pod_of(const SimulationResult& r, const std::string& name) {
  auto it = std::find_if(r.pods.begin(), r.pods.end(),
                         [&](const PodRecord& p) { return p.pod.metadata.name == name; });
  REQUIRE(it != r.pods.end());
  return *it;
}

bool has_event(const SimulationResult& r, const std::string& object, const std::string& reason,
               const std::string& message) {
  return std::any_of(r.events.begin(), r.events.end(), [&](const EventRecord& e) {
    return e.object == object && e.reason == reason && e.message == message;
  });
}

TEST_CASE("a single queue-named pod gets a Workload named for the Pod", "[sim][kueue][pod]") {
  const SimulationResult r =
      run(kPodIntegration, gpu_pod("notebook", R"("kueue.x-k8s.io/queue-name": "q")", 4));
  REQUIRE(r.workloads.size() == 1);
  const WorkloadRecord& wl = r.workloads.front();
  // GetWorkloadNameForPod: GetWorkloadNameForOwnerWithGVK with core/v1 Pod.
  const PodRecord& pod = pod_of(r, "notebook");
  CHECK(wl.name == kueue::workload_name_for_owner("notebook", pod.pod.metadata.uid, "Pod", ""));
  CHECK(wl.name.starts_with("pod-notebook-"));
  CHECK(wl.owner == "Pod/default/notebook");
  CHECK(wl.flavors.at("main").at("nvidia.com/gpu") == "h100");
  // Ungated with the flavor's node labels; it ran and finished its Workload.
  CHECK(pod.pod.spec.scheduling_gates.empty());
  CHECK(pod.pod.spec.node_selector.at("gpu-type") == "h100");
  CHECK(pod.pod.metadata.labels->at("kueue.x-k8s.io/managed") == "true");
  CHECK(pod.pod.status.phase == PodPhase::Succeeded);
  const auto finished = std::find_if(wl.conditions.begin(), wl.conditions.end(),
                                     [](const auto& c) { return c.type == "Finished"; });
  REQUIRE(finished != wl.conditions.end());
  CHECK(finished->reason == "Succeeded");
  CHECK(has_event(r, "Pod/default/notebook", "Started", "Admitted by clusterQueue q"));
  CHECK(has_event(r, "Pod/default/notebook", "FinishedWorkload",
                  "Workload 'default/" + wl.name + "' is declared finished"));
}

TEST_CASE("which pods the pod integration manages", "[sim][kueue][pod]") {
  SECTION("without \"pod\" in integrations.frameworks (Kueue's default) a queue-named pod runs") {
    const SimulationResult r = run(R"({"configuration": {}})",
                                   gpu_pod("notebook", R"("kueue.x-k8s.io/queue-name": "q")", 4));
    CHECK(r.workloads.empty());
    CHECK(pod_of(r, "notebook").scheduled == 0);
    REQUIRE(r.notices.size() == 1);
    CHECK(r.notices[0] ==
          "Pod default/notebook has the kueue.x-k8s.io/queue-name label, but Kueue's pod "
          "integration is not enabled (integrations.frameworks lacks \"pod\"; Kueue's default is "
          "[\"batch/job\"]): Kueue does not manage it and it is scheduled at once");
  }
  SECTION("kube-system is left out (the webhook's namespaceSelector)") {
    const SimulationResult r =
        run(kPodIntegration,
            R"({"kind": "Pod", "metadata": {"name": "dns", "namespace": "kube-system",
            "labels": {"kueue.x-k8s.io/queue-name": "q"}},
            "spec": {"containers": [{"name": "c"}]}})");
    CHECK(r.workloads.empty());
    CHECK(pod_of(r, "dns").pod.spec.scheduling_gates.empty());
  }
  SECTION("a pod without a queue name is not managed, unless manageJobsWithoutQueueName") {
    const SimulationResult plain = run(kPodIntegration, gpu_pod("free", "", 1));
    CHECK(plain.workloads.empty());
    const SimulationResult all = run(R"({"configuration": {"manageJobsWithoutQueueName": true,
        "integrations": {"frameworks": ["pod"]}}})",
                                     gpu_pod("free", "", 1));
    REQUIRE(all.workloads.size() == 1);
    CHECK(all.workloads[0].queue_name.empty());
    // Its Workload names no LocalQueue: the pod stays gated.
    const PodRecord& pod = pod_of(all, "free");
    CHECK(pod.pod.spec.scheduling_gates == std::vector<std::string>{"kueue.x-k8s.io/admission"});
    REQUIRE(pod.pod.reason() != nullptr);
    CHECK(*pod.pod.reason() == "SchedulingGated");
  }
  SECTION("a Kueue-managed Job's pods are the Job's") {
    const SimulationResult r = run(kPodIntegration, R"({"apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "train", "labels": {"kueue.x-k8s.io/queue-name": "q"}},
        "spec": {"template": {"metadata": {"labels": {"kueue.x-k8s.io/queue-name": "q"}},
                 "spec": {"restartPolicy": "Never", "containers": [{"name": "c",
                 "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}}})");
    REQUIRE(r.workloads.size() == 1);
    CHECK(r.workloads[0].owner == "Job/default/train");
  }
}

TEST_CASE("a preempted pod group's pods are deleted and its quota held through their grace",
          "[sim][kueue][pod]") {
  const std::string group =
      R"("kueue.x-k8s.io/queue-name": "q", "kueue.x-k8s.io/pod-group-name": "low")";
  const std::string count = R"(, "kueue.x-k8s.io/pod-group-total-count": "2")";
  const SimulationResult r = run(
      kPodIntegration, gpu_pod("low-0", group, 4, count) + "," + gpu_pod("low-1", group, 4, count),
      R"([{"at": "1m", "apply": {"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "urgent",
          "labels": {"kueue.x-k8s.io/queue-name": "q"}}, "spec": {"priorityClassName": "high",
          "containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": "8"}}}]}}}])");
  // Pod.Stop: each running pod deleted, with Stopped; the group's Workload is gone with its pods.
  const std::string preempted =
      "due to prioritization in the ClusterQueue; preemptor path: /q; preemptee path: /q";
  for (const char* name : {"low-0", "low-1"}) {
    const auto stopped = std::find_if(r.events.begin(), r.events.end(), [&](const EventRecord& e) {
      return e.object == std::string("Pod/default/") + name && e.reason == "Stopped";
    });
    REQUIRE(stopped != r.events.end());
    CHECK(stopped->time == 60'000);
    CHECK(stopped->message.ends_with(preempted));
  }
  CHECK(std::none_of(r.workloads.begin(), r.workloads.end(),
                     [](const WorkloadRecord& w) { return w.name == "low"; }));
  // Pod.IsActive holds the group's quota until its pods end, 30s (their grace period) later.
  const PodRecord& urgent = pod_of(r, "urgent");
  CHECK(urgent.scheduled == 90'000);
}

}  // namespace
}  // namespace gpusched
