// `gpusched import openb`: a scenario file that validate and replay read, and every bad input
// ending with exit 2 and `gpusched: error: FILE:LINE: column C: reason`.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpusched/io/scenario_loader.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::cli {
namespace {

using test::Outcome;
using test::run_cli;
using test::TempDir;

const std::string kNodeHeader = "sn,cpu_milli,memory_mib,gpu,model\n";
const std::string kPodHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
    "deletion_time,scheduled_time\n";
const std::string kNodes = kNodeHeader + "gpu-t4,16000,65536,2,T4\n";
const std::string kPods = kPodHeader +
                          "train,8000,16384,2,1000,T4,LS,Running,0,100,0\n"
                          "late,2000,4096,1,460,,BE,Running,20,50,20\n";

TEST_CASE("import openb writes a scenario that validates and replays", "[cli][openb]") {
  TempDir dir;
  const std::string nodes = dir.write("nodes.csv", kNodes);
  const std::string pods = dir.write("pods.csv", kPods);
  const std::string scenario = dir.at("openb.json");

  const Outcome imported = run_cli({"import", "openb", nodes, pods, "-o", scenario});
  CHECK(imported.code == 0);
  CHECK(imported.err.empty());
  CHECK(imported.out == scenario + ": 1 nodes, 2 pods, 1 timeline actions\n");

  const Outcome validated = run_cli({"validate", scenario});
  CHECK(validated.code == 0);
  CHECK(validated.out == scenario + ": ok (2 objects, 1 timeline actions, 0 expectations)\n");

  const Outcome replayed = run_cli({"replay", scenario, "--output", "json"});
  CHECK(replayed.code == 0);
  CHECK_THAT(replayed.out, Catch::Contains(R"("name": "late")"));
  CHECK_THAT(replayed.out, Catch::Contains(R"("scheduledAt": "1m40s")"));
  CHECK_THAT(replayed.out, Catch::Contains(R"("finishedAt": "2m10s")"));

  // Without -o the scenario goes to the output stream, the same text.
  const Outcome printed = run_cli({"import", "openb", nodes, pods});
  CHECK(printed.code == 0);
  const Scenario loaded = io::parse_scenario(printed.out, "stdout.json");
  CHECK(loaded.name == "pods");
  CHECK(loaded.timeline.size() == 1);
}

TEST_CASE("import openb refuses bad input with exit 2, naming file, line and column",
          "[cli][openb]") {
  struct Row {
    const char* name;
    std::string nodes;  ///< empty: kNodes
    std::string pods;   ///< empty: kPods
    const char* file;   ///< "nodes.csv" or "pods.csv"
    const char* error;  ///< after "FILE"
  };
  const std::string n = kNodeHeader;
  const std::string p = kPodHeader;
  const std::string ok = "a,1000,1024,1,1000,,LS,Running,0,10,0\n";
  const std::vector<Row> rows = {
      {"empty pod list", "", "\n", "pods.csv",
       ": the file is empty; expected the header \"name,cpu_milli,memory_mib,num_gpu,gpu_milli,"
       "gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\""},
      {"missing column (the five-column multigpu variants)", "",
       "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n", "pods.csv",
       ":1: header: missing column \"gpu_spec\"; the header must be \"name,cpu_milli,memory_mib,"
       "num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\""},
      {"column order", "sn,cpu_milli,memory_mib,model,gpu\n", "", "nodes.csv",
       ":1: header: column 4 is \"model\", expected \"gpu\"; the header must be "
       "\"sn,cpu_milli,memory_mib,gpu,model\""},
      {"unknown column", "sn,cpu_milli,memory_mib,gpu,model,disk\n", "", "nodes.csv",
       ":1: header: unknown column \"disk\"; the header must be "
       "\"sn,cpu_milli,memory_mib,gpu,model\""},
      {"wrong field count", "", p + ok + "b,1000,1024,1,1000,,LS,Running,0,10\n", "pods.csv",
       ":3: expected 11 fields (name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,"
       "pod_phase,creation_time,deletion_time,scheduled_time), got 10"},
      {"non-integer", n + "w1,8 cores,1024,0,\n", "", "nodes.csv",
       ":2: column cpu_milli: \"8 cores\" is not an integer"},
      {"negative", "", p + "a,1000,-1024,1,1000,,LS,Running,0,10,0\n", "pods.csv",
       ":2: column memory_mib: -1024 is negative"},
      {"memory overflowing int64 milli", n + "w1,1000,8796093023,0,\n", "", "nodes.csv",
       ":2: column memory_mib: 8796093023 is larger than 8796093022"},
      {"beyond int64", "", p + "a,99999999999999999999,1024,1,1000,,LS,Running,0,10,0\n",
       "pods.csv", ":2: column cpu_milli: 99999999999999999999 is larger than 9223372036854775807"},
      {"too many GPUs on a node", n + "w1,1000,1024,1025,X\n", "", "nodes.csv",
       ":2: column gpu: 1025 is larger than 1024"},
      {"GPU share above one GPU", "", p + "a,1000,1024,1,1500,,LS,Running,0,10,0\n", "pods.csv",
       ":2: column gpu_milli: 1500 is larger than 1000"},
      {"GPU share of several GPUs", "", p + "a,1000,1024,2,500,,LS,Running,0,10,0\n", "pods.csv",
       ":2: column gpu_milli: 500 is a share of one GPU, but num_gpu is 2"},
      {"empty model in gpu_spec", "", p + "a,1000,1024,1,1000,T4|,LS,Running,0,10,0\n", "pods.csv",
       ":2: column gpu_spec: \"T4|\" names an empty model; models are separated by '|'"},
      {"deletion before creation", "", p + ok + "b,1000,1024,0,0,,LS,Running,20,10,20\n",
       "pods.csv", ":3: column deletion_time: 10 is before creation_time 20"},
      {"scheduled before creation", "", p + "b,1000,1024,0,0,,LS,Running,20,30,10\n", "pods.csv",
       ":2: column scheduled_time: 10 is before creation_time 20"},
      {"deletion before scheduling", "", p + "b,1000,1024,0,0,,LS,Running,20,30,40\n", "pods.csv",
       ":2: column deletion_time: 30 is before scheduled_time 40"},
      {"time beyond a Go duration", "", p + "b,1000,1024,0,0,,LS,Running,0,9223372037,0\n",
       "pods.csv", ":2: column deletion_time: 9223372037 is larger than 9223372036"},
      {"duplicate pod", "", p + ok + "b,1,1,0,0,,LS,Running,0,1,0\n" + ok, "pods.csv",
       ":4: column name: duplicate pod \"a\": also on line 2"},
      {"duplicate node", n + "w1,1,1,0,\nw1,1,1,0,\n", "", "nodes.csv",
       ":3: column sn: duplicate node \"w1\": also on line 2"},
      {"pod name the API server refuses", "", p + "Pod_A,1,1,0,0,,LS,Running,0,1,0\n", "pods.csv",
       ":2: column name: Invalid value: \"Pod_A\": a lowercase RFC 1123 subdomain must consist "
       "of lower case alphanumeric characters, '-' or '.', and must start and end with an "
       "alphanumeric character (e.g. 'example.com', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {"model that is no label value", n + "w1,1,1,1,Tesla T4\n", "", "nodes.csv",
       ":2: column model: Invalid value: \"Tesla T4\": a valid label value must be an empty string "
       "or "
       "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
       "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
       "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      TempDir dir;
      const std::string nodes = dir.write("nodes.csv", row.nodes.empty() ? kNodes : row.nodes);
      const std::string pods = dir.write("pods.csv", row.pods.empty() ? kPods : row.pods);
      const std::string output = dir.at("out.json");
      const Outcome outcome = run_cli({"import", "openb", nodes, pods, "-o", output});
      CHECK(outcome.code == 2);
      CHECK(outcome.out.empty());
      CHECK(outcome.err == "gpusched: error: " + dir.at(row.file) + row.error + "\n");
      CHECK_FALSE(std::filesystem::exists(output));
    }
  }
}

TEST_CASE("import openb exits 2 when it cannot write the scenario", "[cli][openb]") {
  TempDir dir;
  const std::string nodes = dir.write("nodes.csv", kNodes);
  const std::string pods = dir.write("pods.csv", kPods);
  const std::string output = dir.at("missing/openb.json");
  const Outcome outcome = run_cli({"import", "openb", nodes, pods, "-o", output});
  CHECK(outcome.code == 2);
  CHECK(outcome.out.empty());
  CHECK(outcome.err ==
        "gpusched: error: --output-file: cannot write " + output + ": No such file or directory\n");
}

TEST_CASE("import usage errors exit 2", "[cli][openb]") {
  TempDir dir;
  const std::string nodes = dir.write("nodes.csv", kNodes);
  struct Row {
    const char* name;
    std::vector<std::string> args;
    const char* message;
  };
  const std::vector<Row> rows = {
      {"no format", {"import"}, "import needs a trace format: openb"},
      {"unknown format", {"import", "borg", nodes, nodes}, "borg"},
      {"missing pod list", {"import", "openb", nodes}, "PODS"},
      {"missing file", {"import", "openb", nodes, dir.at("nope.csv")}, "nope.csv"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const Outcome outcome = run_cli(row.args);
      CHECK(outcome.code == 2);
      CHECK(outcome.out.empty());
      CHECK_THAT(outcome.err, Catch::StartsWith("gpusched: error: "));
      CHECK_THAT(outcome.err, Catch::Contains(row.message));
    }
  }
}

}  // namespace
}  // namespace gpusched::cli
