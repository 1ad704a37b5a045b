// Kueue's Events in a replay (lib/sim/kueue_controller.cpp). Kueue v0.19.2 takes its recorders
// from controller-runtime's GetEventRecorder (cmd/kueue/main.go, pkg/controller/core/core.go,
// pkg/controller/jobframework/setup.go): events.k8s.io/v1, whose broadcaster counts repeats but
// has no EventCorrelator, so similar events are never combined and none is dropped, however
// many a Workload gets.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"
#include "unit/sim/kueue_one_queue.hpp"

namespace gpusched {
namespace {

/// A Job of 64 GPUs in the ClusterQueue `cq`, whose nominal quota starts at 0 and is set to
/// 1, 2, ..., 29 at 20s, 30s, ..., 5m: each change requeues the Workload, which fails again
/// with another message.
SimulationResult run() {
  std::string timeline;
  for (int quota = 1; quota < 30; ++quota) {
    if (!timeline.empty()) timeline += ",";
    timeline += R"({"at": ")" + std::to_string(10 * (quota + 1)) +
                R"(s", "patch": {"kind": "ClusterQueue", "name": "cq", "merge": {"spec":
        {"resourceGroups": [{"coveredResources": ["nvidia.com/gpu"], "flavors": [{"name":
        "default", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": ")" +
                std::to_string(quota) + R"("}]}]}]}}}})";
  }
  const std::string text =
      R"({"name": "kueue-events", "scheduler": {"seed": 1}, "until": "10m", "cluster": [)" +
      testing::kueue_one_queue("0", 64) + R"(],
    "timeline": [)" +
      timeline + "]}";
  return simulate(io::parse_scenario(text, "kueue-events.json"));
}

}  // namespace

TEST_CASE("Kueue's Pending events are neither combined after ten nor dropped after 25",
          "[sim][kueue][events]") {
  const SimulationResult result = run();
  std::vector<const EventRecord*> pending;
  for (const EventRecord& e : result.events) {
    if (e.object.rfind("Workload/ns/", 0) == 0) pending.push_back(&e);
  }
  // One event per quota, 0 to 29: through client-go's EventCorrelator the tenth would have
  // started a "(combined from similar events): " event counting the rest, and the spam filter
  // would have dropped all after the 25th.
  REQUIRE(pending.size() == 30);
  for (std::size_t quota = 0; quota < pending.size(); ++quota) {
    const EventRecord& e = *pending[quota];
    CHECK(e.type == "Warning");
    CHECK(e.reason == "Pending");
    CHECK(e.count == 1);
    CHECK(e.message ==
          "couldn't assign flavors to pod set main: insufficient quota for nvidia.com/gpu in "
          "flavor default, previously considered podsets requests (0) + current podset request "
          "(64) > maximum capacity (" +
              std::to_string(quota) + ")");
  }
  CHECK(pending.front()->time == 0);
  CHECK(pending.back()->time == 300'000);
}

}  // namespace gpusched
