// A scenario's `nvidiaDraDriver` in lib/io/nvidia_dra_driver_json.cpp: the Helm chart's
// `featureGates` (dra-driver-nvidia-gpu v0.4.0), refused where the driver's components refuse
// them, noted where gpusched does not model them, and written back by the scenario writer.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/scenario_writer.hpp"

namespace gpusched {
namespace {

Scenario scenario_with(const std::string& driver, const io::LoadOptions& options = {}) {
  return io::parse_scenario(R"({"name": "d", "nvidiaDraDriver": )" + driver + "}", "d.json",
                            options);
}

TEST_CASE("nvidiaDraDriver featureGates are read from JSON and YAML and written back",
          "[io][nvidia_dra_driver]") {
  CHECK(io::parse_scenario(R"({"name": "d"})", "d.json").nvidia_dra_driver ==
        devices::NvidiaDraDriverConfig{});
  CHECK(scenario_with("{}").nvidia_dra_driver.feature_gates.empty());

  const Scenario json =
      scenario_with(R"({"featureGates": {"DynamicMIG": true, "NVMLDeviceHealthCheck": false}})");
  const devices::NvidiaDraDriverConfig want{
      {{"DynamicMIG", true}, {"NVMLDeviceHealthCheck", false}}};
  CHECK(json.nvidia_dra_driver == want);
  CHECK(json.notes.empty());

  const Scenario yaml = io::parse_scenario(
      "name: d\nnvidiaDraDriver:\n  featureGates:\n    DynamicMIG: true\n"
      "    NVMLDeviceHealthCheck: false\n",
      "d.yaml");
  CHECK(yaml.nvidia_dra_driver == want);

  const std::string written = io::scenario_json_text(json);
  CHECK(written.find("\"nvidiaDraDriver\"") != std::string::npos);
  CHECK(io::parse_scenario(written, "again.json").nvidia_dra_driver == want);
  // Nothing set, nothing written.
  CHECK(io::scenario_json_text(scenario_with("{}")).find("nvidiaDraDriver") == std::string::npos);
}

TEST_CASE("nvidiaDraDriver refused where the driver refuses it, at its place",
          "[io][nvidia_dra_driver]") {
  struct Row {
    const char* name;
    std::string text;
    std::string pointer;
    int line;
    std::string reason;
  };
  const std::vector<Row> rows = {
      {"not an object", R"({"name": "d",
        "nvidiaDraDriver": ["DynamicMIG"]})",
       "/nvidiaDraDriver", 2, "expected an object, got array"},
      {"another chart value", R"({"name": "d",
        "nvidiaDraDriver": {"resources": {"gpus": {"enabled": true}}}})",
       "/nvidiaDraDriver/resources", 2, "unknown key \"resources\" (known keys: featureGates)"},
      {"featureGates not a map", R"({"name": "d",
        "nvidiaDraDriver": {"featureGates": "DynamicMIG=true"}})",
       "/nvidiaDraDriver/featureGates", 2, "expected an object, got string"},
      {"a gate's value not a boolean", R"({"name": "d", "nvidiaDraDriver": {"featureGates": {
        "DynamicMIG": "true"}}})",
       "/nvidiaDraDriver/featureGates/DynamicMIG", 2, "expected a boolean, got string"},
      // featuregate.Set, as FEATURE_GATES reaches every component.
      {"unknown gate", R"({"name": "d", "nvidiaDraDriver": {"featureGates": {
        "DynamicMig": true}}})",
       "/nvidiaDraDriver/featureGates/DynamicMig", 2,
       "unrecognized feature gate: DynamicMig (NVIDIA's DRA driver v0.4.0, which gpusched "
       "follows, has AllAlpha, AllBeta, ComputeDomainCliques, ContextualLogging, "
       "CrashOnNVLinkFabricErrors, DeviceMetadata, DynamicMIG, IMEXDaemonsWithDNSNames, "
       "LoggingAlphaOptions, LoggingBetaOptions, MPSSupport, NVMLDeviceHealthCheck, "
       "PassthroughSupport, TimeSlicingSettings)"},
      {"a scheduler gate", R"({"name": "d", "nvidiaDraDriver": {"featureGates": {
        "DRAPartitionableDevices": true}}})",
       "/nvidiaDraDriver/featureGates/DRAPartitionableDevices", 2, ""},
      // ValidateFeatureGates.
      {"exclusive gates", R"({"name": "d", "nvidiaDraDriver": {"featureGates": {
        "DynamicMIG": true, "NVMLDeviceHealthCheck": true}}})",
       "/nvidiaDraDriver/featureGates", 1,
       "NVIDIA's DRA driver does not start: feature gate validation failed: feature gate "
       "DynamicMIG is currently mutually exclusive with NVMLDeviceHealthCheck"},
      {"a gate that needs another", R"({"name": "d", "nvidiaDraDriver": {"featureGates": {
        "DeviceMetadata": true}}})",
       "/nvidiaDraDriver/featureGates", 1,
       "NVIDIA's DRA driver does not start: feature gate validation failed: feature gate "
       "DeviceMetadata requires PassthroughSupport to also be enabled"},
      {"a default turned off under a gate that needs it", R"({"name": "d",
        "nvidiaDraDriver": {"featureGates": {"IMEXDaemonsWithDNSNames": false}}})",
       "/nvidiaDraDriver/featureGates", 2,
       "NVIDIA's DRA driver does not start: feature gate validation failed: feature gate "
       "ComputeDomainCliques requires IMEXDaemonsWithDNSNames to also be enabled"},
      {"AllAlpha turns on gates that exclude each other", R"({"name": "d",
        "nvidiaDraDriver": {"featureGates": {"AllAlpha": true}}})",
       "/nvidiaDraDriver/featureGates", 2,
       "NVIDIA's DRA driver does not start: feature gate validation failed: feature gate "
       "DynamicMIG is currently mutually exclusive with PassthroughSupport"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      try {
        (void)io::parse_scenario(row.text, "d.json");
        FAIL("no error for " << row.name);
      } catch (const InputError& e) {
        CHECK(e.file() == "d.json");
        CHECK(e.pointer() == row.pointer);
        CHECK(e.line() == row.line);
        if (!row.reason.empty()) CHECK(e.reason() == row.reason);
      }
    }
  }
}

TEST_CASE("nvidiaDraDriver gates gpusched does not model are noted, refused under --strict",
          "[io][nvidia_dra_driver]") {
  auto notes = [](const std::string& gates) {
    return scenario_with(R"({"featureGates": )" + gates + "}").notes;
  };
  // Modelled, at their defaults, or logging only: nothing to say.
  CHECK(notes(R"({"DynamicMIG": true, "PassthroughSupport": false, "ComputeDomainCliques": true})")
            .empty());
  CHECK(notes(R"({"LoggingAlphaOptions": true, "ContextualLogging": false})").empty());

  const std::vector<std::string> passthrough = notes(R"({"PassthroughSupport": true})");
  REQUIRE(passthrough.size() == 1);
  CHECK(passthrough[0].find("/nvidiaDraDriver/featureGates/PassthroughSupport") !=
        std::string::npos);
  CHECK(passthrough[0].find(
            "NVIDIA DRA driver feature gate PassthroughSupport=true changes the VFIO passthrough "
            "devices the GPU kubelet plugin also publishes (vfio.gpu.nvidia.com), which gpusched "
            "does not model: v0.4.0 is simulated with its default, false") != std::string::npos);

  // AllBeta names the gates of its stage it turns off; one set on its own keeps its value.
  const std::vector<std::string> all_beta =
      notes(R"({"AllBeta": false, "IMEXDaemonsWithDNSNames": true})");
  REQUIRE(all_beta.size() == 1);
  CHECK(all_beta[0].find("/nvidiaDraDriver/featureGates/AllBeta") != std::string::npos);
  CHECK(all_beta[0].find("NVIDIA DRA driver feature gate AllBeta=false also sets "
                         "ComputeDomainCliques, CrashOnNVLinkFabricErrors, which gpusched does "
                         "not model") != std::string::npos);

  io::LoadOptions strict;
  strict.strict = true;
  CHECK_NOTHROW(scenario_with(R"({"featureGates": {"DynamicMIG": true}})", strict));
  try {
    (void)scenario_with(R"({"featureGates": {"MPSSupport": true}})", strict);
    FAIL("--strict accepted MPSSupport=true");
  } catch (const InputError& e) {
    CHECK(e.pointer() == "/nvidiaDraDriver/featureGates/MPSSupport");
    CHECK(e.reason().find("MPSSupport=true changes") != std::string::npos);
  }
}

}  // namespace
}  // namespace gpusched
