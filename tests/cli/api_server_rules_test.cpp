// The API server's update rules at the command line: a refused update ends the run with exit 2
// and the action's file, line and pointer.
#include <catch2/catch.hpp>

#include <string>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched {
namespace {

using test::run_cli;
using test::TempDir;

TEST_CASE("a patch that resizes a running pod is refused at the action", "[cli][apiserver]") {
  const TempDir dir;
  const std::string scenario = dir.write("resize.json", R"({
  "name": "resize",
  "cluster": [
    {"kind": "Node", "metadata": {"name": "n1"},
     "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "nvidia.com/gpu": "1"}}},
    {"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c",
     "resources": {"limits": {"nvidia.com/gpu": 1}}}]}}
  ],
  "timeline": [
    {"at": "1m", "patch": {"kind": "Pod", "name": "p", "merge": {"spec": {"containers": [
      {"name": "c", "resources": {"limits": {"nvidia.com/gpu": 2}}}]}}}}
  ]
})");
  const auto r = run_cli({"replay", scenario});
  CHECK(r.code == 2);
  // The action's place (its line joins run-time errors with another change).
  CHECK(r.err.starts_with("gpusched: error: " + scenario));
  CHECK(r.err.ends_with(
      "/timeline/0: Pod \"p\" is invalid: spec: Forbidden: pod updates may not change fields "
      "other than `spec.containers[*].image`,`spec.initContainers[*].image`,"
      "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing "
      "tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was "
      "previously negative)\n(gpusched: changed spec.containers[0].resources.requests, "
      "spec.containers[0].resources.limits)\n"));
}

TEST_CASE("a JSON scenario with a duplicate key is refused", "[cli][apiserver]") {
  const TempDir dir;
  const std::string scenario = dir.write("dup.json", "{\"name\": \"a\",\n \"name\": \"b\"}\n");
  const auto r = run_cli({"validate", scenario});
  CHECK(r.code == 2);
  CHECK(r.err == "gpusched: error: " + scenario + ":2: /name: duplicate field \"name\"\n");
}

}  // namespace
}  // namespace gpusched
