#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "gpusched/report/writers.hpp"
#include "unit/report/sample_result.hpp"

namespace gpusched::report {
namespace {

std::string table(const SimulationResult& result) {
  std::ostringstream out;
  write_table(out, result);
  return out.str();
}

TEST_CASE("write_table prints the kubectl-like report", "[report]") {
  const std::string expected =
      "Scenario demo (demo.json) at 1m\n"
      "\n"
      "PODS\n"
      "NAMESPACE   NAME   STATUS    NODE     NOMINATED NODE   AGE\n"
      "default     a      Running   w1       <none>           1m\n"
      "default     b      Pending   <none>   <none>           1m\n"
      "\n"
      "EVENTS\n"
      "Pod/default/a:\n"
      "  Type    Reason     Age   From               Message\n"
      "  ----    ------     ----  ----               -------\n"
      "  Normal  Scheduled  1m    default-scheduler  Successfully assigned default/a to w1\n"
      "\n"
      "Pod/default/b:\n"
      "  Type     Reason            Age               From               Message\n"
      "  ----     ------            ----              ----               -------\n"
      "  Warning  FailedScheduling  40s (x3 over 1m)  default-scheduler  0/1 nodes are available: "
      "1 Insufficient nvidia.com/gpu.\n"
      "\n"
      "NODES\n"
      "Name:           w1\n"
      "Taints:         <none>\n"
      "Unschedulable:  false\n"
      "Capacity:\n"
      "  cpu:             4\n"
      "  memory:          16Gi\n"
      "  nvidia.com/gpu:  1\n"
      "Allocatable:\n"
      "  cpu:             4\n"
      "  memory:          16Gi\n"
      "  nvidia.com/gpu:  1\n"
      "Non-terminated Pods:  (1 in total)\n"
      "  Namespace           Name  CPU Requests  Memory Requests  Age\n"
      "  ---------           ----  ------------  ---------------  ---\n"
      "  default             a     500m (12%)    1Gi (6%)         1m\n"
      "Allocated resources:\n"
      "  Resource           Requests\n"
      "  --------           --------\n"
      "  cpu                500m (12%)\n"
      "  memory             1Gi (6%)\n"
      "  ephemeral-storage  0 (0%)\n"
      "  nvidia.com/gpu     1\n"
      "\n"
      "EXPECTATIONS\n"
      "ok   /expect/0 at end: pod default/a is Running\n"
      "FAIL /expect/1 at 30s: pod default/b: expected phase Running, got Pending\n"
      "1 of 2 expectations hold\n";
  CHECK(table(test::sample_result()) == expected);
}

TEST_CASE("write_table shows terminating and finished pods as kubectl does", "[report]") {
  SimulationResult result = test::sample_result();
  result.pods[0].terminating = true;
  result.pods[1].pod.status.phase = PodPhase::Succeeded;
  result.pods.push_back(test::pod_record("c", PodPhase::Failed, "w1"));
  const std::string text = table(result);
  CHECK_THAT(text, Catch::Contains("default     a      Terminating   w1"));
  CHECK_THAT(text, Catch::Contains("default     b      Completed     <none>"));
  CHECK_THAT(text, Catch::Contains("default     c      Failed        w1"));
}

TEST_CASE("write_table describes taints, cordons and empty sections", "[report]") {
  SimulationResult result = test::sample_result();
  result.pods.clear();
  result.events.clear();
  result.expectations.clear();
  Node& node = result.nodes[0].node;
  node.unschedulable = true;
  node.taints = {{"gpu", "true", TaintEffect::NoSchedule},
                 {"dedicated", "", TaintEffect::NoExecute},
                 {"a-team", "x", TaintEffect::NoSchedule}};
  result.nodes[0].allocated = {{"cpu", test::milli(1)}};
  result.nodes[0].pods.clear();
  const std::string text = table(result);
  CHECK_THAT(text, Catch::Contains("PODS\n<none>\n\nEVENTS\n<none>\n"));
  // printTaintsMultiline sorts by effect, then key.
  CHECK_THAT(text, Catch::Contains("Taints:         dedicated:NoExecute\n"
                                   "                a-team=x:NoSchedule\n"
                                   "                gpu=true:NoSchedule\n"
                                   "Unschedulable:  true\n"));
  CHECK_THAT(text, Catch::Contains("Non-terminated Pods:  (0 in total)\nAllocated resources:\n"));
  // 1m of 4 cpus is 0.025%: kubectl truncates toward zero.
  CHECK_THAT(text, Catch::Contains("  cpu                1m (0%)\n"));
  CHECK_THAT(text, Catch::EndsWith("  nvidia.com/gpu     0\n"));
  CHECK(text.find("EXPECTATIONS") == std::string::npos);
}

TEST_CASE("write_table names the component that reports each event", "[report]") {
  SimulationResult result = test::sample_result();
  result.events = {
      {0, 0, 1, "Normal", "ScalingReplicaSet", "Deployment/default/web", "Scaled up"},
      {0, 0, 1, "Normal", "SuccessfulCreate", "ReplicaSet/default/web-1", "Created pod"},
      {0, 0, 1, "Normal", "Completed", "Job/default/train", "Job completed"},
      {0, 0, 1, "Normal", "Killing", "Pod/default/a", "Stopping container"},
      {0, 0, 1, "Normal", "Preempted", "Pod/default/a", "Preempted by pod default/b on node w1"},
      {0, 0, 1, "Normal", "TriggeredScaleUp", "Pod/default/a", "pod triggered scale-up"},
  };
  const std::string text = table(result);
  CHECK_THAT(text, Catch::Contains("deployment-controller  Scaled up\n"));
  CHECK_THAT(text, Catch::Contains("replicaset-controller  Created pod\n"));
  CHECK_THAT(text, Catch::Contains("job-controller  Job completed\n"));
  CHECK_THAT(text, Catch::Contains("kubelet             Stopping container\n"));
  CHECK_THAT(text, Catch::Contains("default-scheduler   Preempted by pod"));
  CHECK_THAT(text, Catch::Contains("cluster-autoscaler  pod triggered scale-up\n"));
}

}  // namespace
}  // namespace gpusched::report
