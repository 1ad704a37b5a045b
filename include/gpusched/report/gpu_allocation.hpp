#pragma once
/// How much of a replay's GPU capacity bound pods held over time: the figure trace studies
/// report as GPU allocation (for the openb trace, docs/openb.md).

#include <cstdint>

#include "gpusched/sim/result.hpp"

namespace gpusched::report {

/// nvidia.com/gpu held by pods against what the nodes could hold, in milli-GPU-milliseconds, over
/// the span from the first pod's creation to the last pod's end.
struct GpuAllocation {
  TimeMs begin = 0;  ///< the first pod creation (PodRecord::created)
  TimeMs end = 0;    ///< the last pod end: when it finished, or the run's end while it holds
  /// The nodes' allocatable nvidia.com/gpu at the end of the run, over the whole span.
  std::int64_t allocatable = 0;
  /// Each pod's nvidia.com/gpu request from its start (first bind) to its end, within the span,
  /// plus, for preemption victims gone by the end, from their start to their eviction.
  std::int64_t held = 0;

  /// held / allocatable; 0 when nothing could be held.
  [[nodiscard]] double ratio() const noexcept {
    return allocatable == 0 ? 0.0 : static_cast<double>(held) / static_cast<double>(allocatable);
  }
};

/// The time-weighted GPU allocation of a replay. Pods deleted before the end of the run are not
/// in the result and count only as preemption victims. Throws InputError (naming the result's
/// source) if the sums exceed int64 (10,000 GPUs for about 29 years).
[[nodiscard]] GpuAllocation gpu_allocation(const SimulationResult& result);

/// gpu_allocation(result).ratio().
[[nodiscard]] double gpu_allocation_ratio(const SimulationResult& result);

}  // namespace gpusched::report
