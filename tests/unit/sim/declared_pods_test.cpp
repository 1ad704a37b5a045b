// Hard limits on what a scenario may ask for: refused before anything is created, with the
// place that crossed the limit.

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"
#include "support/temp_dir.hpp"

namespace gpusched {
namespace {

std::string deployment(const std::string& name, std::int64_t replicas) {
  return R"({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": ")" + name +
         R"("}, "spec": {"replicas": )" + std::to_string(replicas) +
         R"(, "selector": {"matchLabels": {"app": ")" + name +
         R"("}}, "template": {"metadata": {"labels": {"app": ")" + name +
         R"("}}, "spec": {"containers": [{"name": "c"}]}}}})";
}

std::string scenario(const std::string& cluster, const std::string& rest = {}) {
  return R"({"name": "limits", "cluster": [)" + cluster + "]" + rest + "}";
}

std::string refusal(const std::string& text) {
  try {
    (void)simulate(io::parse_scenario(text, "s.json"));
  } catch (const InputError& e) {
    return e.pointer() + ": " + e.reason();
  }
  return "no error";
}

TEST_CASE("a scenario asking for more than 1,000,000 pods at once is refused before the run",
          "[sim][limits]") {
  CHECK(refusal(scenario(deployment("a", 600'000) + "," + deployment("b", 400'001))) ==
        "/cluster/1: the scenario asks for more than 1000000 pods at once (gpusched limit)");
  // A scale action counts the most the Deployment is ever given, not the sum of its scales.
  const std::string scales =
      R"(, "until": "1s", "timeline": [{"at": "1h", "scale": {"kind": "Deployment", "name": "a", "replicas": 700000}},
         {"at": "2h", "scale": {"kind": "Deployment", "name": "a", "replicas": 900000}},
         {"at": "3h", "scale": {"kind": "Deployment", "name": "b", "replicas": 100001}}])";
  CHECK(refusal(scenario(deployment("a", 0) + "," + deployment("b", 0), scales)) ==
        "/timeline/2: the scenario asks for more than 1000000 pods at once (gpusched limit)");
  // One pod per node for each DaemonSet counts too.
  std::string nodes;
  for (int i = 0; i < 2; ++i) {
    nodes += R"({"kind": "Node", "metadata": {"name": "n)" + std::to_string(i) +
             R"("}, "status": {"capacity": {"cpu": "1", "memory": "1Gi", "pods": "110"}}},)";
  }
  const std::string daemon_set =
      R"({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "d"},
          "spec": {"selector": {"matchLabels": {"app": "d"}},
                   "template": {"metadata": {"labels": {"app": "d"}},
                                "spec": {"containers": [{"name": "c"}]}}}})";
  CHECK(refusal(scenario(nodes + deployment("a", 999'999) + "," + daemon_set)) ==
        "/cluster/3: the scenario asks for more than 1000000 pods at once (gpusched limit)");
}

TEST_CASE("scales that never ask for too much at once pass the check", "[sim][limits]") {
  const std::string scales =
      R"(, "until": "1s", "timeline": [{"at": "1h", "scale": {"kind": "Deployment", "name": "a", "replicas": 600000}},
         {"at": "2h", "scale": {"kind": "Deployment", "name": "a", "replicas": 0}},
         {"at": "3h", "scale": {"kind": "Deployment", "name": "a", "replicas": 600000}}])";
  const SimulationResult result =
      simulate(io::parse_scenario(scenario(deployment("a", 1), scales), "s.json"));
  CHECK(result.pods.size() == 1);
}

TEST_CASE("replicas above 1,000,000 are refused where they are written", "[sim][limits]") {
  try {
    (void)io::parse_scenario(scenario(deployment("a", 1'000'001)), "s.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.pointer() == "/cluster/0/spec/replicas");
    CHECK(e.reason() ==
          "The Deployment \"a\" is invalid: spec.replicas: Invalid value: 1000001: must be no "
          "more than 1000000 (gpusched limit)");
  }
}

TEST_CASE("a file over 256 MiB is refused without being read", "[io][limits]") {
  const test::TempDir dir;
  const std::string file = dir.at("huge.json");
  { std::ofstream(file) << "{"; }
  // Sparse: no disk space is used, but the size is what the loader checks first.
  std::filesystem::resize_file(file, (256u << 20) + 1);
  try {
    (void)io::load_scenario(file);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == file);
    CHECK(e.reason() == "file is larger than the limit of 256 MiB");
  }
}

}  // namespace
}  // namespace gpusched
