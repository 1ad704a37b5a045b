#include "gpusched/plan/plan.hpp"

#include <algorithm>
#include <map>

#include "gpusched/error.hpp"
#include "plan/find_pool.hpp"
#include "plan/parallel.hpp"
#include "plan/search.hpp"

namespace gpusched::plan {

const NodePool& find_pool(const Scenario& scenario, const std::string& name) {
  for (const NodePool& pool : scenario.node_pools) {
    if (pool.name == name) return pool;
  }
  std::string known;
  for (const NodePool& pool : scenario.node_pools) known += (known.empty() ? "" : ", ") + pool.name;
  throw InputError("--pool", "",
                   "scenario " + scenario.source + " has no node pool \"" + name + "\"" +
                       (known.empty() ? std::string(" (it declares no nodePools)")
                                      : " (its pools: " + known + ")"));
}

namespace {

/// Sizes to try next: up to `n` spread evenly over the open interval (lo, hi).
std::vector<std::int32_t> probes(std::int64_t lo, std::int64_t hi, unsigned n) {
  const std::int64_t gap = hi - lo - 1;  // sizes in doubt
  const std::int64_t count = std::min<std::int64_t>(n, gap);
  std::vector<std::int32_t> out;
  for (std::int64_t k = 1; k <= count; ++k)
    out.push_back(static_cast<std::int32_t>(lo + k * (gap + 1) / (count + 1)));
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

Scenario with_pool_size(const Scenario& scenario, const std::string& pool, std::int32_t size) {
  const std::size_t index =
      static_cast<std::size_t>(&find_pool(scenario, pool) - scenario.node_pools.data());
  Scenario copy = scenario;
  copy.node_pools[index].count = size;
  copy.expect.clear();
  return copy;
}

PoolPlan plan_pool(const Scenario& scenario, const PoolPlanRequest& request) {
  const NodePool& pool = find_pool(scenario, request.pool);
  if (pool.autoscaling) {
    throw InputError("--pool", "",
                     "node pool \"" + pool.name +
                         "\" autoscales: the cluster autoscaler sizes it; plan a pool without "
                         "autoscaling, or sweep its neighbours");
  }
  std::int64_t others = 0;  // nodes of the other pools, which count towards kMaxPoolNodes
  for (const NodePool& other : scenario.node_pools)
    others += other.name == pool.name ? 0 : other.max_count();
  if (request.min < 0 || request.min > request.max || request.max > kMaxPoolNodes - others) {
    throw InputError("--min/--max", "",
                     "the sizes to search must satisfy 0 <= min <= max <= " +
                         std::to_string(kMaxPoolNodes - others) + ", got " +
                         std::to_string(request.min) + ".." + std::to_string(request.max));
  }
  if (request.objectives.empty())
    throw InputError("--objective", "", "give at least one objective");

  return search_smallest(
      request.min, request.max, request.objectives, request.jobs, request.options,
      [&](std::int32_t size) { return with_pool_size(scenario, request.pool, size); });
}

PoolPlan search_smallest(std::int32_t min, std::int32_t max,
                         const std::vector<report::Objective>& objectives, unsigned jobs,
                         const SimulationOptions& simulation,
                         const std::function<Scenario(std::int32_t)>& scenario_at) {
  SimulationOptions options = simulation;
  options.progress = nullptr;
  std::map<std::int32_t, PlanTrial> trials;
  auto replay = [&](const std::vector<std::int32_t>& sizes) {
    std::vector<PlanTrial> done(sizes.size());
    std::vector<std::string> unknown(sizes.size());  // an objective's queue the replay lacks
    for_each_parallel(sizes.size(), jobs, [&](std::size_t i) {
      const SimulationResult result = simulate(scenario_at(sizes[i]), options);
      done[i].size = sizes[i];
      done[i].metrics = report::summary_metrics(result);
      for (const report::Objective& objective : objectives) {
        if (unknown[i].empty()) unknown[i] = report::unknown_queue(objective, result);
      }
    });
    // A queue the replay does not have is a typo, said before searching on.
    for (const std::string& error : unknown) {
      if (!error.empty()) throw InputError("--objective", "", error);
    }
    for (PlanTrial& trial : done) trials[trial.size] = std::move(trial);
  };

  // Invariant: sizes <= lo miss (or lo is min - 1), sizes >= hi meet (or hi is max + 1, unknown).
  std::int64_t lo = static_cast<std::int64_t>(min) - 1;
  std::int64_t hi = static_cast<std::int64_t>(max) + 1;
  // The sizes tried per round depend on the request only, never on the machine's cores, so that
  // the table is the same everywhere; the replays of a round run on up to that many threads.
  const unsigned width = jobs == 0 ? kDefaultPlanWidth : jobs;
  while (hi - lo > 1) {
    const std::vector<std::int32_t> sizes = probes(lo, hi, width);
    replay(sizes);
    for (std::int32_t size : sizes) {
      PlanTrial& trial = trials[size];
      for (const report::Objective& objective : objectives) {
        std::string error;
        std::optional<bool> met = report::objective_met(objective, trial.metrics, &error);
        if (!met) throw InputError("--objective", "", error);
        if (!*met) trial.unmet.push_back(objective.text);
      }
      trial.met = trial.unmet.empty();
    }
    // The smallest size that met bounds the answer from above; the largest miss below it, from
    // below (sizes above a met one are not replayed again).
    for (std::int32_t size : sizes) {
      if (trials[size].met) {
        hi = std::min<std::int64_t>(hi, size);
      }
    }
    for (std::int32_t size : sizes) {
      if (!trials[size].met && size < hi) lo = std::max<std::int64_t>(lo, size);
    }
  }
  // A metric no replay has is a typo, not a zero.
  for (const report::Objective& objective : objectives) {
    const bool known = std::any_of(trials.begin(), trials.end(), [&](const auto& t) {
      return report::find_metric(t.second.metrics, objective.metric).has_value();
    });
    if (!known) {
      throw InputError("--objective", "",
                       "objective \"" + objective.text + "\" names metric \"" + objective.metric +
                           "\", which no replay reports (see docs/metrics.md)");
    }
  }
  PoolPlan out;
  if (hi <= max) out.answer = static_cast<std::int32_t>(hi);
  for (auto& [size, trial] : trials) out.trials.push_back(std::move(trial));
  return out;
}

}  // namespace gpusched::plan
