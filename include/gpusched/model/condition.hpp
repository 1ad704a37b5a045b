#pragma once
/// metav1.Condition (k8s.io/apimachinery/pkg/apis/meta/v1) as the API's newer objects keep them in
/// status.conditions: Kueue's Workloads and queues, scheduling.k8s.io PodGroups.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/time.hpp"

namespace gpusched {

struct Condition {
  std::string type;
  std::string status;  ///< "True", "False" or "Unknown"
  std::string reason;
  std::string message;
  TimeMs last_transition_time = 0;
  std::int64_t observed_generation = 0;
  friend bool operator==(const Condition&, const Condition&) = default;
};

/// meta.FindStatusCondition: the condition of `type`, or nullptr.
[[nodiscard]] const Condition* find_condition(const std::vector<Condition>& conditions,
                                              std::string_view type);
/// meta.IsStatusConditionTrue.
[[nodiscard]] bool condition_true(const std::vector<Condition>& conditions, std::string_view type);
/// meta.SetStatusCondition: adds the condition, or updates it in place (its transition time only
/// when the status changes). Returns whether anything changed.
bool set_condition(std::vector<Condition>& conditions, Condition condition);

}  // namespace gpusched
