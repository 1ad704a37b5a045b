// plan_mix: the cheapest mix of several node pools' sizes meeting objectives.
#include <algorithm>
#include <limits>
#include <set>

#include "gpusched/devices/template_gpus.hpp"
#include "gpusched/error.hpp"
#include "gpusched/plan/plan.hpp"
#include "model/wide_int.hpp"
#include "plan/find_pool.hpp"

namespace gpusched::plan {
namespace {

// Per pool of the request: what one node costs per hour, in millionths.
std::vector<std::int64_t> node_prices(const Scenario& scenario, const MixPlanRequest& request) {
  std::vector<std::int64_t> out;
  std::set<std::string> seen;
  std::int64_t others = 0;  // nodes of pools outside the mix
  for (const NodePool& pool : scenario.node_pools) others += pool.max_count();
  std::int64_t most = 0;
  for (const PoolRange& range : request.pools) {
    const NodePool& pool = find_pool(scenario, range.pool);
    if (!seen.insert(range.pool).second)
      throw InputError("--pool", "", "node pool \"" + range.pool + "\" is named twice");
    if (pool.autoscaling) {
      throw InputError("--pool", "",
                       "node pool \"" + pool.name +
                           "\" autoscales: the cluster autoscaler sizes it; plan pools without "
                           "autoscaling");
    }
    if (pool.price_micros_per_gpu_hour == 0) {
      throw InputError("--pool", "",
                       "node pool \"" + pool.name +
                           "\" has no pricePerGpuHour: the cheapest mix needs each pool's price");
    }
    if (range.min < 0 || range.min > range.max) {
      throw InputError("--pool", "",
                       "the sizes of node pool \"" + pool.name +
                           "\" must satisfy 0 <= min <= max, got " + std::to_string(range.min) +
                           ".." + std::to_string(range.max));
    }
    others -= pool.max_count();
    most += range.max;
    // Bounded so that no mix's price (at most kMaxPoolNodes nodes) overflows.
    const std::int64_t gpus = template_gpus(pool, scenario.device_plugin);
    if (gpus == 0) {
      throw InputError("--pool", "",
                       "node pool \"" + pool.name +
                           "\" has no GPUs: a mix is priced by GPU-hour (pricePerGpuHour)");
    }
    if (Int128{gpus} * pool.price_micros_per_gpu_hour * kMaxPoolNodes >
        std::numeric_limits<std::int64_t>::max())
      throw InputError("--pool", "", "node pool \"" + pool.name + "\": its price is too large");
    out.push_back(gpus * pool.price_micros_per_gpu_hour);
  }
  if (most > kMaxPoolNodes - others) {
    throw InputError("--pool", "",
                     "the pools' largest sizes add up to " + std::to_string(most) +
                         " nodes; with the other pools' that is more than " +
                         std::to_string(kMaxPoolNodes));
  }
  return out;
}

std::int64_t price_of(const std::vector<std::int32_t>& sizes,
                      const std::vector<std::int64_t>& node_price) {
  std::int64_t total = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) total += sizes[i] * node_price[i];
  return total;
}

}  // namespace

MixPlan plan_mix(const Scenario& scenario, const MixPlanRequest& request) {
  if (request.pools.empty()) throw InputError("--pool", "", "give at least one node pool");
  const std::vector<std::int64_t> node_price = node_prices(scenario, request);
  const std::size_t last = request.pools.size() - 1;
  std::int64_t combinations = 1;
  for (std::size_t i = 0; i < last; ++i) {
    combinations *= request.pools[i].max - request.pools[i].min + 1;
    if (combinations > kMaxMixCombinations) {
      throw InputError("--pool", "",
                       "the pools but the last give more than " +
                           std::to_string(kMaxMixCombinations) +
                           " combinations of sizes to search: narrow their ranges");
    }
  }

  MixPlan out;
  std::optional<std::int64_t> best_price;
  std::vector<std::int32_t> best;
  // The last pool's answer for each combination solved: a larger combination needs no more.
  std::vector<std::pair<std::vector<std::int32_t>, std::int32_t>> solved;
  std::vector<std::int32_t> prefix(last);
  for (std::size_t i = 0; i < last; ++i) prefix[i] = request.pools[i].min;
  const PoolRange& searched = request.pools[last];
  for (std::int64_t n = 0; n < combinations; ++n) {
    std::vector<std::int32_t> sizes = prefix;
    sizes.push_back(searched.min);
    std::int64_t max = searched.max;
    for (const auto& [smaller, answer] : solved) {
      if (std::equal(smaller.begin(), smaller.end(), prefix.begin(), std::less_equal<>()))
        max = std::min<std::int64_t>(max, answer);
    }
    if (best_price) {
      // Only a strictly cheaper mix replaces the best.
      const std::int64_t room = *best_price - 1 - price_of(sizes, node_price);
      max = room < 0 ? searched.min - 1 : std::min(max, searched.min + room / node_price[last]);
    }
    if (max >= searched.min) {
      Scenario sized = scenario;
      for (std::size_t i = 0; i < last; ++i)
        sized = with_pool_size(sized, request.pools[i].pool, prefix[i]);
      const PoolPlan plan = plan_pool(
          sized, PoolPlanRequest{searched.pool, searched.min, static_cast<std::int32_t>(max),
                                 request.objectives, request.jobs, request.options});
      for (const PlanTrial& trial : plan.trials) {
        sizes.back() = trial.size;
        out.trials.push_back(
            MixTrial{sizes, price_of(sizes, node_price), trial.met, trial.unmet, trial.metrics});
      }
      if (plan.answer) {
        solved.emplace_back(prefix, *plan.answer);
        sizes.back() = *plan.answer;
        const std::int64_t price = price_of(sizes, node_price);
        if (!best_price || price < *best_price) {
          best_price = price;
          best = sizes;
        }
      }
    }
    // The next combination, the first pool's size turning fastest.
    for (std::size_t i = 0; i < last; ++i) {
      if (prefix[i] < request.pools[i].max) {
        ++prefix[i];
        break;
      }
      prefix[i] = request.pools[i].min;
    }
  }
  std::sort(out.trials.begin(), out.trials.end(),
            [](const MixTrial& a, const MixTrial& b) { return a.sizes < b.sizes; });
  for (std::size_t i = 0; i < out.trials.size() && best_price; ++i) {
    if (out.trials[i].sizes == best) out.answer = i;
  }
  return out;
}

}  // namespace gpusched::plan
