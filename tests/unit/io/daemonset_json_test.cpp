// DaemonSet (apps/v1) in lib/io/object_json.cpp: parsing, the API server's validation texts
// (pkg/apis/apps/validation ValidateDaemonSetSpec) and serialization.
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

TEST_CASE("DaemonSet parses as apps/v1 writes it", "[io][daemonset]") {
  const Object object = parse(R"({"apiVersion": "apps/v1", "kind": "DaemonSet",
      "metadata": {"name": "plugin", "namespace": "kube-system", "labels": {"app": "p"}},
      "spec": {"selector": {"matchLabels": {"name": "plugin"}},
               "updateStrategy": {"type": "RollingUpdate"},
               "template": {"metadata": {"labels": {"name": "plugin"}},
                            "spec": {"nodeSelector": {"gpu": "true"},
                                     "tolerations": [{"key": "nvidia.com/gpu",
                                                      "operator": "Exists",
                                                      "effect": "NoSchedule"}],
                                     "containers": [{"name": "c"}]}}}})");
  const auto& ds = std::get<DaemonSet>(object);
  CHECK(kind_of(object) == "DaemonSet");
  CHECK(ref_of(object).to_string() == "DaemonSet/kube-system/plugin");
  CHECK(ds.selector.match_labels == Labels{{"name", "plugin"}});
  CHECK(ds.template_.metadata.labels == Labels{{"name", "plugin"}});
  CHECK(ds.template_.spec.node_selector == Labels{{"gpu", "true"}});
  REQUIRE(ds.template_.spec.tolerations.size() == 1);
  CHECK(ds.template_.spec.restart_policy == "Always");

  const nlohmann::json json = io::to_json(object);
  CHECK(json["apiVersion"] == "apps/v1");
  CHECK(json["kind"] == "DaemonSet");
  CHECK(json["spec"]["selector"] == nlohmann::json{{"matchLabels", {{"name", "plugin"}}}});
  CHECK(parse(io::to_json_text(object)) == object);
}

TEST_CASE("DaemonSet validation errors read as the API server's", "[io][daemonset]") {
  struct Row {
    const char* name;
    std::string object;
    std::string pointer;
    std::string reason;
  };
  const std::vector<Row> rows = {
      {"no selector: apps/v1 has no default, and no selector matches nothing",
       R"({"kind": "DaemonSet", "metadata": {"name": "d"},
           "spec": {"template": {"metadata": {"labels": {"app": "a"}},
                                 "spec": {"containers": [{}]}}}})",
       "/spec/template/metadata/labels",
       "The DaemonSet \"d\" is invalid: spec.template.metadata.labels: Invalid value: "
       "map[string]string{\"app\":\"a\"}: `selector` does not match template `labels`"},
      {"no selector and no labels",
       R"({"kind": "DaemonSet", "metadata": {"name": "d"},
           "spec": {"template": {"spec": {"containers": [{}]}}}})",
       "/spec/template/metadata/labels",
       "The DaemonSet \"d\" is invalid: spec.template.metadata.labels: Invalid value: "
       "map[string]string(nil): `selector` does not match template `labels`"},
      {"selector not matching",
       R"({"kind": "DaemonSet", "metadata": {"name": "d"},
           "spec": {"selector": {"matchExpressions": [{"key": "app", "operator": "In",
                                                       "values": ["b"]}]},
                    "template": {"metadata": {"labels": {"app": "a"}},
                                 "spec": {"containers": [{}]}}}})",
       "/spec/template/metadata/labels",
       "The DaemonSet \"d\" is invalid: spec.template.metadata.labels: Invalid value: "
       "map[string]string{\"app\":\"a\"}: `selector` does not match template `labels`"},
      {"empty selector",
       R"({"kind": "DaemonSet", "metadata": {"name": "d"},
           "spec": {"selector": {"matchLabels": {}},
                    "template": {"metadata": {"labels": {"app": "a"}},
                                 "spec": {"containers": [{}]}}}})",
       "/spec/selector",
       "The DaemonSet \"d\" is invalid: spec.selector: Invalid value: "
       "v1.LabelSelector{MatchLabels:map[string]string{}, "
       "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for "
       "daemonset"},
      {"selector checked before the pod template",
       R"({"kind": "DaemonSet", "metadata": {"name": "d"},
           "spec": {"selector": {"matchLabels": {"app": "b"}},
                    "template": {"metadata": {"labels": {"app": "a"}}, "spec": {}}}})",
       "/spec/template/metadata/labels",
       "The DaemonSet \"d\" is invalid: spec.template.metadata.labels: Invalid value: "
       "map[string]string{\"app\":\"a\"}: `selector` does not match template `labels`"},
      {"pod template",
       R"({"kind": "DaemonSet", "metadata": {"name": "d"},
           "spec": {"selector": {"matchLabels": {"app": "a"}},
                    "template": {"metadata": {"labels": {"app": "a"}}, "spec": {}}}})",
       "/spec/template/spec/containers",
       "The DaemonSet \"d\" is invalid: spec.template.spec.containers: Required value"},
      {"restartPolicy other than Always",
       R"({"kind": "DaemonSet", "metadata": {"name": "d"},
           "spec": {"selector": {"matchLabels": {"app": "a"}},
                    "template": {"metadata": {"labels": {"app": "a"}},
                                 "spec": {"restartPolicy": "OnFailure",
                                          "containers": [{}]}}}})",
       "/spec/template/spec/restartPolicy",
       "The DaemonSet \"d\" is invalid: spec.template.spec.restartPolicy: Unsupported value: "
       "\"OnFailure\": supported values: \"Always\""},
      {"DaemonSet extensions/v1beta1",
       R"({"apiVersion": "extensions/v1beta1", "kind": "DaemonSet", "metadata": {"name": "d"}})",
       "/apiVersion",
       "apiVersion \"extensions/v1beta1\" does not serve kind DaemonSet; use \"apps/v1\""},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      try {
        (void)parse(row.object);
        FAIL("no error for " << row.name);
      } catch (const InputError& e) {
        CHECK(e.pointer() == row.pointer);
        CHECK(e.reason() == row.reason);
      }
    }
  }
}

}  // namespace
}  // namespace gpusched
