#pragma once
// Unschedulable time by reason (docs/metrics.md): from each FailedScheduling message's reasons
// (fit_error_reasons), how long pods waited for each, until they were bound or gone.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpusched/framework/pod_info.hpp"
#include "gpusched/model/time.hpp"

namespace gpusched::sim {

class UnschedulableTime {
 public:
  explicit UnschedulableTime(const TimeMs& now) : now_(now) {}
  /// A FailedScheduling event: the pod waits, for the reasons its message gives, from now on.
  void failed(const PodInfo& pod, std::string_view message);
  /// The pod's unschedulable interval, if open, ends now (it was bound, or is gone).
  void ended(const PodInfo& pod);
  /// Every reason's time, the intervals still open counted to now (the run is over then).
  [[nodiscard]] std::map<std::string, TimeMs> take();

 private:
  struct Interval {
    TimeMs since = 0;
    std::vector<std::string> reasons;
  };
  /// Adds the time from `open.since` to now to each of its reasons.
  void count(const Interval& open);

  const TimeMs& now_;
  std::unordered_map<std::uint64_t, Interval> open_;  // by PodInfo::sequence
  std::map<std::string, TimeMs> by_reason_;
};

}  // namespace gpusched::sim
