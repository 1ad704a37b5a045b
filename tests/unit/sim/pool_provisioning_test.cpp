// Node pools through layers 1 and 2: launches (and their failures), NotReady, Ready, the device
// plugin, the reservation's end; and the seam report over them.
#include <catch2/catch.hpp>

#include <string>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/report/metrics.hpp"
#include "gpusched/report/seam.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

std::string pool_scenario(const std::string& pool_extra, const std::string& rest = "") {
  return R"({"name": "staged", "scheduler": {"seed": 1}, "until": "2h", "nodePools": [
      {"count": 2, )" +
         pool_extra + R"(
       "node": {"kind": "Node", "metadata": {"name": "g"},
                "status": {"capacity": {"cpu": "8", "memory": "64Gi", "nvidia.com/gpu": "4"}}}}])" +
         rest + "}";
}

const NodeProvisioning& node(const SimulationResult& result, const std::string& name) {
  for (const NodeProvisioning& n : result.provisioning) {
    if (n.node == name) return n;
  }
  FAIL("no provisioning record for " << name);
  throw std::logic_error("unreachable");
}

TEST_CASE("a provisioned node registers NotReady, then Ready, then gets its GPUs", "[sim][pools]") {
  const std::string text = pool_scenario(
      R"("provisioning": {"launchDelay": "10m", "bootDelay": "5m", "driverDelay": "15m"},)",
      R"(, "cluster": [{"kind": "Pod", "metadata": {"name": "p"},
          "spec": {"containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": 1}}}]}}],
        "expect": [
          {"at": "10m", "node": "g-0", "allocatable": {"nvidia.com/gpu": "0"}},
          {"at": "12m", "pod": "default/p", "phase": "Pending",
           "message": "0/2 nodes are available: 2 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."},
          {"at": "20m", "pod": "default/p", "phase": "Pending",
           "message": "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."},
          {"at": "30m", "node": "g-1", "allocatable": {"nvidia.com/gpu": "4"}},
          {"at": "30m", "pod": "default/p", "phase": "Running"}])");
  const SimulationResult result = simulate(io::parse_scenario(text, "staged.json"));
  for (const ExpectationResult& e : result.expectations) {
    INFO(e.pointer << ": " << e.message);
    CHECK(e.ok);
  }
  const NodeProvisioning& g0 = node(result, "g-0");
  CHECK(g0.pool == "g");
  CHECK(g0.gpus == 4);
  CHECK(g0.requested == 0);
  CHECK(g0.billed_from == 0);
  CHECK(g0.registered == 600'000);
  CHECK(g0.ready == 900'000);
  CHECK(g0.gpus_advertised == 1'800'000);
  CHECK_FALSE(g0.removed);
  CHECK(g0.failed_launches == 0);
  // The scheduler could use the GPUs from 30m only: 2 nodes x 4 GPUs x 1h30m.
  const report::Seam seam = report::seam(result);
  CHECK(seam.fleet.paid == Approx(2 * 4 * 2.0));
  CHECK(seam.fleet.provisioned == Approx(2 * 4 * (2.0 - 10.0 / 60)));
  CHECK(seam.fleet.schedulable == Approx(2 * 4 * 1.5));
  CHECK(seam.fleet.allocated == Approx(1.5));
  CHECK(seam.last_node_ready == 1'800'000);
}

TEST_CASE("a reservation is paid whole and its nodes leave at its end", "[sim][pools]") {
  // Before 30m there is no node at all: the pod waits in the error backoff queue, which the
  // nodes' arrival does not move; its retry on the 11 s grid after 30s (30m1s) binds it. At the
  // end its node is gone: its phase is Unknown until the pod garbage collector deletes it 40 s
  // later.
  const std::string text =
      pool_scenario(R"("pricePerGpuHour": "1.5", "reservation": {"start": "30m", "end": "1h30m"},)",
                    R"(, "cluster": [{"kind": "Pod", "metadata": {"name": "p"},
          "spec": {"containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": 2}}}]}}],
        "expect": [
          {"at": "29m", "pod": "default/p", "phase": "Pending"},
          {"at": "30m", "pod": "default/p", "phase": "Pending"},
          {"at": "30m1s", "pod": "default/p", "phase": "Running"},
          {"at": "1h30m", "pod": "default/p", "phase": "Unknown"},
          {"at": "1h30m39s", "pod": "default/p", "phase": "Unknown"},
          {"at": "1h30m40s", "pod": "default/p", "phase": "Absent"}])");
  const SimulationResult result = simulate(io::parse_scenario(text, "reserved.json"));
  for (const ExpectationResult& e : result.expectations) {
    INFO(e.pointer << ": " << e.message);
    CHECK(e.ok);
  }
  CHECK(node(result, "g-1").removed == 5'400'000);
  REQUIRE(result.pools.size() == 1);
  CHECK(result.pools[0].reserved_from == 1'800'000);
  CHECK(result.pools[0].reserved_to == 5'400'000);
  CHECK(result.pools[0].gpus_per_node == 4);
  const report::Seam seam = report::seam(result);
  // 8 GPUs for an hour, all of it in the cluster and schedulable; the pod held 2 from 30m1s.
  const double held = 2.0 * 3599 / 3600;
  CHECK(seam.fleet.paid == Approx(8.0));
  CHECK(seam.fleet.provisioned == Approx(8.0));
  CHECK(seam.fleet.schedulable == Approx(8.0));
  CHECK(seam.fleet.allocated == Approx(held));
  CHECK(seam.fleet.cost == Approx(12.0));
  CHECK(seam.by_pool.at("g").cost == Approx(12.0));
  // The series adds up to the totals, bucket by bucket of the run.
  double paid = 0;
  double allocated = 0;
  for (const report::SeamBucket& b : seam.series) {
    paid += b.hours.paid;
    allocated += b.hours.allocated;
  }
  CHECK(paid == Approx(8.0));
  CHECK(allocated == Approx(held));
  CHECK(seam.series.front().hours.paid == 0);
  const auto metrics = report::summary_metrics(result);
  CHECK(report::find_metric(metrics, "cost")->value == Approx(12.0));
  CHECK(report::find_metric(metrics, "gpuHours.paidIdle{pool=g}")->value == Approx(8.0 - held));
}

TEST_CASE("launch failures are drawn from the seed and retried a bounded number of times",
          "[sim][pools]") {
  const std::string always = pool_scenario(
      R"("provisioning": {"launchDelay": "1m", "launchFailureProbability": 1, "launchAttempts": 4},)");
  const SimulationResult failed = simulate(io::parse_scenario(always, "fail.json"));
  for (const NodeProvisioning& n : failed.provisioning) {
    CHECK(n.failed_launches == 4);
    CHECK_FALSE(n.registered);
    CHECK(n.removed == 4 * 60'000);
  }
  CHECK(failed.nodes.empty());
  CHECK(report::seam(failed).fleet.paid == 0);

  const std::string sometimes = pool_scenario(
      R"("provisioning": {"launchDelay": "1m", "launchFailureProbability": 0.5, "launchAttempts": 100},)");
  // Same seed, same draws; the counts differ between seeds somewhere.
  const Scenario scenario = io::parse_scenario(sometimes, "half.json");
  const SimulationResult a = simulate(scenario);
  const SimulationResult b = simulate(scenario);
  std::vector<std::int32_t> counts_a;
  std::vector<std::int32_t> counts_b;
  for (const NodeProvisioning& n : a.provisioning) counts_a.push_back(n.failed_launches);
  for (const NodeProvisioning& n : b.provisioning) counts_b.push_back(n.failed_launches);
  CHECK(counts_a == counts_b);
  bool differs = false;
  for (std::uint64_t seed = 2; seed < 12 && !differs; ++seed) {
    SimulationOptions options;
    options.seed = seed;
    const SimulationResult c = simulate(scenario, options);
    std::vector<std::int32_t> counts_c;
    for (const NodeProvisioning& n : c.provisioning) counts_c.push_back(n.failed_launches);
    differs = counts_c != counts_a;
  }
  CHECK(differs);
  for (const NodeProvisioning& n : a.provisioning) {
    REQUIRE(n.registered);
    // Each failure costs one launch delay; billing starts with the launch that worked.
    CHECK(*n.registered == (n.failed_launches + 1) * 60'000);
    CHECK(n.billed_from == *n.registered - 60'000);
  }
}

}  // namespace
}  // namespace gpusched
