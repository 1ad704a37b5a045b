#include "gpusched/model/dra.hpp"

namespace gpusched::dra {

std::string_view to_string(DeviceTaintEffect effect) noexcept {
  switch (effect) {
    case DeviceTaintEffect::None:
      return "None";
    case DeviceTaintEffect::NoSchedule:
      return "NoSchedule";
    case DeviceTaintEffect::NoExecute:
      return "NoExecute";
  }
  return "";
}

// resourceclaim.ToleratesTaint
// (k8s.io/dynamic-resource-allocation/resourceclaim/devicetoleration.go), a copy of core/v1
// Toleration.ToleratesTaint.
bool DeviceToleration::tolerates(const DeviceTaint& taint) const {
  if (effect && *effect != taint.effect) return false;
  if (!key.empty() && key != taint.key) return false;
  return exists || value == taint.value;
}

std::string DeviceId::to_string() const {
  return driver + "/" + pool + "/" + device;
}

}  // namespace gpusched::dra
