// Kueue's validating pod webhook at load (lib/io/kueue_pod_webhook.cpp), ported from Kueue
// v0.19.2 pkg/controller/jobs/pod/pod_webhook_test.go TestValidateCreate: what vpod.kb.io
// refuses is an input error at the field, with its text.
#include <catch2/catch.hpp>

#include <string>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"

namespace gpusched {
namespace {

constexpr const char* kPodIntegration =
    R"("kueue": {"configuration": {"integrations": {"frameworks": ["batch/job", "pod"]}}})";

std::string scenario(const std::string& metadata, const char* kueue = kPodIntegration) {
  return std::string(R"({"name": "w", )") + kueue +
         R"(, "cluster": [{"kind": "Pod", "metadata": )" + metadata +
         R"(, "spec": {"containers": [{"name": "c"}]}}]})";
}

TEST_CASE("the pod webhook refuses bad pod-group metadata as Kueue does", "[io][kueue][pod]") {
  const std::string both =
      "both the 'kueue.x-k8s.io/pod-group-total-count' annotation and the "
      "'kueue.x-k8s.io/pod-group-name' label should be set";
  struct Row {
    const char* name;  // TestValidateCreate's case
    std::string metadata;
    std::string pointer;
    std::string reason;
  };
  const Row rows[] = {
      {"pod with group name and no group total count",
       R"({"name": "p", "labels": {"kueue.x-k8s.io/pod-group-name": "test-group"}})",
       "/cluster/0/metadata/labels/kueue.x-k8s.io~1pod-group-name",
       "metadata.annotations[kueue.x-k8s.io/pod-group-total-count]: Required value: " + both},
      {"pod with group total count and no group name",
       R"({"name": "p", "annotations": {"kueue.x-k8s.io/pod-group-total-count": "3"}})",
       "/cluster/0/metadata/annotations/kueue.x-k8s.io~1pod-group-total-count",
       "metadata.labels[kueue.x-k8s.io/pod-group-name]: Required value: " + both},
      {"pod with 0 group total count",
       R"({"name": "p", "labels": {"kueue.x-k8s.io/pod-group-name": "test-group"},
           "annotations": {"kueue.x-k8s.io/pod-group-total-count": "0"}})",
       "/cluster/0/metadata/annotations/kueue.x-k8s.io~1pod-group-total-count",
       "metadata.annotations[kueue.x-k8s.io/pod-group-total-count]: Invalid value: \"0\": "
       "incorrect annotation value 'kueue.x-k8s.io/pod-group-total-count=0': group total count "
       "should be greater than zero"},
      {"pod with empty group total count",
       R"({"name": "p", "labels": {"kueue.x-k8s.io/pod-group-name": "test-group"},
           "annotations": {"kueue.x-k8s.io/pod-group-total-count": ""}})",
       "/cluster/0/metadata/annotations/kueue.x-k8s.io~1pod-group-total-count",
       "metadata.annotations[kueue.x-k8s.io/pod-group-total-count]: Invalid value: \"\": "
       "strconv.Atoi: parsing \"\": invalid syntax"},
      {"pod with incorrect group name",
       R"({"name": "p", "labels": {"kueue.x-k8s.io/pod-group-name": "Not-a-subdomain"},
           "annotations": {"kueue.x-k8s.io/pod-group-total-count": "2"}})",
       "/cluster/0/metadata/labels/kueue.x-k8s.io~1pod-group-name",
       "metadata.labels[kueue.x-k8s.io/pod-group-name]: Invalid value: \"Not-a-subdomain\": a "
       "lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
       "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
       "used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {"managed label value", R"({"name": "p", "labels": {"kueue.x-k8s.io/managed": "yes"}})",
       "/cluster/0/metadata/labels/kueue.x-k8s.io~1managed",
       "metadata.labels[kueue.x-k8s.io/managed]: Forbidden: managed label value can only be "
       "'true'"},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      try {
        (void)io::parse_scenario(scenario(row.metadata), "w.json");
        FAIL("accepted");
      } catch (const InputError& e) {
        CHECK(e.pointer() == row.pointer);
        CHECK(e.reason() == "admission webhook \"vpod.kb.io\" denied the request: " + row.reason);
      }
    }
  }
}

TEST_CASE("the pod webhook sees only what the pod integration and its namespaces cover",
          "[io][kueue][pod]") {
  const std::string bad =
      R"({"name": "p", "labels": {"kueue.x-k8s.io/pod-group-name": "test-group"}})";
  // Without "pod" in integrations.frameworks the webhook is a no-op.
  CHECK_NOTHROW(io::parse_scenario(
      scenario(bad, R"("kueue": {"configuration": {"kind": "Configuration"}})"), "w.json"));
  // The webhook's namespaceSelector leaves out kube-system and kueue-system.
  CHECK_NOTHROW(io::parse_scenario(scenario(R"({"name": "p", "namespace": "kube-system",
                   "labels": {"kueue.x-k8s.io/pod-group-name": "test-group"}})"),
                                   "w.json"));
  // A timeline's pod is checked too, at its place.
  const std::string timeline = std::string(R"({"name": "w", )") + kPodIntegration +
                               R"(, "timeline": [{"at": "1s", "apply": [{"kind": "Pod",
      "apiVersion": "v1", "metadata": )" +
                               bad + R"(, "spec": {"containers": [{"name": "c"}]}}]}]})";
  try {
    (void)io::parse_scenario(timeline, "w.json");
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.pointer() == "/timeline/0/apply/0/metadata/labels/kueue.x-k8s.io~1pod-group-name");
  }
}

}  // namespace
}  // namespace gpusched
