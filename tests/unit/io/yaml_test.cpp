#include "io/yaml_source.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"

namespace gpusched {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using test::TempDir;

/// The InputError `parse` throws.
template <typename Parse>
InputError error_of(Parse parse) {
  try {
    parse();
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no error");
  return InputError("", "", "");
}

void check_same_expectation(const Expectation& a, const Expectation& b) {
  INFO(a.pointer);
  CHECK(a.at == b.at);
  CHECK(a.pointer == b.pointer);
  REQUIRE(a.check.index() == b.check.index());
  if (const auto* pod = std::get_if<PodExpectation>(&a.check)) {
    const auto& other = std::get<PodExpectation>(b.check);
    CHECK(pod->pod == other.pod);
    CHECK(pod->phase == other.phase);
    CHECK(pod->node == other.node);
    CHECK(pod->reason == other.reason);
    CHECK(pod->message == other.message);
    CHECK(pod->message_contains == other.message_contains);
  } else if (const auto* pods = std::get_if<PodsExpectation>(&a.check)) {
    const auto& other = std::get<PodsExpectation>(b.check);
    CHECK(pods->pattern == other.pattern);
    CHECK(pods->phases == other.phases);
  } else if (const auto* node = std::get_if<NodeExpectation>(&a.check)) {
    const auto& other = std::get<NodeExpectation>(b.check);
    CHECK(node->node == other.node);
    CHECK(node->allocatable == other.allocatable);
    CHECK(node->allocated == other.allocated);
  } else if (const auto* event = std::get_if<EventExpectation>(&a.check)) {
    const auto& other = std::get<EventExpectation>(b.check);
    CHECK(event->type == other.type);
    CHECK(event->reason == other.reason);
    CHECK(event->object == other.object);
    CHECK(event->message == other.message);
    CHECK(event->message_contains == other.message_contains);
  }
}

/// Equal Scenario values, the name, description and source aside.
void check_same_scenario(const Scenario& a, const Scenario& b) {
  CHECK(a.scheduler == b.scheduler);
  CHECK(a.cluster == b.cluster);
  CHECK(a.cluster_pointers == b.cluster_pointers);
  CHECK(a.until == b.until);
  REQUIRE(a.timeline.size() == b.timeline.size());
  for (std::size_t i = 0; i < a.timeline.size(); ++i) {
    INFO("timeline " << i);
    const Action& x = a.timeline[i];
    const Action& y = b.timeline[i];
    CHECK(x.at == y.at);
    CHECK(x.verb == y.verb);
    CHECK(x.pointer == y.pointer);
    CHECK(x.objects == y.objects);
    CHECK(x.target == y.target);
    CHECK(x.grace_period_seconds == y.grace_period_seconds);
    CHECK((x.patch ? x.patch->merge_patch() : "") == (y.patch ? y.patch->merge_patch() : ""));
    CHECK(x.replicas == y.replicas);
  }
  REQUIRE(a.expect.size() == b.expect.size());
  for (std::size_t i = 0; i < a.expect.size(); ++i)
    check_same_expectation(a.expect[i], b.expect[i]);
}

TEST_CASE("parse_yaml resolves scalars as sigs.k8s.io/yaml does", "[io][yaml]") {
  const std::string text = R"(t: true
quoted_t: "true"
yes_is_bool: yes
off_is_bool: Off
i: 10
neg: -3
hex: 0x1F
octal: 012
not_octal: 08
under: 1_000
f: 1.5
exp: 1e3
big: 9223372036854775808
min: -9223372036854775808
tilde: ~
word_null: null
empty:
single: ''
str_tag: !!str 5
int_tag: !!int "7"
word: abc
version: 1.2.3
underscore_word: _1
list: [1, "1", x]
)";
  const io::YamlDocument doc = io::parse_yaml("f.yaml", text);
  CHECK(doc.documents == 1);
  const json& v = doc.value;
  CHECK(v["t"] == json(true));
  CHECK(v["quoted_t"] == json("true"));
  CHECK(v["yes_is_bool"] == json(true));
  CHECK(v["off_is_bool"] == json(false));
  CHECK(v["i"] == json(10));
  CHECK(v["neg"] == json(-3));
  CHECK(v["hex"] == json(31));
  CHECK(v["octal"] == json(10));       // YAML 1.1: a leading 0 is octal, 012 = 8 + 2
  CHECK(v["not_octal"] == json(8.0));  // not an octal integer, but a float as go-yaml reads it
  CHECK(v["not_octal"].is_number_float());
  CHECK(v["under"] == json(1000));
  CHECK(v["f"] == json(1.5));
  CHECK(v["exp"] == json(1000.0));
  CHECK(v["big"].is_number_unsigned());
  CHECK(v["big"].get<std::uint64_t>() == 9223372036854775808ULL);
  CHECK(v["min"].get<std::int64_t>() == std::numeric_limits<std::int64_t>::min());
  CHECK(v["tilde"].is_null());
  CHECK(v["word_null"].is_null());
  CHECK(v["empty"].is_null());
  CHECK(v["single"] == json(""));
  CHECK(v["str_tag"] == json("5"));
  CHECK(v["int_tag"] == json(7));
  CHECK(v["word"] == json("abc"));
  CHECK(v["version"] == json("1.2.3"));
  CHECK(v["underscore_word"] == json("_1"));
  CHECK(v["list"] == json::array({1, "1", "x"}));
  // Each value's line, found by pointer; an unknown pointer takes its deepest known prefix.
  const io::JsonSource source = io::JsonSource::with_lines("f.yaml", doc.lines);
  CHECK(source.line_of("") == 1);
  CHECK(source.line_of("/t") == 1);
  CHECK(source.line_of("/hex") == 7);
  CHECK(source.line_of("/list") == 24);
  CHECK(source.line_of("/list/2") == 24);
  CHECK(source.line_of("/list/7/deeper") == 24);
  CHECK(source.line_of("/absent") == 1);
}

TEST_CASE("parse_yaml finds lines by key, escaped key, index and document", "[io][yaml]") {
  const std::string text = R"(---
a:
  "0": zero
  list:
  - x
  - y: 1
    a/b~c: 2
---
---
b: 3
)";
  const io::YamlDocument doc = io::parse_yaml("f.yaml", text);
  REQUIRE(doc.documents == 2);  // the empty one between is dropped
  const io::JsonSource source = io::JsonSource::with_lines("f.yaml", doc.lines);
  CHECK(source.line_of("") == 1);
  CHECK(source.line_of("/0") == 2);
  CHECK(source.line_of("/0/a/0") == 3);  // a key that reads as an index
  CHECK(source.line_of("/0/a/list/1") == 6);
  CHECK(source.line_of("/0/a/list/1/a~1b~0c") == 7);
  CHECK(source.line_of("/0/a/list/9") == 5);  // the sequence starts at its first item
  CHECK(source.line_of("/1/b") == 10);
}

TEST_CASE("parse_yaml anchors, aliases and merge keys", "[io][yaml]") {
  const std::string text = R"(base: &base {cpu: "1", memory: 1Gi}
copy: *base
node:
  <<: *base
  cpu: "2"
)";
  const json v = io::parse_yaml("f.yaml", text).value;
  CHECK(v["copy"] == json({{"cpu", "1"}, {"memory", "1Gi"}}));
  CHECK(v["node"] == json({{"cpu", "2"}, {"memory", "1Gi"}}));
}

TEST_CASE("parse_yaml refuses what would exhaust memory or is malformed", "[io][yaml]") {
  struct Row {
    const char* name;
    std::string text;
    std::string pointer;
    int line;
    std::string reason;
  };
  // Aliases nested ten by ten: f's eighth alias of e (111111 values each) passes the limit.
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'f'; ++c) {
    bomb += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 10; ++i) bomb += std::string(i ? ", *" : "*") + char(c - 1);
    bomb += "]\n";
  }
  const std::vector<Row> rows = {
      {"unclosed flow sequence", "name: x\nlist: [a, b\n", "", 3,
       "invalid YAML at column 1: end of sequence flow not found"},
      {"duplicate key", "name: a\nname: b\n", "/name", 2, "key \"name\" already set in map"},
      {"too deep", std::string(65, '[') + std::string(65, ']'), "", 1,
       "nesting deeper than 64 levels"},
      {"alias bomb", bomb, "", 6, "aliases expand to more than 1000000 values"},
      {"binary", std::string("a: 1\nb: \x01\n"), "", 2, "binary data, not YAML text (byte 0x01)"},
      // Found by tests/fuzz: JSON strings must be UTF-8 (nlohmann's dump() throws otherwise).
      {"invalid UTF-8 byte", "a: 1\nb: x\xff\n", "", 2, "invalid UTF-8 in a string"},
      {"invalid UTF-8 key", "a: 1\n\xc0\xaf: x\n", "", 2, "invalid UTF-8 in a string"},
      // Found by tests/fuzz: yaml-cpp 0.7 reports the same document forever (yaml-cpp#1040).
      {"stray comma", ",", "", 1, "invalid YAML at column 1: unexpected token"},
      {"comma after a sequence", "- a\n,", "", 2, "invalid YAML at column 1: unexpected token"},
      {"empty", "  \n", "", 0, "file is empty"},
      {"infinity", "a: 1\nb: .inf\n", "/b", 2, "the YAML value .inf has no JSON form"},
      {"collection as key", "? [a]\n: 1\n", "", 1,
       "a mapping key must be a string, not a collection"},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      const InputError e = error_of([&] { (void)io::parse_yaml("f.yaml", row.text); });
      CHECK(e.file() == "f.yaml");
      CHECK(e.pointer() == row.pointer);
      CHECK(e.line() == row.line);
      CHECK(e.reason() == row.reason);
    }
  }
  CHECK(io::parse_yaml("f.yaml", std::string(64, '[') + std::string(64, ']')).value.is_array());
}

TEST_CASE("is_yaml_input goes by the name, then by the first character", "[io][yaml]") {
  CHECK(io::is_yaml_input("a.yaml", "{}"));
  CHECK(io::is_yaml_input("a.YML", "{}"));
  CHECK_FALSE(io::is_yaml_input("a.json", "name: x"));
  CHECK_FALSE(io::is_yaml_input("-", "  {\"name\": 1}"));
  CHECK(io::is_yaml_input("-", "\nname: x"));
}

constexpr const char* kParityJson = R"({
  "name": "parity", "description": "d", "scheduler": {"seed": 7},
  "cluster": [
    {"kind": "Node", "metadata": {"name": "w1", "labels": {"zone": "a"}},
     "spec": {"taints": [{"key": "gpu", "value": "true", "effect": "NoSchedule"}]},
     "status": {"capacity": {"cpu": "8", "memory": "32Gi", "nvidia.com/gpu": 2, "pods": "110"}}},
    {"kind": "PriorityClass", "metadata": {"name": "high"}, "value": 1000},
    {"kind": "Deployment", "metadata": {"name": "web"},
     "spec": {"replicas": 2, "template": {"metadata": {"labels": {"app": "web"}},
       "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": 0.5}}}],
                "tolerations": [{"key": "gpu", "operator": "Exists"}]}}}}
  ],
  "timeline": [
    {"at": "10s", "apply": {"kind": "Pod",
      "metadata": {"name": "p", "annotations": {"gpusched.io/run-duration": "1m"}},
      "spec": {"priorityClassName": "high", "containers": [{"name": "c"}]}}},
    {"at": "20s", "patch": {"kind": "Node", "name": "w1", "merge": {"metadata": {"labels": {"zone": "b"}}}}},
    {"at": "30s", "scale": {"kind": "Deployment", "name": "web", "replicas": 3}},
    {"at": "40s", "cordon": "w1"},
    {"at": "50s", "delete": {"kind": "Pod", "name": "p", "gracePeriodSeconds": 5}}
  ],
  "expect": [
    {"at": "15s", "pod": "default/p", "phase": "Running", "node": "w1"},
    {"at": "end", "pods": "default/web-*", "phases": {"Running": 3}},
    {"at": "end", "node": "w1", "allocated": {"cpu": "1500m"}},
    {"at": "end", "event": {"reason": "Scheduled", "object": "default/p"}}
  ],
  "until": "5m"
})";

constexpr const char* kParityYaml = R"(name: parity
description: d
scheduler: {seed: 7}
cluster:
- kind: Node
  metadata:
    name: w1
    labels: {zone: a}
  spec:
    taints:
    - {key: gpu, value: "true", effect: NoSchedule}
  status:
    capacity: {cpu: "8", memory: 32Gi, nvidia.com/gpu: 2, pods: "110"}
- kind: PriorityClass
  metadata: {name: high}
  value: 1000
- kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 2
    template:
      metadata:
        labels: {app: web}
      spec:
        containers:
        - name: c
          resources:
            requests: {cpu: 0.5}
        tolerations:
        - key: gpu
          operator: Exists
timeline:
- at: 10s
  apply:
    kind: Pod
    metadata:
      name: p
      annotations: {gpusched.io/run-duration: 1m}
    spec:
      priorityClassName: high
      containers: [{name: c}]
- at: 20s
  patch:
    kind: Node
    name: w1
    merge: {metadata: {labels: {zone: b}}}
- {at: 30s, scale: {kind: Deployment, name: web, replicas: 3}}
- at: 40s
  cordon: w1
- at: 50s
  delete: {kind: Pod, name: p, gracePeriodSeconds: 5}
expect:
- {at: 15s, pod: default/p, phase: Running, node: w1}
- at: end
  pods: default/web-*
  phases: {Running: 3}
- at: end
  node: w1
  allocated: {cpu: 1500m}
- at: end
  event: {reason: Scheduled, object: default/p}
until: 5m
)";

TEST_CASE("the same scenario in JSON and in YAML parses to equal values", "[io][yaml]") {
  const Scenario from_json = io::parse_scenario(kParityJson, "s.json");
  const Scenario from_yaml = io::parse_scenario(kParityYaml, "s.yaml");
  CHECK(from_yaml.name == "parity");
  CHECK(from_yaml.description == "d");
  CHECK(from_yaml.source == "s.yaml");
  REQUIRE(from_json.cluster.size() == 3);
  REQUIRE(from_json.timeline.size() == 5);
  REQUIRE(from_json.expect.size() == 4);
  check_same_scenario(from_json, from_yaml);
}

TEST_CASE("the bundled YAML scenario equals its JSON original", "[io][yaml]") {
  const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/";
  const Scenario from_json = io::load_scenario(dir + "two-pods-one-gpu.json");
  const Scenario from_yaml = io::load_scenario(dir + "two-pods-one-gpu.yaml");
  CHECK(from_json.name == "two-pods-one-gpu");
  CHECK(from_yaml.name == "two-pods-one-gpu-yaml");
  REQUIRE(from_yaml.cluster.size() == 2);
  REQUIRE(from_yaml.expect.size() == 4);
  check_same_scenario(from_json, from_yaml);
}

TEST_CASE("errors in a YAML scenario name its file, line and pointer", "[io][yaml]") {
  struct Row {
    const char* name;
    const char* text;
    std::string pointer;
    int line;
    std::string reason;  // empty: not checked (the object parser's own wording)
  };
  const std::vector<Row> rows = {
      {"unknown top-level key", "name: t\nuntill: 5m\n", "/untill", 2,
       "unknown key \"untill\" (known keys: apiVersion, name, description, startTime, include, "
       "scheduler, devicePlugin, migConfigs, nvidiaDraDriver, nodePools, clusterAutoscaler, kueue, "
       "cluster, timeline, expect, until)"},
      {"wrong type", "name: t\ncluster:\n- kind: Node\n  metadata:\n    name: 5\n",
       "/cluster/0/metadata/name", 5, "expected a string, got number"},
      {"bad quantity",
       "name: t\ncluster:\n- kind: Node\n  metadata:\n    name: w1\n  status:\n    capacity:\n"
       "      cpu: lots\n",
       "/cluster/0/status/capacity/cpu", 8, ""},
      {"time order", "name: t\ntimeline:\n- at: 20s\n  cordon: w1\n- at: 10s\n  cordon: w1\n",
       "/timeline/1/at", 5, "timeline is not in time order: 10s after 20s"},
      {"quoted bool stays a string",
       "name: t\nexpect:\n- at: end\n  pods: x\n  phases: {Running: \"1\"}\n",
       "/expect/0/phases/Running", 5, "expected an integer, got string"},
      {"two documents", "name: a\n---\nname: b\n", "", 1,
       "a scenario file holds one YAML document, this one holds 2, as a Kubernetes manifest "
       "bundle does: add it to a cluster with `gpusched whatif --cluster CLUSTER --add FILE`, "
       "name it in a scenario's `include`, or read a `kubectl get -o json` dump with `gpusched "
       "snapshot`"},
      {"not a mapping", "- a\n- b\n", "", 1, "a scenario must be a YAML mapping, got array"},
      {"only comments", "# nothing\n", "", 0, "a scenario must be a YAML mapping, got no document"},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      const InputError e = error_of([&] { (void)io::parse_scenario(row.text, "s.yaml"); });
      CHECK(e.file() == "s.yaml");
      CHECK(e.pointer() == row.pointer);
      CHECK(e.line() == row.line);
      if (!row.reason.empty()) CHECK(e.reason() == row.reason);
    }
  }
}

TEST_CASE("a kind: List stands for its items in cluster and apply", "[io][yaml]") {
  const Scenario s = io::parse_scenario(R"(name: lists
cluster:
- kind: List
  items:
  - kind: Node
    metadata: {name: w1}
  - kind: Node
    metadata: {name: w2}
- kind: Node
  metadata: {name: w3}
timeline:
- at: 1s
  apply:
    apiVersion: v1
    kind: List
    items:
    - kind: Pod
      metadata: {name: p1}
      spec: {containers: [{name: c}]}
    - kind: Pod
      metadata: {name: p2}
      spec: {containers: [{name: c}]}
- at: 2s
  apply:
  - kind: Pod
    metadata: {name: p3}
    spec: {containers: [{name: c}]}
  - kind: List
    items: []
)",
                                        "s.yaml");
  REQUIRE(s.cluster.size() == 3);
  CHECK(std::get<Node>(s.cluster[0]).metadata.name == "w1");
  CHECK(std::get<Node>(s.cluster[1]).metadata.name == "w2");
  CHECK(std::get<Node>(s.cluster[2]).metadata.name == "w3");
  CHECK(s.cluster_pointers ==
        std::vector<std::string>{"/cluster/0/items/0", "/cluster/0/items/1", "/cluster/1"});
  REQUIRE(s.timeline.size() == 2);
  REQUIRE(s.timeline[0].objects.size() == 2);
  CHECK(std::get<Pod>(s.timeline[0].objects[1]).metadata.name == "p2");
  REQUIRE(s.timeline[1].objects.size() == 1);
  CHECK(std::get<Pod>(s.timeline[1].objects[0]).metadata.name == "p3");

  const InputError e = error_of([] {
    (void)io::parse_scenario(
        "name: dup\ncluster:\n- kind: List\n  items:\n  - {kind: Node, metadata: {name: w1}}\n"
        "- {kind: Node, metadata: {name: w1}}\n",
        "s.yaml");
  });
  CHECK(e.pointer() == "/cluster/1");
  CHECK(e.line() == 6);
  CHECK(e.reason() == "duplicate Node \"w1\": also defined at /cluster/0/items/0");
}

TEST_CASE("include adds the objects of files and directories after the scenario's own",
          "[io][yaml]") {
  TempDir dir;
  dir.write("cluster/nodes.yaml", R"(kind: Node
metadata: {name: n1}
---
apiVersion: v1
kind: List
items:
- kind: Node
  metadata: {name: n2}
- kind: Node
  metadata: {name: n3}
---
)");
  dir.write("workloads/b.yaml", "kind: Pod\nmetadata: {name: pb}\nspec: {containers: [{}]}\n");
  dir.write("workloads/a.json",
            R"({"kind": "Pod", "metadata": {"name": "pa"}, "spec": {"containers": [{}]}})");
  dir.write("workloads/notes.txt", "not a manifest");
  dir.write("workloads/sub/c.yaml", "kind: Pod\nmetadata: {name: pc}\n");  // not recursive
  dir.write("more.json", R"({"kind": "PriorityClass", "metadata": {"name": "pc"}, "value": 5})");
  const std::string file = dir.write("s.yaml", R"(name: inc
include: [cluster/nodes.yaml, workloads/, more.json]
cluster:
- kind: Node
  metadata: {name: own}
)");
  const Scenario s = io::load_scenario(file);
  std::vector<std::string> names;
  for (const Object& object : s.cluster) names.push_back(ref_of(object).name);
  CHECK(names == std::vector<std::string>{"own", "n1", "n2", "n3", "pa", "pb", "pc"});
  const std::string nodes = dir.at("cluster/nodes.yaml");
  CHECK(s.cluster_pointers ==
        std::vector<std::string>{"/cluster/0", nodes + ":1: /0", nodes + ":7: /1/items/0",
                                 nodes + ":9: /1/items/1", dir.at("workloads/a.json") + ":1",
                                 dir.at("workloads/b.yaml") + ":1", dir.at("more.json") + ":1"});
  CHECK(io::is_manifest_file(nodes));
  CHECK(io::is_manifest_file(dir.at("more.json")));
  CHECK_FALSE(io::is_manifest_file(file));
  CHECK(io::input_kind(file) == io::InputKind::Scenario);
  CHECK(io::input_kind(nodes) == io::InputKind::Manifest);
  CHECK(io::input_kind(dir.write("mig.yaml", "version: v1\nmig-configs: {}\n")) ==
        io::InputKind::Other);
  CHECK(io::input_kind(dir.write("broken.json", "{")) == io::InputKind::Scenario);
}

TEST_CASE("include errors name the file and the place", "[io][yaml]") {
  TempDir dir;
  dir.write("more.json", R"({"kind": "PriorityClass", "metadata": {"name": "pc"}, "value": 5})");
  dir.write("bad.yaml", "kind: Node\nmetadata: {name: w1}\nstatus:\n  capacity:\n    cpu: [1]\n");
  dir.write("broken.yaml", "kind: Node\nmetadata: {name: [w1}\n");
  dir.write("own.yaml", "kind: Node\nmetadata:\n  name: own\n");
  dir.write("empty/README", "nothing here");
  struct Row {
    const char* name;
    std::string scenario;
    std::string file;  // "": the scenario itself
    std::string pointer;
    int line;
    std::string reason;  // empty: not checked
  };
  const std::vector<Row> rows = {
      {"missing file", "name: t\ninclude:\n- nope.yaml\n", "", "/include/0", 3,
       "no such file or directory: " + dir.at("nope.yaml")},
      {"itself", "name: t\ninclude: [s.yaml]\n", "", "/include/0", 2,
       "include cycle: " + dir.at("s.yaml") + " is the scenario itself"},
      {"its own directory", "name: t\ninclude: [./]\n", "", "/include/0", 2,
       "include cycle: " + dir.at("s.yaml") + " is the scenario itself"},
      {"twice", "name: t\ninclude: [more.json, ./more.json]\n", "", "/include/1", 2,
       dir.at("more.json") + " is already included by /include/0"},
      {"empty directory", "name: t\ninclude: [empty]\n", "", "/include/0", 2,
       "directory " + dir.at("empty") + " holds no .json, .yaml or .yml file"},
      {"device", "name: t\ninclude: [/dev/null]\n", "", "/include/0", 2,
       "not a regular file or a directory: /dev/null"},
      {"empty path", "name: t\ninclude: ['']\n", "", "/include/0", 2,
       "an include path must not be empty"},
      {"not a list", "name: t\ninclude: more.json\n", "", "/include", 2,
       "expected an array, got string"},
      {"bad object inside", "name: t\ninclude: [bad.yaml]\n", dir.at("bad.yaml"),
       "/status/capacity/cpu", 5, ""},
      {"malformed inside", "name: t\ninclude: [broken.yaml]\n", dir.at("broken.yaml"), "", 2,
       "invalid YAML at column 21: illegal flow end"},
      {"duplicate across files",
       "name: t\ninclude: [own.yaml]\ncluster:\n- kind: Node\n  metadata: {name: own}\n",
       dir.at("own.yaml"), "", 1, "duplicate Node \"own\": also defined at /cluster/0"},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      const std::string scenario = dir.write("s.yaml", row.scenario);
      const InputError e = error_of([&] { (void)io::load_scenario(scenario); });
      CHECK(e.file() == (row.file.empty() ? scenario : row.file));
      CHECK(e.pointer() == row.pointer);
      CHECK(e.line() == row.line);
      if (!row.reason.empty()) CHECK(e.reason() == row.reason);
    }
  }
}

TEST_CASE("the bundled scenario built from manifests", "[io][yaml]") {
  const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/";
  const Scenario s = io::load_scenario(dir + "included-manifests.json");
  std::vector<std::string> names;
  for (const Object& object : s.cluster)
    names.push_back(ref_of(object).kind + "/" + ref_of(object).name);
  CHECK(names == std::vector<std::string>{"Pod/notebook", "Node/kind-control-plane",
                                          "Node/kind-worker", "Node/kind-worker2",
                                          "PriorityClass/training", "Job/train"});
  const std::string nodes = dir + "manifests/kind-cluster.json";
  const std::string job = dir + "manifests/training-job.yaml";
  CHECK(s.cluster_pointers ==
        std::vector<std::string>{"/cluster/0", nodes + ":4: /items/0", nodes + ":49: /items/1",
                                 nodes + ":75: /items/2", job + ":2: /0", job + ":10: /1"});
  const Node& control_plane = std::get<Node>(s.cluster[1]);
  CHECK(control_plane.taints ==
        std::vector<Taint>{{"node-role.kubernetes.io/control-plane", "", TaintEffect::NoSchedule}});
  const auto& job_object = std::get<Job>(s.cluster[5]);
  CHECK(job_object.parallelism == 2);
  CHECK(job_object.completions == 2);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {

// Issue 19: yaml-cpp holds a flow collection's tokens until it ends, ~70 bytes a byte, so YAML
// has a lower limit than JSON's 256 MiB.
TEST_CASE("YAML over 64 MiB is refused before it is parsed", "[io][yaml][limits]") {
  std::string text = "name: big\ndescription: \"";
  text.resize(io::kMaxYamlBytes + 1, 'x');
  try {
    (void)io::parse_yaml("big.yaml", text);
    FAIL("parsed");
  } catch (const InputError& e) {
    CHECK(e.file() == "big.yaml");
    CHECK(e.reason() ==
          "YAML file is larger than the limit of 64 MiB (JSON may have 256 MiB: `yq -o json` "
          "converts it)");
  }
}

}  // namespace gpusched
