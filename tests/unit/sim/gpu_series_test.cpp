// The fleet GPU series is bounded by its bucket count, not by the clock: a run whose clock goes
// far (an action or a pool launch at 2562047h, the largest duration) keeps at most 4,096
// buckets, GPUs or not (issue 19: it used to emit a bucket per minute, 8.4 GB).

#include <catch2/catch.hpp>

#include <string>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

constexpr TimeMs kFar = 2'562'047LL * 3'600'000;

void check_series(const SimulationResult& result) {
  REQUIRE(result.time == kFar);
  CHECK(!result.gpu_series.empty());
  CHECK(result.gpu_series.size() <= 4096);
  CHECK(result.gpu_series.front().from == 0);
  CHECK(result.gpu_series.back().to == kFar);
  CHECK(result.gpu_bucket_ms * static_cast<TimeMs>(result.gpu_series.size()) >= kFar);
}

}  // namespace

TEST_CASE("a far-future apply on a fleet without GPUs keeps the GPU series bounded",
          "[sim][usage]") {
  const std::string text = R"({"name": "far", "timeline": [{"at": "2562047h", "apply":
      {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}}}]})";
  check_series(simulate(io::parse_scenario(text, "far.json")));
}

TEST_CASE("a pool launched at 2562047h keeps the GPU series bounded", "[sim][usage]") {
  const std::string text = R"({"name": "far", "nodePools": [{"count": 1,
      "provisioning": {"launchDelay": "2562047h"},
      "node": {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "p"},
               "status": {"allocatable": {"cpu": "1", "pods": "10"}}}}]})";
  check_series(simulate(io::parse_scenario(text, "far.json")));
}

TEST_CASE("a far-future apply after GPU nodes keeps the GPU series bounded", "[sim][usage]") {
  const std::string text = R"({"name": "far", "cluster": [{"kind": "Node",
      "metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "1", "nvidia.com/gpu": "8"}}}],
      "timeline": [{"at": "2562047h", "apply":
      {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}}}]})";
  const SimulationResult result = simulate(io::parse_scenario(text, "far.json"));
  check_series(result);
  double hours = 0;
  for (const GpuBucket& bucket : result.gpu_series) hours += bucket.schedulable_hours;
  CHECK(hours == Approx(8.0 * 2'562'047));
}

TEST_CASE("a pending pod and a far-future action stop with an error, not a run of days",
          "[sim][usage]") {
  // The pod is retried every 5 minutes against a cluster that never changes until 2562047h: some
  // 3e10 cycles. The run stops once a million retries in a row have changed nothing.
  const std::string text = R"({"name": "far", "cluster": [
      {"kind": "Node", "metadata": {"name": "n1"},
       "status": {"allocatable": {"cpu": "1", "memory": "1Gi", "nvidia.com/gpu": "1"}}},
      {"kind": "Pod", "metadata": {"name": "a"}, "spec": {"containers": [{"name": "c",
       "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}},
      {"kind": "Pod", "metadata": {"name": "b"}, "spec": {"containers": [{"name": "c",
       "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}],
    "timeline": [{"at": "2562047h", "delete": {"kind": "Pod", "name": "a"}}]})";
  const Scenario scenario = io::parse_scenario(text, "far.json");
  CHECK_THROWS_WITH(simulate(scenario),
                    Catch::StartsWith("far.json: from 0s on nothing changes but pods wait") &&
                        Catch::Contains("1000000 such retries later") &&
                        Catch::Contains("the run still goes on until 2562047h"));
  // A week of the same stretch is replayed in full.
  Scenario week = scenario;
  week.until = 7LL * 24 * 3'600'000;
  const SimulationResult result = simulate(week);
  CHECK(result.time == *week.until);
}

}  // namespace gpusched
