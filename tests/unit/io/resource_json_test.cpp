// resource.k8s.io's objects in lib/io/resource_*.cpp and the pod fields that refer to them:
// NVIDIA's DRA driver's DeviceClasses and an 8-GPU H100 node's ResourceSlice, upstream's
// defaults (pkg/apis/resource/v1/defaults.go), v1beta1 converted as
// pkg/apis/resource/v1beta1/conversion.go does, the API server's messages
// (pkg/apis/resource/validation/validation.go and core validatePodResourceClaims /
// validateResourceClaimNames at release-1.36), the round trip through to_json, and a
// `kubectl get -o json` List of them.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "io/input_text.hpp"
#include "io/object_json.hpp"
#include "io/resource_json.hpp"
#include "io/resource_validation.hpp"
#include "unit/io/object_text.hpp"

namespace gpusched {
namespace {

using nlohmann::json;

Object parse(const std::string& text) {
  return test::parse_object_text(text);
}

template <typename T>
T parse_as(const std::string& text) {
  return std::get<T>(parse(text));
}

/// validation.IsDNS1123Label's and IsDNS1123Subdomain's messages.
const std::string kLabelMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const std::string kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const std::string kRequestRefMsg =
    "must be the name of a request in the claim or the name of a request and a subrequest "
    "separated by '/'";

// NVIDIA's DRA driver for GPUs (k8s-dra-driver-gpu, deployments/helm/.../deviceclass-*.yaml).
const std::string kGpuClass = R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
  "metadata": {"name": "gpu.nvidia.com"},
  "spec": {"selectors": [{"cel": {"expression":
    "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"}}]}})";
const std::string kMigClass = R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
  "metadata": {"name": "mig.nvidia.com"},
  "spec": {"selectors": [{"cel": {"expression":
    "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'"}}]}})";

/// The ResourceSlice NVIDIA's driver publishes for an 8-GPU H100 node (one slice, the node's
/// pool, each GPU with its attributes and 80Gi of memory).
json h100_slice() {
  json devices = json::array();
  for (int i = 0; i < 8; ++i) {
    devices.push_back(
        {{"name", "gpu-" + std::to_string(i)},
         {"attributes",
          {{"architecture", {{"string", "Hopper"}}},
           {"brand", {{"string", "Nvidia"}}},
           {"cudaComputeCapability", {{"version", "9.0.0"}}},
           {"cudaDriverVersion", {{"version", "12.4.0"}}},
           {"driverVersion", {{"version", "550.54.15"}}},
           {"index", {{"int", i}}},
           {"minor", {{"int", i}}},
           {"productName", {{"string", "NVIDIA H100 80GB HBM3"}}},
           {"type", {{"string", "gpu"}}},
           {"uuid", {{"string", "GPU-4d4b1e0c-27b1-4bb2-9c3e-0c6a4d5b8a0" + std::to_string(i)}}},
           {"resource.kubernetes.io/pcieRoot", {{"string", "pci0000:" + std::to_string(i / 2)}}}}},
         {"capacity", {{"memory", {{"value", "80Gi"}}}}}});
  }
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceSlice"},
          {"metadata", {{"name", "h100-1-gpu.nvidia.com-x8k2p"}}},
          {"spec",
           {{"driver", "gpu.nvidia.com"},
            {"nodeName", "h100-1"},
            {"pool", {{"name", "h100-1"}, {"generation", 1}, {"resourceSliceCount", 1}}},
            {"devices", std::move(devices)}}}};
}

TEST_CASE("NVIDIA's DeviceClasses read their CEL selectors", "[io][dra]") {
  const Object object = parse(kGpuClass);
  CHECK(ref_of(object).to_string() == "DeviceClass/gpu.nvidia.com");
  const auto& gpu = std::get<dra::DeviceClass>(object);
  REQUIRE(gpu.selectors.size() == 1);
  CHECK(gpu.selectors[0].cel ==
        "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'");
  CHECK(gpu.config.empty());
  CHECK_FALSE(gpu.extended_resource_name);

  const auto with_config = parse_as<dra::DeviceClass>(R"({"kind": "DeviceClass",
      "metadata": {"name": "gpu.example.com"},
      "spec": {"extendedResourceName": "example.com/gpu",
               "config": [{"opaque": {"driver": "gpu.example.com",
                                      "parameters": {"sharing": {"strategy": "TimeSlicing"}}}}]}})");
  CHECK(with_config.extended_resource_name == "example.com/gpu");
  REQUIRE(with_config.config.size() == 1);
  CHECK(with_config.config[0].driver == "gpu.example.com");
  CHECK(with_config.config[0].parameters == R"({"sharing":{"strategy":"TimeSlicing"}})");
}

TEST_CASE("an H100 node's ResourceSlice as NVIDIA's driver publishes it", "[io][dra]") {
  const Object object = parse(h100_slice().dump());
  CHECK(ref_of(object).to_string() == "ResourceSlice/h100-1-gpu.nvidia.com-x8k2p");
  CHECK_FALSE(is_namespaced("ResourceSlice"));
  const auto& slice = std::get<dra::ResourceSlice>(object);
  CHECK(slice.driver == "gpu.nvidia.com");
  CHECK(slice.pool == dra::ResourcePool{"h100-1", 1, 1});
  CHECK(slice.node_name == "h100-1");
  CHECK_FALSE(slice.node_selector);
  CHECK_FALSE(slice.all_nodes);
  REQUIRE(slice.devices.size() == 8);
  const dra::Device& gpu3 = slice.devices[3];
  CHECK(gpu3.name == "gpu-3");
  CHECK(gpu3.attributes.size() == 11);
  CHECK(gpu3.attributes.at("index") == dra::DeviceAttribute::of_int(3));
  CHECK(gpu3.attributes.at("productName") ==
        dra::DeviceAttribute::of_string("NVIDIA H100 80GB HBM3"));
  CHECK(gpu3.attributes.at("cudaComputeCapability") == dra::DeviceAttribute::of_version("9.0.0"));
  CHECK(gpu3.attributes.at("driverVersion") == dra::DeviceAttribute::of_version("550.54.15"));
  CHECK(gpu3.attributes.at("resource.kubernetes.io/pcieRoot") ==
        dra::DeviceAttribute::of_string("pci0000:1"));
  REQUIRE(gpu3.capacity.count("memory") == 1);
  CHECK(gpu3.capacity.at("memory").value == Quantity(80LL * 1024 * 1024 * 1024 * 1000));
  CHECK(gpu3.capacity.at("memory").value.to_string() == "80Gi");
  CHECK_FALSE(gpu3.capacity.at("memory").request_policy);
  CHECK(gpu3.taints.empty());
  CHECK_FALSE(gpu3.allow_multiple_allocations);
}

TEST_CASE("claims take upstream's defaults", "[io][dra]") {
  const auto claim = parse_as<dra::ResourceClaim>(R"({"apiVersion": "resource.k8s.io/v1",
      "kind": "ResourceClaim", "metadata": {"name": "c"},
      "spec": {"devices": {"requests": [
        {"name": "one", "exactly": {"deviceClassName": "gpu.nvidia.com",
                                    "tolerations": [{"key": "gpu", "value": "x"}]}},
        {"name": "all", "exactly": {"deviceClassName": "gpu.nvidia.com", "allocationMode": "All"}},
        {"name": "two", "exactly": {"deviceClassName": "gpu.nvidia.com", "count": 2,
                                    "adminAccess": true}},
        {"name": "any", "firstAvailable": [{"name": "big", "deviceClassName": "gpu.nvidia.com"},
                                           {"name": "small", "deviceClassName": "mig.nvidia.com",
                                            "count": 0}]}]}}})");
  CHECK(claim.metadata.namespace_ == "default");
  CHECK(ref_of(Object(claim)).to_string() == "ResourceClaim/default/c");
  const auto& requests = claim.spec.requests;
  REQUIRE(requests.size() == 4);
  REQUIRE(requests[0].exactly);
  CHECK(requests[0].exactly->allocation_mode == dra::AllocationMode::ExactCount);
  CHECK(requests[0].exactly->count == 1);
  CHECK_FALSE(requests[0].exactly->admin_access);
  REQUIRE(requests[0].exactly->tolerations.size() == 1);
  CHECK(requests[0].exactly->tolerations[0] ==
        dra::DeviceToleration{"gpu", false, "x", std::nullopt, std::nullopt});
  CHECK(requests[1].exactly->allocation_mode == dra::AllocationMode::All);
  CHECK(requests[1].exactly->count == 0);
  CHECK(requests[2].exactly->count == 2);
  CHECK(requests[2].exactly->admin_access == true);
  CHECK_FALSE(requests[3].exactly);
  REQUIRE(requests[3].first_available.size() == 2);
  CHECK(requests[3].first_available[1].name == "small");
  CHECK(requests[3].first_available[1].count == 1);
  CHECK(requests[3].first_available[1].allocation_mode == dra::AllocationMode::ExactCount);
  CHECK(claim.status == dra::ResourceClaimStatus{});
}

TEST_CASE("v1beta1 converts to v1 and v1beta2 reads as v1", "[io][dra]") {
  struct Row {
    const char* name;
    std::string v1;
    std::string other;
  };
  const std::vector<Row> rows = {
      {"a flat v1beta1 request is `exactly`",
       R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "c"},
          "spec": {"devices": {"requests": [
            {"name": "gpu", "exactly": {"deviceClassName": "gpu.nvidia.com", "count": 2,
              "selectors": [{"cel": {"expression": "device.attributes['gpu.nvidia.com'].index < 4"}}],
              "tolerations": [{"operator": "Exists", "effect": "NoSchedule"}]}}]}}})",
       R"({"apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceClaim", "metadata": {"name": "c"},
          "spec": {"devices": {"requests": [
            {"name": "gpu", "deviceClassName": "gpu.nvidia.com", "count": 2,
             "selectors": [{"cel": {"expression": "device.attributes['gpu.nvidia.com'].index < 4"}}],
             "tolerations": [{"operator": "Exists", "effect": "NoSchedule"}]}]}}})"},
      {"a v1beta1 firstAvailable request stays one",
       R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
          "metadata": {"name": "t"}, "spec": {"spec": {"devices": {"requests": [
            {"name": "gpu", "firstAvailable": [{"name": "h100", "deviceClassName": "gpu.nvidia.com"},
                                               {"name": "mig", "deviceClassName": "mig.nvidia.com",
                                                "allocationMode": "All"}]}]}}}})",
       R"({"apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceClaimTemplate",
          "metadata": {"name": "t"}, "spec": {"spec": {"devices": {"requests": [
            {"name": "gpu", "firstAvailable": [{"name": "h100", "deviceClassName": "gpu.nvidia.com"},
                                               {"name": "mig", "deviceClassName": "mig.nvidia.com",
                                                "allocationMode": "All"}]}]}}}})"},
      {"a v1beta1 device's fields are under `basic`",
       R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"},
          "spec": {"driver": "gpu.nvidia.com", "nodeName": "n1",
                   "pool": {"name": "n1", "generation": 3, "resourceSliceCount": 2},
                   "devices": [{"name": "gpu-0", "attributes": {"index": {"int": 0}},
                                "capacity": {"memory": {"value": "40Gi"}},
                                "taints": [{"key": "unhealthy", "effect": "NoExecute"}]},
                               {"name": "gpu-1"}]}})",
       R"({"apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceSlice", "metadata": {"name": "s"},
          "spec": {"driver": "gpu.nvidia.com", "nodeName": "n1",
                   "pool": {"name": "n1", "generation": 3, "resourceSliceCount": 2},
                   "devices": [{"name": "gpu-0", "basic": {"attributes": {"index": {"int": 0}},
                                "capacity": {"memory": {"value": "40Gi"}},
                                "taints": [{"key": "unhealthy", "effect": "NoExecute"}]}},
                               {"name": "gpu-1"}]}})"},
      {"v1beta2 has v1's shape", kGpuClass,
       R"({"apiVersion": "resource.k8s.io/v1beta2", "kind": "DeviceClass",
          "metadata": {"name": "gpu.nvidia.com"},
          "spec": {"selectors": [{"cel": {"expression":
            "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"}}]}})"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      CHECK(parse(row.other) == parse(row.v1));
      CHECK(io::to_json(parse(row.other)).at("apiVersion") == "resource.k8s.io/v1");
    }
  }
}

TEST_CASE("resource.k8s.io objects and pods with claims read back equal from to_json",
          "[io][dra]") {
  struct Row {
    const char* name;
    std::string object;
  };
  const std::vector<Row> rows = {
      {"gpu.nvidia.com", kGpuClass},
      {"mig.nvidia.com", kMigClass},
      {"a class with config and an extended resource",
       R"({"kind": "DeviceClass", "metadata": {"name": "gpu.example.com", "labels": {"a": "b"}},
          "spec": {"extendedResourceName": "example.com/gpu",
                   "selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}],
                   "config": [{"opaque": {"driver": "gpu.example.com",
                                          "parameters": {"kind": "GpuConfig", "n": [1, 2]}}}]}})"},
      {"an 8-GPU H100 node", h100_slice().dump()},
      {"shared counters of a MIG-capable GPU",
       R"({"kind": "ResourceSlice", "metadata": {"name": "a100-1-counters"},
          "spec": {"driver": "gpu.nvidia.com", "nodeName": "a100-1",
                   "pool": {"name": "a100-1", "generation": 1, "resourceSliceCount": 2},
                   "sharedCounters": [{"name": "gpu-0-counter-set",
                     "counters": {"memory": {"value": "40Gi"}, "multiprocessors": {"value": 108}}}]}})"},
      {"partitions consuming counters, tainted",
       R"({"kind": "ResourceSlice", "metadata": {"name": "a100-1-partitions"},
          "spec": {"driver": "gpu.nvidia.com", "nodeName": "a100-1",
                   "pool": {"name": "a100-1", "generation": 1, "resourceSliceCount": 2},
                   "devices": [{"name": "gpu-0-mig-1g-5gb-0",
                     "attributes": {"type": {"string": "mig"}, "profile": {"string": "1g.5gb"}},
                     "consumesCounters": [{"counterSet": "gpu-0-counter-set",
                       "counters": {"memory": {"value": "5Gi"}, "multiprocessors": {"value": 14}}}],
                     "taints": [{"key": "maintenance", "value": "planned", "effect": "None",
                                 "timeAdded": "2026-01-02T03:04:05Z"}]}]}})"},
      {"per-device node selection",
       R"({"kind": "ResourceSlice", "metadata": {"name": "fabric"},
          "spec": {"driver": "fabric.example.com", "perDeviceNodeSelection": true,
                   "pool": {"name": "fabric/rack-1", "generation": 0, "resourceSliceCount": 1},
                   "devices": [{"name": "link-0", "nodeName": "n1"},
                               {"name": "link-1", "allNodes": true},
                               {"name": "link-2", "nodeSelector": {"nodeSelectorTerms": [
                                 {"matchExpressions": [{"key": "rack", "operator": "In",
                                                        "values": ["1"]}]}]}}]}})"},
      {"a network-attached pool",
       R"({"kind": "ResourceSlice", "metadata": {"name": "remote"},
          "spec": {"driver": "gpu.example.com",
                   "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
                     {"key": "metadata.name", "operator": "In", "values": ["n1"]}]}]},
                   "pool": {"name": "remote", "generation": 7, "resourceSliceCount": 1},
                   "devices": [{"name": "gpu-0", "bindsToNode": true,
                                "bindingConditions": ["dra.example.com/attached"],
                                "bindingFailureConditions": ["dra.example.com/failed"]}]}})"},
      {"consumable capacity",
       R"({"kind": "ResourceSlice", "metadata": {"name": "shared"},
          "spec": {"driver": "gpu.example.com", "allNodes": true,
                   "pool": {"name": "shared", "generation": 1, "resourceSliceCount": 1},
                   "devices": [{"name": "gpu-0", "allowMultipleAllocations": true,
                     "capacity": {
                       "memory": {"value": "80Gi", "requestPolicy": {"default": "10Gi",
                         "validRange": {"min": "2Gi", "max": "80Gi", "step": "2Gi"}}},
                       "cores": {"value": 100, "requestPolicy": {"default": 25,
                         "validValues": [25, 50, 100]}},
                       "bandwidth": {"value": "10G"}}}]}})"},
      {"an allocated, reserved claim",
       R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
          "metadata": {"name": "trainer-gpus-x7k2p", "namespace": "ml",
                       "annotations": {"resource.kubernetes.io/pod-claim-name": "gpus"},
                       "ownerReferences": [{"kind": "Pod", "name": "trainer", "uid": "p-uid",
                                            "controller": true}]},
          "spec": {"devices": {
            "requests": [
              {"name": "gpus", "exactly": {"deviceClassName": "gpu.nvidia.com", "count": 2,
                "selectors": [{"cel": {"expression": "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('40Gi')) >= 0"}}],
                "tolerations": [{"key": "maintenance", "operator": "Exists", "effect": "NoExecute",
                                 "tolerationSeconds": 60}],
                "capacity": {"requests": {"memory": "10Gi"}}}},
              {"name": "nic", "firstAvailable": [
                {"name": "fast", "deviceClassName": "nic.example.com", "allocationMode": "All"},
                {"name": "slow", "deviceClassName": "nic.example.com", "count": 2}]},
              {"name": "monitor", "exactly": {"deviceClassName": "gpu.nvidia.com",
                                              "allocationMode": "All", "adminAccess": true}}],
            "constraints": [
              {"requests": ["gpus", "nic"], "matchAttribute": "resource.kubernetes.io/pcieRoot"},
              {"requests": ["nic/slow"], "distinctAttribute": "nic.example.com/port"}],
            "config": [{"requests": ["gpus"], "opaque": {"driver": "gpu.nvidia.com",
                          "parameters": {"apiVersion": "resource.nvidia.com/v1beta1",
                                         "kind": "GpuConfig"}}}]}},
          "status": {
            "allocation": {
              "devices": {
                "results": [
                  {"request": "gpus", "driver": "gpu.nvidia.com", "pool": "h100-1", "device": "gpu-0",
                   "tolerations": [{"key": "maintenance", "operator": "Exists"}],
                   "consumedCapacity": {"memory": "10Gi"},
                   "shareID": "6ba7b810-9dad-11d1-80b4-00c04fd430c8"},
                  {"request": "nic/fast", "driver": "nic.example.com", "pool": "h100-1/nics",
                   "device": "nic-0", "bindingConditions": ["a"], "bindingFailureConditions": ["b"]},
                  {"request": "monitor", "driver": "gpu.nvidia.com", "pool": "h100-1",
                   "device": "gpu-1", "adminAccess": true}],
                "config": [
                  {"source": "FromClass", "opaque": {"driver": "gpu.nvidia.com", "parameters": {}}},
                  {"source": "FromClaim", "requests": ["gpus"],
                   "opaque": {"driver": "gpu.nvidia.com", "parameters": {"kind": "GpuConfig"}}}]},
              "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
                {"key": "metadata.name", "operator": "In", "values": ["h100-1"]}]}]}},
            "reservedFor": [{"resource": "pods", "name": "trainer", "uid": "p-uid"}]}})"},
      {"a template with claim labels",
       R"({"kind": "ResourceClaimTemplate", "metadata": {"name": "two-gpus", "namespace": "ml"},
          "spec": {"metadata": {"labels": {"team": "a"}, "annotations": {"note": "x"}},
                   "spec": {"devices": {"requests": [
                     {"name": "gpus", "exactly": {"deviceClassName": "gpu.nvidia.com",
                                                  "count": 2}}]}}}})"},
      {"a pod with claims",
       R"({"kind": "Pod", "metadata": {"name": "trainer", "namespace": "ml"},
          "spec": {"resourceClaims": [{"name": "gpus", "resourceClaimTemplateName": "two-gpus"},
                                      {"name": "shared", "resourceClaimName": "nic-pool"}],
                   "initContainers": [{"name": "init", "resources": {"claims": [{"name": "shared"}]}}],
                   "containers": [{"name": "cuda", "resources": {"claims": [
                     {"name": "gpus"}, {"name": "shared", "request": "fast"}]}}]},
          "status": {"phase": "Pending", "resourceClaimStatuses": [
            {"name": "gpus", "resourceClaimName": "trainer-gpus-x7k2p"}, {"name": "shared"}]}})"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const Object first = parse(row.object);
      const Object again = parse(io::to_json_text(first));
      CHECK(again == first);
    }
  }
}

TEST_CASE("claim status, counters, node selection and pod claims keep their values", "[io][dra]") {
  const auto pod = parse_as<Pod>(R"({"kind": "Pod", "metadata": {"name": "p"},
      "spec": {"resourceClaims": [{"name": "gpus", "resourceClaimTemplateName": "two-gpus"}],
               "containers": [{"name": "c", "resources": {"claims": [{"name": "gpus",
                                                                      "request": "a"}]}}]},
      "status": {"resourceClaimStatuses": [{"name": "gpus", "resourceClaimName": "p-gpus-x"}]}})");
  REQUIRE(pod.spec.resource_claims.size() == 1);
  CHECK(pod.spec.resource_claims[0] == PodResourceClaim{"gpus", std::nullopt, "two-gpus"});
  REQUIRE(pod.spec.containers->size() == 1);
  CHECK(pod.spec.containers->at(0).claims == std::vector<ContainerClaim>{{"gpus", "a"}});
  CHECK(pod.status.resource_claim_statuses ==
        std::vector<PodResourceClaimStatus>{{"gpus", "p-gpus-x"}});

  const auto claim = parse_as<dra::ResourceClaim>(R"({"kind": "ResourceClaim",
      "metadata": {"name": "c", "namespace": "ml"},
      "spec": {"devices": {"requests": [{"name": "gpu",
                                         "exactly": {"deviceClassName": "gpu.nvidia.com"}}]}},
      "status": {"allocation": {"devices": {"results": [
                   {"request": "gpu", "driver": "gpu.nvidia.com", "pool": "n1", "device": "gpu-0"}]},
                 "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
                   {"key": "metadata.name", "operator": "In", "values": ["n1"]}]}]},
                 "allocationTimestamp": "2026-05-01T10:00:00Z"},
                 "reservedFor": [{"resource": "pods", "name": "p", "uid": "u1"}]}})");
  REQUIRE(claim.status.allocation);
  REQUIRE(claim.status.allocation->devices.size() == 1);
  CHECK(claim.status.allocation->devices[0].device == "gpu-0");
  REQUIRE(claim.status.allocation->node_selector);
  REQUIRE(claim.status.allocation->node_selector->terms.size() == 1);
  CHECK(claim.status.allocation->node_selector->terms[0].match_fields[0].values ==
        std::vector<std::string>{"n1"});
  CHECK(claim.status.reserved_for == std::vector<dra::ConsumerReference>{{"pods", "p", "u1"}});

  const auto counters = parse_as<dra::ResourceSlice>(R"({"kind": "ResourceSlice",
      "metadata": {"name": "s"},
      "spec": {"driver": "gpu.nvidia.com", "perDeviceNodeSelection": true,
               "pool": {"name": "p", "generation": 2, "resourceSliceCount": 3},
               "sharedCounters": [{"name": "set", "counters": {"memory": {"value": "40Gi"}}}]}})");
  CHECK(counters.per_device_node_selection);
  CHECK(counters.pool == dra::ResourcePool{"p", 2, 3});
  REQUIRE(counters.shared_counters.size() == 1);
  CHECK(counters.shared_counters[0].counters.at("memory").to_string() == "40Gi");
}

TEST_CASE("a pod with claims loads without a note: DRA is modelled", "[io][dra]") {
  const Scenario scenario = io::parse_scenario(R"({"name": "s", "cluster": [
      {"kind": "Pod", "metadata": {"name": "p"},
       "spec": {"resourceClaims": [{"name": "gpus", "resourceClaimTemplateName": "two-gpus"}],
                "containers": [{"name": "c", "resources": {"claims": [{"name": "gpus"}]}}]}}]})",
                                               "s.json");
  CHECK(scenario.notes.empty());
  const auto* pod = std::get_if<Pod>(&scenario.cluster.front());
  REQUIRE(pod != nullptr);
  REQUIRE(pod->spec.resource_claims.size() == 1);
  CHECK(pod->spec.resource_claims[0].resource_claim_template_name ==
        std::optional<std::string>("two-gpus"));
}

struct ErrorRow {
  std::string name;
  std::string object;
  std::string pointer;
  std::string reason;
};

void check_errors(const std::vector<ErrorRow>& rows) {
  for (const ErrorRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      try {
        (void)parse(row.object);
        FAIL("no error for " << row.name);
      } catch (const InputError& e) {
        CHECK(e.pointer() == row.pointer);
        CHECK(e.reason() == row.reason);
      }
    }
  }
}

/// A ResourceClaim "c" with `devices` as spec.devices, then `rest` (`, "status": ...`).
std::string claim(const std::string& devices, const std::string& rest = "",
                  const std::string& version = "resource.k8s.io/v1") {
  return R"({"apiVersion": ")" + version +
         R"(", "kind": "ResourceClaim", "metadata": {"name": "c"}, "spec": {"devices": )" +
         devices + "}" + rest + "}";
}

/// A claim with one request "gpu" whose `exactly` is `exactly`.
std::string exact_claim(const std::string& exactly) {
  return claim(R"({"requests": [{"name": "gpu", "exactly": )" + exactly + "}]}");
}

/// An allocated claim of request "gpu" whose results are `results`.
std::string allocated_claim(const std::string& results) {
  return claim(R"({"requests": [{"name": "gpu", "exactly": {"deviceClassName": "g"}}]})",
               R"(, "status": {"allocation": {"devices": {"results": )" + results + "}}}");
}

std::string repeated(const std::string& item, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) {
    if (i > 0) out += ", ";
    out += item;
  }
  return out;
}

/// `count` requests named r0, r1, ...
std::string requests(int count) {
  std::string out = "[";
  for (int i = 0; i < count; ++i) {
    if (i > 0) out += ", ";
    out += R"({"name": "r)" + std::to_string(i) + R"(", "exactly": {"deviceClassName": "g"}})";
  }
  return out + "]";
}

TEST_CASE("ResourceClaims are refused as the API server refuses them", "[io][dra]") {
  const std::string c = "The ResourceClaim \"c\" is invalid: ";
  const std::string r0 = "spec.devices.requests[0]";
  const std::string exactly = r0 + ".exactly";
  const std::string gpu = R"({"name": "gpu", "exactly": {"deviceClassName": "g"}})";
  std::string reserved = "[";
  for (int i = 0; i < 257; ++i) {
    reserved += std::string(i > 0 ? ", " : "") + R"({"resource": "pods", "name": "p", "uid": "u)" +
                std::to_string(i) + R"("})";
  }
  reserved += "]";
  check_errors({
      {"neither exactly nor firstAvailable", claim(R"({"requests": [{"name": "gpu"}]})"),
       "/spec/devices/requests/0",
       c + r0 + ": Required value: exactly one of `exactly` or `firstAvailable` is required"},
      {"both exactly and firstAvailable",
       claim(R"({"requests": [{"name": "gpu", "exactly": {"deviceClassName": "g"},
                 "firstAvailable": [{"name": "a", "deviceClassName": "g"}]}]})"),
       "/spec/devices/requests/0",
       c + r0 +
           ": Invalid value: \"null\": exactly one of `exactly` or `firstAvailable` is required, "
           "but multiple fields are set"},
      {"request name not a DNS label",
       claim(R"({"requests": [{"name": "GPU", "exactly": {"deviceClassName": "g"}}]})"),
       "/spec/devices/requests/0/name", c + r0 + ".name: Invalid value: \"GPU\": " + kLabelMsg},
      {"two requests of one name", claim(R"({"requests": [)" + gpu + ", " + gpu + "]}"),
       "/spec/devices/requests/1", c + "spec.devices.requests[1]: Duplicate value: \"gpu\""},
      {"33 requests", claim(R"({"requests": )" + requests(33) + "}"), "/spec/devices/requests",
       c + "spec.devices.requests: Too many: 33: must have at most 32 items"},
      {"no device class", exact_claim("{}"), "/spec/devices/requests/0/exactly/deviceClassName",
       c + exactly + ".deviceClassName: Required value"},
      {"device class not a DNS subdomain", exact_claim(R"({"deviceClassName": "GPU"})"),
       "/spec/devices/requests/0/exactly/deviceClassName",
       c + exactly + ".deviceClassName: Invalid value: \"GPU\": " + kSubdomainMsg},
      {"a negative count", exact_claim(R"({"deviceClassName": "g", "count": -1})"),
       "/spec/devices/requests/0/exactly/count",
       c + exactly + ".count: Invalid value: -1: must be greater than zero"},
      {"a count with All",
       exact_claim(R"({"deviceClassName": "g", "allocationMode": "All", "count": 2})"),
       "/spec/devices/requests/0/exactly/count",
       c + exactly +
           ".count: Invalid value: 2: must not be specified when allocationMode is 'All'"},
      {"an unknown allocationMode",
       exact_claim(R"({"deviceClassName": "g", "allocationMode": "Some"})"),
       "/spec/devices/requests/0/exactly/allocationMode",
       c + exactly +
           ".allocationMode: Unsupported value: \"Some\": supported values: \"All\", "
           "\"ExactCount\""},
      {"nine subrequests",
       claim(R"({"requests": [{"name": "gpu", "firstAvailable": [)" +
             repeated(R"({"name": "a", "deviceClassName": "g"})", 9) + "]}]}"),
       "/spec/devices/requests/0/firstAvailable",
       c + r0 + ".firstAvailable: Too many: 9: must have at most 8 items"},
      {"two subrequests of one name",
       claim(R"({"requests": [{"name": "gpu", "firstAvailable": [)" +
             repeated(R"({"name": "a", "deviceClassName": "g"})", 2) + "]}]}"),
       "/spec/devices/requests/0/firstAvailable/1",
       c + r0 + ".firstAvailable[1]: Duplicate value: \"a\""},
      {"a subrequest without a class",
       claim(R"({"requests": [{"name": "gpu", "firstAvailable": [{"name": "a"}]}]})"),
       "/spec/devices/requests/0/firstAvailable/0/deviceClassName",
       c + r0 + ".firstAvailable[0].deviceClassName: Required value"},
      {"a constraint on a request the claim lacks",
       claim(R"({"requests": [)" + gpu + R"(], "constraints": [{"requests": ["nic"],
                 "matchAttribute": "resource.kubernetes.io/pcieRoot"}]})"),
       "/spec/devices/constraints/0/requests/0",
       c + "spec.devices.constraints[0].requests[0]: Invalid value: \"nic\": " + kRequestRefMsg},
      {"a constraint on a subrequest of an `exactly` request",
       claim(R"({"requests": [)" + gpu +
             R"(], "constraints": [{"requests": ["gpu/a"], "matchAttribute": "a.b/c"}]})"),
       "/spec/devices/constraints/0/requests/0",
       c + "spec.devices.constraints[0].requests[0]: Invalid value: \"gpu/a\": " + kRequestRefMsg},
      {"matchAttribute without a domain",
       claim(R"({"requests": [)" + gpu + R"(], "constraints": [{"matchAttribute": "pcieRoot"}]})"),
       "/spec/devices/constraints/0/matchAttribute",
       c + "spec.devices.constraints[0].matchAttribute: Invalid value: \"pcieRoot\": a fully "
           "qualified name must be a domain and a name separated by a slash"},
      {"a constraint without an attribute",
       claim(R"({"requests": [)" + gpu + R"(], "constraints": [{"requests": ["gpu"]}]})"),
       "/spec/devices/constraints/0",
       c + "spec.devices.constraints[0]: Required value: exactly one of \"matchAttribute\" or "
           "\"distinctAttribute\" is required, but multiple fields are set"},
      {"17 tolerations",
       exact_claim(R"({"deviceClassName": "g", "tolerations": [)" +
                   repeated(R"({"operator": "Exists"})", 17) + "]}"),
       "/spec/devices/requests/0/exactly/tolerations",
       c + exactly + ".tolerations: Too many: 17: must have at most 16 items"},
      {"Exists with a value",
       exact_claim(
           R"({"deviceClassName": "g", "tolerations": [{"key": "k", "operator": "Exists", "value": "x"}]})"),
       "/spec/devices/requests/0/exactly/tolerations/0/value",
       c + exactly +
           ".tolerations[0].value: Invalid value: \"x\": must be empty for operator `Exists`"},
      {"an unknown toleration operator",
       exact_claim(R"({"deviceClassName": "g", "tolerations": [{"key": "k", "operator": "In"}]})"),
       "/spec/devices/requests/0/exactly/tolerations/0/operator",
       c + exactly +
           ".tolerations[0].operator: Unsupported value: \"In\": supported values: \"Equal\", "
           "\"Exists\""},
      {"PreferNoSchedule, a node taint's effect",
       exact_claim(
           R"({"deviceClassName": "g", "tolerations": [{"key": "k", "effect": "PreferNoSchedule"}]})"),
       "/spec/devices/requests/0/exactly/tolerations/0/effect",
       c + exactly +
           ".tolerations[0].effect: Unsupported value: \"PreferNoSchedule\": supported values: "
           "\"NoExecute\", \"NoSchedule\", \"None\""},
      {"a selector's CEL does not compile",
       exact_claim(
           R"({"deviceClassName": "g", "selectors": [{"cel": {"expression": "device.drivr == 'x'"}}]})"),
       "/spec/devices/requests/0/exactly/selectors/0/cel/expression",
       c + exactly +
           ".selectors[0].cel.expression: Invalid value: \"device.drivr == 'x'\": compilation "
           "failed: ERROR: <input>:1:7: undefined field 'drivr'\n | device.drivr == 'x'\n | "
           "......^"},
      {"a selector that is not CEL", exact_claim(R"({"deviceClassName": "g", "selectors": [{}]})"),
       "/spec/devices/requests/0/exactly/selectors/0/cel",
       c + exactly + ".selectors[0].cel: Required value"},
      {"a config without opaque",
       claim(R"({"requests": [)" + gpu + R"(], "config": [{"requests": ["gpu"]}]})"),
       "/spec/devices/config/0/opaque", c + "spec.devices.config[0].opaque: Required value"},
      {"opaque parameters that are not an object",
       claim(R"({"requests": [)" + gpu +
             R"(], "config": [{"opaque": {"driver": "d.example.com", "parameters": [1]}}]})"),
       "/spec/devices/config/0/opaque/parameters",
       c + "spec.devices.config[0].opaque.parameters: Invalid value: \"<value omitted>\": must "
           "be a valid JSON object"},
      {"opaque driver missing",
       claim(R"({"requests": [)" + gpu + R"(], "config": [{"opaque": {"parameters": {}}}]})"),
       "/spec/devices/config/0/opaque/driver",
       c + "spec.devices.config[0].opaque.driver: Required value"},
      {"a v1beta1 request without a class",
       claim(R"({"requests": [{"name": "gpu", "count": 2}]})", "", "resource.k8s.io/v1beta1"),
       "/spec/devices/requests/0/deviceClassName",
       c + exactly + ".deviceClassName: Required value"},
      {"a v1beta1 request with neither",
       claim(R"({"requests": [{"name": "gpu"}]})", "", "resource.k8s.io/v1beta1"),
       "/spec/devices/requests/0",
       c + r0 + ": Required value: exactly one of `exactly` or `firstAvailable` is required"},
      {"reservedFor without an allocation",
       claim(R"({"requests": [)" + gpu + "]}",
             R"(, "status": {"reservedFor": [{"resource": "pods", "name": "p", "uid": "u"}]})"),
       "/status/reservedFor",
       c + "status.reservedFor: Forbidden: may not be specified when `allocated` is not set"},
      {"reservedFor without a uid",
       claim(R"({"requests": [)" + gpu + "]}",
             R"(, "status": {"reservedFor": [{"resource": "pods", "name": "p"}]})"),
       "/status/reservedFor/0/uid", c + "status.reservedFor[0].uid: Required value"},
      {"257 consumers",
       claim(R"({"requests": [)" + gpu + "]}", R"(, "status": {"reservedFor": )" + reserved + "}"),
       "/status/reservedFor", c + "status.reservedFor: Too many: 257: must have at most 256 items"},
      {"a result for a request the claim lacks",
       allocated_claim(
           R"([{"request": "nic", "driver": "d.example.com", "pool": "p", "device": "d"}])"),
       "/status/allocation/devices/results/0/request",
       c + "status.allocation.devices.results[0].request: Invalid value: \"nic\": " +
           kRequestRefMsg},
      {"a shareID that is not a UUID",
       allocated_claim(
           R"([{"request": "gpu", "driver": "d.example.com", "pool": "p", "device": "d", "shareID": "abc"}])"),
       "/status/allocation/devices/results/0/shareID",
       c + "status.allocation.devices.results[0].shareID: Invalid value: \"abc\": error "
           "validating uid: invalid UUID length: 3"},
      {"a result's pool with an empty segment",
       allocated_claim(
           R"([{"request": "gpu", "driver": "d.example.com", "pool": "a//b", "device": "d"}])"),
       "/status/allocation/devices/results/0/pool",
       c + "status.allocation.devices.results[0].pool: Invalid value: \"\": " + kSubdomainMsg},
      {"a config of unknown source",
       claim(R"({"requests": [)" + gpu + "]}",
             R"(, "status": {"allocation": {"devices": {"config": [{"source": "FromNode",
                 "opaque": {"driver": "d.example.com", "parameters": {}}}]}}})"),
       "/status/allocation/devices/config/0/source",
       c + "status.allocation.devices.config[0].source: Unsupported value: \"FromNode\": "
           "supported values: \"FromClaim\", \"FromClass\""},
      {"a version resource.k8s.io does not serve",
       claim(R"({"requests": []})", "", "resource.k8s.io/v1alpha3"), "/apiVersion",
       "apiVersion \"resource.k8s.io/v1alpha3\" does not serve kind ResourceClaim; use "
       "\"resource.k8s.io/v1\""},
      {"a claim name that is not a DNS subdomain",
       R"({"kind": "ResourceClaim", "metadata": {"name": "C"}, "spec": {}})", "/metadata/name",
       "The ResourceClaim \"C\" is invalid: metadata.name: Invalid value: \"C\": " + kSubdomainMsg},
  });
}

/// A ResourceSlice "s" with `spec`.
std::string slice(const std::string& spec, const std::string& version = "resource.k8s.io/v1") {
  return R"({"apiVersion": ")" + version +
         R"(", "kind": "ResourceSlice", "metadata": {"name": "s"}, "spec": )" + spec + "}";
}

/// A node-local slice of `devices`.
std::string devices_slice(const std::string& devices,
                          const std::string& version = "resource.k8s.io/v1") {
  return slice(R"({"driver": "gpu.nvidia.com", "nodeName": "n1",
                   "pool": {"name": "n1", "generation": 1, "resourceSliceCount": 1},
                   "devices": )" +
                   devices + "}",
               version);
}

/// `count` devices gpu-0, gpu-1, ...
std::string devices(int count, const std::string& first_extra = "") {
  std::string out = "[";
  for (int i = 0; i < count; ++i) {
    if (i > 0) out += ", ";
    out += R"({"name": "gpu-)" + std::to_string(i) + "\"" + (i == 0 ? first_extra : "") + "}";
  }
  return out + "]";
}

/// A device allowed multiple allocations whose memory capacity has `policy`.
std::string policy_slice(const std::string& policy) {
  return devices_slice(R"([{"name": "gpu-0", "allowMultipleAllocations": true,
      "capacity": {"memory": {"value": "80Gi", "requestPolicy": )" +
                       policy + "}}}]");
}

TEST_CASE("ResourceSlices are refused as the API server refuses them", "[io][dra]") {
  const std::string s = "The ResourceSlice \"s\" is invalid: ";
  const std::string pool = R"("pool": {"name": "n1", "generation": 1, "resourceSliceCount": 1})";
  const std::string d0 = "spec.devices[0]";
  std::string many_attributes;
  for (int i = 0; i < 33; ++i) {
    many_attributes +=
        std::string(i > 0 ? ", " : "") + "\"a" + std::to_string(i) + R"(": {"int": 1})";
  }
  check_errors({
      {"no node selection", slice(R"({"driver": "gpu.nvidia.com", )" + pool + "}"), "/spec",
       s + "spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
           "`perDeviceNodeSelection` is required"},
      {"nodeName and allNodes",
       slice(R"({"driver": "gpu.nvidia.com", "nodeName": "n1", "allNodes": true, )" + pool + "}"),
       "/spec",
       s + "spec: Invalid value: \"{`nodeName`, `allNodes`}\": exactly one of `nodeName`, "
           "`nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields "
           "are set"},
      {"allNodes false", slice(R"({"driver": "gpu.nvidia.com", "allNodes": false, )" + pool + "}"),
       "/spec/allNodes",
       s + "spec.allNodes: Invalid value: false: must be either unset or set to true"},
      {"an empty nodeName", slice(R"({"driver": "gpu.nvidia.com", "nodeName": "", )" + pool + "}"),
       "/spec/nodeName",
       s + "spec.nodeName: Invalid value: \"\": must be either unset or set to a non-empty string"},
      {"a node selector of two terms",
       slice(R"({"driver": "gpu.nvidia.com", )" + pool +
             R"(, "nodeSelector": {"nodeSelectorTerms": [
               {"matchExpressions": [{"key": "a", "operator": "In", "values": ["x"]}]},
               {"matchExpressions": [{"key": "b", "operator": "Exists"}]}]}})"),
       "/spec/nodeSelector/nodeSelectorTerms",
       s + "spec.nodeSelector.nodeSelectorTerms: Invalid value: "
           "[]core.NodeSelectorTerm{core.NodeSelectorTerm{MatchExpressions:"
           "[]core.NodeSelectorRequirement{core.NodeSelectorRequirement{Key:\"a\", "
           "Operator:\"In\", "
           "Values:[]string{\"x\"}}}, MatchFields:[]core.NodeSelectorRequirement(nil)}, "
           "core.NodeSelectorTerm{MatchExpressions:[]core.NodeSelectorRequirement{"
           "core.NodeSelectorRequirement{Key:\"b\", Operator:\"Exists\", Values:[]string(nil)}}, "
           "MatchFields:[]core.NodeSelectorRequirement(nil)}}: must have exactly one node selector "
           "term"},
      {"a node selector without terms",
       slice(R"({"driver": "gpu.nvidia.com", )" + pool + R"(, "nodeSelector": {}})"),
       "/spec/nodeSelector/nodeSelectorTerms",
       s + "spec.nodeSelector.nodeSelectorTerms: Required value: must have at least one node "
           "selector term"},
      {"no driver", slice(R"({"nodeName": "n1", )" + pool + "}"), "/spec/driver",
       s + "spec.driver: Required value"},
      {"no spec", R"({"kind": "ResourceSlice", "metadata": {"name": "s"}})", "/spec/driver",
       s + "spec.driver: Required value"},
      {"a driver that is not a DNS subdomain",
       slice(R"({"driver": "gpu_nvidia", "nodeName": "n1", )" + pool + "}"), "/spec/driver",
       s + "spec.driver: Invalid value: \"gpu_nvidia\": " + kSubdomainMsg},
      {"a driver over 63 bytes",
       slice(R"({"driver": ")" + std::string(64, 'a') + R"(", "nodeName": "n1", )" + pool + "}"),
       "/spec/driver", s + "spec.driver: Too long: may not be more than 63 bytes"},
      {"no resourceSliceCount",
       slice(R"({"driver": "gpu.nvidia.com", "nodeName": "n1", "pool": {"name": "n1"}})"),
       "/spec/pool/resourceSliceCount",
       s + "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero"},
      {"a negative generation", slice(R"({"driver": "gpu.nvidia.com", "nodeName": "n1",
                 "pool": {"name": "n1", "generation": -1, "resourceSliceCount": 1}})"),
       "/spec/pool/generation",
       s + "spec.pool.generation: Invalid value: -1: must be greater than or equal to zero"},
      {"no pool name",
       slice(
           R"({"driver": "gpu.nvidia.com", "nodeName": "n1", "pool": {"resourceSliceCount": 1}})"),
       "/spec/pool/name", s + "spec.pool.name: Required value"},
      {"129 devices", devices_slice(devices(129)), "/spec/devices",
       s + "spec.devices: Too many: 129: must have at most 128 items"},
      {"65 devices, one tainted",
       devices_slice(devices(65, R"(, "taints": [{"key": "k", "effect": "NoSchedule"}])")),
       "/spec/devices", s + "spec.devices: Too many: 65: must have at most 64 items"},
      {"two devices of one name", devices_slice(R"([{"name": "gpu-0"}, {"name": "gpu-0"}])"),
       "/spec/devices/1", s + "spec.devices[1]: Duplicate value: \"gpu-0\""},
      {"a device name that is not a DNS label", devices_slice(R"([{"name": "GPU0"}])"),
       "/spec/devices/0/name", s + d0 + ".name: Invalid value: \"GPU0\": " + kLabelMsg},
      {"an attribute name that is not a C identifier",
       devices_slice(R"([{"name": "gpu-0", "attributes": {"product-name": {"string": "x"}}}])"),
       "/spec/devices/0/attributes/product-name",
       s + d0 +
           ".attributes: Invalid value: \"product-name\": a valid C identifier must start with "
           "alphabetic character or '_', followed by a string of alphanumeric characters or '_' "
           "(e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is "
           "'[A-Za-z_][A-Za-z0-9_]*')"},
      {"an attribute domain that is not a DNS subdomain",
       devices_slice(R"([{"name": "gpu-0", "attributes": {"Gpu_Vendor/model": {"string": "x"}}}])"),
       "/spec/devices/0/attributes/Gpu_Vendor~1model",
       s + d0 + ".attributes: Invalid value: \"Gpu_Vendor\": " + kSubdomainMsg},
      {"an attribute of two slashes",
       devices_slice(R"([{"name": "gpu-0", "attributes": {"a.b/c/d": {"string": "x"}}}])"),
       "/spec/devices/0/attributes/a.b~1c~1d",
       s + d0 + ".attributes: Invalid value: \"a.b/c/d\": must not contain more than one slash"},
      {"an attribute of two values",
       devices_slice(R"([{"name": "gpu-0", "attributes": {"index": {"int": 1, "string": "x"}}}])"),
       "/spec/devices/0/attributes/index",
       s + d0 +
           ".attributes[index]: Invalid value: resource.DeviceAttribute{IntValue:(*int64)(1), "
           "BoolValue:(*bool)(nil), StringValue:(*string)(\"x\"), VersionValue:(*string)(nil)}: "
           "exactly one value must be specified"},
      {"an attribute of no value",
       devices_slice(R"([{"name": "gpu-0", "attributes": {"index": {}}}])"),
       "/spec/devices/0/attributes/index",
       s + d0 + ".attributes[index]: Invalid value: \"\": exactly one value must be specified"},
      {"a version that is not semver",
       devices_slice(
           R"([{"name": "gpu-0", "attributes": {"cudaComputeCapability": {"version": "9.0"}}}])"),
       "/spec/devices/0/attributes/cudaComputeCapability/version",
       s + d0 +
           ".attributes[cudaComputeCapability].version: Invalid value: \"9.0\": must be a string "
           "compatible with semver.org spec 2.0.0"},
      {"a string over 64 bytes",
       devices_slice(R"([{"name": "gpu-0", "attributes": {"productName": {"string": ")" +
                     std::string(65, 'x') + R"("}}}])"),
       "/spec/devices/0/attributes/productName/string",
       s + d0 + ".attributes[productName].string: Too long: may not be more than 64 bytes"},
      {"33 attributes",
       devices_slice(R"([{"name": "gpu-0", "attributes": {)" + many_attributes + "}}]"),
       "/spec/devices/0",
       s + d0 +
           ": Invalid value: 33: the total number of attributes and capacities must not "
           "exceed 32"},
      {"a taint of PreferNoSchedule",
       devices_slice(
           R"([{"name": "gpu-0", "taints": [{"key": "k", "effect": "PreferNoSchedule"}]}])"),
       "/spec/devices/0/taints/0/effect",
       s + d0 +
           ".taints[0].effect: Unsupported value: \"PreferNoSchedule\": supported values: "
           "\"NoExecute\", \"NoSchedule\", \"None\""},
      {"a taint without an effect",
       devices_slice(R"([{"name": "gpu-0", "taints": [{"key": "k"}]}])"),
       "/spec/devices/0/taints/0/effect", s + d0 + ".taints[0].effect: Required value"},
      {"17 taints",
       devices_slice(R"([{"name": "gpu-0", "taints": [)" +
                     repeated(R"({"key": "k", "effect": "None"})", 17) + "]}]"),
       "/spec/devices/0/taints", s + d0 + ".taints: Too many: 17: must have at most 16 items"},
      {"a request policy on a device allocated once",
       devices_slice(R"([{"name": "gpu-0", "capacity": {"memory": {"value": "80Gi",
                        "requestPolicy": {"default": "1Gi"}}}}])"),
       "/spec/devices/0/capacity/memory/requestPolicy",
       s + d0 +
           ".capacity[memory].requestPolicy: Forbidden: allowMultipleAllocations must be true"},
      {"validValues and validRange",
       policy_slice(R"({"default": "1Gi", "validValues": ["1Gi"], "validRange": {"min": "1Gi"}})"),
       "/spec/devices/0/capacity/memory/requestPolicy",
       s + d0 +
           ".capacity[memory].requestPolicy: Forbidden: exactly one policy can be specified, "
           "cannot specify \"validValues\" and \"validRange\" at the same time"},
      {"validValues without a default", policy_slice(R"({"validValues": ["1Gi"]})"),
       "/spec/devices/0/capacity/memory/requestPolicy/default",
       s + d0 +
           ".capacity[memory].requestPolicy.default: Required value: required when validValues "
           "is defined"},
      {"unsorted validValues", policy_slice(R"({"default": "2Gi", "validValues": ["2Gi", "1Gi"]})"),
       "/spec/devices/0/capacity/memory/requestPolicy/validValues/1",
       s + d0 +
           ".capacity[memory].requestPolicy.validValues[1]: Invalid value: \"1Gi\": values must "
           "be sorted in ascending order"},
      {"a default that is not a valid value",
       policy_slice(R"({"default": "3Gi", "validValues": ["1Gi", "2Gi"]})"),
       "/spec/devices/0/capacity/memory/requestPolicy/validValues",
       s + d0 +
           ".capacity[memory].requestPolicy.validValues: Invalid value: \"3Gi\": default value is "
           "not valid according to the requestPolicy"},
      {"an option above the capacity",
       policy_slice(R"({"default": "1Gi", "validValues": ["1Gi", "100Gi"]})"),
       "/spec/devices/0/capacity/memory/requestPolicy/validValues/1",
       s + d0 +
           ".capacity[memory].requestPolicy.validValues[1]: Invalid value: \"100Gi\": option is "
           "larger than capacity value: 80Gi"},
      {"a range without min", policy_slice(R"({"default": "1Gi", "validRange": {"max": "2Gi"}})"),
       "/spec/devices/0/capacity/memory/requestPolicy/validRange/min",
       s + d0 +
           ".capacity[memory].requestPolicy.validRange.min: Required value: required when "
           "validRange is defined"},
      {"a default below min", policy_slice(R"({"default": "1Gi", "validRange": {"min": "2Gi"}})"),
       "/spec/devices/0/capacity/memory/requestPolicy/default",
       s + d0 +
           ".capacity[memory].requestPolicy.validRange.default: Invalid value: \"1Gi\": default "
           "is less than min: 2Gi"},
      {"a default off the step",
       policy_slice(R"({"default": "2Gi", "validRange": {"min": "1Gi", "step": "2Gi"}})"),
       "/spec/devices/0/capacity/memory/requestPolicy/validRange/step",
       s + d0 +
           ".capacity[memory].requestPolicy.validRange.step: Invalid value: \"2Gi\": value is not "
           "a multiple of a given step (2Gi) from (1Gi)"},
      {"a step past the capacity",
       policy_slice(R"({"default": "60Gi", "validRange": {"min": "60Gi", "step": "30Gi"}})"),
       "/spec/devices/0/capacity/memory/requestPolicy/validRange/step",
       s + d0 +
           ".capacity[memory].requestPolicy.validRange.step: Invalid value: \"30Gi\": one step "
           "90Gi is larger than capacity value: 80Gi"},
      {"a device's nodeName without perDeviceNodeSelection",
       devices_slice(R"([{"name": "gpu-0", "nodeName": "n1"}])"), "/spec/devices/0",
       s + d0 +
           ": Invalid value: \"null\": `nodeName`, `nodeSelector` and `allNodes` can only be set "
           "if `perDeviceNodeSelection` is set to true in the ResourceSlice spec"},
      {"perDeviceNodeSelection and a device without a node",
       slice(R"({"driver": "gpu.nvidia.com", "perDeviceNodeSelection": true, )" + pool +
             R"(, "devices": [{"name": "gpu-0"}]})"),
       "/spec/devices/0",
       s + d0 +
           ": Required value: exactly one of `nodeName`, `nodeSelector`, or `allNodes` is "
           "required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec"},
      {"sharedCounters and devices",
       slice(R"({"driver": "gpu.nvidia.com", "nodeName": "n1", )" + pool +
             R"(, "devices": [], "sharedCounters": []})"),
       "/spec",
       s + "spec: Invalid value: \"\": only one of `sharedCounters` or `devices` is allowed"},
      {"two counter sets of one name",
       slice(R"({"driver": "gpu.nvidia.com", "nodeName": "n1", )" + pool +
             R"(, "sharedCounters": [{"name": "a", "counters": {"m": {"value": 1}}},
                                    {"name": "a", "counters": {"m": {"value": 1}}}]})"),
       "/spec/sharedCounters/1", s + "spec.sharedCounters[1]: Duplicate value: \"a\""},
      {"a counter set without counters",
       slice(R"({"driver": "gpu.nvidia.com", "nodeName": "n1", )" + pool +
             R"(, "sharedCounters": [{"name": "a"}]})"),
       "/spec/sharedCounters/0/counters", s + "spec.sharedCounters[0].counters: Required value"},
      {"a consumption without a counter set",
       devices_slice(
           R"([{"name": "gpu-0", "consumesCounters": [{"counters": {"m": {"value": 1}}}]}])"),
       "/spec/devices/0/consumesCounters/0/counterSet",
       s + d0 + ".consumesCounters[0].counterSet: Required value"},
      {"bindingFailureConditions without bindingConditions",
       devices_slice(R"([{"name": "gpu-0", "bindingFailureConditions": ["failed"]}])"),
       "/spec/devices/0/bindingConditions",
       s + d0 +
           ".bindingConditions: Invalid value: []string(nil): bindingConditions are required to "
           "use bindingFailureConditions"},
      {"a condition that is both",
       devices_slice(
           R"([{"name": "gpu-0", "bindingConditions": ["a"], "bindingFailureConditions": ["a"]}])"),
       "/spec/devices/0/bindingFailureConditions/0",
       s + d0 +
           ".bindingFailureConditions[0]: Invalid value: \"a\": bindingFailureConditions must not "
           "overlap with bindingConditions"},
      {"a v1beta1 device's error points into `basic`",
       devices_slice(R"([{"name": "gpu-0", "basic": {"attributes": {"index": {}}}}])",
                     "resource.k8s.io/v1beta1"),
       "/spec/devices/0/basic/attributes/index",
       s + d0 + ".attributes[index]: Invalid value: \"\": exactly one value must be specified"},
  });
}

TEST_CASE("DeviceClasses and templates are refused as the API server refuses them", "[io][dra]") {
  const std::string g = "The DeviceClass \"g\" is invalid: ";
  const std::string t = "The ResourceClaimTemplate \"t\" is invalid: ";
  const std::string class_head = R"({"kind": "DeviceClass", "metadata": {"name": "g"}, "spec": )";
  const std::string selector = R"({"cel": {"expression": "device.driver == 'g'"}})";
  check_errors({
      {"an extendedResourceName that is not extended",
       class_head + R"({"extendedResourceName": "gpu"}})", "/spec/extendedResourceName",
       g + "spec.extendedResourceName: Invalid value: \"gpu\": must be a valid extended resource "
           "name"},
      {"33 selectors", class_head + R"({"selectors": [)" + repeated(selector, 33) + "]}}",
       "/spec/selectors", g + "spec.selectors: Too many: 33: must have at most 32 items"},
      {"an expression over 10 KiB",
       class_head + R"({"selectors": [{"cel": {"expression": "device.driver == ')" +
           std::string(10240, 'x') + R"('"}}]}})",
       "/spec/selectors/0/cel/expression",
       g + "spec.selectors[0].cel.expression: Too long: may not be more than 10240 bytes"},
      {"an expression that is not bool",
       class_head + R"({"selectors": [{"cel": {"expression": "device.driver"}}]}})",
       "/spec/selectors/0/cel/expression",
       g + "spec.selectors[0].cel.expression: Invalid value: \"device.driver\": must evaluate to "
           "bool or the unknown type, not string"},
      {"a class name that is not a DNS subdomain",
       R"({"kind": "DeviceClass", "metadata": {"name": "GPU"}})", "/metadata/name",
       "The DeviceClass \"GPU\" is invalid: metadata.name: Invalid value: \"GPU\": " +
           kSubdomainMsg},
      {"DeviceClass served as core v1",
       R"({"apiVersion": "v1", "kind": "DeviceClass", "metadata": {"name": "g"}})", "/apiVersion",
       "apiVersion \"v1\" does not serve kind DeviceClass; use \"resource.k8s.io/v1\""},
      {"a template naming its claims",
       R"({"kind": "ResourceClaimTemplate", "metadata": {"name": "t"},
           "spec": {"metadata": {"name": "x", "labels": {"a": "b"}}, "spec": {}}})",
       "/spec/metadata/name", t + "spec.metadata.name: Forbidden: cannot be set for a template"},
      {"a template's claim labels",
       R"({"kind": "ResourceClaimTemplate", "metadata": {"name": "t"},
           "spec": {"metadata": {"labels": {"a": "b c"}}}})",
       "/spec/metadata/labels/a",
       t + "spec.metadata.labels: Invalid value: \"b c\": a valid label value must be an empty "
           "string or consist of alphanumeric characters, '-', '_' or '.', and must start and end "
           "with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex "
           "used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
      {"a template's request",
       R"({"kind": "ResourceClaimTemplate", "metadata": {"name": "t"},
           "spec": {"spec": {"devices": {"requests": [{"name": "gpu"}]}}}})",
       "/spec/spec/devices/requests/0",
       t + "spec.spec.devices.requests[0]: Required value: exactly one of `exactly` or "
           "`firstAvailable` is required"},
  });
}

TEST_CASE("a selector outside gpusched's CEL subset is refused where it is", "[io][dra]") {
  try {
    (void)parse_as<dra::DeviceClass>(R"({"kind": "DeviceClass", "metadata": {"name": "g"},
        "spec": {"selectors": [{"cel": {"expression": "device.driver == 'g'"}},
                               {"cel": {"expression": "device.driver.indexOf('g') == 0"}}]}})");
    FAIL("an unsupported expression was accepted");
  } catch (const InputError& e) {
    CHECK(e.file() == "o.json");
    CHECK(e.pointer() == "/spec/selectors/1/cel/expression");
    CHECK(e.reason().starts_with("unsupported CEL: function \"indexOf\""));
  }
}

/// A pod "p" with `spec`, then `rest`.
std::string pod(const std::string& spec, const std::string& rest = "") {
  return R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": )" + spec + rest + "}";
}

TEST_CASE("pods' claims are refused as the API server refuses them", "[io][dra]") {
  const std::string p = "The Pod \"p\" is invalid: ";
  const std::string gpu = R"({"name": "gpu", "resourceClaimTemplateName": "t"})";
  const std::string tpu = R"({"name": "tpu", "resourceClaimName": "c"})";
  auto with_claims = [&](const std::string& claims, const std::string& container_claims) {
    return pod(R"({"resourceClaims": [)" + claims +
               R"(], "containers": [{"name": "c", "resources": {"claims": )" + container_claims +
               "}}]}");
  };
  check_errors({
      {"a claim without a name", pod(R"({"resourceClaims": [{"resourceClaimName": "c"}]})"),
       "/spec/resourceClaims/0/name", p + "spec.resourceClaims[0].name: Required value"},
      {"two claims of one name", with_claims(gpu + ", " + gpu, "[]"), "/spec/resourceClaims/1/name",
       p + "spec.resourceClaims[1].name: Duplicate value: \"gpu\""},
      {"a claim name that is not a DNS label",
       with_claims(R"({"name": "GPU", "resourceClaimName": "c"})", "[]"),
       "/spec/resourceClaims/0/name",
       p + "spec.resourceClaims[0].name: Invalid value: \"GPU\": " + kLabelMsg},
      {"neither a claim nor a template", with_claims(R"({"name": "gpu"})", "[]"),
       "/spec/resourceClaims/0",
       p + "spec.resourceClaims[0]: Invalid value: core.PodResourceClaim{Name:\"gpu\", "
           "ResourceClaimName:(*string)(nil), ResourceClaimTemplateName:(*string)(nil)}: must "
           "specify one of: `resourceClaimName`, `resourceClaimTemplateName`"},
      {"both a claim and a template",
       with_claims(R"({"name": "gpu", "resourceClaimName": "a", "resourceClaimTemplateName": "b"})",
                   "[]"),
       "/spec/resourceClaims/0",
       p + "spec.resourceClaims[0]: Invalid value: core.PodResourceClaim{Name:\"gpu\", "
           "ResourceClaimName:(*string)(\"a\"), ResourceClaimTemplateName:(*string)(\"b\")}: at "
           "most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"},
      {"a claim name that is not an object name",
       with_claims(R"({"name": "gpu", "resourceClaimName": "A"})", "[]"),
       "/spec/resourceClaims/0/resourceClaimName",
       p + "spec.resourceClaims[0].resourceClaimName: Invalid value: \"A\": " + kSubdomainMsg},
      {"a container claim the pod lacks", with_claims(gpu + ", " + tpu, R"([{"name": "nic"}])"),
       "/spec/containers/0/resources/claims/0",
       p + "spec.containers[0].resources.claims[0]: Not found: \"nic\": must be one of the names "
           "in pod.spec.resourceClaims: gpu, tpu"},
      {"a container claim in a pod without claims",
       pod(R"({"containers": [{"name": "c", "resources": {"claims": [{"name": "gpu"}]}}]})"),
       "/spec/containers/0/resources/claims/0",
       p + "spec.containers[0].resources.claims[0]: Not found: \"gpu\": must be one of the names "
           "in pod.spec.resourceClaims which is empty"},
      {"a container claim without a name", with_claims(gpu, R"([{"request": "a"}])"),
       "/spec/containers/0/resources/claims/0",
       p + "spec.containers[0].resources.claims[0]: Required value"},
      {"a container claim twice", with_claims(gpu, R"([{"name": "gpu"}, {"name": "gpu"}])"),
       "/spec/containers/0/resources/claims/1",
       p + "spec.containers[0].resources.claims[1]: Duplicate value: \"gpu\""},
      {"one request twice",
       with_claims(gpu, R"([{"name": "gpu", "request": "a"}, {"name": "gpu", "request": "a"}])"),
       "/spec/containers/0/resources/claims/1",
       p + "spec.containers[0].resources.claims[1]: Duplicate value: \"gpu/a\""},
      {"a request after its whole claim",
       with_claims(gpu, R"([{"name": "gpu"}, {"name": "gpu", "request": "a"}])"),
       "/spec/containers/0/resources/claims/1",
       p + "spec.containers[0].resources.claims[1]: Duplicate value: \"gpu\""},
      {"the whole claim after one of its requests",
       with_claims(gpu, R"([{"name": "gpu", "request": "a"}, {"name": "gpu"}])"),
       "/spec/containers/0/resources/claims/1",
       p + "spec.containers[0].resources.claims[1]: Duplicate value: \"gpu\""},
      {"a request that is not a DNS label",
       with_claims(gpu, R"([{"name": "gpu", "request": "A"}])"),
       "/spec/containers/0/resources/claims/0/request",
       p + "spec.containers[0].resources.claims[0].request: Invalid value: \"A\": " + kLabelMsg},
      {"an init container's claim",
       pod(R"({"resourceClaims": [)" + gpu + R"(], "containers": [{"name": "c"}],
               "initContainers": [{"name": "i", "resources": {"claims": [{"name": "x"}]}}]})"),
       "/spec/initContainers/0/resources/claims/0",
       p + "spec.initContainers[0].resources.claims[0]: Not found: \"x\": must be one of the "
           "names in pod.spec.resourceClaims: gpu"},
      {"a Deployment template's claim",
       R"({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
           "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {
             "metadata": {"labels": {"a": "b"}},
             "spec": {"resourceClaims": [{"name": "gpu"}], "containers": [{"name": "c"}]}}}})",
       "/spec/template/spec/resourceClaims/0",
       "The Deployment \"d\" is invalid: spec.template.spec.resourceClaims[0]: Invalid value: "
       "core.PodResourceClaim{Name:\"gpu\", ResourceClaimName:(*string)(nil), "
       "ResourceClaimTemplateName:(*string)(nil)}: must specify one of: `resourceClaimName`, "
       "`resourceClaimTemplateName`"},
      {"a status for a claim the pod lacks",
       pod(R"({"resourceClaims": [)" + gpu + R"(], "containers": [{"name": "c"}]})",
           R"(, "status": {"resourceClaimStatuses": [{"name": "nic", "resourceClaimName": "x"}]})"),
       "/status/resourceClaimStatuses/0/name",
       p + "status.resourceClaimStatuses[0].name: Invalid value: \"nic\": must match the name of "
           "an entry in `spec.resourceClaims`"},
      {"two statuses of one claim",
       pod(R"({"resourceClaims": [)" + gpu + R"(], "containers": [{"name": "c"}]})",
           R"(, "status": {"resourceClaimStatuses": [{"name": "gpu"}, {"name": "gpu"}]})"),
       "/status/resourceClaimStatuses/1/name",
       p + "status.resourceClaimStatuses[1].name: Duplicate value: \"gpu\""},
  });
}

TEST_CASE("a kubectl dump of DRA objects loads, server fields and all", "[io][dra]") {
  // `kubectl get resourceslices,resourceclaims,deviceclasses -A -o json`, trimmed.
  const std::string dump =
      R"({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""},
  "items": [
    {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
     "metadata": {"name": "h100-1-gpu.nvidia.com-x8k2p", "generateName": "h100-1-gpu.nvidia.com-",
                  "resourceVersion": "81234", "uid": "0b9d2c39-7d5e-4d7b-9f5c-9d1c2a3b4c5d",
                  "generation": 1, "creationTimestamp": "2026-05-01T09:00:00Z",
                  "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": "h100-1",
                                       "uid": "4f1c", "controller": true}],
                  "managedFields": [{"manager": "gpu-kubelet-plugin", "operation": "Update",
                                     "apiVersion": "resource.k8s.io/v1", "fieldsType": "FieldsV1",
                                     "fieldsV1": {"f:spec": {}}}]},
     "spec": {"driver": "gpu.nvidia.com", "nodeName": "h100-1",
              "pool": {"name": "h100-1", "generation": 1, "resourceSliceCount": 1},
              "devices": [{"name": "gpu-0", "attributes": {"index": {"int": 0},
                             "type": {"string": "gpu"}},
                           "capacity": {"memory": {"value": "80Gi"}}}]}},
    {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
     "metadata": {"name": "trainer-gpus-x7k2p", "namespace": "ml", "resourceVersion": "81300",
                  "uid": "7a6b", "creationTimestamp": "2026-05-01T10:00:00Z",
                  "finalizers": ["resource.kubernetes.io/delete-protection"],
                  "annotations": {"resource.kubernetes.io/pod-claim-name": "gpus"}},
     "spec": {"devices": {"requests": [{"name": "gpus", "exactly": {
       "deviceClassName": "gpu.nvidia.com", "allocationMode": "ExactCount", "count": 1}}]}},
     "status": {"allocation": {"allocationTimestamp": "2026-05-01T10:00:01Z",
                  "devices": {"results": [{"request": "gpus", "driver": "gpu.nvidia.com",
                                           "pool": "h100-1", "device": "gpu-0"}]},
                  "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
                    {"key": "metadata.name", "operator": "In", "values": ["h100-1"]}]}]}},
                "reservedFor": [{"resource": "pods", "name": "trainer", "uid": "9c8d"}],
                "devices": [{"driver": "gpu.nvidia.com", "pool": "h100-1", "device": "gpu-0",
                             "conditions": []}]}},
    {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
     "metadata": {"name": "gpu.nvidia.com", "resourceVersion": "100", "uid": "1d2e",
                  "generation": 1, "creationTimestamp": "2026-04-01T00:00:00Z",
                  "labels": {"app.kubernetes.io/managed-by": "Helm"}},
     "spec": {"selectors": [{"cel": {"expression":
       "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"}}]}}
  ]})";
  std::vector<std::string> warnings;
  const io::ParsedText parsed("dump.json", dump, &warnings);
  std::vector<std::string> kinds;
  for (const io::JsonNode& item : io::manifest_objects(parsed)) {
    kinds.emplace_back(kind_of(io::parse_object(item)));
  }
  CHECK(kinds == std::vector<std::string>{"ResourceSlice", "ResourceClaim", "DeviceClass"});
  CHECK(warnings.empty());
}

TEST_CASE("the unknown-kind message lists resource.k8s.io's kinds", "[io][dra]") {
  CHECK(io::known_kinds().ends_with(
      ", DeviceClass, ResourceSlice, ResourceClaim, ResourceClaimTemplate"));
  CHECK(io::is_resource_kind("ResourceClaimTemplate"));
  CHECK_FALSE(io::is_resource_kind("DeviceTaintRule"));
}

TEST_CASE("resource.k8s.io's string formats", "[io][dra]") {
  struct Row {
    const char* text;
    bool semver;
  };
  for (const Row& row : std::vector<Row>{{"9.0.0", true},
                                         {"550.54.15", true},
                                         {"1.2.3-rc.1+build.5", true},
                                         {"1.0.0-0a", true},
                                         {"9.0", false},
                                         {"01.2.3", false},
                                         {"1.2.3-01", false},
                                         {"1.2.3+", false},
                                         {"v1.2.3", false}}) {
    INFO(row.text);
    CHECK(io::is_semver(row.text) == row.semver);
  }
  CHECK(io::uid_errors("6ba7b810-9dad-11d1-80b4-00c04fd430c8").empty());
  CHECK(io::uid_errors("6BA7B810-9DAD-11D1-80B4-00C04FD430C8") ==
        std::vector<std::string>{
            "Invalid value: \"6BA7B810-9DAD-11D1-80B4-00C04FD430C8\": uid must be in RFC 4122 "
            "normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal "
            "characters"});
  CHECK(io::uid_errors("6ba7b810x9dad-11d1-80b4-00c04fd430c8") ==
        std::vector<std::string>{"Invalid value: \"6ba7b810x9dad-11d1-80b4-00c04fd430c8\": error "
                                 "validating uid: invalid UUID format"});
  CHECK(io::device_qualified_name_errors("gpu.nvidia.com/productName").empty());
  CHECK(io::device_qualified_name_errors("/x") ==
        std::vector<std::string>{"Invalid value: \"\": the domain must not be empty"});
  CHECK(io::device_qualified_name_errors("a.b/") ==
        std::vector<std::string>{"Invalid value: \"\": the name must not be empty"});
  CHECK(io::pool_name_errors("node-1/nics").empty());
  CHECK(io::driver_name_errors("GPU.Example.com").empty());
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST_CASE("what DRA's objects ask that gpusched does not model is named where it is", "[io][dra]") {
  const Scenario scenario = io::parse_scenario(R"({"name": "s", "cluster": [
      {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
       "spec": {"extendedResourceName": "nvidia.com/gpu"}},
      {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"},
       "spec": {"driver": "gpu.example.com", "nodeName": "n",
                "pool": {"name": "n", "generation": 1, "resourceSliceCount": 1},
                "devices": [{"name": "gpu-0", "bindingConditions": ["attached"],
                             "bindingFailureConditions": ["failed"]}]}}]})",
                                               "s.json");
  // The extended-resource bridge is modelled: the class's extendedResourceName is kept, silently.
  REQUIRE(scenario.notes.size() == 1);
  REQUIRE(std::get<dra::DeviceClass>(scenario.cluster[0]).extended_resource_name);
  CHECK(*std::get<dra::DeviceClass>(scenario.cluster[0]).extended_resource_name ==
        "nvidia.com/gpu");
  CHECK(scenario.notes[0].starts_with(
      "s.json:7: /cluster/1/spec/devices/0/bindingConditions: binding conditions are not "
      "modelled: from Kubernetes 1.36 the scheduler waits at PreBind"));
}

}  // namespace
}  // namespace gpusched
