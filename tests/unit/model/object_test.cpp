#include "gpusched/model/object.hpp"

#include <catch2/catch.hpp>

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

}  // namespace
}  // namespace gpusched
