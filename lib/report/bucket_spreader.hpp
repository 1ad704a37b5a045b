#pragma once
// Time series in SimulationResult::gpu_series' buckets: an amount held over an interval, spread
// over the buckets it overlaps, in amount-hours.

#include <algorithm>
#include <vector>

#include "gpusched/model/time.hpp"

namespace gpusched::report {

inline constexpr double kMsPerHour = 3'600'000.0;

/// Adds amounts held over [from, to) to `hours`, bucket b covering [b x width, min((b + 1) x
/// width, end)). Work is constant per interval: the buckets it covers whole go through a
/// difference array, added by finish().
class BucketSpreader {
 public:
  BucketSpreader(std::vector<double>& hours, TimeMs width, TimeMs end)
      : hours_(hours), width_(width), end_(end), whole_(hours.size() + 1, 0) {}
  void add(TimeMs from, TimeMs to, double amount) {
    from = std::max<TimeMs>(from, 0);
    to = std::min(to, end_);
    if (hours_.empty() || width_ <= 0 || to <= from) return;
    const auto first = static_cast<std::size_t>(from / width_);
    const auto last = std::min(static_cast<std::size_t>((to - 1) / width_), hours_.size() - 1);
    if (first == last) {
      hours_[first] += amount * static_cast<double>(to - from) / kMsPerHour;
      return;
    }
    // `first` is not the last bucket, so it is whole width long.
    const auto first_end = static_cast<TimeMs>(first + 1) * width_;
    hours_[first] += amount * static_cast<double>(first_end - from) / kMsPerHour;
    hours_[last] +=
        amount * static_cast<double>(to - static_cast<TimeMs>(last) * width_) / kMsPerHour;
    whole_[first + 1] += amount;
    whole_[last] -= amount;
  }
  void finish() {
    double running = 0;
    for (std::size_t b = 0; b < hours_.size(); ++b) {
      running += whole_[b];
      hours_[b] += running * static_cast<double>(width_) / kMsPerHour;
    }
  }

 private:
  std::vector<double>& hours_;
  TimeMs width_;
  TimeMs end_;
  std::vector<double> whole_;
};

}  // namespace gpusched::report
