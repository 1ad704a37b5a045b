#pragma once
// The Kueue fleet benchmark's scenario (issue 20): a GPU fleet shared by teams through Kueue's
// ClusterQueues in cohorts, and a day of Jobs arriving, as scenarios/kueue-cohort-teams.json
// shapes them but at production scale. Written as scenario JSON, so that the loader's defaults
// and checks apply as they do to a user's file, and so that `gpusched replay` can run it too.

#include <cstdint>
#include <string>

namespace bench {

struct KueueFleet {
  int nodes = 5000;         ///< 8 GPUs each, of three types (H100, A100, L40S)
  int cluster_queues = 20;  ///< in two cohorts, nominal quotas summing to the fleet
  int jobs = 50000;         ///< 1-8 pods of 1, 2, 4 or 8 GPUs: 1-64 GPUs a Job
  std::int64_t arrivals_over_ms = 20LL * 3600 * 1000;  ///< Jobs arrive each minute over this
  std::uint64_t seed = 1;
  /// NodeResourcesFit scores nvidia.com/gpu MostAllocated (bin-packing, as GPU fleets configure
  /// kube-scheduler to keep whole nodes free for 8-GPU pods); false: the default LeastAllocated,
  /// which spreads small pods over the nodes and leaves the large ones Pending far more often.
  bool bin_pack = true;
};

/// The scenario as JSON text; the same text for the same figures and seed.
[[nodiscard]] std::string kueue_fleet_scenario(const KueueFleet& fleet);

}  // namespace bench
