// A scenario's `kueue.configuration` in lib/io/kueue_config_json.cpp: Kueue v0.19.2's v1beta2
// defaults (apis/config/v1beta2/defaults.go), its validation texts (pkg/config/validation.go),
// notes for what changes admission but is not modelled, and the scenario writer's round trip.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/scenario_writer.hpp"

namespace gpusched {
namespace {

Scenario scenario_with(const std::string& kueue) {
  return io::parse_scenario(R"({"name": "k", "kueue": )" + kueue + "}", "k.json");
}

TEST_CASE("kueue.configuration takes v1beta2's defaults", "[io][kueue]") {
  const Scenario bare = scenario_with(R"({"configuration": {
      "apiVersion": "config.kueue.x-k8s.io/v1beta2", "kind": "Configuration"}})");
  REQUIRE(bare.kueue);
  CHECK(*bare.kueue == KueueConfiguration{});
  CHECK(bare.kueue->wait_for_pods_ready.timeout_ms == 30 * 60 * 1000);
  CHECK_FALSE(bare.kueue->fair_sharing);
  CHECK_FALSE(io::parse_scenario(R"({"name": "k"})", "k.json").kueue);

  const Scenario set = scenario_with(R"({"configuration": {
      "apiVersion": "config.kueue.x-k8s.io/v1beta2", "kind": "Configuration",
      "manageJobsWithoutQueueName": true, "webhook": {"port": 9443},
      "waitForPodsReady": {"timeout": "5m", "blockAdmission": true,
                           "requeuingStrategy": {"timestamp": "Creation", "backoffLimitCount": 3}},
      "fairSharing": {"preemptionStrategies": ["LessThanInitialShare"]},
      "featureGates": {"TopologyAwareScheduling": false}}})");
  REQUIRE(set.kueue);
  const KueueConfiguration& c = *set.kueue;
  CHECK(c.manage_jobs_without_queue_name);
  CHECK(c.wait_for_pods_ready.timeout_ms == 300'000);
  CHECK(c.wait_for_pods_ready.recovery_timeout_ms == 300'000);  // defaults to the timeout
  CHECK(c.wait_for_pods_ready.block_admission);
  CHECK(c.wait_for_pods_ready.requeuing_timestamp == KueueRequeuingTimestamp::Creation);
  CHECK(c.wait_for_pods_ready.backoff_limit_count == 3);
  CHECK(c.wait_for_pods_ready.backoff_base_seconds == 60);
  REQUIRE(c.fair_sharing);
  CHECK(c.fair_sharing->preemption_strategies ==
        std::vector<KueuePreemptionStrategy>{KueuePreemptionStrategy::LessThanInitialShare});
  CHECK(c.feature_gates.at("TopologyAwareScheduling") == false);

  // Written back and read again, equal.
  const Scenario again = io::parse_scenario(io::scenario_json_text(set), "again.json");
  REQUIRE(again.kueue);
  CHECK(*again.kueue == c);
}

TEST_CASE("kueue.configuration refused as Kueue's validation refuses it", "[io][kueue]") {
  struct Row {
    const char* name;
    std::string kueue;
    std::string pointer;
    std::string reason;
  };
  const std::vector<Row> rows = {
      {"negative timeout", R"({"configuration": {"waitForPodsReady": {"timeout": "-90s"}}})",
       "/kueue/configuration/waitForPodsReady/timeout",
       "waitForPodsReady.timeout: Invalid value: -1m30s: must be greater than or equal to 0"},
      {"timestamp enum",
       R"({"configuration": {"waitForPodsReady": {"requeuingStrategy": {"timestamp": "Now"}}}})",
       "/kueue/configuration/waitForPodsReady/requeuingStrategy/timestamp",
       "waitForPodsReady.requeuingStrategy.timestamp: Unsupported value: \"Now\": supported "
       "values: \"Creation\", \"Eviction\""},
      {"negative backoff", R"({"configuration": {"waitForPodsReady": {"requeuingStrategy": {
           "backoffBaseSeconds": -1}}}})",
       "/kueue/configuration/waitForPodsReady/requeuingStrategy/backoffBaseSeconds",
       "waitForPodsReady.requeuingStrategy.backoffBaseSeconds: Invalid value: -1: must be "
       "greater than or equal to 0"},
      {"fair sharing without strategies", R"({"configuration": {"fairSharing": {}}})",
       "/kueue/configuration/fairSharing/preemptionStrategies",
       "fairSharing.preemptionStrategies: Required value: must be specified"},
      {"fair sharing strategies out of order", R"({"configuration": {"fairSharing": {
           "preemptionStrategies": ["LessThanInitialShare", "LessThanOrEqualToFinalShare"]}}})",
       "/kueue/configuration/fairSharing/preemptionStrategies",
       "fairSharing.preemptionStrategies: Unsupported value: "
       "[]v1beta2.PreemptionStrategy{\"LessThanInitialShare\", \"LessThanOrEqualToFinalShare\"}: "
       "supported values: \"LessThanOrEqualToFinalShare\", \"LessThanInitialShare\", "
       "\"LessThanOrEqualToFinalShare,LessThanInitialShare\""},
      {"another version", R"({"configuration": {"apiVersion": "config.kueue.x-k8s.io/v1beta1"}})",
       "/kueue/configuration/apiVersion",
       "apiVersion \"config.kueue.x-k8s.io/v1beta1\" is not a Kueue Configuration gpusched reads; "
       "use \"config.kueue.x-k8s.io/v1beta2\""},
      {"unknown key", R"({"config": {}})", "/kueue/config",
       "unknown key \"config\" (known keys: configuration)"},
      // LoadAndValidateFeatureGates with component-base's featuregate messages.
      {"unknown feature gate", R"({"configuration": {"featureGates": {"GangScheduling": true}}})",
       "/kueue/configuration/featureGates/GangScheduling",
       "unrecognized feature gate: GangScheduling (Kueue 0.19.2 does not have it; gpusched "
       "follows Kueue 0.19.2)"},
      {"locked feature gate",
       R"({"configuration": {"featureGates": {"HierarchicalCohorts": false}}})",
       "/kueue/configuration/featureGates/HierarchicalCohorts",
       "cannot set feature gate HierarchicalCohorts to false, feature is locked to true"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      try {
        (void)scenario_with(row.kueue);
        FAIL("no error for " << row.name);
      } catch (const InputError& e) {
        CHECK(e.pointer() == row.pointer);
        CHECK(e.reason() == row.reason);
      }
    }
  }
}

TEST_CASE("kueue.configuration fields that change admission are noted", "[io][kueue]") {
  const std::string text = R"({"name": "k", "kueue": {"configuration": {
      "managedJobsNamespaceSelector": {"matchLabels": {"a": "b"}}}}})";
  const Scenario scenario = io::parse_scenario(text, "k.json");
  REQUIRE(scenario.notes.size() == 1);
  CHECK(scenario.notes[0].find("managedJobsNamespaceSelector is not modelled") !=
        std::string::npos);
  io::LoadOptions strict;
  strict.strict = true;
  CHECK_THROWS_AS(io::parse_scenario(text, "k.json", strict), InputError);
}

TEST_CASE("kueue.configuration featureGates that change admission are noted", "[io][kueue]") {
  auto notes = [](const std::string& gates) {
    return io::parse_scenario(
               R"({"name": "k", "kueue": {"configuration": {"featureGates": )" + gates + "}}}",
               "k.json")
        .notes;
  };
  // Modelled, a default, or one that changes no admission: nothing to say.
  CHECK(
      notes(
          R"({"FairSharingPrioritizeNonBorrowing": false, "FairSharingPreemptWithinNominal": false})")
          .empty());
  CHECK(notes(R"({"PrioritySortingWithinCohort": true, "PrioritizePreemptorWorkloads": false})")
            .empty());
  CHECK(notes(R"({"LocalQueueMetrics": false, "HierarchicalCohorts": true})").empty());
  const std::vector<std::string> noted = notes(R"({"PrioritizePreemptorWorkloads": true})");
  REQUIRE(noted.size() == 1);
  CHECK(noted[0].find("/kueue/configuration/featureGates/PrioritizePreemptorWorkloads") !=
        std::string::npos);
  CHECK(noted[0].find("Kueue feature gate PrioritizePreemptorWorkloads=true is not modelled: Kueue "
                      "0.19.2 is simulated with its default, false") != std::string::npos);
  io::LoadOptions strict;
  strict.strict = true;
  CHECK_THROWS_AS(io::parse_scenario(R"({"name": "k", "kueue": {"configuration": {
      "featureGates": {"UnadmittedWorkloadsObservability": true}}}})",
                                     "k.json", strict),
                  InputError);
}

TEST_CASE("kueue.configuration fairSharing is modelled, admissionFairSharing noted",
          "[io][kueue][fair_sharing]") {
  io::LoadOptions strict;
  strict.strict = true;
  const Scenario fair = io::parse_scenario(R"({"name": "k", "kueue": {"configuration": {
      "fairSharing": {"preemptionStrategies": ["LessThanOrEqualToFinalShare"]}}}})",
                                           "k.json", strict);
  CHECK(fair.notes.empty());
  REQUIRE(fair.kueue->fair_sharing);

  const Scenario afs = io::parse_scenario(R"({"name": "k", "kueue": {"configuration": {
      "admissionFairSharing": {"usageHalfLifeTime": "168h"}}}})",
                                          "k.json");
  REQUIRE(afs.notes.size() == 1);
  CHECK(afs.notes[0].find("admission fair sharing is not modelled") != std::string::npos);
}

TEST_CASE("kueue.configuration integrations.frameworks enables the pod integration",
          "[io][kueue][pod]") {
  // defaults.go: an empty or absent list is ["batch/job"]; "pod" is not in it.
  const Scenario bare = scenario_with(R"({"configuration": {"integrations": {}}})");
  REQUIRE(bare.kueue);
  CHECK(bare.kueue->frameworks == std::vector<std::string>{"batch/job"});
  CHECK_FALSE(bare.kueue->enabled("pod"));
  CHECK(bare.notes.empty());

  const Scenario pods =
      scenario_with(R"({"configuration": {"integrations": {"frameworks": ["batch/job", "pod"]}}})");
  REQUIRE(pods.kueue);
  CHECK(pods.kueue->enabled("pod"));
  CHECK(pods.kueue->enabled("batch/job"));
  CHECK(pods.notes.empty());
  const Scenario again = io::parse_scenario(io::scenario_json_text(pods), "again.json");
  REQUIRE(again.kueue);
  CHECK(again.kueue->frameworks == pods.kueue->frameworks);

  // A framework gpusched does not model, and the other integrations fields, are noted.
  const Scenario other = scenario_with(
      R"({"configuration": {"integrations": {"frameworks": ["jobset.x-k8s.io/jobset"],
                                             "labelKeysToCopy": ["team"]}}})");
  REQUIRE(other.kueue);
  CHECK_FALSE(other.kueue->enabled("batch/job"));
  REQUIRE(other.notes.size() == 2);
  CHECK(other.notes[0].find("the jobset.x-k8s.io/jobset integration is not modelled") !=
        std::string::npos);
  CHECK(other.notes[1].find("labelKeysToCopy is not modelled") != std::string::npos);
}

}  // namespace
}  // namespace gpusched
