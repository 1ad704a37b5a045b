// PriorityClass and PodDisruptionBudget in lib/io/object_json.cpp and lib/io/scenario_loader.cpp:
// parsing, the API server's validation texts, serialization and the globalDefault admission rule.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "io/object_json.hpp"
#include "unit/io/object_text.hpp"

namespace gpusched {
namespace {

Object parse(const std::string& text) {
  return test::parse_object_text(text);
}

IntOrPercent count(std::int32_t value) {
  return {value, false};
}
IntOrPercent percent(std::int32_t value) {
  return {value, true};
}

TEST_CASE("PriorityClass parses as scheduling.k8s.io/v1 writes it", "[io][policy]") {
  const Object object = parse(R"({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
      "metadata": {"name": "high", "namespace": "ignored", "labels": {"tier": "a"}},
      "value": 1000000, "globalDefault": true, "preemptionPolicy": "Never",
      "description": "batch jobs"})");
  const auto& pc = std::get<PriorityClass>(object);
  CHECK(kind_of(object) == "PriorityClass");
  CHECK(pc.metadata.name == "high");
  CHECK(pc.metadata.namespace_.empty());
  CHECK(pc.metadata.labels == Labels{{"tier", "a"}});
  CHECK(pc.value == 1000000);
  CHECK(pc.global_default);
  CHECK(pc.preemption_policy == "Never");
  CHECK(pc.description == "batch jobs");
  CHECK(ref_of(object).to_string() == "PriorityClass/high");
  CHECK_FALSE(is_namespaced("PriorityClass"));

  const PriorityClass bare =
      std::get<PriorityClass>(parse(R"({"kind": "PriorityClass", "metadata": {"name": "zero"}})"));
  CHECK(bare.value == 0);
  CHECK_FALSE(bare.global_default);
  CHECK(bare.preemption_policy.empty());
}

TEST_CASE("PodDisruptionBudget parses as policy/v1 writes it", "[io][policy]") {
  struct Row {
    const char* name;
    std::string spec;
    std::optional<LabelSelector> selector;
    std::optional<IntOrPercent> min_available;
    std::optional<IntOrPercent> max_unavailable;
  };
  LabelSelector app;
  app.match_labels = {{"app", "a"}};
  const std::vector<Row> rows = {
      {"minAvailable count", R"({"selector": {"matchLabels": {"app": "a"}}, "minAvailable": 2})",
       app, count(2), std::nullopt},
      {"minAvailable percentage", R"({"selector": {}, "minAvailable": "50%"})", LabelSelector{},
       percent(50), std::nullopt},
      {"maxUnavailable count", R"({"maxUnavailable": 0})", std::nullopt, std::nullopt, count(0)},
      {"maxUnavailable 100%", R"({"maxUnavailable": "100%"})", std::nullopt, std::nullopt,
       percent(100)},
      {"leading zeros", R"({"maxUnavailable": "007%"})", std::nullopt, std::nullopt, percent(7)},
      {"null selector", R"({"selector": null, "minAvailable": 1})", std::nullopt, count(1),
       std::nullopt},
      {"empty spec", R"({})", std::nullopt, std::nullopt, std::nullopt},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const Object object = parse(R"({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                    "metadata": {"name": "b"}, "spec": )" +
                                  row.spec + "}");
      const auto& pdb = std::get<PodDisruptionBudget>(object);
      CHECK(pdb.metadata.namespace_ == "default");
      CHECK(pdb.selector == row.selector);
      CHECK(pdb.min_available == row.min_available);
      CHECK(pdb.max_unavailable == row.max_unavailable);
      CHECK(ref_of(object).to_string() == "PodDisruptionBudget/default/b");
    }
  }
}

TEST_CASE("PriorityClass and PodDisruptionBudget survive parse -> to_json -> parse",
          "[io][policy]") {
  const std::vector<std::string> rows = {
      R"({"kind": "PriorityClass", "metadata": {"name": "a"}, "value": -5})",
      R"({"kind": "PriorityClass", "metadata": {"name": "b", "annotations": {"x": "y"}},
          "value": 1000000000, "globalDefault": true, "preemptionPolicy": "PreemptLowerPriority",
          "description": "d"})",
      R"({"kind": "PriorityClass", "metadata": {"name": "system-node-critical"},
          "value": 2000001000})",
      R"({"kind": "PodDisruptionBudget", "metadata": {"name": "p", "namespace": "ns"},
          "spec": {"selector": {"matchLabels": {"app": "a"},
                                "matchExpressions": [{"key": "t", "operator": "Exists"}]},
                   "minAvailable": "30%"}})",
      R"({"kind": "PodDisruptionBudget", "metadata": {"name": "p"},
          "spec": {"selector": {}, "maxUnavailable": 1}})",
      R"({"kind": "PodDisruptionBudget", "metadata": {"name": "p"}, "spec": {}})",
  };
  for (const std::string& text : rows) {
    const Object object = parse(text);
    const std::string json = io::to_json_text(object);
    INFO(json);
    CHECK(parse(json) == object);
  }
  const nlohmann::json pc = io::to_json(parse(rows[1]));
  CHECK(pc["apiVersion"] == "scheduling.k8s.io/v1");
  CHECK(pc["value"] == 1000000000);
  CHECK(pc["globalDefault"] == true);
  CHECK(pc["preemptionPolicy"] == "PreemptLowerPriority");
  CHECK(pc["description"] == "d");
  const nlohmann::json pdb = io::to_json(parse(rows[3]));
  CHECK(pdb["apiVersion"] == "policy/v1");
  CHECK(pdb["spec"]["minAvailable"] == "30%");
  CHECK(io::to_json(parse(rows[4]))["spec"]["maxUnavailable"] == 1);
  CHECK(io::to_json(parse(rows[4]))["spec"]["selector"] == nlohmann::json::object());
  CHECK_FALSE(io::to_json(parse(rows[5]))["spec"].contains("selector"));
}

TEST_CASE("merge patches apply to PriorityClass and PodDisruptionBudget", "[io][policy]") {
  const Object pdb = parse(R"({"kind": "PodDisruptionBudget", "metadata": {"name": "p"},
      "spec": {"selector": {}, "minAvailable": 1}})");
  const Object patched = io::apply_merge_patch(
      pdb, R"({"spec": {"minAvailable": null, "maxUnavailable": "25%", "selector": null}})",
      "s.json", "/timeline/0");
  const auto& after = std::get<PodDisruptionBudget>(patched);
  CHECK_FALSE(after.min_available);
  CHECK(after.max_unavailable == percent(25));
  CHECK_FALSE(after.selector);

  const Object pc = parse(R"({"kind": "PriorityClass", "metadata": {"name": "a"}, "value": 3})");
  const Object pc_after =
      io::apply_merge_patch(pc, R"({"description": "x"})", "s.json", "/timeline/1");
  CHECK(std::get<PriorityClass>(pc_after).description == "x");
  CHECK(std::get<PriorityClass>(pc_after).value == 3);
}

struct ErrorRow {
  const char* name;
  std::string object;
  std::string pointer;
  std::string reason;
};

TEST_CASE("PriorityClass and PodDisruptionBudget validation in the API server's words",
          "[io][policy]") {
  const std::string both_set_spec =
      "policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(1), "
      "Selector:(*v1.LabelSelector)(nil), MaxUnavailable:(*intstr.IntOrString)(\"10%\"), "
      "UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}";
  const std::string percent_regex =
      "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%' or "
      "'93%', regex used for validation is '[0-9]+%')";
  const std::vector<ErrorRow> rows = {
      // pkg/apis/scheduling/validation/validation.go ValidatePriorityClass.
      {"user value above 1e9",
       R"({"kind": "PriorityClass", "metadata": {"name": "huge"}, "value": 1000000001})", "/value",
       "The PriorityClass \"huge\" is invalid: value: Forbidden: maximum allowed value of a user "
       "defined priority is 1000000000"},
      {"unknown system- name",
       R"({"kind": "PriorityClass", "metadata": {"name": "system-foo"}, "value": 5})",
       "/metadata/name",
       "The PriorityClass \"system-foo\" is invalid: metadata.name: Forbidden: priority class "
       "names with 'system-' prefix are reserved for system use only. error: system-foo is not a "
       "known system priority class"},
      {"system class with another value",
       R"({"kind": "PriorityClass", "metadata": {"name": "system-cluster-critical"}, "value": 5})",
       "/metadata/name",
       "The PriorityClass \"system-cluster-critical\" is invalid: metadata.name: Forbidden: "
       "priority class names with 'system-' prefix are reserved for system use only. error: "
       "value of system-cluster-critical PriorityClass must be 2000000000"},
      {"system class marked default",
       R"({"kind": "PriorityClass", "metadata": {"name": "system-node-critical"},
           "value": 2000001000, "globalDefault": true})",
       "/metadata/name",
       "The PriorityClass \"system-node-critical\" is invalid: metadata.name: Forbidden: "
       "priority class names with 'system-' prefix are reserved for system use only. error: "
       "globalDefault of system-node-critical PriorityClass must be false"},
      {"unsupported preemptionPolicy",
       R"({"kind": "PriorityClass", "metadata": {"name": "a"}, "preemptionPolicy": "Always"})",
       "/preemptionPolicy",
       "The PriorityClass \"a\" is invalid: preemptionPolicy: Unsupported value: \"Always\": "
       "supported values: \"PreemptLowerPriority\", \"Never\""},
      {"empty preemptionPolicy",
       R"({"kind": "PriorityClass", "metadata": {"name": "a"}, "preemptionPolicy": ""})",
       "/preemptionPolicy", "The PriorityClass \"a\" is invalid: preemptionPolicy: Required value"},
      {"value beyond int32",
       R"({"kind": "PriorityClass", "metadata": {"name": "a"}, "value": 3000000000})", "/value",
       "must be between -2147483648 and 2147483647, got 3000000000"},
      {"PriorityClass wrong apiVersion",
       R"({"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PriorityClass",
           "metadata": {"name": "a"}})",
       "/apiVersion",
       "apiVersion \"scheduling.k8s.io/v1beta1\" does not serve kind PriorityClass; use "
       "\"scheduling.k8s.io/v1\""},
      // pkg/apis/policy/validation/validation.go ValidatePodDisruptionBudgetSpec.
      {"both set",
       R"({"kind": "PodDisruptionBudget", "metadata": {"name": "b"},
           "spec": {"minAvailable": 1, "maxUnavailable": "10%"}})",
       "/spec",
       "The PodDisruptionBudget \"b\" is invalid: spec: Invalid value: " + both_set_spec +
           ": minAvailable and maxUnavailable cannot be both set"},
      {"negative minAvailable",
       R"({"kind": "PodDisruptionBudget", "metadata": {"name": "b"},
           "spec": {"minAvailable": -1}})",
       "/spec/minAvailable",
       "The PodDisruptionBudget \"b\" is invalid: spec.minAvailable: Invalid value: -1: must be "
       "greater than or equal to 0"},
      {"minAvailable above 100%",
       R"({"kind": "PodDisruptionBudget", "metadata": {"name": "b"},
           "spec": {"minAvailable": "101%"}})",
       "/spec/minAvailable",
       "The PodDisruptionBudget \"b\" is invalid: spec.minAvailable: Invalid value: "
       "intstr.IntOrString{Type:1, IntVal:0, StrVal:\"101%\"}: must not be greater than 100%"},
      {"huge percentage",
       R"({"kind": "PodDisruptionBudget", "metadata": {"name": "b"},
           "spec": {"maxUnavailable": "99999999999%"}})",
       "/spec/maxUnavailable",
       "The PodDisruptionBudget \"b\" is invalid: spec.maxUnavailable: Invalid value: "
       "intstr.IntOrString{Type:1, IntVal:0, StrVal:\"99999999999%\"}: must not be greater than "
       "100%"},
      {"numeric string",
       R"({"kind": "PodDisruptionBudget", "metadata": {"name": "b"},
           "spec": {"maxUnavailable": "5"}})",
       "/spec/maxUnavailable",
       "The PodDisruptionBudget \"b\" is invalid: spec.maxUnavailable: Invalid value: "
       "intstr.IntOrString{Type:1, IntVal:0, StrVal:\"5\"}: " +
           percent_regex},
      {"negative percentage",
       R"({"kind": "PodDisruptionBudget", "metadata": {"name": "b"},
           "spec": {"minAvailable": "-5%"}})",
       "/spec/minAvailable",
       "The PodDisruptionBudget \"b\" is invalid: spec.minAvailable: Invalid value: "
       "intstr.IntOrString{Type:1, IntVal:0, StrVal:\"-5%\"}: " +
           percent_regex},
      {"boolean minAvailable",
       R"({"kind": "PodDisruptionBudget", "metadata": {"name": "b"},
           "spec": {"minAvailable": true}})",
       "/spec/minAvailable", "expected an integer or a percentage such as \"50%\", got boolean"},
      {"bad selector operator",
       R"({"kind": "PodDisruptionBudget", "metadata": {"name": "b"},
           "spec": {"selector": {"matchExpressions": [{"key": "a", "operator": "Gt",
                                                       "values": ["1"]}]}}})",
       "/spec/selector/matchExpressions/0/operator",
       "The PodDisruptionBudget \"b\" is invalid: spec.selector.matchExpressions[0].operator: "
       "Invalid value: \"Gt\": not a valid selector operator"},
      {"bad selector label value",
       R"({"kind": "PodDisruptionBudget", "metadata": {"name": "b"},
           "spec": {"selector": {"matchLabels": {"app": "-x"}}}})",
       "/spec/selector/matchLabels/app",
       "The PodDisruptionBudget \"b\" is invalid: spec.selector.matchLabels: Invalid value: "
       "\"-x\": a valid label value must be an empty string or consist of alphanumeric "
       "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
       "'MyValue',  or 'my_value',  or '12345', regex used for validation is "
       "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
      {"PodDisruptionBudget policy/v1beta1",
       R"({"apiVersion": "policy/v1beta1", "kind": "PodDisruptionBudget",
           "metadata": {"name": "b"}})",
       "/apiVersion",
       "apiVersion \"policy/v1beta1\" does not serve kind PodDisruptionBudget; use \"policy/v1\""},
  };
  for (const ErrorRow& row : rows) {
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

TEST_CASE("a scenario may hold one globalDefault PriorityClass", "[io][policy]") {
  const std::string pc_a =
      R"({"kind": "PriorityClass", "metadata": {"name": "a"}, "value": 10, "globalDefault": true})";
  const std::string pc_b =
      R"({"kind": "PriorityClass", "metadata": {"name": "b"}, "value": 5, "globalDefault": true})";
  const std::string pc_c = R"({"kind": "PriorityClass", "metadata": {"name": "c"}, "value": 1})";
  const std::string text =
      "{\"name\": \"t\",\n\"cluster\": [\n" + pc_a + ",\n" + pc_c + ",\n" + pc_b + "\n]}";
  try {
    (void)io::parse_scenario(text, "s.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.pointer() == "/cluster/2/globalDefault");
    CHECK(e.line() == 5);
    // plugin/pkg/admission/priority/admission.go validatePriorityClass.
    CHECK(e.reason() ==
          "priorityclasses.scheduling.k8s.io \"b\" is forbidden: PriorityClass a is already "
          "marked as default. Only one default can exist");
  }
  const Scenario ok =
      io::parse_scenario("{\"name\": \"t\", \"cluster\": [" + pc_a + ", " + pc_c + "]}", "s.json");
  CHECK(ok.cluster.size() == 2);
}

TEST_CASE("timeline references accept the policy kinds", "[io][policy]") {
  const Scenario s = io::parse_scenario(R"({"name": "t", "timeline": [
      {"at": "1s", "delete": {"kind": "PriorityClass", "name": "a"}},
      {"at": "2s", "delete": {"kind": "PodDisruptionBudget", "name": "b"}}]})",
                                        "s.json");
  REQUIRE(s.timeline.size() == 2);
  try {
    (void)io::parse_scenario(R"({"name": "t", "timeline": [
        {"at": "1s", "delete": {"kind": "PriorityClass", "namespace": "x", "name": "a"}}]})",
                             "s.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.reason() == "a PriorityClass has no namespace");
  }
}

}  // namespace
}  // namespace gpusched
