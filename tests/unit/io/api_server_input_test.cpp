// What the API server refuses in an object as read from a file: duplicate keys in JSON (as
// strict decoding and YAML refuse them), annotation keys and their total size, a Job whose name
// cannot be a label value, and starting objects from after the scenario's startTime.
#include <catch2/catch.hpp>

#include <string>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"

namespace gpusched {
namespace {

/// The error loading `text` ends with, as printed (`file:line: pointer: reason`), or "".
std::string load_error(const std::string& text, const std::string& file = "t.json") {
  try {
    (void)io::parse_scenario(text, file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string with_cluster(const std::string& objects, const std::string& top = "") {
  return R"({"name": "t", )" + top + R"("cluster": [)" + objects + "]}";
}

TEST_CASE("JSON with a duplicate key is refused as YAML refuses it", "[io][apiserver]") {
  const std::string json = with_cluster(R"({"kind": "Node",
    "metadata": {"name": "n1", "name": "n2"}})");
  CHECK(load_error(json) ==
        "t.json:2: /cluster/0/metadata/name: duplicate field "
        "\"cluster[0].metadata.name\"");
  CHECK(load_error(R"({"name": "a", "name": "b"})") == "t.json:1: /name: duplicate field \"name\"");
  // YAML says it with goyaml's words, at the second key.
  CHECK(load_error("name: t\ncluster:\n- kind: Node\n  metadata:\n    name: n1\n    name: n2\n",
                   "t.yaml") ==
        "t.yaml:6: /cluster/0/metadata/name: key \"name\" already set in map");
  // The same key in two objects is no duplicate.
  CHECK(load_error(with_cluster(R"({"kind": "Node", "metadata": {"name": "n1"}},
                                  {"kind": "Node", "metadata": {"name": "n2"}})")) == "");
}

TEST_CASE("annotation keys are qualified names and annotations at most 256 KiB",
          "[io][apiserver]") {
  CHECK(load_error(with_cluster(
            R"({"kind": "Node", "metadata": {"name": "n1", "annotations": {"a b": "x"}}})")) ==
        "t.json:1: /cluster/0/metadata/annotations/a b: The Node \"n1\" is invalid: "
        "metadata.annotations: Invalid value: \"a b\": name part must consist of alphanumeric "
        "characters, '-', '_' or '.', and must start and end with an alphanumeric character "
        "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
        "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
  // Upper case is allowed in the prefix of an annotation key (it is checked lowercased).
  CHECK(
      load_error(with_cluster(
          R"({"kind": "Node", "metadata": {"name": "n1", "annotations": {"Example.COM/x": "1"}}})")) ==
      "");
  const std::string big(262144, 'v');
  CHECK(load_error(with_cluster(R"({"kind": "Node", "metadata": {"name": "n1",
      "annotations": {"k": ")" + big +
                                R"("}}})")) ==
        "t.json:2: /cluster/0/metadata/annotations: The Node \"n1\" is invalid: "
        "metadata.annotations: Too long: must have at most 262144 bytes");
}

TEST_CASE("a Job whose name is longer than a label value is refused", "[io][apiserver]") {
  const std::string name(64, 'j');
  const std::string job = R"({"kind": "Job", "apiVersion": "batch/v1", "metadata": {"name": ")" +
                          name + R"("}, "spec": {"template": {"spec": {"restartPolicy": "Never",
                          "containers": [{"name": "c"}]}}}})";
  CHECK(load_error(with_cluster(job)) ==
        "t.json:1: /cluster/0/metadata/name: The Job \"" + name +
            "\" is invalid: spec.template.labels: Invalid value: \"" + name +
            "\": must be no more than 63 characters");
  const std::string fits = R"({"kind": "Job", "apiVersion": "batch/v1", "metadata": {"name": ")" +
                           std::string(63, 'j') + R"("}, "spec": {"template": {"spec":
                           {"restartPolicy": "Never", "containers": [{"name": "c"}]}}}})";
  CHECK(load_error(with_cluster(fits)) == "");
}

TEST_CASE("a starting object from after startTime is refused", "[io][apiserver]") {
  const std::string top = R"("startTime": "2026-11-30T08:00:00Z", )";
  CHECK(load_error(with_cluster(R"({"kind": "Node", "metadata": {"name": "n1",
      "creationTimestamp": "2026-11-30T09:00:00Z"}})",
                                top)) ==
        "t.json:2: /cluster/0/metadata/creationTimestamp: the object was created at "
        "2026-11-30T09:00:00Z, after the scenario's startTime 2026-11-30T08:00:00Z: the starting "
        "cluster's objects exist when the replay starts; give a startTime at or after their "
        "timestamps");
  CHECK(load_error(with_cluster(R"({"kind": "Pod", "metadata": {"name": "p",
      "creationTimestamp": "2026-11-30T07:00:00Z"}, "spec": {"nodeName": "n1",
      "containers": [{"name": "c"}]}, "status": {"phase": "Running",
      "startTime": "2026-11-30T08:00:01Z"}})",
                                top)) ==
        "t.json:4: /cluster/0/status/startTime: the object was started at 2026-11-30T08:00:01Z, "
        "after the scenario's startTime 2026-11-30T08:00:00Z: the starting cluster's objects "
        "exist when the replay starts; give a startTime at or after their timestamps");
  // At startTime, or a deletion after it (a terminating pod), is fine.
  CHECK(load_error(with_cluster(R"({"kind": "Pod", "metadata": {"name": "p",
      "creationTimestamp": "2026-11-30T08:00:00Z", "deletionTimestamp": "2026-11-30T08:01:00Z"},
      "spec": {"nodeName": "n1", "containers": [{"name": "c"}]}})",
                                top)) == "");
}

}  // namespace
}  // namespace gpusched
