#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "gpusched/report/writers.hpp"
#include "unit/report/sample_result.hpp"

namespace gpusched::report {
namespace {

using Json = nlohmann::ordered_json;

std::string json_text(const SimulationResult& result) {
  std::ostringstream out;
  write_json(out, result);
  return out.str();
}

std::vector<std::string> keys(const Json& object) {
  std::vector<std::string> names;
  for (const auto& item : object.items()) names.push_back(item.key());
  return names;
}

TEST_CASE("write_json keeps the contract's keys in the contract's order", "[report]") {
  const Json json = Json::parse(json_text(test::sample_result()));
  CHECK(keys(json) == std::vector<std::string>{"scenario", "time", "pods", "nodes", "events",
                                               "preemptions", "preemptionCount", "lostGpuTime",
                                               "queueWait", "metrics", "expectations", "passed"});
  // The summary metrics, in summary_metrics' order, as plain numbers.
  REQUIRE(json["metrics"].is_object());
  CHECK(json["metrics"].begin().key() == "time");
  CHECK(json["metrics"]["pods"].is_number_integer());
  CHECK(keys(json["queueWait"]) == std::vector<std::string>{"pods", "p50", "p95", "p99", "max",
                                                            "byPriorityClass", "byNamespace",
                                                            "neverBound", "longestPending"});
  CHECK(keys(json["pods"][0]) ==
        std::vector<std::string>{"namespace", "name", "phase", "nodeName", "reason", "message",
                                 "nominatedNodeName", "requests", "terminating", "createdAt",
                                 "scheduledAt", "finishedAt", "devices", "visibleDevices", "wait",
                                 "preemptions", "preemptedBy"});
  CHECK(keys(json["nodes"][0]) ==
        std::vector<std::string>{"name", "capacity", "allocatable", "allocated", "pods"});
  CHECK(keys(json["events"][0]) == std::vector<std::string>{"time", "type", "reason", "object",
                                                            "message", "count", "lastTime"});
  CHECK(keys(json["expectations"][0]) == std::vector<std::string>{"index", "ok", "message", "at"});
}

TEST_CASE("write_json values", "[report]") {
  const Json json = Json::parse(json_text(test::sample_result()));
  CHECK(json["scenario"] == "demo");
  CHECK(json["time"] == "1m");
  CHECK(json["passed"] == false);

  SECTION("a bound pod") {
    const Json& pod = json["pods"][0];
    CHECK(pod["phase"] == "Running");
    CHECK(pod["nodeName"] == "w1");
    CHECK(pod["reason"].is_null());  // PodScheduled=True carries no reason
    CHECK(pod["nominatedNodeName"].is_null());
    CHECK(pod["requests"] == Json{{"cpu", "500m"}, {"memory", "1Gi"}, {"nvidia.com/gpu", "1"}});
    CHECK(pod["terminating"] == false);
    CHECK(pod["createdAt"] == "0s");
    CHECK(pod["scheduledAt"] == "0s");
    CHECK(pod["finishedAt"].is_null());
  }
  SECTION("an unbound pod") {
    const Json& pod = json["pods"][1];
    CHECK(pod["phase"] == "Pending");
    CHECK(pod["nodeName"].is_null());
    CHECK(pod["reason"] == "Unschedulable");
    CHECK(pod["message"] == "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
    CHECK(pod["scheduledAt"].is_null());
  }
  SECTION("a node") {
    const Json& node = json["nodes"][0];
    CHECK(node["capacity"]["memory"] == "16Gi");
    CHECK(node["allocated"]["cpu"] == "500m");
    CHECK(node["pods"] == Json::array({"default/a"}));
  }
  SECTION("a repeated event") {
    const Json& event = json["events"][1];
    CHECK(event["time"] == "0s");
    CHECK(event["lastTime"] == "20s");
    CHECK(event["count"] == 3);
    CHECK(event["object"] == "Pod/default/b");
  }
  SECTION("expectations") {
    CHECK(json["expectations"][1] ==
          Json{{"index", 1},
               {"ok", false},
               {"message", "pod default/b: expected phase Running, got Pending"},
               {"at", "30s"}});
  }
}

TEST_CASE("write_json is indented and byte-identical for identical results", "[report]") {
  const std::string first = json_text(test::sample_result());
  CHECK(first == json_text(test::sample_result()));
  CHECK(first.rfind("{\n  \"scenario\": \"demo\",\n  \"time\": \"1m\",\n", 0) == 0);
  CHECK(first.back() == '\n');
}

TEST_CASE("write_json prints empty lists and survives invalid UTF-8", "[report]") {
  SimulationResult result;
  result.scenario = "bad\xFF";
  const Json json = Json::parse(json_text(result));
  CHECK(json["pods"] == Json::array());
  CHECK(json["expectations"] == Json::array());
  CHECK(json["passed"] == true);
  CHECK(json["scenario"] == "bad\xEF\xBF\xBD");
}

}  // namespace
}  // namespace gpusched::report

namespace gpusched::report {
namespace {

SimulationResult with_preemptions() {
  SimulationResult result = test::sample_result();
  // serving evicts a 2-GPU pod that ran 90 s and a CPU-only pod that ran 10 s.
  result.preemptions.push_back(PreemptionRecord{
      60000,
      "ml/serving",
      "gpu-1",
      {VictimRecord{"ml/train", 100, 2, 90000}, VictimRecord{"ml/etl", 50, 0, 10000}}});
  return result;
}

TEST_CASE("write_json reports preemptions and the GPU time their victims lose", "[report]") {
  const Json json = Json::parse(json_text(with_preemptions()));
  CHECK(json["preemptionCount"] == 1);
  CHECK(json["lostGpuTime"] == "3m");
  const Json& p = json["preemptions"][0];
  CHECK(p["time"] == "1m");
  CHECK(p["preemptor"] == "ml/serving");
  CHECK(p["node"] == "gpu-1");
  REQUIRE(p["victims"].size() == 2);
  CHECK(p["victims"][0]["pod"] == "ml/train");
  CHECK(p["victims"][0]["gpus"] == 2);
  CHECK(p["victims"][0]["ran"] == "1m30s");
  CHECK(p["victims"][0]["lostGpuTime"] == "3m");
  CHECK(p["victims"][1]["lostGpuTime"] == "0s");
}

TEST_CASE("write_table lists each victim and the total lost GPU time", "[report]") {
  std::ostringstream out;
  write_table(out, with_preemptions());
  const std::string text = out.str();
  CHECK(text.find("PREEMPTIONS\n") != std::string::npos);
  CHECK(text.find("ml/train") != std::string::npos);
  CHECK(text.find("1 preemption(s), 2 victim(s), 3m of GPU time lost\n") != std::string::npos);
}

}  // namespace
}  // namespace gpusched::report
