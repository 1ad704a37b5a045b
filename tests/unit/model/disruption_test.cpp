#include "model/disruption.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpusched {
namespace {

struct PodSpecRow {
  // Implicit so that a row's pod list may be written {{"a"}, {"b", PodPhase::Pending}}.
  PodSpecRow(const char* name_, PodPhase phase_ = PodPhase::Running, std::string controller_ = {},
             bool deleting_ = false, std::string ready_ = {}, Labels labels_ = {{"foo", "bar"}},
             std::string namespace__ = "default")
      : name(name_),
        phase(phase_),
        controller(std::move(controller_)),
        deleting(deleting_),
        ready(std::move(ready_)),
        labels(std::move(labels_)),
        namespace_(std::move(namespace__)) {}
  std::string name;
  PodPhase phase;
  std::string controller;  // "ReplicaSet/rs" or empty
  bool deleting;
  std::string ready;  // status of a Ready condition; empty: none
  Labels labels;
  std::string namespace_;
};

Pod make_pod(const PodSpecRow& row) {
  Pod p;
  p.metadata.name = row.name;
  p.metadata.namespace_ = row.namespace_;
  p.metadata.labels = row.labels;
  p.status.phase = row.phase;
  if (row.deleting) p.metadata.deletion_ms = 1000;
  if (!row.controller.empty()) {
    const auto slash = row.controller.find('/');
    p.metadata.owner_references.push_back({row.controller.substr(0, slash),
                                           row.controller.substr(slash + 1),
                                           "uid-" + row.controller.substr(slash + 1), true});
  }
  if (!row.ready.empty()) p.status.conditions.push_back({"Ready", row.ready, "", "", 0});
  return p;
}

PodDisruptionBudget pdb(std::optional<IntOrPercent> min_available,
                        std::optional<IntOrPercent> max_unavailable,
                        std::optional<LabelSelector> selector = LabelSelector{{{"foo", "bar"}},
                                                                              {}}) {
  PodDisruptionBudget b;
  b.metadata.name = "foobar";
  b.metadata.namespace_ = "default";
  b.selector = std::move(selector);
  b.min_available = min_available;
  b.max_unavailable = max_unavailable;
  return b;
}

IntOrPercent count(std::int32_t value) {
  return {value, false};
}
IntOrPercent percent(std::int32_t value) {
  return {value, true};
}

/// Controller scales by controller name, as the finders would report them.
ControllerScale scales(std::map<std::string, std::int32_t> by_name) {
  return [by_name](const OwnerReference& ref, std::string_view) -> std::optional<std::int32_t> {
    auto it = by_name.find(ref.name);
    if (it == by_name.end()) return std::nullopt;
    return it->second;
  };
}

struct Row {
  const char* name;
  PodDisruptionBudget budget;
  std::vector<PodSpecRow> pods;
  std::optional<std::map<std::string, std::int32_t>> controller_scales;
  // VerifyPdbStatus's order: disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods.
  std::int32_t disruptions_allowed;
  std::int32_t current_healthy;
  std::int32_t desired_healthy;
  std::int32_t expected_pods;
  std::string sync_error = {};
};

TEST_CASE("pdb_status mirrors the disruption controller", "[model][disruption]") {
  using Scales = std::map<std::string, std::int32_t>;
  const std::vector<Row> rows = {
      // pkg/controller/disruption/disruption_test.go.
      {"TestNoSelector: no pods",
       pdb(count(3), std::nullopt, LabelSelector{}),
       {},
       std::nullopt,
       0,
       0,
       3,
       0},
      {"TestNoSelector: empty selector selects every pod",
       pdb(count(3), std::nullopt, LabelSelector{}),
       {{"yo-yo-yo", PodPhase::Running, "", false, "", {}}},
       std::nullopt,
       0,
       1,
       3,
       1},
      {"TestUnavailableNoPods", pdb(count(3), std::nullopt), {}, std::nullopt, 0, 0, 3, 0},
      {"TestUnavailableNoPods: one pod",
       pdb(count(3), std::nullopt),
       {{"yo-yo-yo"}},
       std::nullopt,
       0,
       1,
       3,
       1},
      {"TestIntegerMaxUnavailable: naked pod has no controller scale",
       pdb(std::nullopt, count(1)),
       {{"naked"}},
       Scales{},
       0,
       1,
       0,
       0},
      {"TestNakedPod: percentage of no controllers",
       pdb(percent(28), std::nullopt),
       {{"naked"}},
       Scales{},
       0,
       1,
       0,
       0},
      {"TestReplicaSet: 20% of 10 replicas, one pod",
       pdb(percent(20), std::nullopt),
       {{"pod", PodPhase::Running, "ReplicaSet/rs"}},
       Scales{{"rs", 10}},
       0,
       1,
       2,
       10},
      {"TestReplicationController: 34% of 3, one pod",
       pdb(percent(34), std::nullopt),
       {{"a", PodPhase::Running, "ReplicationController/rc"}},
       Scales{{"rc", 3}},
       0,
       1,
       2,
       3},
      {"TestReplicationController: 34% of 3, three pods",
       pdb(percent(34), std::nullopt),
       {{"a", PodPhase::Running, "ReplicationController/rc"},
        {"b", PodPhase::Running, "ReplicationController/rc"},
        {"c", PodPhase::Running, "ReplicationController/rc"}},
       Scales{{"rc", 3}},
       1,
       3,
       2,
       3},
      {"TestTwoControllers: 28% of 11+11, all healthy",
       pdb(percent(28), std::nullopt),
       {{"a", PodPhase::Running, "ReplicationController/rc"},
        {"b", PodPhase::Running, "ReplicaSet/rs"}},
       Scales{{"rc", 11}, {"rs", 11}},
       0,
       2,
       7,
       22},
      {"TestIntegerMaxUnavailableWithScaling: 2 of 7",
       pdb(std::nullopt, count(2)),
       {{"pod", PodPhase::Running, "ReplicaSet/rs"}},
       Scales{{"rs", 7}},
       0,
       1,
       5,
       7},
      {"TestIntegerMaxUnavailableWithScaling: 2 of 5",
       pdb(std::nullopt, count(2)),
       {{"pod", PodPhase::Running, "ReplicaSet/rs"}},
       Scales{{"rs", 5}},
       0,
       1,
       3,
       5},
      {"TestPercentageMaxUnavailableWithScaling: 30% of 7",
       pdb(std::nullopt, percent(30)),
       {{"pod", PodPhase::Running, "ReplicaSet/rs"}},
       Scales{{"rs", 7}},
       0,
       1,
       4,
       7},
      {"TestPercentageMaxUnavailableWithScaling: 30% of 3",
       pdb(std::nullopt, percent(30)),
       {{"pod", PodPhase::Running, "ReplicaSet/rs"}},
       Scales{{"rs", 3}},
       0,
       1,
       2,
       3},
      {"controller without a scale fails the sync",
       pdb(percent(50), std::nullopt),
       {{"job-pod", PodPhase::Running, "Job/j"}},
       Scales{},
       0,
       0,
       0,
       0,
       "found no controllers for pod \"job-pod\""},
      // Without controller scales gpusched counts the selected pods.
      {"minAvailable count",
       pdb(count(2), std::nullopt),
       {{"a"}, {"b"}, {"c"}},
       std::nullopt,
       1,
       3,
       2,
       3},
      {"minAvailable percentage of selected pods",
       pdb(percent(50), std::nullopt),
       {{"a"}, {"b"}, {"c"}},
       std::nullopt,
       1,
       3,
       2,
       3},
      {"maxUnavailable count",
       pdb(std::nullopt, count(1)),
       {{"a"}, {"b"}, {"c"}},
       std::nullopt,
       1,
       3,
       2,
       3},
      {"maxUnavailable percentage rounds the unavailable pods up",
       pdb(std::nullopt, percent(50)),
       {{"a"}, {"b"}, {"c"}},
       std::nullopt,
       2,
       3,
       1,
       3},
      {"maxUnavailable above the pod count",
       pdb(std::nullopt, count(5)),
       {{"a"}, {"b"}},
       std::nullopt,
       2,
       2,
       0,
       2},
      {"maxUnavailable 0 allows nothing",
       pdb(std::nullopt, count(0)),
       {{"a"}, {"b"}},
       std::nullopt,
       0,
       2,
       2,
       2},
      {"minAvailable 100%",
       pdb(percent(100), std::nullopt),
       {{"a"}, {"b"}},
       std::nullopt,
       0,
       2,
       2,
       2},
      {"neither field set", pdb(std::nullopt, std::nullopt), {{"a"}}, std::nullopt, 0, 1, 0, 0},
      {"null selector selects nothing",
       pdb(count(0), std::nullopt, std::nullopt),
       {{"a"}},
       std::nullopt,
       0,
       0,
       0,
       0},
      {"unhealthy pods count as expected but not healthy",
       pdb(count(1), std::nullopt),
       {{"running"},
        {"pending", PodPhase::Pending},
        {"done", PodPhase::Succeeded},
        {"terminating", PodPhase::Running, "", true},
        {"not-ready", PodPhase::Running, "", false, "False"},
        {"ready", PodPhase::Running, "", false, "True"}},
       std::nullopt,
       1,
       2,
       1,
       6},
      {"other labels and namespaces are not selected",
       pdb(count(0), std::nullopt),
       {{"a"},
        {"other-app", PodPhase::Running, "", false, "", {{"foo", "baz"}}},
        {"other-ns", PodPhase::Running, "", false, "", {{"foo", "bar"}}, "kube-system"}},
       std::nullopt,
       1,
       1,
       0,
       1},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      std::vector<Pod> pods;
      pods.reserve(row.pods.size());
      for (const PodSpecRow& p : row.pods) pods.push_back(make_pod(p));
      std::vector<const Pod*> pointers;
      for (const Pod& p : pods) pointers.push_back(&p);
      const PdbStatus status =
          row.controller_scales ? pdb_status(row.budget, pointers, scales(*row.controller_scales))
                                : pdb_status(row.budget, pointers);
      CHECK(status.disruptions_allowed == row.disruptions_allowed);
      CHECK(status.current_healthy == row.current_healthy);
      CHECK(status.desired_healthy == row.desired_healthy);
      CHECK(status.expected_pods == row.expected_pods);
      CHECK(status.sync_error == row.sync_error);
    }
  }
}

TEST_CASE("scaled_value rounds percentages up as GetScaledValueFromIntOrPercent",
          "[model][disruption]") {
  struct ScaleRow {
    IntOrPercent value;
    std::int32_t total;
    std::int32_t expected;
  };
  const std::vector<ScaleRow> rows = {{count(3), 10, 3},   {percent(0), 10, 0},
                                      {percent(1), 10, 1}, {percent(34), 3, 2},
                                      {percent(50), 5, 3}, {percent(100), 7, 7},
                                      {percent(30), 0, 0}, {percent(99), 2147483, 2126009}};
  for (const ScaleRow& row : rows) {
    CHECK(scaled_value(row.value, row.total) == row.expected);
  }
}

}  // namespace
}  // namespace gpusched
