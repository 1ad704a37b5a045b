#include "gpusched/model/validation.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

namespace gpusched {
namespace {

using Text = std::map<std::string, std::string>;

ResourceList list(const Text& text) {
  ResourceList out;
  for (const auto& [name, value] : text) {
    std::string error;
    const auto q = Quantity::parse(value, &error);
    REQUIRE(q.has_value());
    out.emplace(name, *q);
  }
  return out;
}

Container container(const Text& requests, const Text& limits) {
  Container c;
  c.requests = list(requests);
  c.limits = list(limits);
  return c;
}

std::vector<std::string> render(const std::vector<FieldError>& errors) {
  std::vector<std::string> out;
  for (const FieldError& e : errors) out.push_back(to_field_string(e.path) + ": " + e.detail);
  return out;
}

const FieldPath kSpec = {{PathStep::Kind::Field, "spec", 0}};

struct SpecRow {
  std::string name;
  std::vector<Container> containers;
  std::vector<Container> init_containers;
  Text overhead;
  std::vector<std::string> expected;
};

TEST_CASE("validate_pod_spec: ValidateResourceRequirements in the API server's words",
          "[model][validation]") {
  const std::vector<SpecRow> rows = {
      {"valid gpu pod",
       {container({{"cpu", "500m"}, {"memory", "1Gi"}, {"nvidia.com/gpu", "1"}},
                  {{"cpu", "1"}, {"nvidia.com/gpu", "1"}})},
       {},
       {},
       {}},
      {"extended resource request without limit",
       {container({{"nvidia.com/gpu", "1"}}, {})},
       {},
       {},
       {"spec.containers[0].resources.limits: Required value: Limit must be set for non "
        "overcommitable resources"}},
      {"extended resource request differs from limit",
       {container({{"nvidia.com/gpu", "1"}}, {{"nvidia.com/gpu", "2"}})},
       {},
       {},
       {"spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to "
        "nvidia.com/gpu limit of 2"}},
      {"cpu request above limit",
       {container({{"cpu", "2"}}, {{"cpu", "1"}})},
       {},
       {},
       {"spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal "
        "to cpu limit of 1"}},
      {"memory request above limit uses canonical quantities",
       {container({{"memory", "1.5Gi"}}, {{"memory", "1Gi"}})},
       {},
       {},
       {"spec.containers[0].resources.requests: Invalid value: \"1536Mi\": must be less than or "
        "equal to memory limit of 1Gi"}},
      {"cpu request below limit is fine", {container({{"cpu", "1"}}, {{"cpu", "2"}})}, {}, {}, {}},
      {"negative request",
       {container({{"cpu", "-1"}}, {})},
       {},
       {},
       {"spec.containers[0].resources.requests[cpu]: Invalid value: \"-1\": must be greater than "
        "or equal to 0"}},
      {"negative limit",
       {container({}, {{"memory", "-500m"}})},
       {},
       {},
       {"spec.containers[0].resources.limits[memory]: Invalid value: \"-500m\": must be greater "
        "than or equal to 0"}},
      {"fractional extended resource",
       {container({{"nvidia.com/gpu", "500m"}}, {{"nvidia.com/gpu", "500m"}})},
       {},
       {},
       {"spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: 500m: must be an "
        "integer",
        "spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: 500m: must be an "
        "integer"}},
      {"unqualified extended resource name",
       {container({{"gpu", "1"}}, {})},
       {},
       {},
       {"spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard "
        "resource type or fully qualified",
        "spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard "
        "resource for containers"}},
      {"standard but not a container resource",
       {container({}, {{"pods", "1"}})},
       {},
       {},
       {"spec.containers[0].resources.limits[pods]: Invalid value: \"pods\": must be a standard "
        "resource for containers"}},
      {"requests. prefix is not an extended resource",
       {container({}, {{"requests.example.com/foo", "1"}})},
       {},
       {},
       {"spec.containers[0].resources.limits[requests.example.com/foo]: Invalid value: "
        "\"requests.example.com/foo\": doesn't follow extended resource name standard"}},
      {"malformed qualified name",
       {container({}, {{"example.com/-gpu", "1"}})},
       {},
       {},
       {"spec.containers[0].resources.limits[example.com/-gpu]: Invalid value: "
        "\"example.com/-gpu\": name part must consist of alphanumeric characters, '-', '_' or '.', "
        "and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
        "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        "spec.containers[0].resources.limits[example.com/-gpu]: Invalid value: "
        "\"example.com/-gpu\": doesn't follow extended resource name standard"}},
      {"init containers are validated after containers",
       {container({{"cpu", "2"}}, {{"cpu", "1"}})},
       {container({{"example.com/fpga", "1"}}, {})},
       {},
       {"spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal "
        "to cpu limit of 1",
        "spec.initContainers[0].resources.limits: Required value: Limit must be set for non "
        "overcommitable resources"}},
      {"second container index",
       {container({{"cpu", "1"}}, {}),
        container({{"nvidia.com/gpu", "1"}}, {{"nvidia.com/gpu", "3"}})},
       {},
       {},
       {"spec.containers[1].resources.requests: Invalid value: \"1\": must be equal to "
        "nvidia.com/gpu limit of 3"}},
      {"overhead validated as limits",
       {},
       {},
       {{"cpu", "-1"}},
       {"spec.overhead.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"}},
      {"repeated messages are shown once",
       {container({{"example.com/a", "1"}, {"example.com/b", "1"}}, {})},
       {},
       {},
       {"spec.containers[0].resources.limits: Required value: Limit must be set for non "
        "overcommitable resources"}},
      {"hugepages must be whole pages and need cpu or memory",
       {container({{"hugepages-2Mi", "1Mi"}}, {{"hugepages-2Mi", "1Mi"}})},
       {},
       {},
       {"spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: \"1Mi\": 1Mi is not "
        "positive integer multiple of hugepages-2Mi",
        "spec.containers[0].resources.requests[hugepages-2Mi]: Invalid value: \"1Mi\": 1Mi is not "
        "positive integer multiple of hugepages-2Mi",
        "spec.containers[0].resources: Forbidden: HugePages require cpu or memory"}},
      {"hugepages with memory",
       {container({{"hugepages-2Mi", "4Mi"}, {"memory", "1Gi"}},
                  {{"hugepages-2Mi", "4Mi"}, {"memory", "1Gi"}})},
       {},
       {},
       {}},
      {"hugepages request without limit",
       {container({{"hugepages-2Mi", "4Mi"}, {"memory", "1Gi"}}, {})},
       {},
       {},
       {"spec.containers[0].resources.limits: Required value: Limit must be set for non "
        "overcommitable resources"}},
  };
  for (const SpecRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      PodSpec spec;
      spec.containers = row.containers;
      spec.init_containers = row.init_containers;
      spec.overhead = list(row.overhead);
      CHECK(render(validate_pod_spec(spec, kSpec)) == row.expected);
    }
  }
}

TEST_CASE("validate_pod_spec under a template path", "[model][validation]") {
  PodSpec spec;
  spec.containers = {container({{"nvidia.com/gpu", "1"}}, {})};
  const FieldPath base = {{PathStep::Kind::Field, "spec", 0},
                          {PathStep::Kind::Field, "template", 0},
                          {PathStep::Kind::Field, "spec", 0}};
  const std::vector<FieldError> errors = validate_pod_spec(spec, base);
  REQUIRE(errors.size() == 1);
  CHECK(to_field_string(errors[0].path) == "spec.template.spec.containers[0].resources.limits");
  CHECK(to_json_pointer(errors[0].path) == "/spec/template/spec/containers/0/resources/limits");
}

TEST_CASE("validate_pod_spec: a Gt/Lt node affinity value is one int64", "[model][validation]") {
  // For pods made in code (Simulator::schedule_one); the loader checks a file's own as it reads.
  auto with = [](std::vector<std::string> values) {
    PodSpec spec;
    NodeAffinity affinity;
    affinity.preferred.push_back(PreferredSchedulingTerm{
        1, NodeSelectorTerm{{SelectorRequirement{"gen", SelectorOperator::Lt, std::move(values)}},
                            {}}});
    spec.affinity.mut().node_affinity = affinity;
    return render(validate_pod_spec(spec, kSpec));
  };
  CHECK(with({"-3"}).empty());
  CHECK(with({"1-2"}) ==
        std::vector<std::string>{
            "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]."
            "preference.matchExpressions[0].values[0]: Invalid value: \"1-2\": for 'Gt', 'Lt' "
            "operators, the value must be an integer"});
  CHECK(with({}) ==
        std::vector<std::string>{
            "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]."
            "preference.matchExpressions[0].values: Required value: must be specified single "
            "value when `operator` is 'Lt' or 'Gt'"});
}

TEST_CASE("validate_node: capacity and allocatable", "[model][validation]") {
  Node node;
  node.capacity = list({{"cpu", "8"}, {"nvidia.com/gpu", "-1"}, {"pods", "110"}});
  node.allocatable = list({{"cpu", "7500m"}, {"nvidia.com/gpu", "1500m"}, {"pods", "1.5"}});
  CHECK(render(validate_node(node)) ==
        std::vector<std::string>{
            "status.capacity.nvidia.com/gpu: Invalid value: \"-1\": must be greater than or "
            "equal to 0",
            "status.allocatable.nvidia.com/gpu: Invalid value: 1500m: must be an integer",
            "status.allocatable.pods: Invalid value: 1500m: must be an integer"});
  node.capacity = list({{"cpu", "8"}, {"memory", "64Gi"}, {"nvidia.com/gpu", "8"}});
  node.allocatable = node.capacity;
  CHECK(validate_node(node).empty());
}

struct PathRow {
  std::string name;
  FieldPath path;
  std::string field;
  std::string pointer;
};

TEST_CASE("field paths render like field.Path.String and as JSON pointers", "[model][validation]") {
  using K = PathStep::Kind;
  const std::vector<PathRow> rows = {
      {"empty", {}, "", ""},
      {"key",
       {{K::Field, "spec", 0},
        {K::Field, "containers", 0},
        {K::Index, "", 0},
        {K::Field, "resources", 0},
        {K::Field, "requests", 0},
        {K::Key, "nvidia.com/gpu", 0}},
       "spec.containers[0].resources.requests[nvidia.com/gpu]",
       "/spec/containers/0/resources/requests/nvidia.com~1gpu"},
      {"index then field",
       {{K::Field, "spec", 0},
        {K::Field, "initContainers", 0},
        {K::Index, "", 12},
        {K::Field, "name", 0}},
       "spec.initContainers[12].name",
       "/spec/initContainers/12/name"},
      {"tilde escaped",
       {{K::Field, "metadata", 0}, {K::Key, "a~b", 0}},
       "metadata[a~b]",
       "/metadata/a~0b"},
  };
  for (const PathRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      CHECK(to_field_string(row.path) == row.field);
      CHECK(to_json_pointer(row.path) == row.pointer);
    }
  }
}

}  // namespace
}  // namespace gpusched
