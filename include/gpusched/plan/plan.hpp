#pragma once
/// Capacity planning: the smallest node pool (or Kueue nominal quota) that meets objectives,
/// found by replaying the scenario at several sizes on the machine's cores.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gpusched/report/metrics.hpp"
#include "gpusched/report/objective.hpp"
#include "gpusched/scenario/scenario.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched::plan {

/// Sizes a plan replays per round when the request does not say.
inline constexpr unsigned kDefaultPlanWidth = 4;

struct PoolPlanRequest {
  std::string pool;  ///< a node pool of the scenario
  std::int32_t min = 0;
  std::int32_t max = 0;
  std::vector<report::Objective> objectives;  ///< all must hold
  /// Sizes replayed per round, at once; 0: kDefaultPlanWidth on up to one thread per hardware
  /// thread.
  unsigned jobs = 0;
  /// --seed, --until, --kubernetes-version, --reference for every replay; `progress` is not used.
  SimulationOptions options;
};

/// One pool size replayed.
struct PlanTrial {
  std::int32_t size = 0;
  bool met = false;
  std::vector<std::string> unmet;  ///< the objectives (as written) it misses
  std::vector<report::Metric> metrics;
};

struct PoolPlan {
  std::optional<std::int32_t> answer;  ///< the smallest size found meeting every objective
  std::vector<PlanTrial> trials;       ///< every size replayed, by size
};

/// Searches [min, max] for the smallest size of `pool` meeting the objectives, assuming more
/// nodes never make an objective worse: each round replays up to `jobs` sizes spread evenly over
/// the sizes still in doubt (one size per round is a binary search). The sizes tried, and so the
/// result, depend on the request alone. The scenario's expectations
/// are not checked. Throws InputError for an unknown pool, bounds outside 0..100,000 or min >
/// max, an objective whose metric no replay has or whose bound does not suit it, and for what a
/// replay throws.
[[nodiscard]] PoolPlan plan_pool(const Scenario& scenario, const PoolPlanRequest& request);

/// The most pool-size combinations a mix plan may search (all pools but the last, whose size is
/// searched for each).
inline constexpr std::int64_t kMaxMixCombinations = 10'000;

/// One pool of a mix and the sizes it may take.
struct PoolRange {
  std::string pool;
  std::int32_t min = 0;
  std::int32_t max = 0;
};

struct MixPlanRequest {
  std::vector<PoolRange> pools;  ///< at least one; each with a pricePerGpuHour
  std::vector<report::Objective> objectives;
  unsigned jobs = 0;  ///< as PoolPlanRequest::jobs, for the last pool's search
  SimulationOptions options;
};

/// One mix replayed: a size per pool, in the request's order.
struct MixTrial {
  std::vector<std::int32_t> sizes;
  /// What the mix's nodes cost per hour, in millionths: the sum over pools of size x GPUs per
  /// node x pricePerGpuHour.
  std::int64_t price_micros_per_hour = 0;
  bool met = false;
  std::vector<std::string> unmet;
  std::vector<report::Metric> metrics;
};

struct MixPlan {
  std::optional<std::size_t> answer;  ///< index in `trials` of the cheapest mix that met all
  std::vector<MixTrial> trials;       ///< every mix replayed, by sizes
};

/// The cheapest mix of pool sizes meeting the objectives, assuming more nodes in any pool never
/// make an objective worse. For each combination of the other pools' sizes (in increasing
/// order), plan_pool searches the last pool's smallest size, bounded above by what smaller
/// combinations needed and by the price of the cheapest mix found so far; combinations that
/// cannot beat it are skipped. Of mixes of equal price the first found wins (the first pool's
/// size turns fastest). The scenario's
/// expectations are not checked. Throws InputError as plan_pool does, and for a pool named
/// twice, a pool without GPUs or without pricePerGpuHour and more than kMaxMixCombinations
/// combinations.
[[nodiscard]] MixPlan plan_mix(const Scenario& scenario, const MixPlanRequest& request);

/// The answer (each pool's size and the price per hour), then a line per mix tried.
void write_mix_table(std::ostream& out, const MixPlanRequest& request, const MixPlan& plan);
/// {"pools": [{"pool", "min", "max"}], "objectives", "answer": {"sizes": {pool: n},
/// "pricePerHour"} or null, "trials": [{"sizes", "pricePerHour", "met", "unmet", "metrics"}]}.
void write_mix_json(std::ostream& out, const MixPlanRequest& request, const MixPlan& plan);
/// A line per mix: each pool's size, pricePerHour, met, then every metric.
void write_mix_csv(std::ostream& out, const MixPlanRequest& request, const MixPlan& plan);

/// The largest nominalQuota a quota plan may search.
inline constexpr std::int32_t kMaxPlanQuota = 1'000'000;

/// A ClusterQueue (a starting object of the scenario) whose nominalQuota of nvidia.com/gpu a
/// quota plan searches.
struct QuotaRange {
  std::string cluster_queue;
  /// The flavor whose quota varies; empty: every flavor of the ClusterQueue with an
  /// nvidia.com/gpu quota, all set to the same value.
  std::string flavor;
  std::int32_t min = 0;
  std::int32_t max = 0;
};

struct QuotaPlanRequest {
  std::vector<QuotaRange> queues;  ///< at least one, each quota once
  std::vector<report::Objective> objectives;
  unsigned jobs = 0;  ///< as PoolPlanRequest::jobs, for each queue's search
  SimulationOptions options;
};

/// One combination of quotas replayed, a quota per QuotaRange in the request's order.
struct QuotaTrial {
  std::vector<std::int32_t> quotas;
  bool met = false;
  std::vector<std::string> unmet;
  std::vector<report::Metric> metrics;
};

struct QuotaPlan {
  std::optional<std::size_t> answer;  ///< index in `trials` of the quotas found
  std::vector<QuotaTrial> trials;     ///< every combination replayed, by quotas
};

/// The smallest nominalQuota of nvidia.com/gpu of each ClusterQueue of the request meeting the
/// objectives, assuming more quota never makes an objective worse. One ClusterQueue is a search
/// as plan_pool's. Several are searched one after the other, in the request's order (a
/// coordinate search): each for its smallest quota with the earlier ones at their answers and
/// the later ones at their largest; the last search replays the answer itself, and no quota of
/// it can be lowered alone (it may not be the least total). The scenario's expectations are
/// not checked. Throws InputError for a ClusterQueue that is not a starting object of the
/// scenario or has no nvidia.com/gpu quota (in the flavor given), a quota named twice, bounds
/// outside 0..kMaxPlanQuota or below a lendingLimit, and as plan_pool does.
[[nodiscard]] QuotaPlan plan_quotas(const Scenario& scenario, const QuotaPlanRequest& request);

/// The scenario with the nvidia.com/gpu nominalQuota of `range` (its flavor, or each flavor)
/// set to `quota` and its expectations left out, ready to replay.
[[nodiscard]] Scenario with_nominal_quota(const Scenario& scenario, const QuotaRange& range,
                                          std::int32_t quota);

/// The answer (each ClusterQueue's quota and the objectives' metrics there), then a line per
/// combination tried.
void write_quota_table(std::ostream& out, const QuotaPlanRequest& request, const QuotaPlan& plan);
/// {"resource", "clusterQueues": [{"clusterQueue", "flavor", "min", "max"}], "objectives",
/// "answer": {"quotas": {queue: n}, "metrics"} or null, "trials": [{"quotas", "met", "unmet",
/// "metrics"}]}; a queue reads `NAME` or, with a flavor, `NAME:FLAVOR`.
void write_quota_json(std::ostream& out, const QuotaPlanRequest& request, const QuotaPlan& plan);
/// A line per combination: each queue's quota, met, then every metric.
void write_quota_csv(std::ostream& out, const QuotaPlanRequest& request, const QuotaPlan& plan);

/// The scenario with `pool` resized to `size` and its expectations left out, ready to replay.
[[nodiscard]] Scenario with_pool_size(const Scenario& scenario, const std::string& pool,
                                      std::int32_t size);

/// The answer, then a line per size tried: whether it met the objectives, the objectives'
/// metrics and the main figures (pending, wait.p95, GPU allocation), and what it missed.
void write_plan_table(std::ostream& out, const PoolPlanRequest& request, const PoolPlan& plan);
/// {"pool", "objectives", "answer" (null when none), "trials": [{"size", "met", "unmet",
/// "metrics"}]}.
void write_plan_json(std::ostream& out, const PoolPlanRequest& request, const PoolPlan& plan);
/// A line per size: size, met, then every metric (write_runs_csv).
void write_plan_csv(std::ostream& out, const PoolPlan& plan);

}  // namespace gpusched::plan
