// plan_quotas: the smallest nominalQuota of nvidia.com/gpu in one or more ClusterQueues that
// meets objectives (docs/planning.md, "Kueue quotas").

#include <algorithm>
#include <set>
#include <variant>

#include "gpusched/error.hpp"
#include "gpusched/model/resource_list.hpp"
#include "gpusched/plan/plan.hpp"
#include "plan/search.hpp"

namespace gpusched::plan {
namespace {

const kueue::ClusterQueue* find_cluster_queue(const Scenario& scenario, const std::string& name) {
  for (const Object& object : scenario.cluster) {
    const auto* cq = std::get_if<kueue::ClusterQueue>(&object);
    if (cq != nullptr && cq->metadata.name == name) return cq;
  }
  return nullptr;
}

std::string range_text(const QuotaRange& range) {
  return range.flavor.empty() ? range.cluster_queue : range.cluster_queue + ":" + range.flavor;
}

/// The quotas `range` varies: the nvidia.com/gpu quota of its flavor, or of each flavor that
/// has one. Throws InputError when there is none, or when a lendingLimit is above `range.min`.
void check_range(const Scenario& scenario, const QuotaRange& range) {
  const kueue::ClusterQueue* cq = find_cluster_queue(scenario, range.cluster_queue);
  if (cq == nullptr) {
    std::string known;
    for (const Object& object : scenario.cluster) {
      if (const auto* other = std::get_if<kueue::ClusterQueue>(&object))
        known += (known.empty() ? "" : ", ") + other->metadata.name;
    }
    throw InputError("--cluster-queue", "",
                     "scenario " + scenario.source + " has no ClusterQueue \"" +
                         range.cluster_queue + "\" among its starting objects" +
                         (known.empty() ? std::string(" (it declares none)")
                                        : " (its ClusterQueues: " + known + ")"));
  }
  // The plan sets the starting object's quota; a timeline action on it would undo that.
  for (const Action& action : scenario.timeline) {
    const bool changes =
        (action.target.kind == "ClusterQueue" && action.target.name == range.cluster_queue) ||
        std::any_of(action.objects.begin(), action.objects.end(), [&](const Object& object) {
          const auto* applied = std::get_if<kueue::ClusterQueue>(&object);
          return applied != nullptr && applied->metadata.name == range.cluster_queue;
        });
    if (changes) {
      throw InputError("--cluster-queue", "",
                       "the timeline changes ClusterQueue \"" + range.cluster_queue + "\" (" +
                           action.pointer + "), which would undo the quota the plan sets");
    }
  }
  if (range.min < 0 || range.min > range.max || range.max > kMaxPlanQuota) {
    throw InputError("--cluster-queue", "",
                     "the quotas of \"" + range_text(range) +
                         "\" must satisfy 0 <= min <= max <= " + std::to_string(kMaxPlanQuota) +
                         ", got " + std::to_string(range.min) + ".." + std::to_string(range.max));
  }
  bool found = false;
  for (const kueue::ResourceGroup& group : cq->resource_groups) {
    for (const kueue::FlavorQuotas& flavor : group.flavors) {
      if (!range.flavor.empty() && flavor.name != range.flavor) continue;
      for (const kueue::ResourceQuota& quota : flavor.resources) {
        if (quota.name != resource::kGpu) continue;
        found = true;
        // Kueue's webhook refuses a lendingLimit above the nominalQuota
        // (pkg/webhooks/clusterqueue_webhook.go, validateLendingLimit).
        if (quota.lending_limit && quota.lending_limit->milli() > range.min * 1000LL) {
          throw InputError("--cluster-queue", "",
                           "ClusterQueue \"" + range.cluster_queue + "\" lends at most " +
                               quota.lending_limit->to_string() + " " +
                               std::string(resource::kGpu) + " of flavor " + flavor.name +
                               " (lendingLimit), and Kueue refuses a nominalQuota below it: "
                               "search from " +
                               quota.lending_limit->to_string());
        }
      }
    }
  }
  if (!found) {
    throw InputError(
        "--cluster-queue", "",
        "ClusterQueue \"" + range.cluster_queue + "\" has no nominalQuota of " +
            std::string(resource::kGpu) +
            (range.flavor.empty() ? std::string() : " in flavor \"" + range.flavor + "\"") +
            " to plan");
  }
}

}  // namespace

Scenario with_nominal_quota(const Scenario& scenario, const QuotaRange& range, std::int32_t quota) {
  Scenario copy = scenario;
  copy.expect.clear();
  for (Object& object : copy.cluster) {
    auto* cq = std::get_if<kueue::ClusterQueue>(&object);
    if (cq == nullptr || cq->metadata.name != range.cluster_queue) continue;
    for (kueue::ResourceGroup& group : cq->resource_groups) {
      for (kueue::FlavorQuotas& flavor : group.flavors) {
        if (!range.flavor.empty() && flavor.name != range.flavor) continue;
        for (kueue::ResourceQuota& resource_quota : flavor.resources) {
          if (resource_quota.name == resource::kGpu)
            resource_quota.nominal_quota = Quantity::from_units(quota);
        }
      }
    }
  }
  return copy;
}

QuotaPlan plan_quotas(const Scenario& scenario, const QuotaPlanRequest& request) {
  if (request.queues.empty())
    throw InputError("--cluster-queue", "", "give at least one ClusterQueue");
  if (request.objectives.empty())
    throw InputError("--objective", "", "give at least one objective");
  std::set<std::string> named;
  for (const QuotaRange& range : request.queues) {
    check_range(scenario, range);
    // A ClusterQueue given whole and by flavor would be searched twice over the same quota.
    const bool twice =
        !named.insert(range_text(range)).second ||
        (range.flavor.empty() ? std::any_of(named.begin(), named.end(),
                                            [&](const std::string& name) {
                                              return name.starts_with(range.cluster_queue + ":");
                                            })
                              : named.contains(range.cluster_queue));
    if (twice) {
      throw InputError("--cluster-queue", "",
                       "ClusterQueue \"" + range.cluster_queue + "\"'s quota is named twice");
    }
  }
  // One pass in the order given: each ClusterQueue's smallest quota with the earlier ones at
  // their answers and the later ones at their largest. More quota never hurts (the search's
  // assumption), so each answer stays the smallest given the others' final quotas.
  std::vector<std::int32_t> quotas;
  for (const QuotaRange& range : request.queues) quotas.push_back(range.max);
  QuotaPlan out;
  bool answered = true;
  for (std::size_t i = 0; i < request.queues.size() && answered; ++i) {
    Scenario others = scenario;
    for (std::size_t j = 0; j < request.queues.size(); ++j) {
      if (j != i) others = with_nominal_quota(others, request.queues[j], quotas[j]);
    }
    const PoolPlan found = search_smallest(
        request.queues[i].min, request.queues[i].max, request.objectives, request.jobs,
        request.options,
        [&](std::int32_t quota) { return with_nominal_quota(others, request.queues[i], quota); });
    for (const PlanTrial& trial : found.trials) {
      std::vector<std::int32_t> tried = quotas;
      tried[i] = trial.size;
      out.trials.push_back(QuotaTrial{tried, trial.met, trial.unmet, trial.metrics});
    }
    answered = found.answer.has_value();
    if (answered) quotas[i] = *found.answer;
  }
  // By quotas, each combination once (the first search's replay of it is kept).
  std::stable_sort(out.trials.begin(), out.trials.end(),
                   [](const QuotaTrial& a, const QuotaTrial& b) { return a.quotas < b.quotas; });
  out.trials.erase(
      std::unique(out.trials.begin(), out.trials.end(),
                  [](const QuotaTrial& a, const QuotaTrial& b) { return a.quotas == b.quotas; }),
      out.trials.end());
  for (std::size_t i = 0; i < out.trials.size() && answered; ++i) {
    if (out.trials[i].quotas == quotas) out.answer = i;
  }
  return out;
}

}  // namespace gpusched::plan
