#include "io/nvidia_dra_driver_json.hpp"

#include <optional>

#include "config/nvidia_dra_feature_gates.hpp"

namespace gpusched::io {

devices::NvidiaDraDriverConfig parse_nvidia_dra_driver(const JsonNode& driver) {
  driver.reject_unknown_keys({"featureGates"});
  devices::NvidiaDraDriverConfig config;
  const std::optional<JsonNode> gates = driver.get("featureGates");
  if (!gates) return config;
  // The chart renders the map as FEATURE_GATES for every component, whose featuregate.Set
  // refuses a gate it does not know.
  for (const auto& [name, value] : gates->entries()) {
    const bool on = value.boolean();
    if (auto error = nvidia_dra_feature_gate_error(name)) value.fail(*error);
    config.feature_gates[name] = on;
  }
  if (auto error = nvidia_dra_feature_gates_error(config)) gates->fail(*error);
  for (const auto& [name, value] : gates->entries()) {
    if (auto warning = nvidia_dra_feature_gate_warning(name, value.boolean(), config))
      value.note_not_modelled(*warning);
  }
  return config;
}

nlohmann::json nvidia_dra_driver_json(const devices::NvidiaDraDriverConfig& config) {
  if (config.feature_gates.empty()) return nullptr;
  nlohmann::json gates = nlohmann::json::object();
  for (const auto& [name, value] : config.feature_gates) gates[name] = value;
  return {{"featureGates", std::move(gates)}};
}

}  // namespace gpusched::io
