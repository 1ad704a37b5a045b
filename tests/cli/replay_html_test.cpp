// `gpusched replay --html FILE`: the page besides the normal output; a path that cannot be
// written is invalid input, named in the error, before the replay runs.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::test {
namespace {

const std::string kScenario =
    std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/serving-preempts-batch.json";

TEST_CASE("replay --html writes the page and prints the usual report", "[cli][html]") {
  TempDir dir;
  const std::string html = dir.at("report.html");
  const Outcome with_html = run_cli({"replay", kScenario, "--html", html});
  CHECK(with_html.code == 0);
  CHECK(with_html.err.empty());
  CHECK(with_html.out == run_cli({"replay", kScenario}).out);
  std::ifstream in(html, std::ios::binary);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK_THAT(page, Catch::Contains("default/serving"));
}

TEST_CASE("replay --html explains the pods left Pending where they stand", "[cli][html]") {
  TempDir dir;
  const std::string html = dir.at("two.html");
  const std::string two = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/two-pods-one-gpu.json";
  const Outcome outcome = run_cli({"replay", two, "--html", html});
  CHECK(outcome.code == 0);
  CHECK(outcome.out == run_cli({"replay", two}).out);
  std::ifstream in(html, std::ios::binary);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // explain's layer and diagnosis for the Pending replica, as `gpusched explain` words them.
  CHECK_THAT(page, Catch::Contains("\"scheduling\",\"It asks for nvidia.com/gpu 1."));
  CHECK_THAT(page, Catch::Contains("It asks for nvidia.com/gpu 1. 1 node could hold it, but the "
                                   "room is taken or policy refuses it."));
}

TEST_CASE("replay --html to a path that cannot be written exits 2 naming it", "[cli][html]") {
  TempDir dir;
  const std::string html = dir.at("no/such/dir/report.html");
  const Outcome outcome = run_cli({"replay", kScenario, "--html", html});
  CHECK(outcome.code == 2);
  CHECK(outcome.out.empty());
  CHECK(outcome.err ==
        "gpusched: error: --html: cannot write " + html + ": No such file or directory\n");
}

}  // namespace
}  // namespace gpusched::test
