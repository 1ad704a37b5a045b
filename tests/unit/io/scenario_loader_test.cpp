#include "gpusched/io/scenario_loader.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_writer.hpp"

namespace gpusched {
namespace {

/// A scenario whose only object is a Pod "p" with `resources` written on line 11.
std::string pod_with_resources(const std::string& resources) {
  return R"({
  "name": "t",
  "cluster": [
    {
      "kind": "Pod",
      "metadata": {"name": "p"},
      "spec": {
        "containers": [
          {
            "name": "c",
            "resources": )" +
         resources + R"(
          }
        ]
      }
    }
  ]
})";
}

/// A scenario with `objects` (JSON text of the cluster array's items) starting on line 3.
std::string with_cluster(const std::string& objects) {
  return "{\"name\": \"t\",\n\"cluster\": [\n" + objects + "\n]}";
}

/// A scenario with `actions` starting on line 3.
std::string with_timeline(const std::string& actions) {
  return "{\"name\": \"t\",\n\"timeline\": [\n" + actions + "\n]}";
}

std::string with_scheduler(const std::string& scheduler) {
  return "{\"name\": \"t\",\n\"scheduler\": " + scheduler + "}";
}

constexpr const char* kPod =
    R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}]}})";
constexpr const char* kNode =
    R"({"kind": "Node", "metadata": {"name": "w1"}, "status": {"capacity": {"cpu": "4"}}})";

struct ErrorRow {
  const char* name;
  std::string text;
  std::string pointer;
  int line;
  std::string reason;
};

std::string deep_nesting(int depth) {
  return "{\"name\": \"t\", \"description\": " + std::string(static_cast<std::size_t>(depth), '[') +
         std::string(static_cast<std::size_t>(depth), ']') + "}";
}

TEST_CASE("parse_scenario rejects bad input with file, pointer, line and reason", "[io]") {
  const std::vector<ErrorRow> rows = {
      {"empty file", "", "", 0, "file is empty"},
      {"only whitespace", " \n\t\n", "", 0, "file is empty"},
      {"binary garbage", std::string("\x89PNG\r\n\x1a\n\0\0", 10), "", 2,
       "binary data, not JSON text (byte 0x1a)"},
      {"truncated", "{\"name\": \"t\",\n\"cluster\": [", "", 2,
       "invalid JSON at column 13: unexpected end of input; expected '[', '{', or a literal"},
      {"trailing comma", "{\"name\": \"t\",\n\"until\": 5,\n}", "", 3,
       "invalid JSON at column 1: unexpected '}'; expected string literal"},
      {"bad literal", "{\"name\": tru}", "", 1, "invalid JSON at column 13: invalid literal"},
      // Found by tests/fuzz: nlohmann reports a number beyond a double's range as out_of_range.
      {"number overflow", "{\"name\": \"t\",\n\"until\": 1e999}", "", 2,
       "invalid JSON: number overflow parsing '1e999'"},
      {"top level array", "[1, 2]", "", 1, "a scenario must be a JSON object, got array"},
      {"too deep", deep_nesting(64), "", 1, "nesting deeper than 64 levels"},
      {"unknown top-level key", "{\"name\": \"t\",\n\"untill\": \"5m\"}", "/untill", 2,
       "unknown key \"untill\" (known keys: apiVersion, name, description, startTime, include, "
       "scheduler, devicePlugin, migConfigs, nvidiaDraDriver, nodePools, clusterAutoscaler, kueue, "
       "cluster, timeline, expect, until)"},
      {"unknown format version", "{\"apiVersion\": \"gpusched.io/v2\",\n\"name\": \"t\"}",
       "/apiVersion", 1,
       "apiVersion \"gpusched.io/v2\" is not a format this gpusched reads (gpusched.io/v1)"},
      {"missing name", "{\"cluster\": []}", "", 1, "missing required key \"name\""},
      {"name of wrong type", "{\"name\": 5}", "/name", 1, "expected a string, got number"},
      {"cluster not an array", "{\"name\": \"t\", \"cluster\": {}}", "/cluster", 1,
       "expected an array, got object"},
      {"kind not a string", with_cluster(R"({"kind": 5, "metadata": {"name": "s"}})"),
       "/cluster/0/kind", 3, "expected a string, got number"},
      {"wrong apiVersion", with_cluster(R"({"apiVersion": "apps/v1", "kind": "Pod"})"),
       "/cluster/0/apiVersion", 3, "apiVersion \"apps/v1\" does not serve kind Pod; use \"v1\""},
      {"missing metadata.name", with_cluster(R"({"kind": "Pod", "metadata": {}})"),
       "/cluster/0/metadata/name", 3,
       "The Pod \"\" is invalid: metadata.name: Required value: name or generateName is required"},
      {"invalid name", with_cluster(R"({"kind": "Node", "metadata": {"name": "W_1"}})"),
       "/cluster/0/metadata/name", 3,
       "The Node \"W_1\" is invalid: metadata.name: Invalid value: \"W_1\": a lowercase RFC 1123 "
       "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
       "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {"duplicate object", with_cluster(std::string(kPod) + ",\n" + kNode + ",\n" + kPod),
       "/cluster/2", 5, "duplicate Pod \"default/p\": also defined at /cluster/0"},
      {"no containers",
       with_cluster(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": []}})"),
       "/cluster/0/spec/containers", 3,
       "The Pod \"p\" is invalid: spec.containers: Required value"},
      {"malformed quantity", pod_with_resources(R"({"requests": {"cpu": "abc"}})"),
       "/cluster/0/spec/containers/0/resources/requests/cpu", 11,
       "The Pod \"p\" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "
       "\"abc\": quantities must match the regular expression "
       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
      {"quantity of wrong type", pod_with_resources(R"({"requests": {"cpu": true}})"),
       "/cluster/0/spec/containers/0/resources/requests/cpu", 11,
       "expected a quantity (a string such as \"500m\" or a number), got boolean"},
      {"negative quantity", pod_with_resources(R"({"requests": {"cpu": "-1"}})"),
       "/cluster/0/spec/containers/0/resources/requests/cpu", 11,
       "The Pod \"p\" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "
       "\"-1\": must be greater than or equal to 0"},
      {"gpu request differs from limit",
       pod_with_resources(
           R"({"limits": {"nvidia.com/gpu": 2}, "requests": {"nvidia.com/gpu": 1}})"),
       "/cluster/0/spec/containers/0/resources/requests", 11,
       "The Pod \"p\" is invalid: spec.containers[0].resources.requests: Invalid value: \"1\": "
       "must be equal to nvidia.com/gpu limit of 2"},
      {"fractional gpu", pod_with_resources(R"({"limits": {"nvidia.com/gpu": "500m"}})"),
       "/cluster/0/spec/containers/0/resources/limits/nvidia.com~1gpu", 11,
       "The Pod \"p\" is invalid: spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid "
       "value: 500m: must be an integer"},
      {"gpu request without limit", pod_with_resources(R"({"requests": {"nvidia.com/gpu": 1}})"),
       "/cluster/0/spec/containers/0/resources/limits", 11,
       "The Pod \"p\" is invalid: spec.containers[0].resources.limits: Required value: Limit must "
       "be set for non overcommitable resources"},
      {"negative node capacity", with_cluster(R"({"kind": "Node", "metadata": {"name": "w1"},
 "status": {"capacity": {"cpu": "-1"}}})"),
       "/cluster/0/status/capacity/cpu", 4,
       "The Node \"w1\" is invalid: status.capacity.cpu: Invalid value: \"-1\": must be greater "
       "than or equal to 0"},
      {"taint without effect", with_cluster(R"({"kind": "Node", "metadata": {"name": "w1"},
 "spec": {"taints": [{"key": "gpu"}]}})"),
       "/cluster/0/spec/taints/0/effect", 4,
       "The Node \"w1\" is invalid: spec.taints[0].effect: Required value"},
      {"taint with unknown effect", with_cluster(R"({"kind": "Node", "metadata": {"name": "w1"},
 "spec": {"taints": [{"key": "gpu", "effect": "NoScheduel"}]}})"),
       "/cluster/0/spec/taints/0/effect", 4,
       "The Node \"w1\" is invalid: spec.taints[0].effect: Unsupported value: \"NoScheduel\": "
       "supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""},
      {"toleration Exists with a value",
       with_cluster(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{}],
 "tolerations": [{"key": "gpu", "operator": "Exists", "value": "x", "effect": "NoSchedule"}]}})"),
       "/cluster/0/spec/tolerations/0/operator", 4,
       "The Pod \"p\" is invalid: spec.tolerations[0].operator: Invalid value: "
       "core.Toleration{Key:\"gpu\", Operator:\"Exists\", Value:\"x\", Effect:\"NoSchedule\", "
       "TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is 'Exists'"},
      {"toleration without key must use Exists",
       with_cluster(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{}],
 "tolerations": [{"operator": "Equal", "value": "x"}]}})"),
       "/cluster/0/spec/tolerations/0/operator", 4,
       "The Pod \"p\" is invalid: spec.tolerations[0].operator: Invalid value: \"Equal\": "
       "operator must be Exists when `key` is empty, which means \"match all values and all "
       "keys\""},
      {"Gt with two values",
       with_cluster(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{}],
 "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
  {"nodeSelectorTerms": [{"matchExpressions": [{"key": "gen", "operator": "Gt",
   "values": ["3", "4"]}]}]}}}}})"),
       "/cluster/0/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/"
       "nodeSelectorTerms/0/matchExpressions/0/values",
       6,
       "The Pod \"p\" is invalid: spec.affinity.nodeAffinity."
       "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]."
       "values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"},
      // labels.NewRequirement parses the whole value as an int64 (strconv.ParseInt): text that
      // only uses digits and '-' is not enough.
      {"Gt value with an inner minus",
       with_cluster(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{}],
 "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
  {"nodeSelectorTerms": [{"matchExpressions": [{"key": "gen", "operator": "Gt",
   "values": ["1-2"]}]}]}}}}})"),
       "/cluster/0/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/"
       "nodeSelectorTerms/0/matchExpressions/0/values/0",
       6,
       "The Pod \"p\" is invalid: spec.affinity.nodeAffinity."
       "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]."
       "values[0]: Invalid value: \"1-2\": for 'Gt', 'Lt' operators, the value must be an integer"},
      {"Gt value a lone minus",
       with_cluster(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{}],
 "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
  {"nodeSelectorTerms": [{"matchExpressions": [{"key": "gen", "operator": "Gt",
   "values": ["-"]}]}]}}}}})"),
       "/cluster/0/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/"
       "nodeSelectorTerms/0/matchExpressions/0/values/0",
       6,
       "The Pod \"p\" is invalid: spec.affinity.nodeAffinity."
       "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]."
       "values[0]: Invalid value: \"-\": for 'Gt', 'Lt' operators, the value must be an integer"},
      {"Gt value beyond int64",
       with_cluster(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{}],
 "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
  {"nodeSelectorTerms": [{"matchExpressions": [{"key": "gen", "operator": "Gt",
   "values": ["9223372036854775808"]}]}]}}}}})"),
       "/cluster/0/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/"
       "nodeSelectorTerms/0/matchExpressions/0/values/0",
       6,
       "The Pod \"p\" is invalid: spec.affinity.nodeAffinity."
       "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]."
       "values[0]: Invalid value: \"9223372036854775808\": for 'Gt', 'Lt' operators, the value "
       "must be an integer"},
      {"Gt value not a number",
       with_cluster(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{}],
 "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
  {"nodeSelectorTerms": [{"matchExpressions": [{"key": "gen", "operator": "Gt",
   "values": ["3x"]}]}]}}}}})"),
       "/cluster/0/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/"
       "nodeSelectorTerms/0/matchExpressions/0/values/0",
       6,
       "The Pod \"p\" is invalid: spec.affinity.nodeAffinity."
       "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]."
       "values[0]: Invalid value: \"3x\": for 'Gt', 'Lt' operators, the value must be an integer"},
      {"matchFields on a label",
       with_cluster(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{}],
 "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
  {"nodeSelectorTerms": [{"matchFields": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}}}})"),
       "/cluster/0/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/"
       "nodeSelectorTerms/0/matchFields/0/key",
       5,
       "The Pod \"p\" is invalid: spec.affinity.nodeAffinity."
       "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key: "
       "Invalid value: \"zone\": not a valid field selector key"},
      {"preferred weight out of range",
       with_cluster(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{}],
 "affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution":
  [{"weight": 0, "preference": {}}]}}}})"),
       "/cluster/0/spec/affinity/nodeAffinity/preferredDuringSchedulingIgnoredDuringExecution/0/"
       "weight",
       5,
       "The Pod \"p\" is invalid: spec.affinity.nodeAffinity."
       "preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in "
       "the range 1-100"},
      {"unknown restartPolicy",
       with_cluster(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{}],
 "restartPolicy": "Sometimes"}})"),
       "/cluster/0/spec/restartPolicy", 4,
       "The Pod \"p\" is invalid: spec.restartPolicy: Unsupported value: \"Sometimes\": supported "
       "values: \"Always\", \"OnFailure\", \"Never\""},
      {"negative grace period",
       with_cluster(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{}],
 "terminationGracePeriodSeconds": -1}})"),
       "/cluster/0/spec/terminationGracePeriodSeconds", 4,
       "The Pod \"p\" is invalid: spec.terminationGracePeriodSeconds: Invalid value: -1: must be "
       "greater than or equal to 0"},
      {"bad run-duration", with_cluster(R"({"kind": "Pod", "metadata": {"name": "p",
 "annotations": {"gpusched.io/run-duration": "soon"}}, "spec": {"containers": [{}]}})"),
       "/cluster/0/metadata/annotations/gpusched.io~1run-duration", 4,
       "The Pod \"p\" is invalid: metadata.annotations[gpusched.io/run-duration]: Invalid value: "
       "\"soon\": must be a duration such as \"180s\" or a number of seconds"},
      {"Job restarting Always", with_cluster(R"({"kind": "Job", "metadata": {"name": "j"},
 "spec": {"template": {"spec": {"containers": [{}]}}}})"),
       "/cluster/0/spec/template/spec/restartPolicy", 4,
       "The Job \"j\" is invalid: spec.template.spec.restartPolicy: Unsupported value: "
       "\"Always\": supported values: \"OnFailure\", \"Never\""},
      {"Deployment selector not matching",
       with_cluster(R"({"kind": "Deployment", "metadata": {"name": "d"},
 "spec": {"selector": {"matchLabels": {"app": "a"}},
  "template": {"metadata": {"labels": {"app": "b"}}, "spec": {"containers": [{}]}}}})"),
       "/cluster/0/spec/template/metadata/labels", 5,
       "The Deployment \"d\" is invalid: spec.template.metadata.labels: Invalid value: "
       "map[string]string{\"app\":\"b\"}: `selector` does not match template `labels`"},
      {"template pod spec error path",
       with_cluster(R"({"kind": "ReplicaSet", "metadata": {"name": "r"},
 "spec": {"template": {"metadata": {"labels": {"app": "a"}},
  "spec": {"containers": [{"resources": {"limits": {"cpu": "x"}}}]}}}})"),
       "/cluster/0/spec/template/spec/containers/0/resources/limits/cpu", 5,
       "The ReplicaSet \"r\" is invalid: spec.template.spec.containers[0].resources.limits[cpu]: "
       "Invalid value: \"x\": quantities must match the regular expression "
       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
      {"negative replicas", with_cluster(R"({"kind": "Deployment", "metadata": {"name": "d"},
 "spec": {"replicas": -1, "template": {"metadata": {"labels": {"app": "a"}},
  "spec": {"containers": [{}]}}}})"),
       "/cluster/0/spec/replicas", 4,
       "The Deployment \"d\" is invalid: spec.replicas: Invalid value: -1: must be greater than or "
       "equal to 0"},
      {"bad label value", with_cluster(R"({"kind": "Node", "metadata": {"name": "w1",
  "labels": {"zone": "a b"}}})"),
       "/cluster/0/metadata/labels/zone", 4,
       "The Node \"w1\" is invalid: metadata.labels: Invalid value: \"a b\": a valid label value "
       "must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
       "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
       "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
      {"unordered timeline",
       with_timeline("{\"at\": \"1m\", \"cordon\": \"w1\"},\n{\"at\": \"30s\", \"uncordon\": "
                     "\"w1\"}"),
       "/timeline/1/at", 4, "timeline is not in time order: 30s after 1m"},
      {"two verbs", with_timeline("{\"at\": 0, \"cordon\": \"w1\",\n \"uncordon\": \"w1\"}"),
       "/timeline/0/uncordon", 4,
       "an action has exactly one verb, got \"cordon\" and \"uncordon\""},
      {"no verb", with_timeline("{\"at\": 0}"), "/timeline/0", 3,
       "an action needs one verb: apply, delete, patch, cordon, uncordon, scale or gpuHealth"},
      {"bad duration", with_timeline("{\"at\": \"5 minutes\", \"cordon\": \"w1\"}"),
       "/timeline/0/at", 3, "time: unknown unit \" minutes\" in duration \"5 minutes\""},
      {"negative seconds", with_timeline("{\"at\": -1, \"cordon\": \"w1\"}"), "/timeline/0/at", 3,
       "invalid time -1: a number of seconds must be non-negative, with at most 3 decimals"},
      {"too precise seconds", with_timeline("{\"at\": 0.0005, \"cordon\": \"w1\"}"),
       "/timeline/0/at", 3,
       "invalid time 0.0005: a number of seconds must be non-negative, with at most 3 decimals"},
      {"invalid applied object",
       with_timeline(
           "{\"at\": 0, \"apply\": [\n" + std::string(kNode) + ",\n" +
           R"({"kind": "Pod", "metadata": {"name": "q"}, "spec": {"containers": [{"resources": {"requests": {"nvidia.com/gpu": 1}}}]}})" +
           "]}"),
       "/timeline/0/apply/1/spec/containers/0/resources/limits", 5,
       "The Pod \"q\" is invalid: spec.containers[0].resources.limits: Required value: Limit must "
       "be set for non overcommitable resources"},
      {"scale of a Job",
       with_timeline(R"({"at": 0, "scale": {"kind": "Job", "name": "j", "replicas": 2}})"),
       "/timeline/0/scale/kind", 3,
       "scale applies to a Deployment, a ReplicaSet or a StatefulSet, not a Job"},
      {"patch without merge",
       with_timeline(R"({"at": 0, "patch": {"kind": "Node", "name": "w1"}})"), "/timeline/0/patch",
       3, "missing required key \"merge\""},
      {"expectation after until",
       "{\"name\": \"t\", \"until\": \"10m\",\n\"expect\": [{\"at\": \"20m\", \"pod\": \"p\", "
       "\"phase\": \"Running\"}]}",
       "/expect/0/at", 2, "at 20m is after until 10m"},
      {"unknown phase", "{\"name\": \"t\",\n\"expect\": [{\"pod\": \"p\", \"phase\": \"Runing\"}]}",
       "/expect/0/phase", 2,
       "unknown phase \"Runing\" (known phases: Pending, Running, Succeeded, Failed, Unknown, "
       "Absent)"},
      {"assertion with two forms",
       "{\"name\": \"t\",\n\"expect\": [{\"pod\": \"p\", \"event\": {\"reason\": \"x\"}}]}",
       "/expect/0", 2,
       "an assertion has exactly one of \"pod\", \"pods\", \"event\", \"pdb\", \"workload\", "
       "\"clusterQueue\", \"podGroup\", \"claim\""},
      {"podGroup assertion without a namespace",
       "{\"name\": \"t\",\n\"expect\": [{\"podGroup\": \"train\"}]}", "/expect/0/podGroup", 2,
       "a PodGroup is named \"namespace/name\""},
      {"bad Kubernetes version", with_scheduler(R"({"kubernetesVersion": "1.20"})"),
       "/scheduler/kubernetesVersion", 2,
       "unsupported Kubernetes version \"1.20\": minor release not supported; supported versions "
       "are 1.33, 1.34, 1.35, 1.36 (optionally with a patch, e.g. \"1.34.2\")"},
      {"negative seed", with_scheduler(R"({"seed": -1})"), "/scheduler/seed", 2,
       "must be a non-negative integer, got -1"},
      {"percentage out of range", with_scheduler(R"({"percentageOfNodesToScore": 101})"),
       "/scheduler/percentageOfNodesToScore", 2,
       "percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"},
      {"max backoff below initial",
       with_scheduler(R"({"podInitialBackoffSeconds": 5, "podMaxBackoffSeconds": 2})"),
       "/scheduler/podMaxBackoffSeconds", 2,
       "podMaxBackoffSeconds: Invalid value: 2: must be greater than or equal to "
       "PodInitialBackoffSeconds"},
      {"unknown plugin",
       with_scheduler(
           R"({"profiles": [{"plugins": {"score": {"enabled": [{"name": "NodeResourceFit"}]}}}]})"),
       "/scheduler/profiles/0/plugins/score/enabled/0/name", 2,
       "profiles[0].plugins.score.enabled[0].name: Invalid value: \"NodeResourceFit\": unknown "
       "plugin"},
      {"resource weight out of range",
       with_scheduler(R"({"profiles": [{"pluginConfig": [{"name": "NodeResourcesFit", "args":
 {"scoringStrategy": {"type": "MostAllocated", "resources": [{"name": "cpu", "weight": 101}]}}}]}]})"),
       "/scheduler/profiles/0/pluginConfig/0/args/scoringStrategy/resources/0/weight", 3,
       "profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight: Invalid value: 101: "
       "resource weight of cpu not in valid range (0, 100]"},
      {"unsupported scoring type",
       with_scheduler(R"({"profiles": [{"pluginConfig": [{"name": "NodeResourcesFit", "args":
 {"scoringStrategy": {"type": "Balanced"}}}]}]})"),
       "/scheduler/profiles/0/pluginConfig/0/args/scoringStrategy/type", 3,
       "profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value: \"Balanced\": "
       "supported values: \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\""},
      {"shape not increasing",
       with_scheduler(R"({"profiles": [{"pluginConfig": [{"name": "NodeResourcesFit", "args":
 {"scoringStrategy": {"type": "RequestedToCapacityRatio", "requestedToCapacityRatio":
  {"shape": [{"utilization": 50, "score": 0}, {"utilization": 50, "score": 10}]}}}}]}]})"),
       "/scheduler/profiles/0/pluginConfig/0/args/scoringStrategy/requestedToCapacityRatio/shape/1/"
       "utilization",
       4,
       "profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio.shape[1]."
       "utilization: Invalid value: 50: values must be sorted in increasing order"},
      {"shape score above 10",
       with_scheduler(R"({"profiles": [{"pluginConfig": [{"name": "NodeResourcesFit", "args":
 {"scoringStrategy": {"type": "RequestedToCapacityRatio", "requestedToCapacityRatio":
  {"shape": [{"utilization": 0, "score": 11}]}}}}]}]})"),
       "/scheduler/profiles/0/pluginConfig/0/args/scoringStrategy/requestedToCapacityRatio/shape/0/"
       "score",
       4,
       "profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio.shape[0].score: "
       "Invalid value: 11: not in valid range [0, 10]"},
      {"preemption both zero",
       with_scheduler(R"({"profiles": [{"pluginConfig": [{"name": "DefaultPreemption", "args":
 {"minCandidateNodesPercentage": 0, "minCandidateNodesAbsolute": 0}}]}]})"),
       "/scheduler/profiles/0/pluginConfig/0/args/minCandidateNodesPercentage", 3,
       "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 0: cannot be "
       "zero at the same time as minCandidateNodesAbsolute"},
      {"balanced allocation weight",
       with_scheduler(R"({"profiles": [{"pluginConfig": [{"name": "NodeResourcesBalancedAllocation",
 "args": {"resources": [{"name": "nvidia.com/gpu", "weight": 2}]}}]}]})"),
       "/scheduler/profiles/0/pluginConfig/0/args/resources/0/weight", 3,
       "profiles[0].pluginConfig[0].args.resources[0].weight: Invalid value: 2: must be 1"},
      {"unknown scheduler key", with_scheduler(R"({"sead": 1})"), "/scheduler/sead", 2,
       "unknown key \"sead\" (known keys: apiVersion, kind, seed, kubernetesVersion, "
       "featureGates, percentageOfNodesToScore, podInitialBackoffSeconds, podMaxBackoffSeconds, "
       "profiles, parallelism, leaderElection, clientConnection, healthzBindAddress, "
       "metricsBindAddress, enableProfiling, enableContentionProfiling, delayCacheUntilActive, "
       "extenders)"},
  };
  for (const ErrorRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      try {
        (void)io::parse_scenario(row.text, "s.json");
        FAIL("no error for " << row.name);
      } catch (const InputError& e) {
        CHECK(e.file() == "s.json");
        CHECK(e.pointer() == row.pointer);
        CHECK(e.line() == row.line);
        CHECK(e.reason() == row.reason);
      }
    }
  }
}

TEST_CASE("a scenario may name its format version, which writers name too", "[io]") {
  const Scenario named =
      io::parse_scenario(R"({"apiVersion": "gpusched.io/v1", "name": "t"})", "t.json");
  CHECK(named.name == "t");
  const std::string written = io::scenario_json_text(named);
  CHECK(written.find(R"("apiVersion": "gpusched.io/v1")") != std::string::npos);
  CHECK(io::parse_scenario(written, "w.json").name == "t");
}

TEST_CASE("parse_scenario enforces size limits on lists", "[io]") {
  struct Row {
    const char* key;
    std::size_t count;
    const char* reason;
  };
  const std::vector<Row> rows = {
      {"cluster", 100'001, "cluster has 100001 objects; the limit is 100000"},
      {"timeline", 100'001, "timeline has 100001 actions; the limit is 100000"},
      {"expect", 10'001, "expect has 10001 assertions; the limit is 10000"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.key) {
      // The count is checked before any item is read, so empty items do.
      std::string text = "{\"name\": \"t\", \"" + std::string(row.key) + "\": [{}";
      for (std::size_t i = 1; i < row.count; ++i) text += ",{}";
      text += "]}";
      try {
        (void)io::parse_scenario(text, "s.json");
        FAIL("no error");
      } catch (const InputError& e) {
        CHECK(e.pointer() == "/" + std::string(row.key));
        CHECK(e.reason() == row.reason);
      }
    }
  }
}

TEST_CASE("parse_scenario ignores brackets inside strings when checking depth", "[io]") {
  std::string text = "{\"name\": \"t\", \"description\": \"" + std::string(100, '[') + "\"}";
  CHECK(io::parse_scenario(text, "s.json").description == std::string(100, '['));
}

TEST_CASE("parse_scenario reads objects with Kubernetes defaults", "[io]") {
  const Scenario s = io::parse_scenario(R"({
    "name": "defaults",
    "description": "d",
    "cluster": [
      {"apiVersion": "v1", "kind": "Node",
       "metadata": {"name": "w1", "labels": {"nvidia.com/gpu.product": "H100"}},
       "spec": {"unschedulable": true,
                "taints": [{"key": "gpu", "value": "yes", "effect": "NoSchedule"}]},
       "status": {"capacity": {"cpu": "8", "memory": "32Gi", "nvidia.com/gpu": 4},
                  "conditions": [{"type": "Ready", "status": "False"}]}},
      {"kind": "Node", "metadata": {"name": "w2"}, "status": {"allocatable": {"cpu": 2}}},
      {"kind": "Pod", "metadata": {"name": "p", "labels": {"app": "a"}, "unknownField": 1},
       "spec": {"containers": [{"name": "c", "image": "ignored",
                                "resources": {"limits": {"cpu": 0.5, "nvidia.com/gpu": 2}},
                                "ports": [{"containerPort": 80, "hostPort": 8080}]}],
                "initContainers": [{"name": "side", "restartPolicy": "Always"}],
                "overhead": {"memory": "64Mi"},
                "nodeSelector": {"zone": "a"},
                "tolerations": [{"operator": "Exists"},
                                {"key": "k", "operator": "Equal", "value": "v",
                                 "effect": "NoExecute", "tolerationSeconds": 30}],
                "affinity": {"nodeAffinity": {
                  "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                    {"matchExpressions": [{"key": "gen", "operator": "Gt", "values": ["3"]}],
                     "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["w1"]}]}]},
                  "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 10, "preference": {"matchExpressions": [
                      {"key": "zone", "operator": "Exists"}]}}]}},
                "priority": 100, "priorityClassName": "high", "preemptionPolicy": "Never",
                "schedulerName": "other", "restartPolicy": "Never",
                "terminationGracePeriodSeconds": 0},
       "status": {"phase": "Running"}},
      {"kind": "Deployment", "metadata": {"name": "web", "namespace": "prod"},
       "spec": {"template": {"metadata": {"labels": {"app": "web"},
                                          "annotations": {"gpusched.io/run-duration": "180"}},
                             "spec": {"containers": [{"name": "c"}]}}}},
      {"kind": "Job", "metadata": {"name": "train"},
       "spec": {"completions": 3,
                "template": {"spec": {"restartPolicy": "OnFailure", "containers": [{}]}}}}
    ],
    "until": 600
  })",
                                        "s.json");
  CHECK(s.name == "defaults");
  CHECK(s.source == "s.json");
  CHECK(s.until == 600'000);
  REQUIRE(s.cluster.size() == 5);
  CHECK(s.cluster_pointers == std::vector<std::string>{"/cluster/0", "/cluster/1", "/cluster/2",
                                                       "/cluster/3", "/cluster/4"});

  const Node& w1 = std::get<Node>(s.cluster[0]);
  CHECK(w1.metadata.namespace_.empty());
  CHECK(w1.unschedulable);
  CHECK(w1.taints == std::vector<Taint>{{"gpu", "yes", TaintEffect::NoSchedule}});
  CHECK(w1.allocatable == w1.capacity);
  CHECK(w1.capacity.at("nvidia.com/gpu") == Quantity::from_units(4));
  CHECK(w1.conditions.size() == 1);
  const Node& w2 = std::get<Node>(s.cluster[1]);
  CHECK(w2.capacity.at("cpu") == Quantity::from_units(2));

  const Pod& p = std::get<Pod>(s.cluster[2]);
  CHECK(p.metadata.namespace_ == "default");
  const Container& c = p.spec.containers.at(0);
  CHECK(c.limits.at("cpu").milli() == 500);
  CHECK(c.requests == c.limits);  // SetDefaults_Pod: limits become requests
  CHECK(c.ports.at(0).host_port == 8080);
  CHECK(c.ports.at(0).protocol == "TCP");
  CHECK(p.spec.init_containers.at(0).restart_policy == "Always");
  CHECK(p.spec.overhead.at("memory") == Quantity::parse("64Mi", nullptr));
  CHECK(p.spec.node_selector.at("zone") == "a");
  REQUIRE(p.spec.tolerations.size() == 2);
  CHECK(p.spec.tolerations[0].op == TolerationOperator::Exists);
  CHECK_FALSE(p.spec.tolerations[0].effect.has_value());
  CHECK(p.spec.tolerations[1].toleration_seconds == 30);
  CHECK(p.spec.tolerations[1].effect == TaintEffect::NoExecute);
  const NodeAffinity& affinity = p.spec.affinity->node_affinity.value();
  REQUIRE(affinity.required.has_value());
  CHECK(affinity.required->at(0).match_expressions.at(0).op == SelectorOperator::Gt);
  CHECK(affinity.required->at(0).match_fields.at(0).values == std::vector<std::string>{"w1"});
  CHECK(affinity.preferred.at(0).weight == 10);
  CHECK(p.spec.priority == 100);
  CHECK(p.spec.priority_class_name == "high");
  CHECK(p.spec.preemption_policy == "Never");
  CHECK(p.spec.scheduler_name == "other");
  CHECK(p.spec.restart_policy == "Never");
  CHECK(p.spec.termination_grace_period_seconds == 0);
  CHECK(p.status.phase == PodPhase::Running);

  const Deployment& d = std::get<Deployment>(s.cluster[3]);
  CHECK(d.metadata.namespace_ == "prod");
  CHECK(d.replicas == 1);
  CHECK(d.selector.match_labels == Labels{{"app", "web"}});
  CHECK(d.template_.metadata.annotations.at("gpusched.io/run-duration") == "180");
  CHECK(d.template_.spec.scheduler_name == "default-scheduler");
  CHECK(d.template_.spec.termination_grace_period_seconds == 30);

  const Job& j = std::get<Job>(s.cluster[4]);
  CHECK(j.parallelism == 1);
  CHECK(j.completions == 3);
}

TEST_CASE("parse_scenario reads the timeline", "[io]") {
  const Scenario s = io::parse_scenario(R"({
    "name": "timeline",
    "timeline": [
      {"at": "0s", "apply": {"kind": "Pod", "metadata": {"name": "a"}, "spec": {"containers": [{}]}}},
      {"at": 1.5, "apply": [{"kind": "Node", "metadata": {"name": "w9"}}]},
      {"at": "90s", "delete": {"kind": "Pod", "name": "a", "gracePeriodSeconds": 5}},
      {"at": "90s", "patch": {"kind": "Node", "name": "w1",
                              "merge": {"status": {"allocatable": {"nvidia.com/gpu": "2"}}}}},
      {"at": "2m", "cordon": "w1"},
      {"at": "2m", "uncordon": "w1"},
      {"at": "1h", "scale": {"kind": "Deployment", "namespace": "prod", "name": "web", "replicas": 3}}
    ]
  })",
                                        "s.json");
  REQUIRE(s.timeline.size() == 7);
  CHECK(s.timeline[0].verb == Verb::Apply);
  CHECK(s.timeline[0].pointer == "/timeline/0");
  CHECK(std::get<Pod>(s.timeline[0].objects.at(0)).metadata.name == "a");
  CHECK(s.timeline[1].at == 1500);
  CHECK(std::holds_alternative<Node>(s.timeline[1].objects.at(0)));
  CHECK(s.timeline[2].verb == Verb::Delete);
  CHECK(s.timeline[2].at == 90'000);
  CHECK(s.timeline[2].target == ObjectRef{"Pod", "default", "a"});
  CHECK(s.timeline[2].grace_period_seconds == 5);
  CHECK(s.timeline[3].verb == Verb::Patch);
  CHECK(s.timeline[3].target == ObjectRef{"Node", "", "w1"});
  CHECK(s.timeline[3].patch->merge_patch() ==
        R"({"status":{"allocatable":{"nvidia.com/gpu":"2"}}})");
  CHECK(s.timeline[4].verb == Verb::Cordon);
  CHECK(s.timeline[4].target == ObjectRef{"Node", "", "w1"});
  CHECK(s.timeline[5].verb == Verb::Uncordon);
  CHECK(s.timeline[6].verb == Verb::Scale);
  CHECK(s.timeline[6].at == 3'600'000);
  CHECK(s.timeline[6].target == ObjectRef{"Deployment", "prod", "web"});
  CHECK(s.timeline[6].replicas == 3);
}

TEST_CASE("parse_scenario reads expectations", "[io]") {
  const Scenario s = io::parse_scenario(R"({
    "name": "expect",
    "until": "10m",
    "expect": [
      {"pod": "p", "phase": "Pending", "node": null, "reason": "Unschedulable",
       "messageContains": "Insufficient"},
      {"at": "30s", "pod": "ns/q", "node": "w1", "nominatedNode": "w2", "message": "m"},
      {"at": "end", "pods": "default/web-*", "phases": {"Running": 1, "Pending": 2}},
      {"node": "w1", "allocatable": {"nvidia.com/gpu": 4}, "allocated": {"cpu": "500m"}},
      {"event": {"reason": "FailedScheduling", "object": "default/p", "type": "Warning"}}
    ]
  })",
                                        "s.json");
  REQUIRE(s.expect.size() == 5);
  const auto& pod = std::get<PodExpectation>(s.expect[0].check);
  CHECK_FALSE(s.expect[0].at.has_value());
  CHECK(s.expect[0].pointer == "/expect/0");
  CHECK(pod.pod == "default/p");
  CHECK(pod.phase == "Pending");
  REQUIRE(pod.node.has_value());
  CHECK_FALSE(pod.node->has_value());
  CHECK_FALSE(pod.nominated_node.has_value());
  CHECK(pod.reason == "Unschedulable");
  CHECK(pod.message_contains == "Insufficient");
  const auto& bound = std::get<PodExpectation>(s.expect[1].check);
  CHECK(s.expect[1].at == 30'000);
  CHECK(bound.pod == "ns/q");
  CHECK(bound.node == std::optional<std::string>("w1"));
  CHECK(bound.nominated_node == std::optional<std::string>("w2"));
  const auto& pods = std::get<PodsExpectation>(s.expect[2].check);
  CHECK_FALSE(s.expect[2].at.has_value());
  CHECK(pods.pattern == "default/web-*");
  CHECK(pods.phases == std::map<std::string, std::int64_t>{{"Pending", 2}, {"Running", 1}});
  const auto& node = std::get<NodeExpectation>(s.expect[3].check);
  CHECK(node.allocatable.at("nvidia.com/gpu") == Quantity::from_units(4));
  CHECK(node.allocated.at("cpu").milli() == 500);
  const auto& event = std::get<EventExpectation>(s.expect[4].check);
  CHECK(event.reason == "FailedScheduling");
  CHECK(event.type == "Warning");
}

TEST_CASE("parse_scenario reads the scheduler configuration", "[io]") {
  const Scenario s = io::parse_scenario(R"({
    "name": "scheduler",
    "scheduler": {
      "seed": 42, "kubernetesVersion": "1.34", "percentageOfNodesToScore": 50,
      "podInitialBackoffSeconds": 2, "podMaxBackoffSeconds": 20,
      "profiles": [{
        "schedulerName": "gpu",
        "percentageOfNodesToScore": 100,
        "plugins": {"score": {"enabled": [{"name": "NodeResourcesFit", "weight": 5}],
                              "disabled": [{"name": "*"}]}},
        "pluginConfig": [
          {"name": "NodeResourcesFit", "args": {"ignoredResources": ["example.com/foo"],
            "scoringStrategy": {"type": "RequestedToCapacityRatio",
              "resources": [{"name": "nvidia.com/gpu", "weight": 3}, {"name": "cpu"}],
              "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 0},
                                                     {"utilization": 100, "score": 10}]}}}},
          {"name": "NodeResourcesBalancedAllocation", "args": {"resources": [{"name": "cpu"}]}},
          {"name": "DefaultPreemption", "args": {"minCandidateNodesPercentage": 0,
                                                 "minCandidateNodesAbsolute": 5}}
        ]
      }, {"schedulerName": "default-scheduler"}]
    }
  })",
                                        "s.json");
  const SchedulerConfig& c = s.scheduler;
  CHECK(c.seed == 42);
  CHECK(c.kubernetes_version.minor == 34);
  CHECK(c.percentage_of_nodes_to_score == 50);
  CHECK(c.pod_initial_backoff_ms == 2000);
  CHECK(c.pod_max_backoff_ms == 20'000);
  REQUIRE(c.profiles.size() == 2);
  const Profile& gpu = c.profiles[0];
  CHECK(gpu.scheduler_name == "gpu");
  CHECK(gpu.percentage_of_nodes_to_score == 100);
  CHECK(gpu.plugins.score.enabled == std::vector<PluginRef>{{"NodeResourcesFit", 5}});
  CHECK(gpu.plugins.score.disabled == std::vector<PluginRef>{{"*", 0}});
  CHECK(gpu.node_resources_fit.scoring_type == ScoringStrategyType::RequestedToCapacityRatio);
  CHECK(gpu.node_resources_fit.resources ==
        std::vector<ResourceSpec>{{"nvidia.com/gpu", 3}, {"cpu", 1}});
  CHECK(gpu.node_resources_fit.shape == std::vector<UtilizationShapePoint>{{0, 0}, {100, 10}});
  CHECK(gpu.node_resources_fit.ignored_resources == std::vector<std::string>{"example.com/foo"});
  CHECK(gpu.balanced_allocation.resources == std::vector<ResourceSpec>{{"cpu", 1}});
  CHECK(gpu.default_preemption.min_candidate_nodes_percentage == 0);
  CHECK(gpu.default_preemption.min_candidate_nodes_absolute == 5);
  CHECK(c.profiles[1] == Profile{});

  const Scenario plain =
      io::parse_scenario(R"({"name": "x", "scheduler": {"profiles": [{}]}})", "s.json");
  CHECK(plain.scheduler == SchedulerConfig{});
}

TEST_CASE("parse_scenario reads featureGates and lists what gpusched does not model",
          "[io][gates]") {
  const std::string text = R"({"name": "g",
"scheduler": {"kubernetesVersion": "1.35", "featureGates": {
  "ClearingNominatedNodeNameAfterBinding": false,
  "TaintTolerationComparisonOperators": true}}})";
  const Scenario s = io::parse_scenario(text, "g.json");
  const FeatureGates& gates = s.scheduler.feature_gates;
  CHECK(gates.values.size() == 2);
  CHECK_FALSE(gates.enabled(FeatureGate::ClearingNominatedNodeNameAfterBinding,
                            s.scheduler.kubernetes_version));
  // A gate gpusched does not model is listed, as a warning every command prints.
  REQUIRE(s.notes.size() == 1);
  CHECK(s.notes[0] ==
        "g.json:4: /scheduler/featureGates/TaintTolerationComparisonOperators: feature gate "
        "TaintTolerationComparisonOperators=true changes tolerations with the Lt and Gt "
        "operators, which gpusched does not model yet: Kubernetes 1.35 is simulated with its "
        "default, false");
  CHECK(s.warnings.empty());
  // Strict: the same setting is refused.
  io::LoadOptions strict;
  strict.strict = true;
  try {
    (void)io::parse_scenario(text, "g.json", strict);
    FAIL("a setting gpusched does not model was accepted under strict");
  } catch (const InputError& e) {
    CHECK(e.pointer() == "/scheduler/featureGates/TaintTolerationComparisonOperators");
    CHECK(e.line() == 4);
  }
}

TEST_CASE("load_scenario reads files and reports missing ones", "[io]") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "gpusched_io_test";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "ok.json";
  {
    std::ofstream out(file);
    out << R"({"name": "from-file", "until": "1m"})";
  }
  const Scenario s = io::load_scenario(file);
  CHECK(s.name == "from-file");
  CHECK(s.source == file.string());

  try {
    (void)io::load_scenario(dir / "missing.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == (dir / "missing.json").string());
    CHECK(e.reason() == "no such file");
  }
  try {
    (void)io::load_scenario(dir);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.reason() == "is a directory, not a scenario file");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gpusched
