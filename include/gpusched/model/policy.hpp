#pragma once
/// Scheduling and disruption policy objects: PriorityClass (scheduling.k8s.io/v1) and
/// PodDisruptionBudget (policy/v1).

#include <cstdint>
#include <optional>
#include <string>

#include "gpusched/model/object_meta.hpp"
#include "gpusched/model/selector.hpp"

namespace gpusched {

/// scheduling.k8s.io/v1 PriorityClass: maps a class name to the priority pods receive when they
/// name it in spec.priorityClassName. Cluster-scoped.
struct PriorityClass {
  ObjectMeta metadata;
  std::int32_t value = 0;       ///< the priority of pods using this class
  bool global_default = false;  ///< used for pods that name no class
  /// "PreemptLowerPriority" or "Never"; empty means PreemptLowerPriority (the v1 default).
  std::string preemption_policy;
  std::string description;
  friend bool operator==(const PriorityClass&, const PriorityClass&) = default;
};

/// intstr.IntOrString as PodDisruptionBudgets use it: a count (`2`) or a percentage (`"50%"`).
struct IntOrPercent {
  std::int32_t value = 0;
  bool percent = false;  ///< value is a percentage in [0, 100]
  friend bool operator==(const IntOrPercent&, const IntOrPercent&) = default;
};

/// policy/v1 PodDisruptionBudget. At most one of min_available and max_unavailable is set.
struct PodDisruptionBudget {
  ObjectMeta metadata;
  /// spec.selector. nullopt (absent or null) selects no pods; an empty selector ({}) selects every
  /// pod in the namespace (policy/v1 semantics).
  std::optional<LabelSelector> selector;
  std::optional<IntOrPercent> min_available;
  std::optional<IntOrPercent> max_unavailable;
  friend bool operator==(const PodDisruptionBudget&, const PodDisruptionBudget&) = default;

  /// Whether the budget covers a pod with these labels (in the budget's namespace).
  [[nodiscard]] bool selects(const Labels& labels) const {
    return selector.has_value() && selector->matches(labels);
  }
};

}  // namespace gpusched
