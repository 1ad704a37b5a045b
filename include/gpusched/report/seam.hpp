#pragma once
/// The seam between the layers of a GPU cluster: GPU-hours paid for (capacity supply), in the
/// cluster (provisioning), schedulable (Ready, GPUs advertised, not cordoned) and allocated to
/// pods (scheduling), and the gaps between them, over the whole run and over time.

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gpusched/report/metrics.hpp"
#include "gpusched/sim/result.hpp"

namespace gpusched::report {

/// GPU-hours at each layer, and what the paid ones cost.
struct SeamHours {
  /// Reserved pools: their whole reservation, ready or not; launched nodes: from the launch
  /// that succeeded was asked for; other nodes: while in the cluster.
  double paid = 0;
  double provisioned = 0;  ///< nodes in the cluster, Ready or not, GPUs advertised or not
  double schedulable = 0;  ///< allocatable GPUs on Ready, uncordoned nodes
  double allocated = 0;    ///< GPUs requested by the pods holding nodes
  double cost = 0;         ///< paid GPU-hours times the pool's pricePerGpuHour
};

struct SeamBucket {
  TimeMs from = 0;
  TimeMs to = 0;
  SeamHours hours;  ///< cost left 0
};

struct Seam {
  SeamHours fleet;
  std::map<std::string, SeamHours> by_pool;  ///< node pools only
  std::vector<SeamBucket> series;            ///< SimulationResult::gpu_series' buckets
  std::size_t failed_launches = 0;
  /// When the last reserved or provisioned node became schedulable, if any was.
  TimeMs last_node_ready = 0;
  /// Where GPUs are shared (alibabacloud.com GPUs): what the pods held of them over the run, and
  /// how much of the rest typical pods could not use.
  std::optional<GpuShareFragmentation> gpu_share;
};

/// The seam of a replay, over [0, result.time].
[[nodiscard]] Seam seam(const SimulationResult& result);

/// The totals per pool and for the fleet, then the series with the gaps between the layers.
void write_seam_table(std::ostream& out, const Seam& seam);
/// The series as CSV: from_ms,to_ms,paid,provisioned,schedulable,allocated (GPU-hours).
void write_seam_csv(std::ostream& out, const Seam& seam);

}  // namespace gpusched::report
