// Time-weighted GPU allocation of a replay result, computed by hand on small results.

#include "gpusched/report/gpu_allocation.hpp"

#include <catch2/catch.hpp>

#include <limits>
#include <string>

#include "gpusched/error.hpp"
#include "unit/report/sample_result.hpp"

namespace gpusched::report {
namespace {

using test::units;

PodRecord gpu_pod(const std::string& name, std::int64_t gpus, TimeMs created,
                  std::optional<TimeMs> scheduled, std::optional<TimeMs> finished) {
  PodRecord record = test::pod_record(name, PodPhase::Running, scheduled ? "w1" : "");
  record.requests = {{"cpu", units(1)}};
  if (gpus > 0) record.requests["nvidia.com/gpu"] = units(gpus);
  record.created = created;
  record.scheduled = scheduled;
  record.finished = finished;
  return record;
}

NodeRecord gpu_node(const std::string& name, std::int64_t gpus) {
  NodeRecord node;
  node.node.metadata.name = name;
  node.node.allocatable = {{"cpu", units(8)}};
  if (gpus > 0) node.node.allocatable["nvidia.com/gpu"] = units(gpus);
  return node;
}

TEST_CASE("GPU allocation weighs what bound pods held by time", "[report]") {
  SimulationResult result;
  result.source = "r.json";
  result.time = 200'000;
  result.nodes = {gpu_node("w1", 4), gpu_node("w2", 0), gpu_node("w3", 4)};
  result.pods = {
      gpu_pod("a", 2, 10'000, 10'000, 110'000),         // 2 GPUs for 100s
      gpu_pod("b", 1, 20'000, 50'000, 70'000),          // 1 GPU for 20s after waiting 30s
      gpu_pod("c", 0, 20'000, 20'000, 150'000),         // CPU only, but its end widens the span
      gpu_pod("d", 8, 30'000, std::nullopt, {}),        // never bound
      gpu_pod("e", 1, 140'000, 140'000, std::nullopt),  // still running at 200s
  };
  // Rejected by the kubelet: bound, never started, failed at once.
  PodRecord rejected = gpu_pod("f", 4, 60'000, std::nullopt, 60'000);
  rejected.pod.spec.node_name = "w3";
  rejected.pod.status.phase = PodPhase::Failed;
  result.pods.push_back(rejected);

  const GpuAllocation allocation = gpu_allocation(result);
  CHECK(allocation.begin == 10'000);
  CHECK(allocation.end == 200'000);  // e holds its GPU until the run ends
  CHECK(allocation.allocatable == 8'000 * 190'000);
  CHECK(allocation.held == 2'000 * 100'000 + 1'000 * 20'000 + 1'000 * 60'000);
  CHECK(allocation.ratio() == Approx(280.0 / 1520.0));
  CHECK(gpu_allocation_ratio(result) == allocation.ratio());
}

TEST_CASE("GPU allocation counts preemption victims gone by the end", "[report]") {
  SimulationResult result;
  result.source = "r.json";
  result.time = 100'000;
  result.nodes = {gpu_node("w1", 2)};
  result.pods = {gpu_pod("high", 2, 40'000, 45'000, 100'000),
                 gpu_pod("stays", 1, 0, 0, std::nullopt)};
  result.pods[1].terminating = true;  // a victim still in its grace period at the end
  PreemptionRecord preemption{40'000, "default/high", "w1", {}};
  // Deleted by the end: counted from its start (10s) to its eviction (40s).
  preemption.victims.push_back(VictimRecord{"default/gone", 0, 1, 30'000});
  // Still in the result: counted once, from its record.
  preemption.victims.push_back(VictimRecord{"default/stays", 0, 1, 40'000});
  result.preemptions.push_back(preemption);

  const GpuAllocation allocation = gpu_allocation(result);
  CHECK(allocation.begin == 0);
  CHECK(allocation.end == 100'000);
  CHECK(allocation.allocatable == 2'000 * 100'000);
  CHECK(allocation.held == 2'000 * 55'000 + 1'000 * 100'000 + 1'000 * 30'000);
}

TEST_CASE("GPU allocation of a result without a span is zero", "[report]") {
  SimulationResult result;
  result.nodes = {gpu_node("w1", 8)};
  CHECK(gpu_allocation(result).allocatable == 0);
  CHECK(gpu_allocation_ratio(result) == 0.0);
  // Pods that never ran: no end.
  result.pods = {gpu_pod("p", 1, 0, std::nullopt, std::nullopt)};
  CHECK(gpu_allocation(result).held == 0);
  CHECK(gpu_allocation_ratio(result) == 0.0);
}

TEST_CASE("GPU allocation beyond int64 is an input error", "[report]") {
  SimulationResult result;
  result.source = "huge.json";
  result.time = std::numeric_limits<std::int64_t>::max() / 1000;
  result.nodes = {gpu_node("w1", 1'000'000)};
  result.pods = {gpu_pod("p", 1, 0, 0, std::nullopt)};
  try {
    (void)gpu_allocation(result);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == "huge.json");
    CHECK(e.reason() == "GPU time beyond what int64 milli-GPU-milliseconds can hold");
  }
}

}  // namespace
}  // namespace gpusched::report
