#include "sim/unschedulable_time.hpp"

#include "gpusched/framework/diagnosis.hpp"

namespace gpusched::sim {

void UnschedulableTime::failed(const PodInfo& pod, std::string_view message) {
  ended(pod);
  open_[pod.sequence] = Interval{now_, fit_error_reasons(message)};
}

void UnschedulableTime::ended(const PodInfo& pod) {
  auto it = open_.find(pod.sequence);
  if (it == open_.end()) return;
  count(it->second);
  open_.erase(it);
}

std::map<std::string, TimeMs> UnschedulableTime::take() {
  // Sums commute, so the order of the open intervals does not show.
  for (const auto& [sequence, open] : open_) count(open);
  open_.clear();
  return std::move(by_reason_);
}

void UnschedulableTime::count(const Interval& open) {
  for (const std::string& reason : open.reasons) by_reason_[reason] += now_ - open.since;
}

}  // namespace gpusched::sim
