// v1.Toleration.ToleratesTaint (k8s.io/api/core/v1/toleration.go) and small Pod accessors.
#include "gpusched/model/pod.hpp"

#include <algorithm>

namespace gpusched {

bool Toleration::tolerates(const Taint& taint) const noexcept {
  // An unset effect matches every effect; an empty key matches every key (validation only
  // allows that with Exists, but the matcher itself does not check).
  if (effect && *effect != taint.effect) return false;
  if (!key.empty() && key != taint.key) return false;
  switch (op) {
    case TolerationOperator::Exists:
      return true;
    case TolerationOperator::Equal:
      return value == taint.value;
  }
  return false;
}

const PodCondition* PodStatus::condition(std::string_view type) const noexcept {
  const auto it = std::find_if(conditions.begin(), conditions.end(),
                               [&](const PodCondition& c) { return c.type == type; });
  return it == conditions.end() ? nullptr : &*it;
}

const PodDefaultTexts& pod_defaults() {
  static const PodDefaultTexts texts;
  return texts;
}

std::string Pod::key() const {
  return metadata.namespace_ + "/" + metadata.name;
}

std::string_view to_string(PodPhase phase) noexcept {
  switch (phase) {
    case PodPhase::Pending:
      return "Pending";
    case PodPhase::Running:
      return "Running";
    case PodPhase::Succeeded:
      return "Succeeded";
    case PodPhase::Failed:
      return "Failed";
    case PodPhase::Unknown:
      return "Unknown";
  }
  return "Pending";
}

const std::string* Pod::reason() const noexcept {
  if (!status.reason.empty()) return &status.reason.get();
  const PodCondition* scheduled = status.condition("PodScheduled");
  return scheduled != nullptr && !scheduled->reason.empty() ? &scheduled->reason.get() : nullptr;
}

const std::string* Pod::message() const noexcept {
  if (!status.message.empty()) return &status.message.get();
  const PodCondition* scheduled = status.condition("PodScheduled");
  return scheduled != nullptr && !scheduled->message.empty() ? &scheduled->message.get() : nullptr;
}

}  // namespace gpusched
