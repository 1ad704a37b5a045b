#include "gpusched/model/condition.hpp"

#include <algorithm>

namespace gpusched {

const Condition* find_condition(const std::vector<Condition>& conditions, std::string_view type) {
  auto it = std::find_if(conditions.begin(), conditions.end(),
                         [&](const Condition& c) { return c.type == type; });
  return it == conditions.end() ? nullptr : &*it;
}

bool condition_true(const std::vector<Condition>& conditions, std::string_view type) {
  const Condition* c = find_condition(conditions, type);
  return c != nullptr && c->status == "True";
}

bool set_condition(std::vector<Condition>& conditions, Condition condition) {
  auto it = std::find_if(conditions.begin(), conditions.end(),
                         [&](const Condition& c) { return c.type == condition.type; });
  if (it == conditions.end()) {
    conditions.push_back(std::move(condition));
    return true;
  }
  bool changed = false;
  if (it->status != condition.status) {
    it->status = condition.status;
    it->last_transition_time = condition.last_transition_time;
    changed = true;
  }
  if (it->reason != condition.reason) {
    it->reason = condition.reason;
    changed = true;
  }
  if (it->message != condition.message) {
    it->message = condition.message;
    changed = true;
  }
  if (it->observed_generation != condition.observed_generation) {
    it->observed_generation = condition.observed_generation;
    changed = true;
  }
  return changed;
}

}  // namespace gpusched
