#include "gpusched/report/metrics.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace gpusched::report {
namespace {

// The nearest-rank percentile: the smallest value with at least p % of the values at or below it.
TimeMs nearest_rank(const std::vector<TimeMs>& sorted, std::int64_t percent) {
  const auto n = static_cast<std::int64_t>(sorted.size());
  const std::int64_t rank = std::max<std::int64_t>(1, (percent * n + 99) / 100);
  return sorted[static_cast<std::size_t>(rank - 1)];
}

}  // namespace

WaitStats wait_stats(std::vector<TimeMs> waits) {
  WaitStats out;
  out.pods = waits.size();
  if (waits.empty()) return out;
  std::sort(waits.begin(), waits.end());
  out.p50 = nearest_rank(waits, 50);
  out.p95 = nearest_rank(waits, 95);
  out.p99 = nearest_rank(waits, 99);
  out.max = waits.back();
  return out;
}

QueueWait queue_wait(const SimulationResult& result, PendingPods pending) {
  std::vector<TimeMs> all;
  std::map<std::string, std::vector<TimeMs>> by_class;
  std::map<std::string, std::vector<TimeMs>> by_namespace;
  QueueWait out;
  for (const PodRecord& record : result.pods) {
    const TimeMs created = record.created.value_or(0);
    if (!record.scheduled) {
      ++out.never_bound;
      out.longest_pending = std::max(out.longest_pending, result.time - created);
      if (pending == PendingPods::Excluded) continue;
    }
    const TimeMs wait = std::max<TimeMs>(
        0, record.scheduled.value_or(record.finished.value_or(result.time)) - created);
    all.push_back(wait);
    by_class[record.pod.spec.priority_class_name].push_back(wait);
    by_namespace[record.pod.metadata.namespace_].push_back(wait);
  }
  out.all = wait_stats(std::move(all));
  for (auto& [name, waits] : by_class) out.by_priority_class[name] = wait_stats(std::move(waits));
  for (auto& [name, waits] : by_namespace) out.by_namespace[name] = wait_stats(std::move(waits));
  return out;
}

}  // namespace gpusched::report
