// What gpusched writes can hurt nothing: no report file replaces an input, a report that could
// not be written is a failure (exit 3), and no name or message from the input reaches a
// terminal as a control sequence.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "gpusched/cli.hpp"
#include "gpusched/rendered_text.hpp"
#include "gpusched/report/terminal_text.hpp"
#include "gpusched/terminal_stream.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::test {
namespace {

namespace fs = std::filesystem;

const std::string kScenario = R"({
  "name": "outputs",
  "include": ["nodes.json"],
  "cluster": [
    {"kind": "Pod", "metadata": {"name": "a"},
     "spec": {"containers": [{"name": "main", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}
  ],
  "expect": [{"at": "end", "pod": "default/a", "phase": "Running"}]
}
)";

const std::string kNodes = R"({"kind": "Node", "metadata": {"name": "w1"},
 "status": {"capacity": {"cpu": "8", "memory": "32Gi", "pods": "110", "nvidia.com/gpu": "1"}}}
)";

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST_CASE("no report file may replace one of the command's inputs", "[cli][outputs]") {
  TempDir dir;
  const std::string scenario = dir.write("s.json", kScenario);
  const std::string nodes = dir.write("nodes.json", kNodes);
  fs::create_symlink(scenario, dir.path() / "link.json");
  fs::create_hard_link(scenario, dir.path() / "hard.json");
  const std::string nodes_csv = dir.write("n.csv", "sn,cpu_milli,memory_mib,gpu,model\n");
  const std::string pods_csv =
      dir.write("p.csv",
                "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
                "deletion_time,scheduled_time\n");
  struct Row {
    const char* name;
    std::vector<std::string> args;
    std::string input;  ///< the file that must stay as it was
    std::string error;  ///< the whole message
  };
  const std::string destroy = ": writing it would destroy the input; name another file\n";
  const std::vector<Row> rows = {
      {"replay --html onto the scenario",
       {"replay", scenario, "--html", scenario},
       scenario,
       "gpusched: error: --html: " + scenario + " is the input " + scenario + destroy},
      {"replay --html onto a symbolic link to it",
       {"replay", scenario, "--html", dir.at("link.json")},
       scenario,
       "gpusched: error: --html: " + dir.at("link.json") + " is the input " + scenario + destroy},
      {"replay --html onto a hard link to it",
       {"replay", scenario, "--html", dir.at("hard.json")},
       scenario,
       "gpusched: error: --html: " + dir.at("hard.json") + " is the input " + scenario + destroy},
      {"replay --html onto an included file",
       {"replay", scenario, "--html", nodes},
       nodes,
       "gpusched: error: --html: " + nodes + " is the input " + nodes + destroy},
      {"check --junit onto the scenario",
       {"check", scenario, "--junit", dir.at("link.json")},
       scenario,
       "gpusched: error: --junit: " + dir.at("link.json") + " is the input " + scenario + destroy},
      {"check --junit onto an included file",
       {"check", scenario, "--junit", nodes},
       nodes,
       "gpusched: error: --junit: " + nodes + " is the input " + nodes + destroy},
      {"import -o onto the pod list",
       {"import", "openb", nodes_csv, pods_csv, "-o", pods_csv},
       pods_csv,
       "gpusched: error: --output-file: " + pods_csv + " is the input " + pods_csv + destroy},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      const std::string before = read(row.input);
      const Outcome outcome = run_cli(row.args);
      CHECK(outcome.code == 2);
      // check prints its scenario's line before it knows what the scenario includes.
      if (row.args[0] != "check") CHECK(outcome.out.empty());
      CHECK(outcome.err == row.error);
      CHECK(read(row.input) == before);
    }
  }
}

/// A stream buffer whose every write fails, as a full disk's does.
class FullBuffer : public std::streambuf {
 protected:
  int_type overflow(int_type) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

TEST_CASE("a report that cannot be written is a failure naming where", "[cli][outputs]") {
  TempDir dir;
  const std::string scenario = dir.write("s.json", kScenario);
  dir.write("nodes.json", kNodes);
  SECTION("standard output") {
    FullBuffer full;
    std::ostream out(&full);
    std::ostringstream err;
    const std::vector<const char*> argv{"gpusched", "replay", scenario.c_str(), "-o", "json"};
    CHECK(cli::run(static_cast<int>(argv.size()), argv.data(), out, err) == 3);
    CHECK(err.str() == "gpusched: error: cannot write standard output\n");
  }
  if (!fs::exists("/dev/full")) return;  // Linux's always-full device
  SECTION("replay --html") {
    const Outcome outcome = run_cli({"replay", scenario, "--html", "/dev/full"});
    CHECK(outcome.code == 3);
    CHECK(outcome.err == "gpusched: error: cannot write /dev/full: No space left on device\n");
  }
  SECTION("check --junit") {
    const Outcome outcome = run_cli({"check", scenario, "--junit", "/dev/full"});
    CHECK(outcome.code == 3);
    CHECK(outcome.err == "gpusched: error: cannot write /dev/full: No space left on device\n");
  }
}

TEST_CASE("names and messages reach the terminal with control characters escaped",
          "[cli][outputs]") {
  TempDir dir;
  // A name with a colour sequence, a CR that would rewrite the line, and a NUL.
  const std::string scenario = dir.write("s.json", R"({
  "name": "evil\u001b[31m\r\u0000x",
  "cluster": [{"kind": "Node", "metadata": {"name": "w1"},
               "status": {"capacity": {"cpu": "1", "memory": "1Gi", "pods": "1"}}}],
  "expect": [{"at": "end", "pods": "default/*", "phases": {}}]
}
)");
  const std::string shown = "evil\\u001b[31m\\u000d\\u0000x";
  SECTION("check's line") {
    const Outcome outcome = run_cli({"check", scenario});
    CHECK(outcome.code == 0);
    CHECK(outcome.out ==
          "PASS " + scenario + " (" + shown + "): 1 expectations\n1 passed, 0 failed\n");
  }
  SECTION("an error message, whole after a NUL") {
    const std::string broken = dir.write("b.json", R"({"name": "x", "k\u0000\u001b[2Jb": 1})");
    const Outcome outcome = run_cli({"validate", broken});
    CHECK(outcome.code == 2);
    CHECK(outcome.err.find('\x1b') == std::string::npos);
    CHECK(outcome.err.find('\0') == std::string::npos);
    CHECK_THAT(outcome.err, Catch::Contains("k\\u0000\\u001b[2Jb"));
  }
  SECTION("JSON stays JSON") {
    const Outcome outcome = run_cli({"replay", scenario, "-o", "json"});
    CHECK(outcome.code == 0);
    CHECK(outcome.out.find('\x1b') == std::string::npos);
  }
}

TEST_CASE("a report of many blocks is printed whole, escaped as if written at once",
          "[cli][outputs]") {
  // 23 bytes a unit, so that over 3 MiB the 2-, 3- and 4-byte sequences, a control character and
  // a byte that is not UTF-8 fall across the terminal filter's 64 KiB pieces and the rendered
  // text's 1 MiB blocks at every offset.
  const std::string unit = "ab\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x1b[1m\xff\r\n01234";
  REQUIRE(unit.size() == 23);
  std::string text;
  while (text.size() < (std::size_t{3} << 20) + 5) text += unit;
  cli::RenderedText rendered;
  rendered << text;
  std::ostringstream raw;
  rendered.print(raw);
  CHECK(raw.str() == text);
  std::stringbuf printed;
  {
    cli::TerminalTextBuffer terminal(printed);
    std::ostream out(&terminal);
    rendered.print(out);
    out.flush();
    CHECK(out.good());
  }
  const std::string expected = report::terminal_text(text);
  CHECK(printed.str().size() == expected.size());
  CHECK(printed.str() == expected);
  SECTION("nothing rendered prints nothing") {
    cli::RenderedText empty;
    std::ostringstream none;
    empty.print(none);
    CHECK(none.str().empty());
  }
}

TEST_CASE("an include path with a NUL or a control character is refused where it is",
          "[cli][outputs]") {
  TempDir dir;
  dir.write("nodes.json", kNodes);
  const std::string scenario = dir.write("s.json", R"({
  "name": "x",
  "include": [
    "nodes.json\u0000.ignored"
  ]
}
)");
  const Outcome outcome = run_cli({"validate", scenario});
  CHECK(outcome.code == 2);
  CHECK(outcome.err == "gpusched: error: " + scenario +
                           ":4: /include/0: a file path must not hold control characters, got "
                           "\"nodes.json\\x00.ignored\"\n");
}

TEST_CASE("an error found while a timeline action runs names the action's line", "[cli][outputs]") {
  TempDir dir;
  const std::string scenario = dir.write("s.json", R"({
  "name": "x",
  "cluster": [],
  "timeline": [
    {"at": "1s", "cordon": "w9"},
    {"at": "5s",
     "delete": {"kind": "Pod", "name": "missing"}}
  ]
}
)");
  const Outcome outcome = run_cli({"replay", scenario});
  CHECK(outcome.code == 2);
  CHECK(outcome.err ==
        "gpusched: error: " + scenario + ":5: /timeline/0: Node \"w9\" does not exist at 1s\n");
  const std::string second = dir.write("t.json", R"({
  "name": "x",
  "cluster": [],
  "timeline": [
    {"at": "5s",
     "delete": {"kind": "Pod", "name": "missing"}}
  ]
}
)");
  CHECK(run_cli({"replay", second}).err ==
        "gpusched: error: " + second +
            ":5: /timeline/0: Pod \"default/missing\" does not exist at 5s\n");
}

TEST_CASE("a negative time on the command line is refused in those words", "[cli][outputs]") {
  TempDir dir;
  const std::string scenario = dir.write("s.json", kScenario);
  dir.write("nodes.json", kNodes);
  struct Row {
    const char* name;
    std::vector<std::string> args;
    std::string error;
  };
  const std::vector<Row> rows = {
      {"replay --until -1",
       {"replay", scenario, "--until", "-1"},
       "--until: negative times are not allowed, got \"-1\""},
      {"replay --until=-5s",
       {"replay", scenario, "--until=-5s"},
       "--until: negative times are not allowed, got \"-5s\""},
      {"explain --at -2",
       {"explain", scenario, "--pod", "a", "--at", "-2"},
       "--at: negative times are not allowed, got \"-2\""},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      const Outcome outcome = run_cli(row.args);
      CHECK(outcome.code == 2);
      CHECK_THAT(outcome.err, Catch::StartsWith("gpusched: error: " + row.error + "\n"));
    }
  }
}

}  // namespace
}  // namespace gpusched::test
