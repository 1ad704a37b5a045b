// StatefulSet (apps/v1) and Service (v1) in lib/io/object_json.cpp: parsing with the v1
// defaults, the API server's validation texts (pkg/apis/apps/validation ValidateStatefulSetSpec)
// and serialization.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "io/object_json.hpp"
#include "unit/io/object_text.hpp"

namespace gpusched {
namespace {

Object parse(const std::string& text) {
  return test::parse_object_text(text);
}

TEST_CASE("StatefulSet parses as apps/v1 writes it", "[io][statefulset]") {
  const Object object = parse(R"({"apiVersion": "apps/v1", "kind": "StatefulSet",
      "metadata": {"name": "llm", "namespace": "serving"},
      "spec": {"replicas": 3, "serviceName": "llm", "podManagementPolicy": "Parallel",
               "ordinals": {"start": 5}, "minReadySeconds": 10,
               "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}},
               "selector": {"matchLabels": {"app": "llm"}},
               "volumeClaimTemplates": [{"metadata": {"name": "cache"},
                                         "spec": {"accessModes": ["ReadWriteOnce"]}}],
               "template": {"metadata": {"labels": {"app": "llm"}},
                            "spec": {"containers": [{"name": "c"}]}}}})");
  const auto& ss = std::get<StatefulSet>(object);
  CHECK(ref_of(object).to_string() == "StatefulSet/serving/llm");
  CHECK(ss.replicas == 3);
  CHECK(ss.pod_management_policy == "Parallel");
  CHECK(ss.ordinals_start == 5);
  CHECK(ss.min_ready_seconds == 10);
  CHECK(ss.volume_claim_templates == std::vector<std::string>{"cache"});
  CHECK(ss.selector.match_labels == Labels{{"app", "llm"}});
  CHECK(ss.template_.spec.restart_policy == "Always");

  const nlohmann::json json = io::to_json(object);
  CHECK(json["apiVersion"] == "apps/v1");
  CHECK(json["spec"]["ordinals"]["start"] == 5);
  CHECK(parse(io::to_json_text(object)) == object);
}

TEST_CASE("StatefulSet defaults: one replica, OrderedReady, ordinals from 0", "[io][statefulset]") {
  const Object object = parse(R"({"kind": "StatefulSet", "metadata": {"name": "s"},
      "spec": {"selector": {"matchLabels": {"app": "s"}}, "podManagementPolicy": "",
               "template": {"metadata": {"labels": {"app": "s"}},
                            "spec": {"containers": [{}]}}}})");
  const auto& ss = std::get<StatefulSet>(object);
  CHECK(ss.replicas == 1);
  CHECK(ss.pod_management_policy == "OrderedReady");
  CHECK(ss.ordinals_start == 0);
  CHECK(ss.min_ready_seconds == 0);
  CHECK(parse(io::to_json_text(object)) == object);
}

TEST_CASE("StatefulSet validation errors read as the API server's", "[io][statefulset]") {
  struct Row {
    const char* name;
    std::string spec;
    std::string pointer;
    std::string reason;
  };
  const std::string tmpl =
      R"("template": {"metadata": {"labels": {"app": "a"}}, "spec": {"containers": [{}]}})";
  const std::string selector = R"("selector": {"matchLabels": {"app": "a"}})";
  const std::vector<Row> rows = {
      {"podManagementPolicy", R"("podManagementPolicy": "Burst", )" + selector + ", " + tmpl,
       "/spec/podManagementPolicy",
       "spec.podManagementPolicy: Invalid value: \"Burst\": must be 'OrderedReady' or "
       "'Parallel'"},
      {"negative replicas", R"("replicas": -1, )" + selector + ", " + tmpl, "/spec/replicas",
       "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
      {"negative minReadySeconds", R"("minReadySeconds": -5, )" + selector + ", " + tmpl,
       "/spec/minReadySeconds",
       "spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0"},
      {"negative ordinals.start", R"("ordinals": {"start": -2}, )" + selector + ", " + tmpl,
       "/spec/ordinals/start",
       "spec.ordinals.start: Invalid value: -2: must be greater than or equal to 0"},
      {"no selector: apps/v1 requires one", tmpl, "/spec/selector",
       "spec.selector: Required value"},
      {"empty selector", R"("selector": {"matchLabels": {}}, )" + tmpl, "/spec/selector",
       "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, "
       "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for "
       "statefulset"},
      {"selector not matching the template labels",
       R"("selector": {"matchLabels": {"app": "b"}}, )" + tmpl, "/spec/template/metadata/labels",
       "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"a\"}: "
       "`selector` does not match template `labels`"},
      {"pod template", selector + R"(, "template": {"metadata": {"labels": {"app": "a"}}})",
       "/spec/template/spec/containers", "spec.template.spec.containers: Required value"},
      {"restartPolicy other than Always",
       selector + R"(, "template": {"metadata": {"labels": {"app": "a"}},
                     "spec": {"restartPolicy": "Never", "containers": [{}]}})",
       "/spec/template/spec/restartPolicy",
       "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: "
       "\"Always\""},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      try {
        (void)parse(R"({"kind": "StatefulSet", "metadata": {"name": "s"}, "spec": {)" + row.spec +
                    "}}");
        FAIL("no error for " << row.name);
      } catch (const InputError& e) {
        CHECK(e.pointer() == row.pointer);
        CHECK(e.reason() == "The StatefulSet \"s\" is invalid: " + row.reason);
      }
    }
  }
}

TEST_CASE("Service: its selector is what gpusched reads", "[io][service]") {
  const Object object = parse(R"({"apiVersion": "v1", "kind": "Service",
      "metadata": {"name": "llm", "namespace": "serving"},
      "spec": {"clusterIP": "None", "selector": {"app": "llm"},
               "ports": [{"port": 8000, "name": "http"}]}})");
  const auto& service = std::get<Service>(object);
  CHECK(ref_of(object).to_string() == "Service/serving/llm");
  CHECK(service.selector == Labels{{"app", "llm"}});
  CHECK(parse(io::to_json_text(object)) == object);

  const Object headless = parse(R"({"kind": "Service", "metadata": {"name": "ext"},
      "spec": {"type": "ExternalName", "externalName": "db.example.com"}})");
  CHECK(std::get<Service>(headless).selector.empty());
  CHECK(parse(io::to_json_text(headless)) == headless);

  try {
    (void)parse(R"({"kind": "Service", "metadata": {"name": "s"},
                    "spec": {"selector": {"app": "a b"}}})");
    FAIL("no error for a selector value with a space");
  } catch (const InputError& e) {
    CHECK(e.pointer() == "/spec/selector/app");
    CHECK_THAT(e.reason(),
               Catch::StartsWith("The Service \"s\" is invalid: spec.selector: "
                                 "Invalid value: \"a b\": a valid label value must be"));
  }
}

}  // namespace
}  // namespace gpusched
