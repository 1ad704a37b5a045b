// A `kubectl apply` bundle wherever objects are read (whatif --add, include): one warning per
// kind skipped, the StatefulSet modelled, and --strict refusing a kind that would change
// placement but is not modelled (scenario-format.md §5).

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::cli {
namespace {

using test::run_cli;
using test::TempDir;

const std::string kSource = GPUSCHED_SOURCE_DIR;
const std::string kKind = kSource + "/scenarios/manifests/kind-cluster.json";
const std::string kBundle = kSource + "/scenarios/manifests/inference-statefulset.yaml";

/// The bundle's skipped kinds, one warning each, placed at the first object of the kind.
std::string skipped_warnings(const std::string& bundle) {
  return "gpusched: warning: " + bundle +
         ":21: /1: 1 ConfigMap object skipped: they do not change where or whether pods run\n"
         "gpusched: warning: " +
         bundle +
         ":29: /2: 1 ServiceAccount object skipped: they do not change where or whether pods "
         "run\n";
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_CASE("whatif --add a kubectl bundle: the StatefulSet replayed, other kinds skipped",
          "[cli][kinds]") {
  const auto result = run_cli({"whatif", "--cluster", kKind, "--add", kBundle});
  // Two GPU workers for three one-GPU replicas: vllm-2 waits, so the exit code is 1.
  CHECK(result.code == 1);
  CHECK(result.err == skipped_warnings(kBundle));
  CHECK_THAT(result.out, Catch::Contains("default     vllm-0   Running   kind-worker    <none>"));
  CHECK_THAT(result.out, Catch::Contains("default     vllm-1   Running   kind-worker2   <none>"));
  CHECK_THAT(result.out, Catch::Contains("default     vllm-2   Pending   <none>"));
  CHECK_THAT(result.out, Catch::Contains("2 of 3 added pods would get a node"));
}

TEST_CASE("an included bundle reads as in whatif", "[cli][kinds]") {
  const TempDir dir;
  const std::string bundle = dir.write("bundle.yaml", read(kBundle));
  const std::string scenario = dir.write("s.json", R"({"name": "s",
    "include": ["bundle.yaml"],
    "cluster": [{"kind": "Node", "metadata": {"name": "g1"},
                 "status": {"capacity": {"cpu": "8", "memory": "32Gi", "nvidia.com/gpu": "3"}}}],
    "expect": [{"at": "end", "pods": "default/vllm-*", "phases": {"Running": 3}}]})");
  for (const char* command : {"replay", "validate", "check"}) {
    DYNAMIC_SECTION(command) {
      const auto result = run_cli({command, scenario});
      CHECK(result.code == 0);
      CHECK(result.err == skipped_warnings(bundle));
    }
  }
}

TEST_CASE("strict mode refuses a kind that would change placement, naming file and place",
          "[cli][kinds][strict]") {
  const TempDir dir;
  const std::string bundle = dir.write("bundle.yaml", read(kBundle) + R"(---
apiVersion: v1
kind: LimitRange
metadata:
  name: defaults
  namespace: default
spec:
  limits:
  - type: Container
    defaultRequest: {cpu: 500m, memory: 1Gi}
)");
  const std::string limit_range = bundle + ":70: /4: ";
  SECTION("whatif --add") {
    const auto plain = run_cli({"whatif", "--cluster", kKind, "--add", bundle});
    CHECK(plain.code == 1);
    CHECK(plain.err == skipped_warnings(bundle) + "gpusched: warning: " + limit_range +
                           "1 LimitRange object ignored: the LimitRanger admission plugin's "
                           "default requests and limits are not applied to pods (refused under "
                           "--strict)\n");
    const auto strict = run_cli({"whatif", "--cluster", kKind, "--add", bundle, "--strict"});
    CHECK(strict.code == 2);
    CHECK(strict.out.empty());
    CHECK(strict.err == "gpusched: error: " + limit_range +
                            "LimitRange is not modelled, and --strict refuses what would change "
                            "placement: the LimitRanger admission plugin's default requests and "
                            "limits are not applied to pods\n");
  }
  SECTION("include") {
    const std::string scenario =
        dir.write("s.json", R"({"name": "s", "include": ["bundle.yaml"]})");
    const auto plain = run_cli({"validate", scenario});
    CHECK(plain.code == 0);
    const auto strict = run_cli({"replay", scenario, "--strict"});
    CHECK(strict.code == 2);
    CHECK_THAT(strict.err,
               Catch::StartsWith("gpusched: error: " + limit_range + "LimitRange is not modelled"));
  }
}

}  // namespace
}  // namespace gpusched::cli
