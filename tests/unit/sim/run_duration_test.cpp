// gpusched.io/run-duration: the pod completes that long after it starts, whether the annotation
// is a duration or a plain number of seconds (both pass the loader).

#include <catch2/catch.hpp>

#include <string>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {

TEST_CASE("a run-duration in plain seconds ends the pod like a duration", "[sim][run-duration]") {
  auto finished = [](const std::string& duration) -> std::optional<TimeMs> {
    const std::string text = R"({"name": "d", "cluster": [
        {"kind": "Node", "metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "1"}}},
        {"kind": "Pod", "metadata": {"name": "p", "annotations":
          {"gpusched.io/run-duration": ")" +
                             duration + R"("}},
         "spec": {"restartPolicy": "Never", "containers": [{"name": "c"}]}}]})";
    const SimulationResult result = simulate(io::parse_scenario(text, "d.json"));
    REQUIRE(result.pods.size() == 1);
    CHECK(result.pods[0].pod.status.phase == PodPhase::Succeeded);
    return result.pods[0].finished;
  };
  CHECK(finished("180") == TimeMs{180'000});
  CHECK(finished("180s") == TimeMs{180'000});
  CHECK(finished("2.5") == TimeMs{2'500});
}

}  // namespace gpusched
