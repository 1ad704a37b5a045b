// The CLI in-process: exit codes, what goes to which stream, and the one-line-per-scenario
// output of `check`. Tests that replay need the engine; the others only parse and load.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <new>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpusched/cli.hpp"
#include "gpusched/error.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::cli {
namespace {

namespace fs = std::filesystem;

using test::Outcome;
using test::run_cli;
using test::TempDir;

/// One node with one GPU and `pods` single-GPU pods of a Deployment.
std::string gpu_scenario(const std::string& name, const std::string& expect) {
  return R"({
  "name": ")" +
         name + R"(",
  "cluster": [
    {"kind": "Node", "metadata": {"name": "w1"},
     "status": {"capacity": {"cpu": "8", "memory": "32Gi", "pods": "110", "nvidia.com/gpu": "1"}}},
    {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "gpu-demo"},
     "spec": {"replicas": 2,
              "selector": {"matchLabels": {"app": "gpu-demo"}},
              "template": {"metadata": {"labels": {"app": "gpu-demo"}},
                           "spec": {"containers": [{"name": "main",
                                    "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}}}
  ],
  "expect": [)" +
         expect + R"(]
}
)";
}

const std::string kHolds =
    R"({"at": "end", "pods": "default/gpu-demo-*", "phases": {"Running": 1, "Pending": 1}})";
const std::string kFails =
    R"({"at": "end", "pods": "default/gpu-demo-*", "phases": {"Running": 2}})";

TEST_CASE("usage errors exit 2 with a message naming the problem", "[cli]") {
  TempDir dir;
  const std::string file = dir.write("ok.json", gpu_scenario("ok", kHolds));
  struct Row {
    const char* name;
    std::vector<std::string> args;
    const char* message;
  };
  const std::vector<Row> rows = {
      {"missing file", {"replay", (dir.path() / "nope.json").generic_string()}, "nope.json"},
      {"bad --until", {"replay", file, "--until", "soon"}, "--until"},
      {"negative --until", {"replay", file, "--until=-5s"}, "--until"},
      {"bad --seed", {"replay", file, "--seed", "x1"}, "--seed"},
      {"bad --output", {"replay", file, "--output", "xml"}, "--output"},
      {"bad --kubernetes-version",
       {"replay", file, "--kubernetes-version", "1.20"},
       "--kubernetes-version"},
      {"unknown option", {"replay", file, "--bogus"}, "--bogus"},
      {"unknown subcommand", {"frobnicate"}, "frobnicate"},
      {"check of a missing path", {"check", (dir.path() / "none").generic_string()}, "none"},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      const Outcome outcome = run_cli(row.args);
      CHECK(outcome.code == 2);
      CHECK(outcome.out.empty());
      CHECK_THAT(outcome.err, Catch::StartsWith("gpusched: error: "));
      CHECK_THAT(outcome.err, Catch::Contains(row.message));
    }
  }
}

TEST_CASE("no subcommand prints the help on the error stream", "[cli]") {
  const Outcome outcome = run_cli({});
  CHECK(outcome.code == 2);
  CHECK(outcome.out.empty());
  CHECK_THAT(outcome.err, Catch::Contains("replay"));
  CHECK_THAT(outcome.err, Catch::Contains("check"));
}

TEST_CASE("The version and help flags succeed on the output stream", "[cli]") {
  const Outcome version = run_cli({"--version"});
  CHECK(version.code == 0);
  CHECK_THAT(version.out, Catch::Matches("gpusched [0-9]+\\.[0-9]+\\.[0-9]+\n"));
  const Outcome help = run_cli({"replay", "--help"});
  CHECK(help.code == 0);
  CHECK_THAT(help.out, Catch::Contains("--until"));
}

TEST_CASE("malformed JSON exits 2 naming the file, and prints nothing else", "[cli]") {
  TempDir dir;
  const std::string file =
      dir.write("broken.json", "{\n  \"name\": \"broken\",\n  \"cluster\": [\n");
  for (const char* command : {"replay", "validate", "check"}) {
    SECTION(command) {
      const Outcome outcome = run_cli({command, file});
      if (std::string(command) == "check") {
        // check reports the broken scenario in its list and counts it failed.
        CHECK(outcome.code == 1);
        CHECK_THAT(outcome.out, Catch::StartsWith("ERROR " + file + ":"));
        CHECK_THAT(outcome.out, Catch::EndsWith("0 passed, 1 failed\n"));
      } else {
        CHECK(outcome.code == 2);
        CHECK(outcome.out.empty());
        CHECK_THAT(outcome.err, Catch::StartsWith("gpusched: error: " + file));
      }
    }
  }
}

TEST_CASE("validate loads without replaying", "[cli]") {
  TempDir dir;
  const std::string file = dir.write("ok.json", gpu_scenario("ok", kHolds));
  const Outcome outcome = run_cli({"validate", file});
  CHECK(outcome.code == 0);
  CHECK(outcome.out == file + ": ok (2 objects, 0 timeline actions, 1 expectations)\n");
  CHECK(outcome.err.empty());
}

TEST_CASE("check of a directory without scenarios exits 2", "[cli]") {
  TempDir dir;
  dir.write("notes.txt", "not a scenario");
  const Outcome outcome = run_cli({"check", dir.path().generic_string()});
  CHECK(outcome.code == 2);
  CHECK_THAT(outcome.err,
             Catch::Contains("no scenarios found under " + dir.path().generic_string()));
}

TEST_CASE("a manifest given as a scenario is named as one, with where it goes instead", "[cli]") {
  TempDir dir;
  const std::string hint =
      "add it to a cluster with `gpusched whatif --cluster CLUSTER --add FILE`, name it in a "
      "scenario's `include`, or read a `kubectl get -o json` dump with `gpusched snapshot`\n";
  const std::string pod =
      dir.write("pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n");
  for (const char* command : {"validate", "replay"}) {
    const Outcome outcome = run_cli({command, pod});
    CHECK(outcome.code == 2);
    CHECK(outcome.err ==
          "gpusched: error: " + pod +
              ":1: this is a Kubernetes manifest (kind Pod), not a scenario: " + hint);
  }
  const std::string bundle =
      dir.write("bundle.yaml",
                "kind: Namespace\nmetadata:\n  name: ml\n---\nkind: Pod\nmetadata:\n"
                "  name: p\n");
  const Outcome outcome = run_cli({"validate", bundle});
  CHECK(outcome.code == 2);
  CHECK(outcome.err == "gpusched: error: " + bundle +
                           ":1: a scenario file holds one YAML document, this one holds 2, as a "
                           "Kubernetes manifest bundle does: " +
                           hint);
}

TEST_CASE("replay, explain and validate of a directory point to check", "[cli]") {
  TempDir dir;
  const std::string path = dir.path().generic_string();
  for (const std::vector<std::string>& args : {std::vector<std::string>{"replay", path},
                                               {"validate", path},
                                               {"explain", path, "--pod", "p"}}) {
    const Outcome outcome = run_cli(args);
    CHECK(outcome.code == 2);
    CHECK_THAT(outcome.err, Catch::StartsWith("gpusched: error: FILE: " + path +
                                              " is a directory: `gpusched check " + path +
                                              "` replays every scenario under it\n"));
  }
}

TEST_CASE("check skips, with a notice, a file under a directory that is no scenario", "[cli]") {
  TempDir dir;
  const std::string scenario = dir.write("pass.json", gpu_scenario("passing", kHolds));
  // A mig-parted configuration, as a GPU Operator repository keeps them.
  const std::string mig = dir.write(
      "mig-parted.yaml",
      "version: v1\nmig-configs:\n  all-1g.10gb:\n    - devices: all\n      mig-enabled: true\n"
      "      mig-devices:\n        \"1g.10gb\": 7\n");
  // A manifest next to the scenarios that include it is skipped without a word; a broken
  // scenario (a scenario's keys, no name) is reported, not skipped.
  dir.write("job.yaml", "kind: Job\nmetadata:\n  name: j\n");
  const std::string broken = dir.write("broken.json", R"({"cluster": []})");
  const Outcome outcome = run_cli({"check", dir.path().generic_string()});
  CHECK(outcome.err ==
        "gpusched: notice: " + mig + " skipped: not a scenario (none of a scenario's keys)\n");
  CHECK_THAT(outcome.out, Catch::StartsWith("ERROR " + broken));
  CHECK_THAT(outcome.out, Catch::Contains("PASS " + scenario));
  CHECK_THAT(outcome.out, Catch::EndsWith("1 passed, 1 failed\n"));
  CHECK(outcome.code == 1);
  // Named on the command line, it is checked as a scenario and fails.
  CHECK(run_cli({"check", mig}).code == 1);
}

// The tests below replay scenarios: they need the engine (simulate()).

TEST_CASE("replay of two pods on one GPU explains the pending pod", "[cli]") {
  TempDir dir;
  const std::string file =
      dir.write("two-pods-one-gpu.json", gpu_scenario("two-pods-one-gpu", kHolds));
  const Outcome outcome = run_cli({"replay", file});
  CHECK(outcome.err.empty());
  CHECK(outcome.code == 0);
  CHECK_THAT(outcome.out, Catch::StartsWith("Scenario two-pods-one-gpu (" + file + ") at "));
  CHECK_THAT(
      outcome.out,
      Catch::Contains("0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims "
                      "to deallocate, preemption: 0/1 nodes are available: 1 No preemption "
                      "victims found for incoming pod."));
  CHECK_THAT(outcome.out, Catch::Contains("1 of 1 expectations hold"));
}

TEST_CASE("replay --output json --until prints one JSON object at that time", "[cli]") {
  TempDir dir;
  const std::string file = dir.write("s.json", gpu_scenario("s", kHolds));
  const Outcome outcome = run_cli({"replay", file, "--output", "json", "--until", "30"});
  CHECK(outcome.code == 0);
  CHECK_THAT(outcome.out, Catch::StartsWith("{\n  \"scenario\": \"s\",\n  \"time\": \"30s\",\n"));
  CHECK_THAT(outcome.out, Catch::EndsWith("\"passed\": true\n}\n"));
  CHECK(run_cli({"replay", file, "--output", "json", "--seed", "7"}).out.size() > 0);
}

TEST_CASE("replay exits 1 when an expectation fails", "[cli]") {
  TempDir dir;
  const std::string file = dir.write("s.json", gpu_scenario("s", kFails));
  const Outcome outcome = run_cli({"replay", file});
  CHECK(outcome.code == 1);
  CHECK_THAT(outcome.out, Catch::Contains("FAIL /expect/0 at end: "));
  CHECK_THAT(outcome.out, Catch::Contains("0 of 1 expectations hold"));
}

TEST_CASE("check replays every scenario under a directory, sorted", "[cli]") {
  TempDir dir;
  const std::string passing = dir.write("a/pass.json", gpu_scenario("passing", kHolds));
  const std::string failing = dir.write("b/fail.json", gpu_scenario("failing", kFails));
  dir.write("b/readme.md", "ignored");
  const Outcome outcome = run_cli({"check", dir.path().generic_string()});
  CHECK(outcome.code == 1);
  CHECK_THAT(outcome.out, Catch::StartsWith("PASS " + passing +
                                            " (passing): 1 expectations\n"
                                            "FAIL " +
                                            failing +
                                            " (failing): 1 of 1 expectations failed\n"
                                            "  /expect/0 at end: "));
  CHECK_THAT(outcome.out, Catch::EndsWith("\n1 passed, 1 failed\n"));

  const Outcome only_passing = run_cli({"check", passing});
  CHECK(only_passing.code == 0);
  CHECK(only_passing.out == "PASS " + passing + " (passing): 1 expectations\n1 passed, 0 failed\n");
}

TEST_CASE("check --junit writes every expectation; under GitHub Actions it annotates failures",
          "[cli]") {
  TempDir dir;
  const std::string passing = dir.write("a/pass.json", gpu_scenario("passing", kHolds));
  const std::string failing = dir.write("b/fail.json", gpu_scenario("failing", kFails));
  const std::string broken = dir.write("c/broken.json", R"({"name": "broken", "cluster": 3})");
  const std::string junit = dir.at("report.xml");
  const Outcome outcome = run_cli({"check", dir.path().generic_string(), "--junit", junit});
  CHECK(outcome.code == 1);
  CHECK(outcome.out.find("::error") == std::string::npos);  // not under GitHub Actions
  std::ifstream in(junit);
  const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(xml, Catch::Contains(
                      R"(<testsuites name="gpusched check" tests="3" failures="1" errors="1">)"));
  CHECK_THAT(xml,
             Catch::Contains("<testcase classname=\"passing\" name=\"/expect/0 at end\" file=\"" +
                             passing + "\" line=\"13\"/>"));
  CHECK_THAT(xml,
             Catch::Contains("<testcase classname=\"failing\" name=\"/expect/0 at end\" file=\"" +
                             failing + "\" line=\"13\">\n      <failure message=\""));
  // Not read: the file names its suite.
  CHECK_THAT(xml,
             Catch::Contains("<testcase classname=\"" + broken + "\" name=\"replay\" file=\"" +
                             broken + "\" line=\"1\">\n      <error message=\"expected an array"));

  ::setenv("GITHUB_ACTIONS", "true", 1);
  const Outcome annotated = run_cli({"check", failing});
  ::unsetenv("GITHUB_ACTIONS");
  CHECK(annotated.code == 1);
  CHECK_THAT(annotated.out,
             Catch::Contains("\n0 passed, 1 failed\n::error file=" + failing +
                             ",line=13,title=gpusched check%3A failing /expect/0 at end::"));

  const Outcome unwritable =
      run_cli({"check", passing, "--junit", dir.at("no/such/dir/report.xml")});
  CHECK(unwritable.code == 2);
  CHECK_THAT(unwritable.err, Catch::Contains("--junit: cannot write"));
}

TEST_CASE("check counts a scenario without expectations as failed", "[cli]") {
  TempDir dir;
  const std::string file = dir.write("bare.json", gpu_scenario("bare", ""));
  const Outcome outcome = run_cli({"check", file});
  CHECK(outcome.code == 1);
  CHECK(outcome.out == "FAIL " + file + " (bare): no expectations\n0 passed, 1 failed\n");
}

TEST_CASE("errors found while replaying exit 2 with the API server's words", "[cli]") {
  struct Row {
    const char* name;
    const char* scenario;
    const char* error;
  };
  const std::vector<Row> rows{
      {"unknown PriorityClass",
       R"({"name": "x", "cluster": [
            {"kind": "Pod", "metadata": {"name": "p"},
             "spec": {"priorityClassName": "missing", "containers": [{"name": "c"}]}}]})",
       ": /cluster/0: pods \"p\" is forbidden: no PriorityClass with name missing was found"},
      {"spec.priority that differs from its class",
       R"({"name": "x", "cluster": [
            {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
             "metadata": {"name": "high"}, "value": 1000},
            {"kind": "Pod", "metadata": {"name": "p"},
             "spec": {"priorityClassName": "high", "priority": 5, "containers": [{"name": "c"}]}}]})",
       ": /cluster/1: pods \"p\" is forbidden: the integer value of priority (5) must not be "
       "provided "
       "in pod spec; priority admission controller computed 1000 from the given PriorityClass "
       "name"},
      {"deleting what does not exist then",
       R"({"name": "x", "timeline": [{"at": "30s", "delete": {"kind": "Pod", "name": "ghost"}}]})",
       // Found while the action runs, at its line as load-time errors are.
       ":1: /timeline/0: Pod \"default/ghost\" does not exist at 30s"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      TempDir dir;
      const std::string file = dir.write("s.json", row.scenario);
      const Outcome outcome = run_cli({"replay", file});
      CHECK(outcome.code == 2);
      CHECK(outcome.out.empty());
      CHECK(outcome.err == "gpusched: error: " + file + row.error + "\n");
    }
  }
}

/// run_guarded's exit code and error stream for a body that throws what `thrower` throws.
template <typename Thrower>
Outcome guarded(Thrower thrower) {
  std::ostringstream err;
  const int code = run_guarded(
      [&]() -> int {
        thrower();
        return 0;
      },
      err);
  return {code, "", err.str()};
}

TEST_CASE("CLI: each kind of failure has its exit code and its sentence", "[cli]") {
  std::ostringstream quiet;
  CHECK(run_guarded([] { return 1; }, quiet) == 1);  // the body's own code otherwise
  CHECK(quiet.str().empty());

  const Outcome input =
      guarded([] { throw InputError("bad.json", "/cluster/0", "The Pod \"p\" is invalid", 3); });
  CHECK(input.code == 2);
  CHECK(input.err == "gpusched: error: bad.json:3: /cluster/0: The Pod \"p\" is invalid\n");

  unsigned line = 0;
  const Outcome broken = guarded([&] {
    line = __LINE__ + 1;
    GPUSCHED_CHECK(line == 0, "the line is unknown");
  });
  CHECK(broken.code == 3);
  CHECK(broken.err ==
        "gpusched: internal error: invariant \"the line is unknown\" broken at "
        "tests/cli/cli_test.cpp:" +
            std::to_string(line) + "\n");

  const Outcome memory = guarded([] { throw std::bad_alloc(); });
  CHECK(memory.code == 3);
  CHECK(memory.err == "gpusched: out of memory\n");

  const Outcome other = guarded([] { throw std::runtime_error("surprise"); });
  CHECK(other.code == 3);
  CHECK(other.err == "gpusched: internal error: surprise\n");
}

}  // namespace
}  // namespace gpusched::cli
