// The value each gate gpusched models runs with, as component-base's featuregate resolves the
// chart's featureGates for NVIDIA's DRA driver v0.4.0.
#include "config/nvidia_dra_feature_gates.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace gpusched {
namespace {

TEST_CASE("a driver gate runs as set, else as AllAlpha sets its stage, else its default",
          "[config][nvidia_dra_driver]") {
  struct Row {
    const char* name;
    devices::NvidiaDraDriverConfig config;
    bool dynamic_mig;
    bool health_check;
  };
  // AllAlpha=true also turns on PassthroughSupport, MPSSupport and DeviceMetadata, which
  // DynamicMIG excludes or which need PassthroughSupport: those are set off.
  const devices::NvidiaDraDriverConfig all_alpha{{{"AllAlpha", true},
                                                  {"PassthroughSupport", false},
                                                  {"MPSSupport", false},
                                                  {"DeviceMetadata", false},
                                                  {"NVMLDeviceHealthCheck", false}}};
  const std::vector<Row> rows = {
      {"defaults", {}, false, false},
      {"set", {{{"DynamicMIG", true}}}, true, false},
      {"AllAlpha, one set off", all_alpha, true, false},
      {"AllAlpha false", {{{"AllAlpha", false}, {"NVMLDeviceHealthCheck", true}}}, false, true},
      {"AllBeta leaves alpha gates", {{{"AllBeta", true}}}, false, false},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      CHECK(nvidia_dra_gate_enabled(row.config, "DynamicMIG") == row.dynamic_mig);
      CHECK(nvidia_dra_gate_enabled(row.config, "NVMLDeviceHealthCheck") == row.health_check);
      CHECK_FALSE(nvidia_dra_feature_gates_error(row.config));
    }
  }
}

}  // namespace
}  // namespace gpusched
