#pragma once
/// A small hand-built SimulationResult shared by the writer tests: one GPU node, one running
/// pod holding the GPU and one pending pod that wants it.

#include <cstdint>

#include "gpusched/sim/result.hpp"

namespace gpusched::test {

inline constexpr std::int64_t kGi = std::int64_t{1} << 30;

inline Quantity units(std::int64_t n) {
  return Quantity::from_units(n);
}
inline Quantity milli(std::int64_t n) {
  return Quantity(n);
}
inline Quantity gibibytes(std::int64_t n) {
  return Quantity(n * kGi * 1000, QuantityFormat::BinarySI);
}

inline PodRecord pod_record(const std::string& name, PodPhase phase, const std::string& node) {
  PodRecord record;
  record.pod.metadata.name = name;
  record.pod.metadata.namespace_ = "default";
  record.pod.spec.node_name = node;
  record.pod.status.phase = phase;
  record.created = 0;
  return record;
}

inline SimulationResult sample_result() {
  SimulationResult result;
  result.scenario = "demo";
  result.source = "demo.json";
  result.time = 60'000;

  PodRecord running = pod_record("a", PodPhase::Running, "w1");
  running.requests = {{"cpu", milli(500)}, {"memory", gibibytes(1)}, {"nvidia.com/gpu", units(1)}};
  running.scheduled = 0;
  running.pod.status.conditions.push_back({"PodScheduled", "True", "", "", 0});

  PodRecord pending = pod_record("b", PodPhase::Pending, "");
  pending.requests = {{"cpu", milli(500)}, {"nvidia.com/gpu", units(1)}};
  pending.pod.status.conditions.push_back(
      {"PodScheduled", "False", "Unschedulable",
       "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.", 0});
  result.pods = {running, pending};

  NodeRecord node;
  node.node.metadata.name = "w1";
  node.node.capacity = {{"cpu", units(4)}, {"memory", gibibytes(16)}, {"nvidia.com/gpu", units(1)}};
  node.node.allocatable = node.node.capacity;
  node.node.conditions.push_back({"Ready", "True", "KubeletReady", ""});
  node.allocated = running.requests;
  node.pods = {"default/a"};
  result.nodes = {node};

  result.events = {
      {0, 0, 1, "Normal", "Scheduled", "Pod/default/a", "Successfully assigned default/a to w1"},
      {0, 20'000, 3, "Warning", "FailedScheduling", "Pod/default/b",
       "0/1 nodes are available: 1 Insufficient nvidia.com/gpu."},
  };
  result.expectations = {
      {0, "/expect/0", "end", true, "pod default/a is Running"},
      {1, "/expect/1", "30s", false, "pod default/b: expected phase Running, got Pending"},
  };
  result.passed = false;
  return result;
}

}  // namespace gpusched::test
