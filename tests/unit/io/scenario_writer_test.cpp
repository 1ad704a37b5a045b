// Writing a scenario: what load_scenario reads back, timeline included (the starting state
// written from a snapshot is tested in snapshot_test.cpp).

#include "gpusched/io/scenario_writer.hpp"

#include <catch2/catch.hpp>

#include <string>

#include "gpusched/io/scenario_loader.hpp"

namespace gpusched::io {
namespace {

TEST_CASE("every timeline verb is written as the loader reads it", "[io][writer]") {
  const Scenario original = parse_scenario(R"({
    "name": "all-verbs",
    "cluster": [
      {"kind": "Node", "metadata": {"name": "h1", "labels": {"nvidia.com/gpu.product": "X",
                                                              "nvidia.com/gpu.count": "2"}},
       "status": {"capacity": {"cpu": "8", "memory": "32Gi"}}}
    ],
    "timeline": [
      {"at": "1s", "apply": {"kind": "Pod", "metadata": {"name": "one"},
                             "spec": {"containers": [{"name": "c"}]}}},
      {"at": "1s", "apply": [
        {"kind": "Pod", "metadata": {"name": "two", "namespace": "ml"},
         "spec": {"containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": 1}}}]}},
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
         "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
                  "template": {"metadata": {"labels": {"app": "web"}},
                               "spec": {"containers": [{"name": "c"}]}}}}]},
      {"at": "2s", "scale": {"kind": "Deployment", "name": "web", "replicas": 3}},
      {"at": "3s", "patch": {"kind": "Node", "name": "h1",
                             "merge": {"metadata": {"labels": {"zone": "a"}}}}},
      {"at": "4s", "cordon": "h1"},
      {"at": "5s", "uncordon": "h1"},
      {"at": "6s", "gpuHealth": {"node": "h1", "gpu": 1, "healthy": false}},
      {"at": "1m30s", "delete": {"kind": "Pod", "namespace": "ml", "name": "two",
                                 "gracePeriodSeconds": 30}},
      {"at": "2m", "delete": {"kind": "Deployment", "name": "web"}}
    ]})",
                                           "original.json");
  const std::string text = scenario_json_text(original);
  const Scenario loaded = parse_scenario(text, "written.json");
  REQUIRE(loaded.timeline.size() == original.timeline.size());
  for (std::size_t i = 0; i < original.timeline.size(); ++i) {
    const Action& a = original.timeline[i];
    const Action& b = loaded.timeline[i];
    INFO("action " << i);
    CHECK(b.pointer == a.pointer);  // "/timeline/<i>" in both files
    CHECK(b.at == a.at);
    CHECK(b.verb == a.verb);
    CHECK(b.objects == a.objects);
    CHECK(b.target == a.target);
    CHECK(b.grace_period_seconds == a.grace_period_seconds);
    CHECK((b.patch ? b.patch->merge_patch() : "") == (a.patch ? a.patch->merge_patch() : ""));
    CHECK(b.replicas == a.replicas);
    CHECK(b.gpu == a.gpu);
    CHECK(b.healthy == a.healthy);
  }
  // `at` leads each action; one applied object is written as an object, several as a list.
  CHECK_THAT(text, Catch::Contains("\"timeline\": [\n    {\n      \"at\": \"1s\",\n      "
                                   "\"apply\": {"));
  CHECK_THAT(text, Catch::Contains("\"at\": \"1s\",\n      \"apply\": [\n"));
  CHECK_THAT(text,
             Catch::Contains("\"delete\": {\n        \"kind\": \"Deployment\",\n        "
                             "\"namespace\": \"default\",\n        \"name\": \"web\"\n      }"));
  // Written again, the text is the same.
  CHECK(scenario_json_text(loaded) == text);
}

TEST_CASE("the release and its feature gates are written as the loader reads them",
          "[io][writer][gates]") {
  const Scenario original = parse_scenario(R"({
    "name": "gates",
    "scheduler": {"kubernetesVersion": "1.34",
                  "featureGates": {"NominatedNodeNameForExpectation": true,
                                   "ClearingNominatedNodeNameAfterBinding": true}}})",
                                           "original.json");
  const std::string text = scenario_json_text(original);
  CHECK_THAT(text, Catch::Contains("\"scheduler\": {\n    \"kubernetesVersion\": \"1.34\",\n    "
                                   "\"seed\": 1,\n    \"featureGates\": {\n      "
                                   "\"ClearingNominatedNodeNameAfterBinding\": true,\n      "
                                   "\"NominatedNodeNameForExpectation\": true\n    }\n  }"));
  const Scenario loaded = parse_scenario(text, "written.json");
  CHECK(loaded.scheduler.kubernetes_version == original.scheduler.kubernetes_version);
  CHECK(loaded.scheduler.feature_gates == original.scheduler.feature_gates);
  CHECK(scenario_json_text(loaded) == text);
}

}  // namespace
}  // namespace gpusched::io
