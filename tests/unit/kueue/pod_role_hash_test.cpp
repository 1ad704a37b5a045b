// The role hash of Kueue's pod groups (lib/kueue/pod_role_hash.cpp; Kueue v0.19.2
// pkg/util/pod/pod.go GenerateRoleHash), checked against the pod set names of upstream's tests.
#include <catch2/catch.hpp>

#include "kueue/pod_role_hash.hpp"

namespace gpusched {
namespace {

/// testingpod.MakePod(...).Request(corev1.ResourceCPU, "1"): one container requesting a CPU,
/// no priority (the test pods skip the Priority admission plugin).
PodSpec upstream_test_pod() {
  PodSpec spec;
  Container c;
  c.name = "c";
  c.requests.emplace("cpu", Quantity::from_units(1));
  spec.containers.push_back(c);
  return spec;
}

TEST_CASE("sha256_hex matches FIPS 180-4's examples", "[kueue][pod]") {
  CHECK(kueue::sha256_hex("") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(kueue::sha256_hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(kueue::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("role_hash names a pod set as Kueue does", "[kueue][pod]") {
  // pod_controller_test.go TestReconciler: the group of basePodWrapper pods gets the pod set
  // "dc85db45".
  const kueue::RoleHash base = kueue::role_hash(upstream_test_pod());
  CHECK(base.hash == "dc85db45");
  CHECK(base.exact);

  // pod_webhook_test.go TestGetRoleHash "kueue.x-k8s.io/* labels shouldn't affect the role":
  // only the spec counts. The admission gate is not in the shape either.
  PodSpec gated = upstream_test_pod();
  gated.scheduling_gates.push_back("kueue.x-k8s.io/admission");
  CHECK(kueue::role_hash(gated).hash == "dc85db45");

  // The priority the Priority admission plugin sets is in the shape.
  PodSpec prioritized = upstream_test_pod();
  prioritized.priority = 0;
  CHECK(kueue::role_hash(prioritized).hash != "dc85db45");

  // A field whose JSON gpusched cannot write as Go does is flagged.
  PodSpec with_affinity = upstream_test_pod();
  Affinity affinity;
  affinity.node_affinity.emplace();
  with_affinity.affinity = affinity;
  CHECK_FALSE(kueue::role_hash(with_affinity).exact);
}

}  // namespace
}  // namespace gpusched
