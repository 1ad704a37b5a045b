// spec.topologySpreadConstraints in the loader: parsing, to_json round trip, and the API
// server's words from validateTopologySpreadConstraints (pkg/apis/core/validation/validation.go).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "io/object_json.hpp"
#include "unit/io/object_text.hpp"

namespace gpusched {
namespace {

std::string pod_with(const std::string& constraints) {
  return R"({"kind": "Pod", "metadata": {"name": "p", "labels": {"app": "a"}},
             "spec": {"containers": [{}], "topologySpreadConstraints": )" +
         constraints + "}}";
}

TEST_CASE("topologySpreadConstraints parse and survive to_json", "[io][spread]") {
  const std::string text = pod_with(R"([
      {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
       "labelSelector": {"matchLabels": {"app": "a"}}, "minDomains": 3,
       "nodeAffinityPolicy": "Ignore", "nodeTaintsPolicy": "Honor",
       "matchLabelKeys": ["pod-template-hash"]},
      {"maxSkew": 2, "topologyKey": "kubernetes.io/hostname",
       "whenUnsatisfiable": "ScheduleAnyway"}])");
  const Object object = test::parse_object_text(text);
  const Pod& pod = std::get<Pod>(object);
  REQUIRE(pod.spec.topology_spread_constraints.size() == 2);
  const TopologySpreadConstraint& c = pod.spec.topology_spread_constraints[0];
  CHECK(c.max_skew == 1);
  CHECK(c.topology_key == "zone");
  CHECK(c.when_unsatisfiable == "DoNotSchedule");
  REQUIRE(c.label_selector);
  CHECK(c.label_selector->match_labels == Labels{{"app", "a"}});
  CHECK(c.min_domains == 3);
  CHECK(c.node_affinity_policy == "Ignore");
  CHECK(c.node_taints_policy == "Honor");
  CHECK(c.match_label_keys == std::vector<std::string>{"pod-template-hash"});
  const TopologySpreadConstraint& d = pod.spec.topology_spread_constraints[1];
  CHECK_FALSE(d.label_selector);
  CHECK_FALSE(d.min_domains);
  CHECK(d.node_affinity_policy.empty());
  const std::string json = io::to_json_text(object);
  INFO(json);
  CHECK(test::parse_object_text(json) == object);

  const std::string deployment = R"({"kind": "Deployment", "metadata": {"name": "d"},
      "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "a"}},
               "template": {"metadata": {"labels": {"app": "a"}},
                            "spec": {"containers": [{}], "topologySpreadConstraints": [
                               {"maxSkew": 1, "topologyKey": "zone",
                                "whenUnsatisfiable": "DoNotSchedule",
                                "labelSelector": {"matchLabels": {"app": "a"}}}]}}}})";
  const Object d_object = test::parse_object_text(deployment);
  CHECK(std::get<Deployment>(d_object).template_.spec.topology_spread_constraints.size() == 1);
  CHECK(test::parse_object_text(io::to_json_text(d_object)) == d_object);
}

struct ErrorRow {
  std::string name;
  std::string constraints;
  std::string pointer;
  std::string reason;
};

TEST_CASE("topologySpreadConstraints are validated with the API server's words", "[io][spread]") {
  const std::string prefix = "The Pod \"p\" is invalid: spec.topologySpreadConstraints[0].";
  const std::vector<ErrorRow> rows = {
      {"maxSkew zero",
       R"([{"maxSkew": 0, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}])",
       "/spec/topologySpreadConstraints/0/maxSkew",
       prefix + "maxSkew: Invalid value: 0: must be greater than zero"},
      {"maxSkew missing", R"([{"topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}])",
       "/spec/topologySpreadConstraints/0/maxSkew",
       prefix + "maxSkew: Invalid value: 0: must be greater than zero"},
      {"topologyKey empty",
       R"([{"maxSkew": 1, "topologyKey": "", "whenUnsatisfiable": "DoNotSchedule"}])",
       "/spec/topologySpreadConstraints/0/topologyKey",
       prefix + "topologyKey: Required value: can not be empty"},
      {"whenUnsatisfiable unknown",
       R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "Never"}])",
       "/spec/topologySpreadConstraints/0/whenUnsatisfiable",
       prefix + "whenUnsatisfiable: Unsupported value: \"Never\": supported values: "
                "\"DoNotSchedule\", \"ScheduleAnyway\""},
      {"duplicate pair",
       R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"},
           {"maxSkew": 2, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}])",
       "/spec/topologySpreadConstraints/0",
       prefix + "{topologyKey, whenUnsatisfiable}: Duplicate value: \"{zone, DoNotSchedule}\""},
      {"minDomains zero",
       R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
            "minDomains": 0}])",
       "/spec/topologySpreadConstraints/0/minDomains",
       prefix + "minDomains: Invalid value: 0: must be greater than zero"},
      {"minDomains with ScheduleAnyway",
       R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway",
            "minDomains": 2}])",
       "/spec/topologySpreadConstraints/0/minDomains",
       prefix + "minDomains: Invalid value: 2: can only use minDomains if "
                "whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"},
      {"nodeAffinityPolicy unknown",
       R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
            "nodeAffinityPolicy": "Always"}])",
       "/spec/topologySpreadConstraints/0/nodeAffinityPolicy",
       prefix + "nodeAffinityPolicy: Unsupported value: \"Always\": supported values: \"Honor\", "
                "\"Ignore\""},
      {"nodeTaintsPolicy unknown",
       R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
            "nodeTaintsPolicy": ""}])",
       "/spec/topologySpreadConstraints/0/nodeTaintsPolicy",
       prefix + "nodeTaintsPolicy: Unsupported value: \"\": supported values: \"Honor\", "
                "\"Ignore\""},
      {"matchLabelKeys without labelSelector",
       R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
            "matchLabelKeys": ["app"]}])",
       "/spec/topologySpreadConstraints/0/matchLabelKeys",
       prefix + "matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"},
      {"matchLabelKeys key also in labelSelector",
       R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
            "labelSelector": {"matchExpressions": [{"key": "app", "operator": "Exists"}]},
            "matchLabelKeys": ["app"]}])",
       "/spec/topologySpreadConstraints/0/matchLabelKeys/0",
       prefix + "matchLabelKeys[0]: Invalid value: \"app\": exists in both matchLabelKeys and "
                "labelSelector"},
      {"labelSelector operator",
       R"([{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
            "labelSelector": {"matchExpressions": [{"key": "app", "operator": "Gt",
                                                    "values": ["1"]}]}}])",
       "/spec/topologySpreadConstraints/0/labelSelector/matchExpressions/0/operator",
       prefix + "labelSelector.matchExpressions[0].operator: Invalid value: \"Gt\": not a valid "
                "selector operator"},
  };
  for (const ErrorRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      try {
        (void)test::parse_object_text(pod_with(row.constraints));
        FAIL("no error for " << row.name);
      } catch (const InputError& e) {
        CHECK(e.pointer() == row.pointer);
        CHECK(e.reason() == row.reason);
      }
    }
  }
}

TEST_CASE("a Deployment template's constraints are validated at their path", "[io][spread]") {
  const std::string text = R"({"kind": "Deployment", "metadata": {"name": "d"},
      "spec": {"selector": {"matchLabels": {"app": "a"}},
               "template": {"metadata": {"labels": {"app": "a"}},
                            "spec": {"containers": [{}], "topologySpreadConstraints": [
                               {"maxSkew": -1, "topologyKey": "zone",
                                "whenUnsatisfiable": "DoNotSchedule"}]}}}})";
  try {
    (void)test::parse_object_text(text);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.pointer() == "/spec/template/spec/topologySpreadConstraints/0/maxSkew");
    CHECK(e.reason() ==
          "The Deployment \"d\" is invalid: "
          "spec.template.spec.topologySpreadConstraints[0].maxSkew: Invalid value: -1: must be "
          "greater than zero");
  }
}

}  // namespace
}  // namespace gpusched
