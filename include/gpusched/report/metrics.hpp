#pragma once
/// Queue wait: how long pods waited from creation to their first bind, the figure a capacity
/// planner sets objectives on (`wait.p95 < 10m`), for the fleet, per priority class and per
/// namespace.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/time.hpp"
#include "gpusched/sim/result.hpp"

namespace gpusched::report {

/// Nearest-rank percentiles of the waits of `pods` pods (all zero when there are none).
struct WaitStats {
  std::size_t pods = 0;
  TimeMs p50 = 0;
  TimeMs p95 = 0;
  TimeMs p99 = 0;
  TimeMs max = 0;
};

/// The percentiles of `values` (durations), nearest-rank.
[[nodiscard]] WaitStats wait_stats(std::vector<TimeMs> values);

struct QueueWait {
  WaitStats
      all;  ///< every pod bound at least once (and the others, with PendingPods::CountedToEnd)
  /// By spec.priorityClassName ("" for pods without one).
  std::map<std::string, WaitStats> by_priority_class;
  std::map<std::string, WaitStats> by_namespace;
  /// Pods never bound by the end of the run: not in the figures above unless counted to the end,
  /// since their wait has no end yet. `longest_pending` is how long the oldest of them has waited
  /// at the end.
  std::size_t never_bound = 0;
  TimeMs longest_pending = 0;
};

/// Whether queue_wait counts the pods that were never bound.
enum class PendingPods {
  Excluded,  ///< only waits that ended (the `queueWait` of the JSON result)
  /// Each with its wait so far, to the end of the run: a lower bound of its real wait, so that a
  /// pod left waiting makes the percentiles worse instead of vanishing from them.
  CountedToEnd,
};

/// The queue wait of a replay's pods (PodRecord::created to PodRecord::scheduled).
[[nodiscard]] QueueWait queue_wait(const SimulationResult& result,
                                   PendingPods pending = PendingPods::Excluded);

/// Resource-hours offered (allocatable) and requested over the run, by resource name.
struct Allocation {
  std::map<std::string, double> allocatable_hours;
  std::map<std::string, double> requested_hours;
  /// Time-weighted allocation: requested / allocatable resource-hours; 0 when never offered.
  [[nodiscard]] double ratio(const std::string& resource) const;
};

struct AllocationReport {
  Allocation fleet;
  std::map<std::string, Allocation> by_pool;       ///< nodes with a gpusched.io/node-pool label
  std::map<std::string, Allocation> by_gpu_model;  ///< nodes with an nvidia.com/gpu.product label
};

/// Sums SimulationResult::usage over the fleet, each node pool and each GPU model.
[[nodiscard]] AllocationReport allocation(const SimulationResult& result);

/// A node's whole GPUs left free at the end, and how many of them are stranded.
struct NodeFragmentation {
  std::string node;
  std::int64_t free_gpus = 0;
  std::int64_t stranded_gpus = 0;
};

/// GPU fragmentation at the end of the run, against the GPU pods still waiting for a node.
struct Fragmentation {
  std::int64_t free_gpus = 0;  ///< allocatable nvidia.com/gpu not requested, fleet-wide
  std::size_t pending_gpu_pods = 0;
  /// The expected number of free GPUs that cannot host a pending GPU pod drawn at random from the
  /// pending ones: a node's free GPUs count for a pod whose GPUs, cpu or memory do not fit the
  /// node's free amounts (the fragmentation measure of Weng et al., "Beware of Fragmentation",
  /// USENIX ATC '23, over whole GPUs). 0 when no GPU pod is pending.
  double fragmented_gpus = 0;
  /// Free GPUs on nodes whose free cpu or memory fits none of the pending GPU pods: GPUs idle for
  /// lack of the other resources, whatever their count.
  std::int64_t stranded_gpus = 0;
  std::vector<NodeFragmentation> nodes;  ///< GPU nodes with free GPUs, by name
};

[[nodiscard]] Fragmentation gpu_fragmentation(const SimulationResult& result);

/// GPU sharing over the run, on the nodes with alibabacloud.com GPUs (the FGD paper's measures,
/// ../shared/reference/fgd-artifact.md §4): each state of each node (SimulationResult::
/// gpu_share_intervals) weighed by how long it held, its fragmentation bins against the run's
/// typical pods (SimulationResult::pod_shapes). A run that lasts no time is weighed at its end.
struct GpuShareFragmentation {
  std::int64_t gpus = 0;  ///< at the end
  double capacity = 0;    ///< GPU milli x milliseconds
  double used = 0;        ///< held by pods
  double fragmented = 0;  ///< the fragmentation amount: idle milli typical pods cannot use
  double idle = 0;        ///< every bin: the free milli
  [[nodiscard]] double allocation() const noexcept { return capacity > 0 ? used / capacity : 0; }
  /// Fragmented over the GPU capacity (the paper's Fig. 7 amount).
  [[nodiscard]] double fragmentation() const noexcept {
    return capacity > 0 ? fragmented / capacity : 0;
  }
  /// Fragmented over the idle milli (the paper's Fig. 7 ratio).
  [[nodiscard]] double fragmentation_ratio() const noexcept {
    return idle > 0 ? fragmented / idle : 0;
  }
};

/// nullopt when no node has alibabacloud.com GPUs at the end nor had them during the run.
[[nodiscard]] std::optional<GpuShareFragmentation> gpu_share_fragmentation(
    const SimulationResult& result);

/// Jobs: how many finished, and how long they took from creation to completion.
struct JobStats {
  std::size_t jobs = 0;
  std::size_t completed = 0;
  std::size_t failed = 0;
  std::size_t running = 0;  ///< neither completed nor failed at the end
  /// From the first Job's creation to the last Job's end, when every Job ended; otherwise to the
  /// end of the run.
  TimeMs makespan = 0;
  WaitStats duration;  ///< creation to end, over the Jobs that ended
};

[[nodiscard]] JobStats job_stats(const SimulationResult& result);

/// What a metric's value counts, for printing and for reading objectives.
enum class MetricUnit : std::uint8_t {
  Count,
  Duration,  ///< milliseconds
  Ratio,     ///< 0..1, printed as a percentage
  Hours,     ///< resource-hours (GPU-hours)
  Money,     ///< what paid GPU-hours cost, in the unit of the pools' pricePerGpuHour
};

/// One figure of a replay, named as objectives and tables name it: `pending`, `wait.p95`,
/// `wait.p95{priorityClass=high}`, `allocation.nvidia.com/gpu{pool=h100}`, ...
struct Metric {
  std::string name;
  double value = 0;
  MetricUnit unit = MetricUnit::Count;
};

/// Every figure of a replay in a fixed order (docs/metrics.md lists them).
[[nodiscard]] std::vector<Metric> summary_metrics(const SimulationResult& result);

/// The metric named `name` in `metrics`, or nullopt.
[[nodiscard]] std::optional<Metric> find_metric(const std::vector<Metric>& metrics,
                                                std::string_view name);

/// The value as a person reads it: "12", "1m30s", "41.3%", "3.250" (hours), "12.50" (money).
[[nodiscard]] std::string format_metric(const Metric& metric);
/// The value as a machine reads it: durations in milliseconds, ratios as fractions.
[[nodiscard]] std::string plain_metric(const Metric& metric);
/// The unit's name in CSV: count, ms, ratio, hours, money.
[[nodiscard]] std::string_view unit_name(MetricUnit unit);

/// Two columns, METRIC and VALUE.
void write_metrics_table(std::ostream& out, const std::vector<Metric>& metrics);
/// `metric,value,unit` rows with a header (RFC 4180 quoting).
void write_metrics_csv(std::ostream& out, const std::vector<Metric>& metrics);

/// One replay of many (a plan's size, a sweep's grid point): its parameters and its figures.
struct RunRow {
  std::vector<std::string> params;  ///< one per parameter column
  std::vector<Metric> metrics;
};

/// One line per run: the parameter columns, then a column per metric name, by name (a metric a
/// run lacks is an empty field), values as plain_metric gives them.
void write_runs_csv(std::ostream& out, const std::vector<std::string>& param_names,
                    const std::vector<RunRow>& rows);

}  // namespace gpusched::report
