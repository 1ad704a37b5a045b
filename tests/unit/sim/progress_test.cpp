// SimulationOptions::progress: called as the replay goes, with growing counts, and without
// changing the replay.

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/report/writers.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {

TEST_CASE("progress reports every 4,096 cycles and when the clock moves", "[sim][progress]") {
  std::string cluster =
      R"({"kind": "Node", "metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "1000",
          "pods": "10000"}}})";
  for (int i = 0; i < 5000; ++i) {
    cluster += R"(, {"kind": "Pod", "metadata": {"name": "p)" + std::to_string(i) +
               R"("}, "spec": {"containers": [{"name": "c", "resources": {"requests":
               {"cpu": "100m"}}}]}})";
  }
  const Scenario scenario = io::parse_scenario(
      R"({"name": "progress", "cluster": [)" + cluster + R"(], "timeline": [{"at": "10s",
          "apply": {"kind": "Pod", "metadata": {"name": "late"}, "spec": {"containers":
          [{"name": "c"}]}}}]})",
      "progress.json");
  std::vector<Progress> seen;
  SimulationOptions options;
  options.progress = [&](const Progress& p) { seen.push_back(p); };
  const SimulationResult with = simulate(scenario, options);

  // One report after 4,096 cycles at 0s, one when the clock moves to 10s.
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].now == 0);
  CHECK(seen[0].cycles == 4096);
  CHECK(seen[0].bound == 4096);
  CHECK(seen[0].pods == 5000);
  CHECK(seen[1].now == 10'000);
  CHECK(seen[1].cycles == 5000);
  CHECK(seen[1].bound == 5000);

  std::ostringstream a, b;
  report::write_json(a, with);
  report::write_json(b, simulate(scenario));
  CHECK(a.str() == b.str());
}

}  // namespace gpusched
