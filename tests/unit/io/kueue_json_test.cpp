// Kueue's objects in lib/io/kueue_json.cpp: each kind with the CRDs' defaults (Kueue v0.19.2,
// config/components/crd/bases), v1beta1 converted as Kueue converts it, the CRDs' schema and CEL
// messages and the webhooks' (pkg/webhooks), and the round trip through to_json.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "io/object_json.hpp"
#include "unit/io/object_text.hpp"

namespace gpusched {
namespace {

Object parse(const std::string& text) {
  return test::parse_object_text(text);
}

template <typename T>
T parse_as(const std::string& text) {
  return std::get<T>(parse(text));
}

TEST_CASE("ResourceFlavor reads nodeLabels, nodeTaints and tolerations", "[io][kueue]") {
  const Object object = parse(R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor",
      "metadata": {"name": "h100"},
      "spec": {"nodeLabels": {"gpu": "h100"},
               "nodeTaints": [{"key": "spot", "value": "true", "effect": "NoSchedule"}],
               "tolerations": [{"key": "spot", "operator": "Exists", "effect": "NoSchedule"}]}})");
  const auto& rf = std::get<kueue::ResourceFlavor>(object);
  CHECK(kind_of(object) == "ResourceFlavor");
  CHECK(ref_of(object).to_string() == "ResourceFlavor/h100");
  CHECK(*rf.node_labels == std::map<std::string, std::string, std::less<>>{{"gpu", "h100"}});
  REQUIRE(rf.node_taints.size() == 1);
  CHECK(rf.node_taints[0] == Taint{"spot", "true", TaintEffect::NoSchedule});
  REQUIRE(rf.tolerations.size() == 1);
  CHECK(rf.tolerations[0].op == TolerationOperator::Exists);
  CHECK_FALSE(rf.topology_name);
  // Without an apiVersion a Kueue-only kind is Kueue's.
  CHECK(std::holds_alternative<kueue::ResourceFlavor>(
      parse(R"({"kind": "ResourceFlavor", "metadata": {"name": "default"}})")));
}

TEST_CASE("ClusterQueue takes the CRD's defaults", "[io][kueue]") {
  const Object object = parse(R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
      "metadata": {"name": "research"},
      "spec": {"cohortName": "ai", "namespaceSelector": {},
               "resourceGroups": [{"coveredResources": ["cpu", "nvidia.com/gpu"],
                 "flavors": [{"name": "h100", "resources": [
                   {"name": "cpu", "nominalQuota": 64},
                   {"name": "nvidia.com/gpu", "nominalQuota": "16", "borrowingLimit": "8",
                    "lendingLimit": "4"}]}]}],
               "fairSharing": {}}})");
  const auto& cq = std::get<kueue::ClusterQueue>(object);
  CHECK(ref_of(object).to_string() == "ClusterQueue/research");
  CHECK(cq.cohort_name == "ai");
  CHECK(cq.queueing_strategy == kueue::QueueingStrategy::BestEffortFIFO);
  CHECK(cq.stop_policy == kueue::StopPolicy::None);
  CHECK(cq.namespace_selector == LabelSelector{});
  CHECK(cq.flavor_fungibility == kueue::FlavorFungibility{});
  CHECK(cq.preemption == kueue::ClusterQueuePreemption{});
  REQUIRE(cq.fair_sharing);
  CHECK(cq.fair_sharing->weight == Quantity(1000));
  REQUIRE(cq.resource_groups.size() == 1);
  const kueue::ResourceQuota& gpu = cq.resource_groups[0].flavors[0].resources[1];
  CHECK(gpu.nominal_quota == Quantity(16000));
  CHECK(gpu.borrowing_limit == Quantity(8000));
  CHECK(gpu.lending_limit == Quantity(4000));
  // No namespaceSelector: no namespace.
  const auto bare =
      parse_as<kueue::ClusterQueue>(R"({"kind": "ClusterQueue", "metadata": {"name": "q"}})");
  CHECK_FALSE(bare.namespace_selector);
}

TEST_CASE("v1beta1 ClusterQueues and Workloads convert as Kueue converts them", "[io][kueue]") {
  const auto cq = parse_as<kueue::ClusterQueue>(R"({"apiVersion": "kueue.x-k8s.io/v1beta1",
      "kind": "ClusterQueue", "metadata": {"name": "q"},
      "spec": {"cohort": "ai", "admissionChecks": ["prov"],
               "flavorFungibility": {"whenCanBorrow": "Borrow", "whenCanPreempt": "Preempt"}}})");
  CHECK(cq.cohort_name == "ai");
  REQUIRE(cq.admission_checks.size() == 1);
  CHECK(cq.admission_checks[0].name == "prov");
  CHECK(cq.flavor_fungibility.when_can_borrow == kueue::FlavorFungibilityPolicy::MayStopSearch);
  CHECK(cq.flavor_fungibility.when_can_preempt == kueue::FlavorFungibilityPolicy::MayStopSearch);

  const auto wl = parse_as<kueue::Workload>(R"({"apiVersion": "kueue.x-k8s.io/v1beta1",
      "kind": "Workload", "metadata": {"name": "job-a", "namespace": "team"},
      "spec": {"queueName": "lq", "priority": 100, "priorityClassName": "high",
               "priorityClassSource": "kueue.x-k8s.io/workloadpriorityclass",
               "podSets": [{"count": 2, "template": {"spec": {"containers": [{"name": "c"}]}}}]}})");
  CHECK(wl.priority_class_name == "high");
  CHECK(wl.priority_class_source == "kueue.x-k8s.io/workloadpriorityclass");
  CHECK(wl.priority == 100);
  REQUIRE(wl.pod_sets.size() == 1);
  CHECK(wl.pod_sets[0].name == "main");
  CHECK(wl.pod_sets[0].count == 2);
  CHECK(wl.active);
}

TEST_CASE("LocalQueue, Cohort, WorkloadPriorityClass and AdmissionCheck", "[io][kueue]") {
  const Object lq_object = parse(R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
      "metadata": {"name": "lq", "namespace": "team-a"}, "spec": {"clusterQueue": "research"}})");
  const auto& lq = std::get<kueue::LocalQueue>(lq_object);
  CHECK(ref_of(lq_object).to_string() == "LocalQueue/team-a/lq");
  CHECK(lq.cluster_queue == "research");
  CHECK(lq.stop_policy == kueue::StopPolicy::None);

  const auto cohort = parse_as<kueue::Cohort>(R"({"kind": "Cohort",
      "apiVersion": "kueue.x-k8s.io/v1beta2", "metadata": {"name": "ai"},
      "spec": {"parentName": "org", "resourceGroups": [{"coveredResources": ["cpu"],
        "flavors": [{"name": "d", "resources": [{"name": "cpu", "nominalQuota": "1",
                                                 "lendingLimit": "5"}]}]}]}})");
  CHECK(cohort.parent_name == "org");
  // A Cohort's lendingLimit may exceed its nominalQuota (enforceNominalGreaterThanLending off).
  CHECK(cohort.resource_groups[0].flavors[0].resources[0].lending_limit == Quantity(5000));

  const auto wpc = parse_as<kueue::WorkloadPriorityClass>(
      R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "WorkloadPriorityClass",
          "metadata": {"name": "prod"}, "value": 1000, "description": "production"})");
  CHECK(wpc.value == 1000);
  CHECK(wpc.description == "production");

  const auto check = parse_as<kueue::AdmissionCheck>(
      R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "AdmissionCheck", "metadata": {"name": "prov"},
          "spec": {"controllerName": "kueue.x-k8s.io/provisioning-request",
                   "parameters": {"apiGroup": "kueue.x-k8s.io", "kind": "ProvisioningRequestConfig",
                                  "name": "cfg"}}})");
  CHECK(check.controller_name == "kueue.x-k8s.io/provisioning-request");
  CHECK(check.parameters_kind == "ProvisioningRequestConfig");
  CHECK(check.parameters_name == "cfg");
  CHECK_FALSE(is_namespaced("Cohort"));
  CHECK_FALSE(is_namespaced("AdmissionCheck"));
  CHECK_FALSE(is_namespaced("WorkloadPriorityClass"));
  CHECK(is_namespaced("LocalQueue"));
  CHECK(is_namespaced("Workload"));
}

TEST_CASE("ProvisioningRequestConfig reads its class, parameters and managed resources",
          "[io][kueue][admission-checks]") {
  const Object object = parse(R"({"apiVersion": "kueue.x-k8s.io/v1beta2",
      "kind": "ProvisioningRequestConfig", "metadata": {"name": "h100-scale-up"},
      "spec": {"provisioningClassName": "best-effort-atomic-scale-up.autoscaling.x-k8s.io",
               "managedResources": ["nvidia.com/gpu"]}})");
  const auto& config = std::get<kueue::ProvisioningRequestConfig>(object);
  CHECK(kind_of(object) == "ProvisioningRequestConfig");
  CHECK(ref_of(object).to_string() == "ProvisioningRequestConfig/h100-scale-up");
  CHECK_FALSE(is_namespaced("ProvisioningRequestConfig"));
  CHECK(config.provisioning_class_name == kueue::kBestEffortAtomicClass);
  CHECK(config.managed_resources == std::vector<std::string>{"nvidia.com/gpu"});
  CHECK(config.parameters.empty());
  // Round trip through the object writer.
  CHECK(parse_as<kueue::ProvisioningRequestConfig>(io::to_json(object).dump()) == config);
}

TEST_CASE("Admission check fields gpusched does not model are noted, refused under --strict",
          "[io][kueue][admission-checks]") {
  struct Row {
    const char* name;
    const char* object;
    const char* note;
  };
  const Row rows[] = {
      {"MultiKueue's controller",
       R"({"kind": "AdmissionCheck", "metadata": {"name": "mk"},
           "spec": {"controllerName": "kueue.x-k8s.io/multikueue"}})",
       "no controller of the replay manages the checks of kueue.x-k8s.io/multikueue, so a "
       "ClusterQueue using this AdmissionCheck is inactive and admits no workload"},
      {"another class",
       R"({"kind": "ProvisioningRequestConfig", "metadata": {"name": "q"},
           "spec": {"provisioningClassName": "queued-provisioning.gke.io"}})",
       "a request of class queued-provisioning.gke.io is never provisioned in the replay"},
      {"retryStrategy",
       R"({"kind": "ProvisioningRequestConfig", "metadata": {"name": "r"},
           "spec": {"provisioningClassName": "check-capacity.autoscaling.x-k8s.io",
                    "retryStrategy": {"backoffLimitCount": 1}}})",
       "retryStrategy is not modelled"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const std::string text = std::string(R"({"name": "s", "cluster": [)") + row.object + "]}";
      const Scenario scenario = io::parse_scenario(text, "s.json");
      REQUIRE(scenario.notes.size() == 1);
      CHECK(scenario.notes[0].find(row.note) != std::string::npos);
      io::LoadOptions strict;
      strict.strict = true;
      CHECK_THROWS_AS(io::parse_scenario(text, "s.json", strict), InputError);
    }
  }
}

TEST_CASE("Kueue objects refused by the CRDs and the webhooks", "[io][kueue]") {
  struct ErrorRow {
    const char* name;
    std::string object;
    std::string pointer;
    std::string reason;
  };
  const std::string cq = R"("apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
                           "metadata": {"name": "q"}, )";
  const std::vector<ErrorRow> rows = {
      {"borrowingLimit without a cohort (CEL)",
       "{" + cq + R"("spec": {"resourceGroups": [{"coveredResources": ["cpu"], "flavors": [
          {"name": "d", "resources": [{"name": "cpu", "nominalQuota": 1, "borrowingLimit": 1}]}]}]}})",
       "/spec",
       "The ClusterQueue \"q\" is invalid: spec: Invalid value: \"object\": borrowingLimit must be "
       "nil when cohort is empty"},
      {"lendingLimit without a cohort (webhook)",
       "{" + cq + R"("spec": {"resourceGroups": [{"coveredResources": ["cpu"], "flavors": [
          {"name": "d", "resources": [{"name": "cpu", "nominalQuota": 1, "lendingLimit": 1}]}]}]}})",
       "/spec/resourceGroups/0/flavors/0/resources/0/lendingLimit",
       "admission webhook \"vclusterqueue.kb.io\" denied the request: "
       "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value: \"1\": must "
       "be nil when cohort is empty"},
      {"lendingLimit above nominalQuota",
       "{" + cq + R"("spec": {"cohortName": "ai", "resourceGroups": [{"coveredResources": ["cpu"],
          "flavors": [{"name": "d", "resources": [{"name": "cpu", "nominalQuota": 1,
                                                    "lendingLimit": 2}]}]}]}})",
       "/spec/resourceGroups/0/flavors/0/resources/0/lendingLimit",
       "admission webhook \"vclusterqueue.kb.io\" denied the request: "
       "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: Invalid value: \"2\": must "
       "be less than or equal to the nominalQuota"},
      {"a flavor not listing every covered resource",
       "{" + cq +
           R"("spec": {"resourceGroups": [{"coveredResources": ["cpu", "memory"], "flavors": [
          {"name": "d", "resources": [{"name": "cpu", "nominalQuota": 1}]}]}]}})",
       "/spec/resourceGroups/0",
       "The ClusterQueue \"q\" is invalid: spec.resourceGroups[0]: Invalid value: \"object\": "
       "flavors must have the same number of resources as the coveredResources"},
      {"resources out of the covered order",
       "{" + cq +
           R"("spec": {"resourceGroups": [{"coveredResources": ["cpu", "memory"], "flavors": [
          {"name": "d", "resources": [{"name": "memory", "nominalQuota": 1},
                                      {"name": "cpu", "nominalQuota": 1}]}]}]}})",
       "/spec/resourceGroups/0/flavors/0/resources/0/name",
       "admission webhook \"vclusterqueue.kb.io\" denied the request: "
       "spec.resourceGroups[0].flavors[0].resources[0].name: Invalid value: \"memory\": must "
       "match the name in coveredResources"},
      {"a resource in two groups", "{" + cq + R"("spec": {"resourceGroups": [
          {"coveredResources": ["cpu"], "flavors": [{"name": "a", "resources": [{"name": "cpu", "nominalQuota": 1}]}]},
          {"coveredResources": ["cpu"], "flavors": [{"name": "b", "resources": [{"name": "cpu", "nominalQuota": 1}]}]}]}})",
       "/spec/resourceGroups/1/coveredResources/0",
       "admission webhook \"vclusterqueue.kb.io\" denied the request: "
       "spec.resourceGroups[1].coveredResources[0]: Duplicate value: \"cpu\""},
      {"more than 16 resource groups",
       "{" + cq + R"("spec": {"resourceGroups": [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {},
                                                 {}, {}, {}, {}, {}]}})",
       "/spec/resourceGroups",
       "The ClusterQueue \"q\" is invalid: spec.resourceGroups: Too many: 17: must have at most 16 "
       "items"},
      {"a group without flavors",
       "{" + cq + R"("spec": {"resourceGroups": [{"coveredResources": ["cpu"]}]}})",
       "/spec/resourceGroups/0/flavors",
       "The ClusterQueue \"q\" is invalid: spec.resourceGroups[0].flavors: Required value"},
      {"queueingStrategy enum", "{" + cq + R"("spec": {"queueingStrategy": "FIFO"}})",
       "/spec/queueingStrategy",
       "The ClusterQueue \"q\" is invalid: spec.queueingStrategy: Unsupported value: \"FIFO\": "
       "supported values: \"StrictFIFO\", \"BestEffortFIFO\""},
      {"borrowWithinCohort without reclaimWithinCohort",
       "{" + cq + R"("spec": {"preemption": {"borrowWithinCohort": {"policy": "LowerPriority"}}}})",
       "/spec/preemption",
       "The ClusterQueue \"q\" is invalid: spec.preemption: Invalid value: \"object\": "
       "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never"},
      {"fungibility preference",
       "{" + cq + R"("spec": {"flavorFungibility": {"preference": "BorrowingOverPreemption"}}})",
       "/spec/flavorFungibility",
       "The ClusterQueue \"q\" is invalid: spec.flavorFungibility: Invalid value: \"object\": "
       "preference can only be set when both whenCanBorrow and whenCanPreempt are TryNextFlavor"},
      {"cohortName pattern", "{" + cq + R"("spec": {"cohortName": "AI"}})", "/spec/cohortName",
       "The ClusterQueue \"q\" is invalid: spec.cohortName: Invalid value: \"AI\": "
       "spec.cohortName in body should match "
       "'^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'"},
      {"Cohort borrowingLimit without a parent",
       R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Cohort", "metadata": {"name": "c"},
           "spec": {"resourceGroups": [{"coveredResources": ["cpu"], "flavors": [{"name": "d",
             "resources": [{"name": "cpu", "nominalQuota": 1, "borrowingLimit": 1}]}]}]}})",
       "/spec/resourceGroups/0/flavors/0/resources/0/borrowingLimit",
       "admission webhook \"vcohort.kb.io\" denied the request: "
       "spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit: Invalid value: \"1\": "
       "must be nil when parent is empty"},
      {"LocalQueue stopPolicy enum",
       R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue", "metadata": {"name": "l"},
           "spec": {"clusterQueue": "q", "stopPolicy": "Stop"}})",
       "/spec/stopPolicy",
       "The LocalQueue \"l\" is invalid: spec.stopPolicy: Unsupported value: \"Stop\": supported "
       "values: \"None\", \"Hold\", \"HoldAndDrain\""},
      {"ResourceFlavor toleration without key",
       R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor", "metadata": {"name": "f"},
           "spec": {"tolerations": [{"effect": "NoSchedule"}]}})",
       "/spec/tolerations",
       "The ResourceFlavor \"f\" is invalid: spec.tolerations: Invalid value: \"array\": operator "
       "must be Exists when 'key' is empty, which means 'match all values and all keys'"},
      {"ResourceFlavor duplicate taints",
       R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor", "metadata": {"name": "f"},
           "spec": {"nodeTaints": [{"key": "a", "effect": "NoSchedule"},
                                   {"key": "a", "value": "x", "effect": "NoSchedule"}]}})",
       "/spec/nodeTaints/1",
       "admission webhook \"vresourceflavor.kb.io\" denied the request: spec.nodeTaints[1]: "
       "Duplicate value: v1.Taint{Key:\"a\", Value:\"x\", Effect:\"NoSchedule\", "
       "TimeAdded:<nil>}: taints must be unique by key and effect pair"},
      {"WorkloadPriorityClass without value",
       R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "WorkloadPriorityClass",
           "metadata": {"name": "p"}})",
       "/value", "The WorkloadPriorityClass \"p\" is invalid: value: Required value"},
      {"Workload priorityClassRef without priority",
       R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload", "metadata": {"name": "w"},
           "spec": {"priorityClassRef": {"group": "kueue.x-k8s.io", "kind": "WorkloadPriorityClass",
                                         "name": "p"},
                    "podSets": [{"template": {"spec": {"containers": [{"name": "c"}]}}}]}})",
       "/spec",
       "The Workload \"w\" is invalid: spec: Invalid value: \"object\": priority should not be "
       "nil when priorityClassRef is set"},
      {"Kueue version not served",
       R"({"apiVersion": "kueue.x-k8s.io/v1alpha1", "kind": "Cohort", "metadata": {"name": "c"}})",
       "/apiVersion",
       "apiVersion \"kueue.x-k8s.io/v1alpha1\" does not serve kind Cohort; use "
       "\"kueue.x-k8s.io/v1beta2\""},
  };
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

TEST_CASE("Kueue objects and a suspended Job read back equal from to_json", "[io][kueue]") {
  const std::vector<std::string> objects = {
      R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor", "metadata": {"name": "h100"},
          "spec": {"nodeLabels": {"gpu": "h100"},
                   "nodeTaints": [{"key": "spot", "effect": "NoSchedule"}],
                   "tolerations": [{"key": "spot", "operator": "Equal", "value": "x",
                                    "effect": "NoExecute", "tolerationSeconds": 5}]}})",
      R"({"kind": "ClusterQueue", "metadata": {"name": "research"},
          "spec": {"cohortName": "ai", "queueingStrategy": "StrictFIFO", "stopPolicy": "Hold",
                   "namespaceSelector": {"matchLabels": {"team": "a"}},
                   "preemption": {"reclaimWithinCohort": "Any", "withinClusterQueue": "LowerPriority",
                                  "borrowWithinCohort": {"policy": "LowerPriority",
                                                         "maxPriorityThreshold": 10}},
                   "flavorFungibility": {"whenCanBorrow": "TryNextFlavor",
                                         "whenCanPreempt": "TryNextFlavor",
                                         "preference": "PreemptionOverBorrowing"},
                   "fairSharing": {"weight": "2"},
                   "admissionChecksStrategy": {"admissionChecks": [{"name": "prov",
                                                                    "onFlavors": ["h100"]}]},
                   "resourceGroups": [{"coveredResources": ["nvidia.com/gpu"], "flavors": [
                     {"name": "h100", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": "8",
                       "borrowingLimit": "0", "lendingLimit": "2"}]}]}]}})",
      R"({"kind": "LocalQueue", "metadata": {"name": "lq", "namespace": "team-a"},
          "spec": {"clusterQueue": "research", "stopPolicy": "HoldAndDrain",
                   "fairSharing": {"weight": "500m"}}})",
      R"({"kind": "Cohort", "metadata": {"name": "ai"}, "spec": {"parentName": "org"}})",
      R"({"kind": "WorkloadPriorityClass", "metadata": {"name": "p"}, "value": -5})",
      R"({"kind": "AdmissionCheck", "metadata": {"name": "prov"},
          "spec": {"controllerName": "kueue.x-k8s.io/provisioning-request"}})",
      R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
          "metadata": {"name": "job-train-1", "namespace": "team-a"},
          "spec": {"queueName": "lq", "priority": 7, "active": false,
                   "priorityClassRef": {"group": "scheduling.k8s.io", "kind": "PriorityClass",
                                        "name": "high"},
                   "podSets": [{"name": "main", "count": 4, "template": {"spec": {
                     "restartPolicy": "Never",
                     "containers": [{"name": "c", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}}]},
          "status": {"conditions": [{"type": "QuotaReserved", "status": "True",
                                     "reason": "QuotaReserved",
                                     "message": "Quota reserved in ClusterQueue research"}],
                     "admission": {"clusterQueue": "research", "podSetAssignments": [
                       {"name": "main", "flavors": {"nvidia.com/gpu": "h100"},
                        "resourceUsage": {"nvidia.com/gpu": "4"}, "count": 4}]}}})",
      R"({"kind": "Job", "metadata": {"name": "train", "namespace": "team-a"},
          "spec": {"suspend": true, "parallelism": 2,
                   "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c"}]}}}})",
  };
  for (const std::string& text : objects) {
    const Object object = parse(text);
    DYNAMIC_SECTION(ref_of(object).to_string()) {
      const Object again = parse(io::to_json_text(object));
      CHECK(again == object);
    }
  }
  CHECK(std::get<Job>(parse(objects.back())).suspend);
}

}  // namespace
}  // namespace gpusched
