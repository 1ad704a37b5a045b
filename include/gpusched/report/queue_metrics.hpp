#pragma once
/// Kueue's queues over a replay: how long Workloads waited for quota in each ClusterQueue and
/// LocalQueue, what each ClusterQueue borrowed above its nominal quota, and how much of its quota
/// it used over time (docs/metrics.md, "Kueue queues").

#include <cstddef>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "gpusched/model/quantity.hpp"
#include "gpusched/model/time.hpp"
#include "gpusched/report/metrics.hpp"
#include "gpusched/sim/result.hpp"

namespace gpusched::report {

/// The waits for quota of one queue (SimulationResult::quota_spans), as Kueue v0.19.2's
/// kueue_quota_reserved_wait_time_seconds and kueue_local_queue_quota_reserved_wait_time_seconds
/// measure them (pkg/metrics/metrics.go): from the Workload's creation or requeue until its quota
/// reservation. Without admission checks Kueue admits at the reservation, so this is also its
/// kueue_admission_wait_time_seconds.
struct QuotaWaits {
  /// Nearest-rank percentiles over every wait. A wait that ended in a reservation counts up to
  /// it; one still open at the end of the run counts with its wait so far (a lower bound of the
  /// real one), and one that ended without a reservation (the Workload finished, deleted or
  /// deactivated while waiting) up to that end: a Workload left waiting makes the figures worse
  /// instead of vanishing from them. `all.pods` counts the waits.
  WaitStats all;
  std::size_t reserved = 0;    ///< waits that ended in a quota reservation
  std::size_t waiting = 0;     ///< waits still open at the end of the run
  TimeMs longest_waiting = 0;  ///< how long the oldest open one has waited at the end
};

/// One flavor's quota of one resource in a ClusterQueue, and what the ClusterQueue's Workloads
/// held of it over the run.
struct QuotaUse {
  std::string flavor;
  std::string resource;
  Quantity nominal;  ///< nominalQuota at the end of the run
  /// The quantity reserved, in units (GPUs, cores, bytes), integrated over the run: unit-hours.
  double usage_hours = 0;
  /// The part of it above the nominal quota: what Kueue reports as `borrowed` in the
  /// ClusterQueue's status ("the used quota that is over the nominalQuota",
  /// apis/kueue/v1beta2/clusterqueue_types.go), integrated over the run.
  double borrowed_hours = 0;
  /// Mean units reserved in each bucket of SimulationResult::gpu_series.
  std::vector<double> usage;
  /// usage_hours over nominal x the run's hours: the mean share of the nominal quota in use
  /// (above 1 while borrowing); 0 when the nominal quota is 0 or the run took no time.
  double mean_ratio = 0;
};

struct ClusterQueueMetrics {
  QuotaWaits waits;
  std::vector<QuotaUse> quota;  ///< by flavor, then resource
};

struct KueueMetrics {
  /// Every ClusterQueue at the end of the run, and any other a wait names.
  std::map<std::string, ClusterQueueMetrics> cluster_queues;
  /// By "ns/name": every LocalQueue at the end of the run, and any other a wait names.
  std::map<std::string, QuotaWaits> local_queues;
};

/// The per-queue figures of a replay; empty when it did not run Kueue.
[[nodiscard]] KueueMetrics kueue_metrics(const SimulationResult& result);

/// Per ClusterQueue its waits, borrowed GPU-hours and mean quota usage, then per LocalQueue its
/// waits (`replay -o queues`).
void write_queues_table(std::ostream& out, const KueueMetrics& metrics);
/// The quota usage over time, a line per bucket and ClusterQueue, flavor and resource:
/// `from_ms,to_ms,cluster_queue,flavor,resource,nominal,usage,ratio` (`replay -o queues-csv`).
void write_queues_csv(std::ostream& out, const SimulationResult& result,
                      const KueueMetrics& metrics);

}  // namespace gpusched::report
