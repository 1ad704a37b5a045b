// spec.affinity.podAffinity / podAntiAffinity and the Namespace kind: parsing, the API
// server's validation words (pkg/apis/core/validation/validation.go validatePodAffinityTerm,
// validateWeightedPodAffinityTerms, validateMatchLabelKeysAndMismatchLabelKeys) and the
// parse -> to_json -> parse round trip.
#include <catch2/catch.hpp>
#include <string>
#include <variant>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "io/object_json.hpp"
#include "unit/io/object_text.hpp"

namespace gpusched {
namespace {

const char* const kAffinityObjects = R"({"name": "affinity", "cluster": [
  {"kind": "Namespace", "metadata": {"name": "team-a", "labels": {"team": "a"}}},
  {"kind": "Pod", "metadata": {"name": "p", "namespace": "team-a", "labels": {"app": "web"}},
   "spec": {"containers": [{"name": "c"}],
            "affinity": {
              "podAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                  {"labelSelector": {"matchLabels": {"app": "cache"}},
                   "namespaces": ["default"], "topologyKey": "topology.kubernetes.io/zone"}],
                "preferredDuringSchedulingIgnoredDuringExecution": [
                  {"weight": 30, "podAffinityTerm": {
                     "labelSelector": {"matchExpressions": [
                       {"key": "tier", "operator": "In", "values": ["db"]}]},
                     "namespaceSelector": {}, "topologyKey": "kubernetes.io/hostname"}}]},
              "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                  {"labelSelector": {"matchLabels": {"app": "web"}},
                   "namespaceSelector": {"matchLabels": {"team": "a"}},
                   "topologyKey": "kubernetes.io/hostname",
                   "matchLabelKeys": ["pod-template-hash"], "mismatchLabelKeys": ["tenant"]}]}}}},
  {"kind": "Deployment", "metadata": {"name": "d"},
   "spec": {"replicas": 1, "template": {"metadata": {"labels": {"app": "d"}},
     "spec": {"containers": [{}], "affinity": {"podAntiAffinity": {
       "requiredDuringSchedulingIgnoredDuringExecution": [
         {"labelSelector": {"matchLabels": {"app": "d"}},
          "topologyKey": "kubernetes.io/hostname"}]}}}}}}
]})";

TEST_CASE("pod affinity and Namespace survive parse -> to_json -> parse", "[io][affinity]") {
  const Scenario s = io::parse_scenario(kAffinityObjects, "affinity.json");
  REQUIRE(s.cluster.size() == 3);
  for (const Object& object : s.cluster) {
    const std::string text = io::to_json_text(object);
    INFO(text);
    CHECK(test::parse_object_text(text) == object);
  }
  const auto& ns = std::get<Namespace>(s.cluster[0]);
  // SetDefaults_Namespace.
  CHECK(ns.metadata.labels == Labels{{"kubernetes.io/metadata.name", "team-a"}, {"team", "a"}});
  CHECK(ns.metadata.namespace_.empty());
  const auto& pod = std::get<Pod>(s.cluster[1]);
  REQUIRE(pod.spec.affinity->pod_affinity);
  REQUIRE(pod.spec.affinity->pod_affinity->required.size() == 1);
  CHECK(pod.spec.affinity->pod_affinity->required[0].namespaces ==
        std::vector<std::string>{"default"});
  REQUIRE(pod.spec.affinity->pod_affinity->preferred.size() == 1);
  CHECK(pod.spec.affinity->pod_affinity->preferred[0].weight == 30);
  CHECK(pod.spec.affinity->pod_affinity->preferred[0].term.namespace_selector == LabelSelector{});
  REQUIRE(pod.spec.affinity->pod_anti_affinity);
  const PodAffinityTerm& anti = pod.spec.affinity->pod_anti_affinity->required[0];
  CHECK(anti.match_label_keys == std::vector<std::string>{"pod-template-hash"});
  CHECK(anti.mismatch_label_keys == std::vector<std::string>{"tenant"});
}

struct ErrorRow {
  const char* name;
  std::string affinity;  // the value of spec.affinity
  std::string pointer;
  std::string reason;
};

std::string pod_with_affinity(const std::string& affinity) {
  return "{\"name\": \"t\",\n\"cluster\": [\n{\"kind\": \"Pod\", \"metadata\": {\"name\": \"p\"},"
         " \"spec\": {\"containers\": [{\"name\": \"c\"}], \"affinity\": " +
         affinity + "}}\n]}";
}

TEST_CASE("pod affinity is validated in the API server's words", "[io][affinity]") {
  const std::string req =
      "/cluster/0/spec/affinity/podAffinity/"
      "requiredDuringSchedulingIgnoredDuringExecution/0";
  const std::string anti_pref =
      "/cluster/0/spec/affinity/podAntiAffinity/"
      "preferredDuringSchedulingIgnoredDuringExecution/0";
  const std::string prefix = "The Pod \"p\" is invalid: ";
  const std::string req_path =
      "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]";
  const std::string anti_pref_path =
      "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]";
  const std::vector<ErrorRow> rows = {
      {"missing topologyKey",
       R"({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
           {"labelSelector": {"matchLabels": {"a": "b"}}}]}})",
       req + "/topologyKey", prefix + req_path + ".topologyKey: Required value: can not be empty"},
      {"empty topologyKey",
       R"({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
           {"topologyKey": ""}]}})",
       req + "/topologyKey", prefix + req_path + ".topologyKey: Required value: can not be empty"},
      {"invalid topologyKey",
       R"({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
           {"topologyKey": "a b"}]}})",
       req + "/topologyKey",
       prefix + req_path +
           ".topologyKey: Invalid value: \"a b\": name part must consist of alphanumeric "
           "characters, '-', '_' or '.', and must start and end with an alphanumeric character "
           "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
           "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
      {"weight out of range",
       R"({"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
           {"weight": 0, "podAffinityTerm": {"topologyKey": "zone"}}]}})",
       anti_pref + "/weight",
       prefix + anti_pref_path + ".weight: Invalid value: 0: must be in the range 1-100"},
      {"preferred term without topologyKey",
       R"({"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
           {"weight": 10, "podAffinityTerm": {}}]}})",
       anti_pref + "/podAffinityTerm/topologyKey",
       prefix + anti_pref_path + ".podAffinityTerm.topologyKey: Required value: can not be empty"},
      {"invalid namespace",
       R"({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
           {"namespaces": ["Bad_NS"], "topologyKey": "zone"}]}})",
       req + "/namespaces/0",
       prefix + req_path +
           ".namespace: Invalid value: \"Bad_NS\": a lowercase RFC 1123 label must consist of "
           "lower case alphanumeric characters or '-', and must start and end with an "
           "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
           "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
      {"matchLabelKeys without labelSelector",
       R"({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
           {"matchLabelKeys": ["x"], "topologyKey": "zone"}]}})",
       req + "/matchLabelKeys",
       prefix + req_path +
           ".matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"},
      {"key in both matchLabelKeys and mismatchLabelKeys",
       R"({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
           {"labelSelector": {}, "matchLabelKeys": ["x"], "mismatchLabelKeys": ["x"],
            "topologyKey": "zone"}]}})",
       req + "/matchLabelKeys/0",
       prefix + req_path +
           ".matchLabelKeys[0]: Invalid value: \"x\": exists in both matchLabelKeys and "
           "mismatchLabelKeys"},
      {"label selector operator",
       R"({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
           {"labelSelector": {"matchExpressions": [{"key": "a", "operator": "Gt",
             "values": ["1"]}]}, "topologyKey": "zone"}]}})",
       req + "/labelSelector/matchExpressions/0/operator",
       prefix + req_path +
           ".labelSelector.matchExpressions[0].operator: Invalid value: \"Gt\": not a valid "
           "selector operator"},
  };
  for (const ErrorRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      try {
        (void)io::parse_scenario(pod_with_affinity(row.affinity), "s.json");
        FAIL("no error for " << row.name);
      } catch (const InputError& e) {
        CHECK(e.pointer() == row.pointer);
        CHECK(e.reason() == row.reason);
      }
    }
  }
}

TEST_CASE("Namespace names are DNS-1123 labels", "[io][affinity]") {
  try {
    (void)io::parse_scenario(
        R"({"name": "t", "cluster": [{"kind": "Namespace", "metadata": {"name": "a.b"}}]})",
        "s.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.pointer() == "/cluster/0/metadata/name");
    CHECK(e.reason() ==
          "The Namespace \"a.b\" is invalid: metadata.name: Invalid value: \"a.b\": must not "
          "contain dots");
  }
}

}  // namespace
}  // namespace gpusched
