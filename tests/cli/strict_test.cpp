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

/// A Deployment whose pods mount a PersistentVolumeClaim (line 10) and name a RuntimeClass
/// (line 8): neither is modelled.
constexpr const char* kUnmodelled = R"({
  "name": "unmodelled",
  "cluster": [
    {"kind": "Node", "metadata": {"name": "w1"}, "status": {"capacity": {"cpu": "4"}}},
    {"kind": "Deployment", "metadata": {"name": "db"},
     "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "db"}},
              "template": {"metadata": {"labels": {"app": "db"}},
                           "spec": {"runtimeClassName": "nvidia",
                                    "containers": [{"name": "c"}],
                                    "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data"}}]}}}}
  ]
})";

TEST_CASE("what gpusched does not model is always a warning, and an error under --strict",
          "[cli][strict]") {
  TempDir dir;
  const std::string file = dir.write("unmodelled.json", kUnmodelled);
  const std::string volume =
      file +
      ":10: /cluster/1/spec/template/spec/volumes/0/persistentVolumeClaim: volume binding is not "
      "modelled (VolumeBinding, VolumeZone, NodeVolumeLimits): the pod is placed as if its volume "
      "were available on every node";
  const std::string runtime_class =
      file +
      ":8: /cluster/1/spec/template/spec/runtimeClassName: RuntimeClass objects are not read: the "
      "overhead and the nodeSelector and tolerations of RuntimeClass \"nvidia\" are not added to "
      "the pod";
  const auto plain = run_cli({"replay", file});
  CHECK(plain.code == 0);
  CHECK(plain.err == "gpusched: warning: " + volume + " (refused under --strict)\n" +
                         "gpusched: warning: " + runtime_class + " (refused under --strict)\n");
  // --strict refuses the first one, at its place.
  for (const char* command : {"replay", "validate", "check"}) {
    INFO(command);
    const auto strict = run_cli({command, file, "--strict"});
    CHECK(strict.code != 0);
    CHECK((strict.out + strict.err).find("volume binding is not modelled") != std::string::npos);
    CHECK((strict.out + strict.err).find("; --strict refuses what would change placement") !=
          std::string::npos);
  }
}

}  // namespace
}  // namespace gpusched::cli
