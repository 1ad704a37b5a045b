// scheduler.featureGates: a gate the release lacks or locks is an input error (exit 2, file and
// place); a value gpusched does not model is a warning on every run, and an error under
// --strict; --kubernetes-version checks the gates again.

#include <catch2/catch.hpp>

#include <string>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::cli {
namespace {

using test::run_cli;
using test::TempDir;

/// One node with one GPU and a pod asking for it; `scheduler` is line 3.
std::string scenario(const std::string& scheduler) {
  return R"({
  "name": "gates",
  "scheduler": )" +
         scheduler + R"(,
  "cluster": [
    {"kind": "Node", "metadata": {"name": "w1"},
     "status": {"capacity": {"cpu": "4", "nvidia.com/gpu": "1"}}},
    {"kind": "Pod", "metadata": {"name": "p"},
     "spec": {"containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}
  ],
  "expect": [{"at": "end", "pod": "p", "phase": "Running", "node": "w1"}]
})";
}

TEST_CASE("featureGates: a gate the release does not have, or locks, is an input error",
          "[cli][gates]") {
  TempDir dir;
  struct Row {
    const char* name;
    std::string scheduler;
    std::string message;
  };
  const Row rows[] = {
      {"absent from 1.33",
       R"({"kubernetesVersion": "1.33", "featureGates": {"GangScheduling": true}})",
       ":3: /scheduler/featureGates/GangScheduling: unrecognized feature gate: GangScheduling "
       "(Kubernetes 1.33 does not have it; 1.35 and 1.36 have it)\n"},
      {"unknown", R"({"featureGates": {"Gangscheduling": true}})",
       ":3: /scheduler/featureGates/Gangscheduling: unrecognized feature gate: Gangscheduling "
       "(gpusched knows the feature gates that change scheduling in Kubernetes 1.33 to 1.36, "
       "listed in docs/kubernetes-versions.md)\n"},
      {"locked",
       R"({"kubernetesVersion": "1.35", "featureGates": {"DynamicResourceAllocation": false}})",
       ":3: /scheduler/featureGates/DynamicResourceAllocation: cannot set feature gate "
       "DynamicResourceAllocation to false, feature is locked to true\n"},
      {"not a boolean", R"({"featureGates": {"GangScheduling": "yes"}})",
       ":3: /scheduler/featureGates/GangScheduling: expected a boolean, got string\n"},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      const std::string file = dir.write("gates.json", scenario(row.scheduler));
      const auto result = run_cli({"replay", file});
      CHECK(result.code == 2);
      CHECK(result.out.empty());
      CHECK(result.err == "gpusched: error: " + file + row.message);
    }
  }
}

TEST_CASE("featureGates: a value gpusched does not model is a warning, an error under --strict",
          "[cli][gates]") {
  TempDir dir;
  const std::string file =
      dir.write("gates.json",
                scenario(R"({"featureGates": {"TaintTolerationComparisonOperators": true}})"));
  const std::string warning =
      file +
      ":3: /scheduler/featureGates/TaintTolerationComparisonOperators: feature gate "
      "TaintTolerationComparisonOperators=true changes tolerations with the Lt and Gt operators, "
      "which gpusched does not model yet: Kubernetes 1.36 is simulated with its default, false";
  for (const char* command : {"replay", "validate", "check"}) {
    SECTION(command) {
      const auto plain = run_cli({command, file});
      CHECK(plain.code == 0);
      CHECK(plain.err == "gpusched: warning: " + warning + "\n");
      const auto strict = run_cli({command, file, "--strict"});
      if (std::string(command) == "check") {
        // check reports the scenario as an error on its output and goes on.
        CHECK(strict.code == 1);
        CHECK(strict.out == "ERROR " + warning + "\n0 passed, 1 failed\n");
      } else {
        CHECK(strict.code == 2);
        CHECK(strict.err == "gpusched: error: " + warning + "\n");
      }
    }
  }
}

TEST_CASE("featureGates are checked again against --kubernetes-version", "[cli][gates]") {
  TempDir dir;
  const std::string file =
      dir.write("gates.json",
                scenario(R"({"featureGates": {"ClearingNominatedNodeNameAfterBinding": true}})"));
  CHECK(run_cli({"replay", file, "--kubernetes-version", "1.34"}).code == 0);
  const auto result = run_cli({"replay", file, "--kubernetes-version", "1.33"});
  CHECK(result.code == 2);
  CHECK(result.err == "gpusched: error: " + file +
                          ": /scheduler/featureGates/ClearingNominatedNodeNameAfterBinding: "
                          "unrecognized feature gate: ClearingNominatedNodeNameAfterBinding "
                          "(Kubernetes 1.33 does not have it; 1.34 to 1.36 have it)\n");
}

}  // namespace
}  // namespace gpusched::cli
