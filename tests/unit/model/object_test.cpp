#include "gpusched/model/object.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

namespace gpusched {
namespace {

TEST_CASE("Object kinds, metadata and references", "[model][object]") {
  Node node;
  node.metadata.name = "w1";
  node.metadata.namespace_ = "ignored";
  Pod pod;
  pod.metadata.name = "x";
  pod.metadata.namespace_ = "default";
  Job job;
  job.metadata.name = "train";
  job.metadata.namespace_ = "ml";

  Object node_object = node;
  const Object pod_object = pod;
  CHECK(kind_of(node_object) == "Node");
  CHECK(kind_of(pod_object) == "Pod");
  CHECK(kind_of(Object(Deployment{})) == "Deployment");
  CHECK(kind_of(Object(ReplicaSet{})) == "ReplicaSet");
  CHECK(kind_of(Object(DaemonSet{})) == "DaemonSet");
  CHECK(kind_of(Object(job)) == "Job");

  CHECK(ref_of(node_object).to_string() == "Node/w1");
  CHECK(ref_of(node_object).namespace_.empty());
  CHECK(ref_of(pod_object).to_string() == "Pod/default/x");
  CHECK(ref_of(Object(job)).to_string() == "Job/ml/train");

  meta_of(node_object).labels["zone"] = "a";
  CHECK(std::get<Node>(node_object).metadata.labels.at("zone") == "a");
  CHECK(&meta_of(pod_object) == &std::get<Pod>(pod_object).metadata);

  CHECK_FALSE(is_namespaced("Node"));
  CHECK(is_namespaced("Pod"));
  CHECK(is_namespaced("Deployment"));
  CHECK(is_namespaced("ReplicaSet"));
  CHECK(is_namespaced("DaemonSet"));
  CHECK(is_namespaced("Job"));
  CHECK(ObjectRef{"Pod", "a", "b"} < ObjectRef{"Pod", "b", "a"});
}

TEST_CASE("ObjectMeta::controller", "[model][object]") {
  ObjectMeta meta;
  CHECK(meta.controller() == nullptr);
  meta.owner_references = {{"Deployment", "d", "u1", false}, {"ReplicaSet", "rs", "u2", true}};
  REQUIRE(meta.controller() != nullptr);
  CHECK(meta.controller()->name == "rs");
  meta.owner_references.mut()[1].controller = false;
  CHECK(meta.controller() == nullptr);
}

TEST_CASE("key_less orders objects as their \"namespace/name\" strings compare",
          "[model][object]") {
  // '-' and '.' sort before '/', '0' after it; an empty namespace or name; a byte from 0x80 on
  // (std::string compares bytes unsigned); and namespaces holding a '/' (validation refuses
  // them, the order stays exact): "a/b" + "x" against "a" + "b/y" is decided by the names.
  const std::vector<std::pair<std::string, std::string>> names = {
      {"a", "z"},     {"a-b", "x"},       {"a", "y"},         {"a.b", "c"}, {"a0", "a"},
      {"ab", ""},     {"", "x"},          {"a", ""},          {"b", "a"},   {"a/b", "x"},
      {"a", "b/y"},   {"a", "b/x"},       {"a/b", "y"},       {"a/", "x"},  {"a", "\xc3x"},
      {"a\xc3", "a"}, {"default", "p-1"}, {"default", "p-10"}};
  for (const auto& [ns_a, name_a] : names) {
    for (const auto& [ns_b, name_b] : names) {
      ObjectMeta a;
      a.namespace_ = ns_a;
      a.name = name_a;
      ObjectMeta b;
      b.namespace_ = ns_b;
      b.name = name_b;
      INFO(ns_a << "/" << name_a << " against " << ns_b << "/" << name_b);
      CHECK(key_less(a, b) == (ns_a + "/" + name_a < ns_b + "/" + name_b));
    }
  }
}

}  // namespace
}  // namespace gpusched
