// A live-cluster snapshot as a starting state: what is kept, what is left out, the times, and
// the scenario written from it.

#include "gpusched/io/snapshot.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/scenario_writer.hpp"
#include "gpusched/sim/simulator.hpp"
#include "support/temp_dir.hpp"

namespace gpusched::io {
namespace {

using test::TempDir;

const std::string kBundled = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/snapshots/gpu-lab.json";
const std::string kDraLab = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/snapshots/dra-lab.json";

/// The snapshot was taken at 08:05:02, the latest heartbeat of node gpu-b1.
constexpr std::int64_t kTakenAt = 1'796'025'902'000;

const Pod& pod_named(const Scenario& scenario, std::string_view key) {
  for (const Object& object : scenario.cluster) {
    if (const auto* pod = std::get_if<Pod>(&object); pod != nullptr && pod->key() == key)
      return *pod;
  }
  FAIL("no pod " << key);
  throw std::logic_error("unreachable");
}

/// A `kubectl get -o json` List of `items` (JSON text of each, comma-separated).
std::string list_of(const std::string& items) {
  return R"({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": [)" +
         items + "]}";
}

const std::string kNode = R"({"apiVersion": "v1", "kind": "Node",
  "metadata": {"name": "w1", "creationTimestamp": "2026-11-30T08:00:00Z", "uid": "n-1",
               "managedFields": [{"manager": "kubelet"}]},
  "status": {"capacity": {"cpu": "8", "memory": "32Gi", "pods": "110", "nvidia.com/gpu": "1"},
             "conditions": [{"type": "Ready", "status": "True",
                             "lastHeartbeatTime": "2026-11-30T09:00:00Z",
                             "lastTransitionTime": "2026-11-30T08:00:10Z"}],
             "nodeInfo": {"kubeletVersion": "v1.33.4"}}})";

std::string gpu_pod(const std::string& name, const std::string& extra_metadata,
                    const std::string& node, const std::string& status,
                    const std::string& extra_spec = {}) {
  return R"({"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": ")" +
         name + R"(", "namespace": "ml", "uid": "uid-)" + name + R"(",
               "creationTimestamp": "2026-11-30T08:30:00Z")" +
         extra_metadata + R"(},
  "spec": {)" +
         extra_spec + (node.empty() ? std::string() : R"("nodeName": ")" + node + R"(", )") +
         R"("containers": [{"name": "main", "image": "x",
                              "resources": {"limits": {"nvidia.com/gpu": "1"}}}]},
  "status": )" +
         status + "}";
}

TEST_CASE("the bundled snapshot becomes a starting state", "[snapshot]") {
  const Snapshot snapshot = load_snapshot(kBundled);
  const Scenario& scenario = snapshot.scenario;
  CHECK(scenario.name == "gpu-lab");
  REQUIRE(scenario.start_time == kTakenAt);
  // 3 nodes, 8 bound pods and 1 waiting, 4 PriorityClasses, 1 PDB; the Succeeded pod is out.
  CHECK(snapshot.snapshot_objects == 17);
  CHECK(scenario.cluster.size() == 17);
  CHECK(snapshot.snapshot_pods.size() == 9);
  CHECK_FALSE(snapshot.snapshot_pods.contains("ml/eval-b-7rj2d"));
  REQUIRE(snapshot.notes.size() == 1);
  CHECK(snapshot.notes[0] ==
        "1 terminated pod (Succeeded or Failed) left out: they hold no resources");

  const Pod& train = pod_named(scenario, "ml/train-b-0-x8kq2");
  CHECK(train.spec.node_name == "gpu-b1");
  CHECK(train.status.phase == PodPhase::Running);
  // Started 07:45:03, created 07:44:50: that long before the snapshot.
  CHECK(train.status.start_ms == -(19 * 60'000 + 59'000));
  CHECK(train.metadata.creation_ms == -(20 * 60'000 + 12'000));
  CHECK(train.spec.priority == 100);
  CHECK(train.metadata.uid.size() == 36);
  const Pod& notebook = pod_named(scenario, "research/notebook-lee");
  CHECK(notebook.spec.node_name.empty());
  CHECK_FALSE(notebook.status.start_ms.has_value());
}

TEST_CASE("a snapshot replays: bound pods keep their nodes and times, pending pods queue",
          "[snapshot]") {
  SnapshotOptions options;
  options.additions.push_back(std::string(GPUSCHED_SOURCE_DIR) +
                              "/scenarios/manifests/inference-deployment.yaml");
  const Snapshot snapshot = load_snapshot(kBundled, options);
  CHECK(snapshot.snapshot_objects == 17);
  CHECK(snapshot.scenario.cluster.size() == 18);
  const SimulationResult result = simulate(snapshot.scenario);
  // One llm replica fits in zone-b; the other must go to zone-a (maxSkew 1) where only
  // preempting a training pod makes room. The PDB allows one disruption, so the victim is the
  // pod filterPodsWithPDBViolation counts first: the more important, earlier-started one.
  REQUIRE(result.preemptions.size() == 1);
  CHECK(result.preemptions[0].node == "gpu-a1");
  REQUIRE(result.preemptions[0].victims.size() == 1);
  CHECK(result.preemptions[0].victims[0].pod.starts_with("ml/train-a-0-"));
  CHECK(result.preemptions[0].victims[0].ran == 3 * 3'600'000 + 2 * 60'000 + 51'000);
  std::size_t llm_running = 0;
  for (const PodRecord& record : result.pods) {
    if (record.pod.metadata.namespace_ == "serving" &&
        record.pod.status.phase == PodPhase::Running) {
      ++llm_running;
    }
    if (record.pod.key() == "research/notebook-lee") {
      CHECK(record.pod.status.phase == PodPhase::Pending);
      CHECK(record.pod.status.condition("PodScheduled")->message ==
            "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient "
            "nvidia.com/gpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 "
            "Preemption is not helpful for scheduling, 2 No preemption victims found for "
            "incoming pod.");
    }
  }
  CHECK(llm_running == 2);
}

TEST_CASE("a snapshot leaves out what it cannot replay, with a note for each", "[snapshot]") {
  const TempDir dir;
  const std::string rs = R"({"apiVersion": "apps/v1", "kind": "ReplicaSet",
    "metadata": {"name": "web-1", "namespace": "ml"},
    "spec": {"selector": {"matchLabels": {"a": "b"}},
             "template": {"metadata": {"labels": {"a": "b"}},
                          "spec": {"containers": [{"name": "c", "image": "x"}]}}}})";
  const std::string config =
      R"({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}})";
  const std::string file = dir.write(
      "snap.json", list_of(kNode + "," + rs + "," + config + "," + config + "," +
                           gpu_pod("gone", "", "w1", R"({"phase": "Failed"})") + "," +
                           gpu_pod("lost", "", "w9", R"({"phase": "Running"})") + "," +
                           gpu_pod("classy", "", "", R"({"phase": "Pending"})",
                                   R"("priorityClassName": "deleted", "priority": 7, )")));
  const Snapshot snapshot = load_snapshot(file);
  // The recreated class comes first, so that the pod is admitted with its own priority.
  REQUIRE(snapshot.scenario.cluster.size() == 4);
  CHECK(snapshot.snapshot_objects == 4);
  const auto* recreated = std::get_if<PriorityClass>(&snapshot.scenario.cluster[0]);
  REQUIRE(recreated != nullptr);
  CHECK(recreated->metadata.name == "deleted");
  CHECK(recreated->value == 7);
  CHECK(snapshot.notes ==
        std::vector<std::string>{"PriorityClass \"deleted\" is not in the snapshot: recreated with "
                                 "value 7 from its 1 pod",
                                 "node \"w9\" is not in the snapshot: 1 pod bound to it runs "
                                 "nowhere (phase Unknown) and the pod garbage collector deletes it "
                                 "once the node has been missing 40 s",
                                 "1 terminated pod (Succeeded or Failed) left out: they hold no "
                                 "resources",
                                 "1 ReplicaSet object left out: a snapshot keeps nodes, pods, "
                                 "PriorityClasses, PodDisruptionBudgets, Namespaces, Services, "
                                 "StatefulSets, Kueue's objects and resource.k8s.io's"});
  // A kind gpusched does not model is left out as from any manifest, placed at the first one.
  CHECK(snapshot.scenario.notes ==
        std::vector<std::string>{file + ":12: /items/2: 2 ConfigMap objects skipped: they do not "
                                        "change where or whether pods run"});
  const Pod& classy = pod_named(snapshot.scenario, "ml/classy");
  CHECK(classy.spec.priority_class_name == "deleted");
  CHECK(classy.spec.priority == 7);
  // The latest timestamp is the node's heartbeat.
  CHECK(snapshot.scenario.start_time == parse_rfc3339("2026-11-30T09:00:00Z"));
  // The pod is admitted with its own priority, not refused for its vanished class; the pod of
  // the missing node is gone once the pod garbage collector's quarantine is over.
  const SimulationResult result = simulate(snapshot.scenario);
  REQUIRE(result.pods.size() == 1);
  CHECK(result.pods[0].pod.key() == "ml/classy");
  CHECK(result.pods[0].pod.spec.priority == 7);
}

TEST_CASE("a snapshot keeps Kueue's objects as kubectl lists them", "[snapshot][kueue]") {
  const TempDir dir;
  const std::string cq = R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
    "metadata": {"name": "research", "uid": "cq-1", "resourceVersion": "7"},
    "spec": {"namespaceSelector": {}, "resourceGroups": [{"coveredResources": ["nvidia.com/gpu"],
      "flavors": [{"name": "h100", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": "8"}]}]}]},
    "status": {"pendingWorkloads": 0, "admittedWorkloads": 0}})";
  const std::string lq = R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
    "metadata": {"name": "team-a", "namespace": "ml"}, "spec": {"clusterQueue": "research"},
    "status": {"pendingWorkloads": 0}})";
  const std::string topology = R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Topology",
    "metadata": {"name": "dc"}, "spec": {"levels": [{"nodeLabel": "rack"}]}})";
  const std::string file =
      dir.write("snap.json", list_of(kNode + "," + cq + "," + lq + "," + topology));
  const Snapshot snapshot = load_snapshot(file);
  REQUIRE(snapshot.scenario.cluster.size() == 3);
  CHECK(std::get<kueue::ClusterQueue>(snapshot.scenario.cluster[1]).metadata.uid == "cq-1");
  CHECK(std::get<kueue::LocalQueue>(snapshot.scenario.cluster[2]).cluster_queue == "research");
  CHECK(snapshot.scenario.notes ==
        std::vector<std::string>{file + ":14: /items/3: 1 Topology (kueue.x-k8s.io/v1beta2) object "
                                        "ignored: Kueue's Topology Aware Scheduling is not "
                                        "modelled: workloads are admitted without a topology "
                                        "assignment (refused under --strict)"});
  // They replay: the objects wait in the API server's stores.
  CHECK(simulate(snapshot.scenario).pods.empty());
}

TEST_CASE("a snapshot keeps resource.k8s.io's objects, a claim's allocation and reservation",
          "[snapshot][dra]") {
  // kubectl's order: the node, the pod, then its slice, claim, template and class. Every field
  // kubectl prints is known (managedFields, resourceVersion, generateName, finalizers, ...).
  SnapshotOptions strict;
  strict.strict = true;
  const Snapshot snapshot = load_snapshot(kDraLab, strict);
  const Scenario& scenario = snapshot.scenario;
  CHECK(snapshot.snapshot_objects == 6);
  CHECK(snapshot.notes.empty());
  CHECK(scenario.warnings.empty());
  CHECK(scenario.notes.empty());
  // What the pod is created against comes first, in the dump's order otherwise.
  std::vector<std::string> kinds;
  for (const Object& object : scenario.cluster) kinds.emplace_back(kind_of(object));
  CHECK(kinds == std::vector<std::string>{"ResourceSlice", "ResourceClaim", "ResourceClaimTemplate",
                                          "DeviceClass", "Node", "Pod"});
  const auto& slice = std::get<dra::ResourceSlice>(scenario.cluster[0]);
  CHECK(slice.metadata.name == "dra-h100-1-gpu.nvidia.com-7xk2p");
  CHECK(slice.node_name == "dra-h100-1");
  CHECK(slice.pool == dra::ResourcePool{"dra-h100-1", 1, 1});
  REQUIRE(slice.devices.size() == 2);
  CHECK(slice.devices[1].name == "gpu-1");
  CHECK(slice.devices[1].attributes.at("uuid").string_value ==
        "GPU-7d1f3b5a-9e2c-4a6b-8d0f-1e3a5c7b9d2f");

  const auto& claim = std::get<dra::ResourceClaim>(scenario.cluster[1]);
  CHECK(claim.metadata.name == "train-a-gpu-k8x2v");
  CHECK(claim.metadata.annotations.at("resource.kubernetes.io/pod-claim-name") == "gpu");
  REQUIRE(claim.metadata.controller() != nullptr);
  CHECK(claim.metadata.controller()->uid == "2f7c9e1b-4d6a-48b3-a5c0-9e1f3b7d5a28");
  REQUIRE(claim.status.allocation.has_value());
  REQUIRE(claim.status.allocation->devices.size() == 1);
  const dra::DeviceRequestAllocationResult& device = claim.status.allocation->devices[0];
  CHECK(std::tie(device.request, device.driver, device.pool, device.device) ==
        std::tie("gpu", "gpu.nvidia.com", "dra-h100-1", "gpu-0"));
  REQUIRE(claim.status.allocation->node_selector.has_value());
  CHECK(claim.status.allocation->node_selector->terms.front().match_fields.front().values ==
        std::vector<std::string>{"dra-h100-1"});
  CHECK(claim.status.reserved_for ==
        std::vector<dra::ConsumerReference>{
            {"pods", "train-a", "2f7c9e1b-4d6a-48b3-a5c0-9e1f3b7d5a28"}});
  // Created 1h47m10s before the latest heartbeat, as the pod was.
  CHECK(claim.metadata.creation_ms == -(3600'000 + 47 * 60'000 + 10'000));

  const Pod& train = pod_named(scenario, "ml/train-a");
  CHECK(train.status.resource_claim_statuses ==
        std::vector<PodResourceClaimStatus>{{"gpu", "train-a-gpu-k8x2v"}});

  // The replay keeps the pod on its claim: no second claim from the template, no event.
  const SimulationResult result = simulate(scenario);
  REQUIRE(result.resource_claims.size() == 1);
  CHECK(result.resource_claims[0].name == "train-a-gpu-k8x2v");
  CHECK(result.resource_claims[0].reserved_for == std::vector<std::string>{"Pod/ml/train-a"});
  CHECK(result.events.empty());
}

TEST_CASE("a snapshot creates a pod's PriorityClass before it, whatever kubectl's order",
          "[snapshot]") {
  // `kubectl get pods,priorityclasses` lists the pod first.
  const std::string dump =
      list_of(kNode + "," +
              gpu_pod("p", "", "w1", R"({"phase": "Running", "startTime": "2026-11-30T08:30:01Z"})",
                      R"("priorityClassName": "training", "priority": 100, )") +
              R"(, {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
            "metadata": {"name": "training", "creationTimestamp": "2026-11-30T07:00:00Z"},
            "value": 100})");
  const Snapshot snapshot = parse_snapshot(dump, "dump.json");
  REQUIRE(snapshot.scenario.cluster.size() == 3);
  CHECK(std::holds_alternative<PriorityClass>(snapshot.scenario.cluster[0]));
  const SimulationResult result = simulate(snapshot.scenario);
  REQUIRE(result.pods.size() == 1);
  CHECK(result.pods[0].pod.spec.priority == 100);
  CHECK(result.pods[0].pod.status.phase == PodPhase::Running);
}

/// A claim dumped as `kubectl get resourceclaims -o json` prints one: `owner` is the pod that
/// controls it ("" for none), `reserved` the pods (name, uid) it is reserved for.
std::string claim_json(const std::string& name, const std::string& owner,
                       const std::vector<std::pair<std::string, std::string>>& reserved) {
  std::string out = R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
    "metadata": {"name": ")" +
                    name + R"(", "namespace": "ml", "uid": "claim-)" + name + "\"";
  if (!owner.empty()) {
    out += R"(, "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": ")" + owner +
           R"(", "uid": "uid-)" + owner + R"(", "controller": true, "blockOwnerDeletion": true}])";
  }
  out += R"(},
    "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}},
    "status": {"allocation": {"devices": {"results": [{"request": "gpu",
      "driver": "gpu.example.com", "pool": "w1", "device": "gpu-0"}]}}, "reservedFor": [)";
  for (std::size_t i = 0; i < reserved.size(); ++i) {
    out += (i == 0 ? "" : ", ") + std::string(R"({"resource": "pods", "name": ")") +
           reserved[i].first + R"(", "uid": ")" + reserved[i].second + "\"}";
  }
  return out + "]}}";
}

TEST_CASE("a snapshot releases the claims of pods it does not hold, as the controller would",
          "[snapshot][dra]") {
  const std::string done = gpu_pod("done", "", "w1", R"({"phase": "Succeeded"})");
  const std::string running =
      gpu_pod("running", "", "w1", R"({"phase": "Running", "startTime": "2026-11-30T08:30:01Z"})");
  const std::string dump =
      list_of(kNode + "," + done + "," + running + "," +
              // Made for the finished pod: deleted by the resourceclaim controller.
              claim_json("done-gpu-x1", "done", {{"done", "uid-done"}}) + "," +
              // Shared by both: the finished pod's reservation goes, the claim stays allocated.
              claim_json("shared", "", {{"done", "uid-done"}, {"running", "uid-running"}}) + "," +
              // A user's claim only the finished pod used: deallocated, kept for the next pod.
              claim_json("mine", "", {{"done", "uid-done"}}) + "," +
              // Reserved for a pod of the same name that was replaced (another uid).
              claim_json("stale", "", {{"running", "uid-old"}}));
  const Snapshot snapshot = parse_snapshot(dump, "dump.json");
  std::map<std::string, const dra::ResourceClaim*> claims;
  for (const Object& object : snapshot.scenario.cluster) {
    if (const auto* claim = std::get_if<dra::ResourceClaim>(&object))
      claims[claim->metadata.name] = claim;
  }
  REQUIRE(claims.size() == 3);
  CHECK(snapshot.snapshot_objects == 5);
  CHECK(claims["shared"]->status.allocation.has_value());
  CHECK(claims["shared"]->status.reserved_for ==
        std::vector<dra::ConsumerReference>{{"pods", "running", "uid-running"}});
  CHECK_FALSE(claims["mine"]->status.allocation.has_value());
  CHECK(claims["mine"]->status.reserved_for.empty());
  CHECK_FALSE(claims["stale"]->status.allocation.has_value());
  CHECK(snapshot.notes ==
        std::vector<std::string>{
            "ResourceClaim ml/done-gpu-x1 belongs to pod ml/done, which is not in the snapshot "
            "(terminated or deleted): left out, as Kubernetes deletes a claim made for a pod that "
            "is done or gone",
            "ResourceClaim ml/shared is reserved for pod ml/done, not in the snapshot (terminated "
            "or deleted): the reservation is removed, as the resourceclaim controller does",
            "ResourceClaim ml/mine is reserved for pod ml/done, not in the snapshot (terminated or "
            "deleted): deallocated, as the resourceclaim controller does",
            "ResourceClaim ml/stale is reserved for pod ml/running, not in the snapshot "
            "(terminated or deleted): deallocated, as the resourceclaim controller does",
            "1 terminated pod (Succeeded or Failed) left out: they hold no resources"});
}

TEST_CASE("dumps may hold namespaced objects of one name in different namespaces", "[snapshot]") {
  const TempDir dir;
  auto service = [](const std::string& ns) {
    return R"({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": ")" +
           ns + R"("}, "spec": {"selector": {"app": ")" + ns + R"("}}})";
  };
  auto template_in = [](const std::string& ns) {
    return R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
      "metadata": {"name": "one-gpu", "namespace": ")" +
           ns + R"("}, "spec": {"spec": {"devices": {"requests": [{"name": "gpu",
        "exactly": {"deviceClassName": "gpu.nvidia.com"}}]}}}})";
  };
  const std::string a = dir.write("a.json", list_of(service("a") + "," + template_in("a")));
  const std::string b = dir.write("b.json", list_of(service("b") + "," + template_in("b")));
  const Snapshot snapshot = load_snapshot(std::vector<std::filesystem::path>{a, b});
  CHECK(snapshot.snapshot_objects == 4);
}

TEST_CASE("a pod terminating in the snapshot holds its node until its deletionTimestamp",
          "[snapshot]") {
  const TempDir dir;
  const std::string file = dir.write(
      "snap.json",
      list_of(kNode + "," +
              gpu_pod("old", R"(, "deletionTimestamp": "2026-11-30T09:00:20Z",
                                 "deletionGracePeriodSeconds": 30)",
                      "w1", R"({"phase": "Running", "startTime": "2026-11-30T08:30:05Z"})") +
              "," + gpu_pod("new", "", "", R"({"phase": "Pending"})")));
  const Snapshot snapshot = load_snapshot(file);
  CHECK(pod_named(snapshot.scenario, "ml/old").metadata.deletion_ms == 20'000);
  const SimulationResult result = simulate(snapshot.scenario);
  REQUIRE(result.pods.size() == 1);
  CHECK(result.pods[0].pod.key() == "ml/new");
  CHECK(result.pods[0].pod.spec.node_name == "w1");
  // It waited for the GPU: scheduled after 20s (the retry after the deletion frees it).
  REQUIRE(result.pods[0].scheduled.has_value());
  CHECK(*result.pods[0].scheduled >= 20'000);
}

TEST_CASE("the taken-at option moves the snapshot's instant", "[snapshot]") {
  SnapshotOptions options;
  options.taken_at = parse_rfc3339("2026-11-30T10:00:00Z");
  const Snapshot snapshot = load_snapshot(kBundled, options);
  CHECK(snapshot.scenario.start_time == options.taken_at);
  const Pod& train = pod_named(snapshot.scenario, "ml/train-b-0-x8kq2");
  CHECK(train.status.start_ms == -(2 * 3'600'000 + 14 * 60'000 + 57'000));
}

TEST_CASE("a pod started after --taken-at but created before it is clock skew, clamped",
          "[snapshot][apiserver]") {
  // The node's kubelet stamps status.startTime by its own clock, 3 s ahead of the API server's.
  const std::string dump = list_of(R"({"apiVersion": "v1", "kind": "Node",
      "metadata": {"name": "n1", "creationTimestamp": "2026-11-30T07:00:00Z"},
      "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "nvidia.com/gpu": "1"}}},
    {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default",
      "creationTimestamp": "2026-11-30T07:59:58Z"},
      "spec": {"nodeName": "n1", "containers": [{"name": "c",
        "resources": {"limits": {"nvidia.com/gpu": "1"}}}]},
      "status": {"phase": "Running", "startTime": "2026-11-30T08:00:03Z"}})");
  SnapshotOptions options;
  options.taken_at = parse_rfc3339("2026-11-30T08:00:00Z");
  const Snapshot snapshot = parse_snapshot(dump, "dump.json", options);
  const Pod& p = pod_named(snapshot.scenario, "default/p");
  CHECK(p.status.start_ms == 0);  // never a negative `ran`
  CHECK(p.metadata.creation_ms == -2000);
  REQUIRE(snapshot.scenario.warnings.size() == 1);
  CHECK(snapshot.scenario.warnings[0] ==
        "dump.json:8: /items/1/status/startTime: Pod \"default/p\" was started at "
        "2026-11-30T08:00:03Z, after --taken-at 2026-11-30T08:00:00Z though created before it "
        "(its node's clock is ahead?): read as started at --taken-at");
  const SimulationResult result = simulate(snapshot.scenario);
  REQUIRE(result.pods.size() == 1);
  CHECK(result.pods[0].pod.status.start_ms == 0);
}

const std::string kSubdomain =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

TEST_CASE("snapshot errors name the file, line and place", "[snapshot]") {
  const TempDir dir;
  struct Row {
    const char* name;
    std::string text;
    std::string where;
    std::string reason;
  };
  const std::vector<Row> rows = {
      {"bad timestamp",
       list_of(R"({"kind": "Node", "metadata": {"name": "w1", "creationTimestamp": "yesterday"}})"),
       "/items/0/metadata/creationTimestamp",
       "invalid time \"yesterday\": expected RFC 3339, e.g. \"2026-11-30T04:05:06Z\""},
      {"not an object", list_of("42"), "/items/0", "expected an object, got number"},
      {"no kind", list_of(R"({"metadata": {"name": "x"}})"), "/items/0",
       "missing required key \"kind\""},
      // Found by the fuzzer: the scenario written from this snapshot did not load back,
      // because the pod spec let through a name the PriorityClass itself may not have.
      {"priorityClassName not a DNS subdomain",
       list_of(gpu_pod("p", "", "", R"({"phase": "Pending"})", R"("priorityClassName": "Low", )")),
       "/items/0/spec/priorityClassName",
       "The Pod \"p\" is invalid: spec.priorityClassName: Invalid value: \"Low\": " + kSubdomain},
      {"nodeName not a DNS subdomain",
       list_of(gpu_pod("p", "", "gpu_1", R"({"phase": "Running"})")), "/items/0/spec/nodeName",
       "The Pod \"p\" is invalid: spec.nodeName: Invalid value: \"gpu_1\": " + kSubdomain},
      {"duplicate",
       list_of(
           R"({"kind": "Node", "metadata": {"name": "w1"}}, {"kind": "Node", "metadata": {"name": "w1"}})"),
       "/items/1", "duplicate Node \"w1\": also defined at /items/0"},
  };
  for (const Row& row : rows) {
    SECTION(row.name) {
      const std::string file = dir.write("snap.json", row.text);
      try {
        (void)load_snapshot(file);
        FAIL("no error");
      } catch (const InputError& e) {
        CHECK(e.file() == file);
        CHECK(e.pointer() == row.where);
        CHECK(e.reason() == row.reason);
      }
    }
  }
}

TEST_CASE("an addition that collides with the snapshot names both places", "[snapshot]") {
  const TempDir dir;
  const std::string snap = dir.write("snap.json", list_of(kNode));
  const std::string added = dir.write("node.yaml", "kind: Node\nmetadata:\n  name: w1\n");
  SnapshotOptions options;
  options.additions.push_back(added);
  try {
    (void)load_snapshot(snap, options);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == added);
    CHECK(e.line() == 1);
    CHECK(e.reason() == "duplicate Node \"w1\": also defined at /items/0");
  }
}

TEST_CASE("the scenario written from a snapshot loads back to the same starting state",
          "[snapshot]") {
  Snapshot snapshot = load_snapshot(kBundled);
  Scenario& scenario = snapshot.scenario;
  PodExpectation waiting;
  waiting.pod = "research/notebook-lee";
  waiting.phase = "Pending";
  scenario.expect.push_back(Expectation{std::nullopt, "", waiting});
  const TempDir dir;
  const std::string file = dir.write("gpu-lab-scenario.json", scenario_json_text(scenario));
  const Scenario loaded = load_scenario(file);
  CHECK(loaded.name == scenario.name);
  CHECK(loaded.description == scenario.description);
  CHECK(loaded.start_time == scenario.start_time);
  REQUIRE(loaded.cluster.size() == scenario.cluster.size());
  for (std::size_t i = 0; i < scenario.cluster.size(); ++i) {
    INFO(ref_of(scenario.cluster[i]).to_string());
    CHECK(loaded.cluster[i] == scenario.cluster[i]);
  }
  REQUIRE(loaded.expect.size() == 1);
  const auto& check = std::get<PodExpectation>(loaded.expect[0].check);
  CHECK(check.pod == "research/notebook-lee");
  CHECK(check.phase == "Pending");
  CHECK(check.node == std::optional<std::optional<std::string>>(std::nullopt));
  CHECK(simulate(loaded).passed);
}

}  // namespace
}  // namespace gpusched::io
