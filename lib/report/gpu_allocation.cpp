#include "gpusched/report/gpu_allocation.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "gpusched/error.hpp"

namespace gpusched::report {
namespace {

std::int64_t gpu_milli(const ResourceList& list) {
  const auto it = list.find(resource::kGpu);
  return it == list.end() ? 0 : it->second.milli();
}

/// Milli-GPU-milliseconds added up exactly, or an error once they leave int64.
class GpuTime {
 public:
  explicit GpuTime(const SimulationResult& result) : result_(result) {}

  /// `milli` GPUs held over [from, to), clipped to [begin, end).
  void add(std::int64_t milli, TimeMs from, TimeMs to, TimeMs begin, TimeMs end) {
    const TimeMs duration = std::min(to, end) - std::max(from, begin);
    if (milli <= 0 || duration <= 0) return;
    std::int64_t product = 0;
    if (__builtin_mul_overflow(milli, duration, &product) ||
        __builtin_add_overflow(total_, product, &total_)) {
      throw InputError(result_.source, "",
                       "GPU time beyond what int64 milli-GPU-milliseconds can hold");
    }
  }
  [[nodiscard]] std::int64_t total() const noexcept { return total_; }

 private:
  const SimulationResult& result_;
  std::int64_t total_ = 0;
};

void widen(std::optional<TimeMs>& bound, TimeMs t, bool lower) {
  bound = !bound ? t : lower ? std::min(*bound, t) : std::max(*bound, t);
}

}  // namespace

GpuAllocation gpu_allocation(const SimulationResult& result) {
  // The span: pods' creations, ends, and the run's end for pods still holding their node.
  // Preemption victims deleted by the end are in the result only as preemption records.
  std::optional<TimeMs> begin;
  std::optional<TimeMs> end;
  std::set<std::string> present;
  for (const PodRecord& record : result.pods) {
    present.insert(record.pod.key());
    if (record.created) widen(begin, *record.created, true);
    if (record.finished) {
      widen(end, *record.finished, false);
    } else if (record.scheduled) {
      widen(end, result.time, false);
    }
  }
  for (const PreemptionRecord& preemption : result.preemptions) {
    for (const VictimRecord& victim : preemption.victims) {
      if (present.contains(victim.pod)) continue;
      widen(begin, preemption.time - victim.ran, true);
      widen(end, preemption.time, false);
    }
  }
  GpuAllocation out;
  if (!begin || !end || *end <= *begin) return out;
  out.begin = *begin;
  out.end = *end;

  GpuTime held(result);
  for (const PodRecord& record : result.pods) {
    // scheduled is the start on the node: a pod the kubelet rejected never held its GPUs.
    if (!record.scheduled) continue;
    held.add(gpu_milli(record.requests), *record.scheduled, record.finished.value_or(result.time),
             out.begin, out.end);
  }
  for (const PreemptionRecord& preemption : result.preemptions) {
    for (const VictimRecord& victim : preemption.victims) {
      if (present.contains(victim.pod)) continue;  // still terminating: counted above
      held.add(victim.gpus * 1000, preemption.time - victim.ran, preemption.time, out.begin,
               out.end);
    }
  }
  out.held = held.total();

  GpuTime allocatable(result);
  for (const NodeRecord& node : result.nodes) {
    allocatable.add(gpu_milli(node.node.allocatable), out.begin, out.end, out.begin, out.end);
  }
  out.allocatable = allocatable.total();
  return out;
}

double gpu_allocation_ratio(const SimulationResult& result) {
  return gpu_allocation(result).ratio();
}

}  // namespace gpusched::report
