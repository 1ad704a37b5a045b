#include "gpusched/model/pod.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace gpusched {
namespace {

struct TolerationRow {
  std::string name;
  Toleration toleration;
  Taint taint;
  bool tolerated;
};

TEST_CASE("Toleration::tolerates mirrors v1.Toleration.ToleratesTaint", "[model][pod]") {
  using Op = TolerationOperator;
  using E = TaintEffect;
  const Taint gpu{"nvidia.com/gpu", "present", E::NoSchedule};
  // Rows after k8s.io/api/core/v1 toleration_test.go TestTolerationToleratesTaint.
  const std::vector<TolerationRow> rows = {
      {"empty toleration tolerates nothing keyed", {"", Op::Equal, "", {}, {}}, gpu, false},
      {"empty key with Exists tolerates everything", {"", Op::Exists, "", {}, {}}, gpu, true},
      {"empty key with Exists and matching effect",
       {"", Op::Exists, "", E::NoSchedule, {}},
       gpu,
       true},
      {"empty key with Exists and other effect",
       {"", Op::Exists, "", E::NoExecute, {}},
       gpu,
       false},
      {"Equal, same key and value", {"nvidia.com/gpu", Op::Equal, "present", {}, {}}, gpu, true},
      {"Equal, different value", {"nvidia.com/gpu", Op::Equal, "absent", {}, {}}, gpu, false},
      {"Equal, empty value against a valued taint",
       {"nvidia.com/gpu", Op::Equal, "", {}, {}},
       gpu,
       false},
      {"Exists ignores the value", {"nvidia.com/gpu", Op::Exists, "", {}, {}}, gpu, true},
      {"Exists ignores a stated value", {"nvidia.com/gpu", Op::Exists, "other", {}, {}}, gpu, true},
      {"different key", {"dedicated", Op::Exists, "", {}, {}}, gpu, false},
      {"effect must match", {"nvidia.com/gpu", Op::Exists, "", E::NoExecute, {}}, gpu, false},
      {"effect matches", {"nvidia.com/gpu", Op::Equal, "present", E::NoSchedule, {}}, gpu, true},
      {"PreferNoSchedule toleration on NoSchedule taint",
       {"nvidia.com/gpu", Op::Exists, "", E::PreferNoSchedule, {}},
       gpu,
       false},
      {"empty key with Equal compares values only", {"", Op::Equal, "present", {}, {}}, gpu, true},
      {"tolerationSeconds does not matter",
       {"node.kubernetes.io/not-ready", Op::Exists, "", E::NoExecute, 300},
       {"node.kubernetes.io/not-ready", "", E::NoExecute},
       true},
      {"Equal on a valueless taint",
       {"node.kubernetes.io/not-ready", Op::Equal, "", {}, {}},
       {"node.kubernetes.io/not-ready", "", E::NoSchedule},
       true},
  };
  for (const TolerationRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      CHECK(row.toleration.tolerates(row.taint) == row.tolerated);
    }
  }
}

TEST_CASE("Pod accessors", "[model][pod]") {
  Pod pod;
  pod.metadata.name = "trainer-0";
  pod.metadata.namespace_ = "ml";
  CHECK(pod.key() == "ml/trainer-0");
  CHECK(pod.priority() == 0);
  pod.spec.priority = 1000;
  CHECK(pod.priority() == 1000);
  CHECK_FALSE(pod.terminated());
  pod.status.phase = PodPhase::Failed;
  CHECK(pod.terminated());

  pod.status.conditions = {{"PodScheduled", "False", "Unschedulable", "0/1 nodes", 5},
                           {"DisruptionTarget", "True", "PreemptionByScheduler", "", 7}};
  REQUIRE(pod.status.condition("DisruptionTarget") != nullptr);
  CHECK(pod.status.condition("DisruptionTarget")->last_transition_ms == 7);
  CHECK(pod.status.condition("PodScheduled")->reason == "Unschedulable");
  CHECK(pod.status.condition("Ready") == nullptr);
}

TEST_CASE("to_string(PodPhase)", "[model][pod]") {
  CHECK(to_string(PodPhase::Pending) == "Pending");
  CHECK(to_string(PodPhase::Running) == "Running");
  CHECK(to_string(PodPhase::Succeeded) == "Succeeded");
  CHECK(to_string(PodPhase::Failed) == "Failed");
}

}  // namespace
}  // namespace gpusched
