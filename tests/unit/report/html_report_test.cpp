// The HTML report: one self-contained page whose inline JSON holds the timelines' data, with
// scenario text escaped so that it can never end the script or become markup. The browser test
// (tests/browser/html_report.cmake) checks what a browser draws from it.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <sstream>
#include <string>
#include <string_view>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/report/html_report.hpp"
#include "gpusched/sim/simulator.hpp"
#include "unit/report/sample_result.hpp"

namespace gpusched::report {
namespace {

using Json = nlohmann::ordered_json;

const std::string kScenarios = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/";

// A replay recording its pod spans, as `replay --html` asks for them.
SimulationResult replay_with_spans(const std::string& file) {
  SimulationOptions options;
  options.record_pod_spans = true;
  return simulate(io::load_scenario(kScenarios + file), options);
}

std::string page_of(const SimulationResult& result, const HtmlReportOptions& options = {}) {
  std::ostringstream out;
  write_html_report(out, result, options);
  return out.str();
}

std::size_t occurrences(std::string_view text, std::string_view part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string_view::npos;
       at = text.find(part, at + part.size())) {
    ++count;
  }
  return count;
}

/// The page's inline data document.
Json data_of(const std::string& page) {
  const std::string_view open = "<script type=\"application/json\" id=\"report-data\">";
  const std::size_t from = page.find(open);
  REQUIRE(from != std::string::npos);
  const std::size_t begin = from + open.size();
  return Json::parse(page.substr(begin, page.find("</script>", begin) - begin));
}

/// The spans drawn as bars on node `node` (index in data["nodes"]): those that held it.
std::size_t bars_on(const Json& data, std::size_t node) {
  std::size_t bars = 0;
  for (const Json& span : data["spans"]) {
    if (span[4] == node && !span[2].is_null()) ++bars;
  }
  return bars;
}

TEST_CASE("the HTML report draws a preemption victim's hold and its preemptor's wait",
          "[report][html]") {
  const SimulationResult result = replay_with_spans("serving-preempts-batch.json");
  const std::string page = page_of(result);
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK_THAT(page, Catch::Contains("<title>gpusched replay: serving-preempts-batch</title>"));
  // Self-contained: nothing loaded from elsewhere.
  CHECK(page.find("src=") == std::string::npos);
  CHECK(page.find("href=\"http") == std::string::npos);
  CHECK(page.find("@import") == std::string::npos);
  CHECK_THAT(page, Catch::Contains("gpu-node"));
  CHECK_THAT(page, Catch::Contains("default/serving"));

  const Json data = data_of(page);
  CHECK(data["scenario"] == "serving-preempts-batch");
  CHECK(data["end"] == 90'000);
  REQUIRE(data["nodes"] == Json::parse(R"([["gpu-node", "", []]])"));
  // Two bars on gpu-node: trainer (deleted at the end, so absent from the pods) from 0s until its
  // termination ended at 1m30s, then serving from 1m30s on.
  CHECK(bars_on(data, 0) == 2);
  const Json& pods = data["pods"];
  REQUIRE(data["spans"].size() == 2);
  const Json& trainer = data["spans"][0];
  CHECK(pods[trainer[0].get<std::size_t>()] == "default/trainer");
  CHECK(trainer == Json::parse(R"([)" + trainer[0].dump() + R"(, 0, 0, 90000, 0, []])"));
  const Json& serving = data["spans"][1];
  CHECK(pods[serving[0].get<std::size_t>()] == "default/serving");
  CHECK(serving == Json::parse(R"([)" + serving[0].dump() + R"(, 60000, 90000, null, 0, []])"));
  // One preemption marker on gpu-node at 1m: trainer -> serving.
  REQUIRE(data["preemptions"].size() == 1);
  const Json& preemption = data["preemptions"][0];
  CHECK(preemption[0] == 60'000);
  CHECK(pods[preemption[1].get<std::size_t>()] == "default/serving");
  CHECK(preemption[2] == 0);
  CHECK(pods[preemption[3][0].get<std::size_t>()] == "default/trainer");
  CHECK(data["events"].size() == result.events.size());
  CHECK(data["pending"].empty());
}

TEST_CASE("the HTML report has a row per GPU and the pods still pending with their message",
          "[report][html]") {
  const SimulationResult result = replay_with_spans("gpu/hgx-h100-groups.json");
  const Json data = data_of(page_of(result));
  REQUIRE(data["nodes"].size() == 2);
  for (const Json& node : data["nodes"]) {
    REQUIRE(node[2].size() == 8);
    for (std::size_t i = 0; i < 8; ++i) CHECK(node[2][i][0] == i);  // by GPU index
  }
  CHECK(data["nodes"][0][0] == "d1");
  CHECK(data["nodes"][1][0] == "h1");
  // On h1 the pods hold GPUs 0-1, 4-7 and 2-3; on d1 the 8-GPU pod all eight.
  std::map<std::string, Json> gpu_rows;
  for (const Json& span : data["spans"]) {
    gpu_rows[data["pods"][span[0].get<std::size_t>()]] = span[5];
  }
  CHECK(gpu_rows["default/two-a"] == Json::parse("[0, 1]"));
  CHECK(gpu_rows["default/four"] == Json::parse("[4, 5, 6, 7]"));
  CHECK(gpu_rows["default/two-b"] == Json::parse("[2, 3]"));
  CHECK(gpu_rows["default/dgx-eight"] == Json::parse("[0, 1, 2, 3, 4, 5, 6, 7]"));
  CHECK(gpu_rows["default/eight"] == Json::array());

  REQUIRE(data["pending"].size() == 1);
  const Json& eight = data["pending"][0];
  CHECK(data["pods"][eight[0].get<std::size_t>()] == "default/eight");
  CHECK(eight[1] == 10'000);  // created at 10s, the end of the run
  CHECK(eight[2] ==
        "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) didn't match Pod's "
        "node affinity/selector. preemption: 0/2 nodes are available: 1 No preemption victims "
        "found for incoming pod, 1 Preemption is not helpful for scheduling.");
  CHECK(eight[4] == "");  // no explanation given
}

TEST_CASE("the HTML report shows explanations of the pods still pending", "[report][html]") {
  const SimulationResult result = test::sample_result();  // default/b pending, default/a running
  HtmlReportOptions options;
  options.explanations = {
      {"default/b", "scheduling", "Every GPU is allocated.", {"Add a node like w1", "Delete a"}},
      {"default/a", "none", "It runs.", {}},
  };
  const Json data = data_of(page_of(result, options));
  REQUIRE(data["pending"].size() == 1);
  const Json& b = data["pending"][0];
  CHECK(data["pods"][b[0].get<std::size_t>()] == "default/b");
  CHECK(b[4] == "scheduling");
  CHECK(b[5] == "Every GPU is allocated.");
  CHECK(b[6] == Json::parse(R"(["Add a node like w1", "Delete a"])"));
}

TEST_CASE("the HTML report lists each resource claim, and beside each pod its claims",
          "[report][html][dra]") {
  const SimulationResult result = replay_with_spans("dra-claim-template-one-gpu.json");
  const std::string page = page_of(result);
  CHECK_THAT(page, Catch::Contains("<section id=\"claims\"><h2>Resource claims</h2>"));
  const Json data = data_of(page);
  const Json& pods = data["pods"];
  auto pod = [&](const Json& index) { return pods[index.get<std::size_t>()]; };
  // trainer-a's claim got the node's only GPU and is reserved for it; trainer-b's got nothing.
  REQUIRE(data["claims"].size() == 2);
  const Json& a = data["claims"][0];
  REQUIRE(a.size() == 6);
  CHECK(a[0].get<std::string>().starts_with("default/trainer-a-gpu-"));
  CHECK(a[1] == "Pod/default/trainer-a");
  CHECK(a[2] == "gpu-node");
  CHECK(a[3] == Json::parse(R"([["gpu", "gpu.nvidia.com", "gpu-node", "gpu-0"]])"));
  REQUIRE(a[4].size() == 1);
  CHECK(pod(a[4][0]) == "default/trainer-a");
  REQUIRE(a[5].size() == 1);  // named by trainer-a's spec, through its status
  CHECK(pod(a[5][0]) == "default/trainer-a");
  const Json& b = data["claims"][1];
  CHECK(b[0].get<std::string>().starts_with("default/trainer-b-gpu-"));
  CHECK(b[1] == "Pod/default/trainer-b");
  CHECK(b[2] == "");
  CHECK(b[3].empty());
  CHECK(b[4].empty());
  REQUIRE(b[5].size() == 1);
  CHECK(pod(b[5][0]) == "default/trainer-b");
  // The pending card the script draws for trainer-b finds its claim through the last column.
  REQUIRE(data["pending"].size() == 1);
  CHECK(data["pending"][0][0] == b[5][0]);
}

TEST_CASE("the HTML report of a run without claims has none to list", "[report][html][dra]") {
  CHECK(data_of(page_of(replay_with_spans("serving-preempts-batch.json")))["claims"] ==
        Json::array());
}

TEST_CASE("the HTML report escapes scenario text for the markup and for the inline JSON",
          "[report][html]") {
  SimulationResult result = test::sample_result();
  result.scenario = "<x>&\"";
  const std::string hostile = "a</script><b>";
  result.pods[1].pod.metadata.name = hostile;
  result.pod_spans = {PodSpan{"default/" + hostile, 0, std::nullopt, std::nullopt, "", {}}};
  result.events.push_back(EventRecord{1000, 1000, 1, "Warning", "FailedScheduling",
                                      "Pod/default/" + hostile,
                                      "<!-- <script>alert(1)</script> \xE2\x80\xA8 & \xFF"});
  HtmlReportOptions options;
  options.explanations = {{"default/" + hostile, "scheduling", "</script><i>", {"<u>"}}};
  const std::string page = page_of(result, options);
  // The page's own two scripts end their elements; nothing from the scenario does.
  CHECK(occurrences(page, "</script>") == 2);
  CHECK(page.find("<b>") == std::string::npos);
  CHECK(page.find("<i>") == std::string::npos);
  CHECK(page.find("<u>") == std::string::npos);
  CHECK(page.find("<!--") == std::string::npos);
  CHECK_THAT(page, Catch::Contains("<title>gpusched replay: &lt;x&gt;&amp;\"</title>"));
  // The JSON reads back as the same text (invalid UTF-8 as U+FFFD).
  const Json data = data_of(page);
  CHECK(data["scenario"] == "<x>&\"");
  CHECK(data["pods"][0] == "default/" + hostile);
  CHECK(data["events"].back()[6] == "<!-- <script>alert(1)</script> \xE2\x80\xA8 & \xEF\xBF\xBD");
  CHECK(data["pending"][0][5] == "</script><i>");
}

TEST_CASE("the HTML report is the same bytes for the same result", "[report][html]") {
  const SimulationResult result = replay_with_spans("serving-preempts-batch.json");
  CHECK(page_of(result) == page_of(result));
  CHECK(page_of(result) == page_of(replay_with_spans("serving-preempts-batch.json")));
}

}  // namespace
}  // namespace gpusched::report
