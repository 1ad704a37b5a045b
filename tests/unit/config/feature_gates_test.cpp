#include "gpusched/config/feature_gates.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gpusched {
namespace {

KubernetesVersion release(int minor) {
  return KubernetesVersion{minor, -1};
}

TEST_CASE("The feature gate table is sorted by name and every gate exists in some release",
          "[version][gates]") {
  const auto table = feature_gate_table();
  REQUIRE(!table.empty());
  CHECK(std::is_sorted(table.begin(), table.end(),
                       [](const GateInfo& a, const GateInfo& b) { return a.name < b.name; }));
  for (const GateInfo& info : table) {
    INFO(info.name);
    CHECK(std::any_of(info.releases.begin(), info.releases.end(),
                      [](const GateRelease& r) { return r.stage != GateStage::Absent; }));
    CHECK(find_feature_gate(info.name) == &info);
    for (const GateRelease& r : info.releases) {
      // A locked gate is GA and on; an alpha gate is off.
      if (r.locked) CHECK((r.stage == GateStage::GA && r.default_value));
      if (r.stage == GateStage::Alpha) CHECK_FALSE(r.default_value);
    }
  }
  CHECK(find_feature_gate("gangScheduling") == nullptr);  // names are case-sensitive
}

struct EnabledRow {
  std::string name;
  FeatureGate gate;
  std::vector<bool> by_release;  // 1.33 .. 1.36, with no value set
};

TEST_CASE("FeatureGates::enabled: the release's default unless the scenario sets the gate",
          "[version][gates]") {
  const std::vector<EnabledRow> rows = {
      {"ClearingNominatedNodeNameAfterBinding",
       FeatureGate::ClearingNominatedNodeNameAfterBinding,
       {false, false, true, true}},
      {"NominatedNodeNameForExpectation",
       FeatureGate::NominatedNodeNameForExpectation,
       {false, false, true, true}},
      {"DynamicResourceAllocation",
       FeatureGate::DynamicResourceAllocation,
       {false, true, true, true}},
  };
  for (const EnabledRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const FeatureGates defaults;
      for (int minor = 33; minor <= 36; ++minor) {
        INFO("1." << minor);
        CHECK(defaults.enabled(row.gate, release(minor)) ==
              row.by_release[static_cast<std::size_t>(minor - 33)]);
      }
    }
  }
  FeatureGates set;
  set.values["ClearingNominatedNodeNameAfterBinding"] = true;
  set.values["DynamicResourceAllocation"] = false;
  CHECK(set.enabled(FeatureGate::ClearingNominatedNodeNameAfterBinding, release(34)));
  CHECK_FALSE(set.enabled(FeatureGate::DynamicResourceAllocation, release(34)));
  // A gate the release lacks is off whatever the values say (the loader refuses setting it).
  CHECK_FALSE(set.enabled(FeatureGate::ClearingNominatedNodeNameAfterBinding, release(33)));
}

struct SetRow {
  std::string what;
  std::string name;
  bool value;
  int minor;
  std::optional<std::string> error;
  std::optional<std::string> warning;
};

TEST_CASE(
    "Setting a feature gate: upstream's refusals, and a warning for what gpusched does not "
    "model",
    "[version][gates]") {
  const std::vector<SetRow> rows = {
      {"a modelled gate away from its default", "ClearingNominatedNodeNameAfterBinding", true, 34,
       std::nullopt, std::nullopt},
      {"a modelled gate to its default", "NominatedNodeNameForExpectation", true, 35, std::nullopt,
       std::nullopt},
      {"an unknown name", "GangSchedulling", true, 36,
       "unrecognized feature gate: GangSchedulling (gpusched knows the feature gates that change "
       "scheduling in Kubernetes 1.33 to 1.36, listed in docs/kubernetes-versions.md)",
       std::nullopt},
      {"a gate the release does not have yet", "GangScheduling", true, 33,
       "unrecognized feature gate: GangScheduling (Kubernetes 1.33 does not have it; 1.35 and 1.36 "
       "have it)",
       std::nullopt},
      {"a gate of one release only", "DRAListTypeAttributes", true, 35,
       "unrecognized feature gate: DRAListTypeAttributes (Kubernetes 1.35 does not have it; only "
       "1.36 has it)",
       std::nullopt},
      {"a gate of several releases", "NominatedNodeNameForExpectation", false, 33,
       "unrecognized feature gate: NominatedNodeNameForExpectation (Kubernetes 1.33 does not have "
       "it; 1.34 to 1.36 have it)",
       std::nullopt},
      {"a locked gate", "DynamicResourceAllocation", false, 35,
       "cannot set feature gate DynamicResourceAllocation to false, feature is locked to true",
       std::nullopt},
      {"a locked gate to its value", "SchedulerQueueingHints", true, 34, std::nullopt,
       std::nullopt},
      {"a gate not modelled, away from its default", "TaintTolerationComparisonOperators", true, 35,
       std::nullopt,
       "feature gate TaintTolerationComparisonOperators=true changes tolerations with the Lt and "
       "Gt operators, which gpusched does not model yet: Kubernetes 1.35 is simulated with its "
       "default, false"},
      {"a modelled gate away from its default", "GangScheduling", true, 35, std::nullopt,
       std::nullopt},
      {"a gate not modelled, to its default", "DRASchedulerFilterTimeout", true, 36, std::nullopt,
       std::nullopt},
      {"a gate not modelled, turned off", "DRASchedulerFilterTimeout", false, 36, std::nullopt,
       "feature gate DRASchedulerFilterTimeout=false changes Dynamic Resource Allocation (the "
       "DynamicResources Filter timeout), which gpusched does not model yet: Kubernetes 1.36 is "
       "simulated with its default, true"},
      {"a modelled DRA gate turned off", "DRAExtendedResource", false, 36, std::nullopt,
       std::nullopt},
      {"a gate with no effect", "OpportunisticBatching", false, 36, std::nullopt, std::nullopt},
  };
  for (const SetRow& row : rows) {
    DYNAMIC_SECTION(row.what) {
      CHECK(feature_gate_error(row.name, row.value, release(row.minor)) == row.error);
      if (!row.error) {
        CHECK(feature_gate_warning(row.name, row.value, release(row.minor)) == row.warning);
      }
    }
  }
}

}  // namespace
}  // namespace gpusched
