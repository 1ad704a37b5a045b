// --strict: unknown fields of Kubernetes objects as warnings on the error stream, never a change
// of exit code.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::cli {
namespace {

using test::run_cli;
using test::TempDir;

/// A node with one GPU and a pod asking for it, whose `nodeSelecter` (line 7) is ignored; the
/// pod runs, as the expectation says.
constexpr const char* kScenario = R"({
  "name": "typo",
  "cluster": [
    {"kind": "Node", "metadata": {"name": "w1"},
     "status": {"capacity": {"cpu": "4", "nvidia.com/gpu": "1"}}},
    {"kind": "Pod", "metadata": {"name": "p"},
     "spec": {"nodeSelecter": {"gpu": "a100"},
              "containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}
  ],
  "expect": [{"at": "end", "pod": "p", "phase": "Running", "node": "w1"}]
})";

std::string warning_for(const std::string& file) {
  return "gpusched: warning: " + file +
         ":7: /cluster/1/spec/nodeSelecter: unknown field \"nodeSelecter\"\n";
}

TEST_CASE("strict mode prints unknown fields on the error stream and keeps the exit code",
          "[cli][strict]") {
  TempDir dir;
  const std::string file = dir.write("typo.json", kScenario);
  struct Row {
    const char* name;
    std::vector<std::string> args;
  };
  const std::vector<Row> rows = {
      {"replay", {"replay", file}},
      {"validate", {"validate", file}},
      {"check", {"check", file}},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      const auto plain = run_cli(row.args);
      std::vector<std::string> strict_args = row.args;
      strict_args.push_back("--strict");
      const auto strict = run_cli(strict_args);
      CHECK(plain.code == 0);
      CHECK(plain.err.empty());
      CHECK(strict.code == plain.code);
      CHECK(strict.out == plain.out);
      CHECK(strict.err == warning_for(file));
    }
  }
}

TEST_CASE("whatif --strict names the added file's unknown fields", "[cli][strict]") {
  TempDir dir;
  const std::string snapshot = dir.write("snap.json", R"({"kind": "List", "items": [
  {"kind": "Node", "metadata": {"name": "w1"}, "status": {"capacity": {"cpu": "4"}}}
]})");
  const std::string addition = dir.write("pod.yaml", R"(apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
  - name: c
    resources:
      request: {cpu: 1}
)");
  const auto result = run_cli({"whatif", "--cluster", snapshot, "--add", addition, "--strict"});
  CHECK(result.code == 0);
  CHECK(result.err == "gpusched: warning: " + addition +
                          ":9: /spec/containers/0/resources/request: unknown field \"request\"\n");
}

}  // namespace
}  // namespace gpusched::cli
