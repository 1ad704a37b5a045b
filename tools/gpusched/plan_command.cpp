// `gpusched plan SCENARIO --pool NAME --min A --max B --objective EXPR`: the smallest node pool
// that meets the objectives; with several `--pool NAME[=A..B]`, the cheapest mix of their sizes;
// with `--cluster-queue NAME[:FLAVOR][=A..B]`, the smallest Kueue nominalQuota of nvidia.com/gpu.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/commands.hpp"
#include "gpusched/error.hpp"
#include "gpusched/plan/plan.hpp"
#include "gpusched/rendered_text.hpp"
#include "gpusched/run_options.hpp"
#include "gpusched/strict.hpp"

namespace gpusched::cli {
namespace {

struct PlanOptions {
  std::string file;
  std::vector<std::string> pools;
  std::vector<std::string> cluster_queues;
  std::int32_t min = 0;
  std::optional<std::int32_t> max;
  std::vector<std::string> objectives;
  unsigned jobs = 0;
  std::string output = "table";
  RunOptions run;
};

/// `MIN..MAX` with 0 <= MIN <= MAX <= `limit`, else nullopt.
std::optional<std::pair<std::int32_t, std::int32_t>> min_max(std::string_view text,
                                                             std::int64_t limit) {
  const std::size_t dots = text.find("..");
  const auto min = parse_unsigned(text.substr(0, dots));
  const auto max =
      dots == std::string_view::npos ? std::nullopt : parse_unsigned(text.substr(dots + 2));
  if (!min || !max || *min > *max || *max > static_cast<std::uint64_t>(limit)) return std::nullopt;
  return std::pair{static_cast<std::int32_t>(*min), static_cast<std::int32_t>(*max)};
}

/// `NAME` (sized from --min to --max) or `NAME=A..B`.
plan::PoolRange pool_range(const std::string& text, const PlanOptions& options) {
  const std::size_t equals = text.find('=');
  plan::PoolRange range{text.substr(0, equals), options.min, options.max.value_or(-1)};
  if (equals == std::string::npos) {
    if (!options.max) {
      throw InputError("--pool", "",
                       "give --max, or each pool's sizes as --pool " + text + "=MIN..MAX");
    }
    return range;
  }
  const auto sizes = min_max(std::string_view(text).substr(equals + 1), kMaxPoolNodes);
  if (range.pool.empty() || !sizes) {
    throw InputError("--pool", "",
                     "\"" + text + "\" is not NAME or NAME=MIN..MAX with 0 <= MIN <= MAX <= " +
                         std::to_string(kMaxPoolNodes));
  }
  range.min = sizes->first;
  range.max = sizes->second;
  return range;
}

/// `NAME`, `NAME:FLAVOR`, each optionally followed by `=MIN..MAX` (else --min to --max).
plan::QuotaRange quota_range(const std::string& text, const PlanOptions& options) {
  const std::size_t equals = text.find('=');
  const std::string queue = text.substr(0, equals);
  const std::size_t colon = queue.find(':');
  plan::QuotaRange range{queue.substr(0, colon),
                         colon == std::string::npos ? std::string() : queue.substr(colon + 1),
                         options.min, options.max.value_or(-1)};
  const bool names_ok =
      !range.cluster_queue.empty() && (colon == std::string::npos || !range.flavor.empty());
  if (equals == std::string::npos) {
    if (!names_ok) {
      throw InputError("--cluster-queue", "", "\"" + text + "\" is not NAME[:FLAVOR][=MIN..MAX]");
    }
    if (!options.max) {
      throw InputError(
          "--cluster-queue", "",
          "give --max, or each ClusterQueue's quotas as --cluster-queue " + text + "=MIN..MAX");
    }
    return range;
  }
  const auto quotas = min_max(std::string_view(text).substr(equals + 1), plan::kMaxPlanQuota);
  if (!names_ok || !quotas) {
    throw InputError("--cluster-queue", "",
                     "\"" + text + "\" is not NAME[:FLAVOR][=MIN..MAX] with 0 <= MIN <= MAX <= " +
                         std::to_string(plan::kMaxPlanQuota));
  }
  range.min = quotas->first;
  range.max = quotas->second;
  return range;
}

/// --cluster-queue: the smallest nominal quotas meeting the objectives.
bool plan_quotas(const Scenario& scenario, const PlanOptions& options, std::ostream& text) {
  plan::QuotaPlanRequest request;
  for (const std::string& queue : options.cluster_queues)
    request.queues.push_back(quota_range(queue, options));
  request.objectives = parse_objectives(options.objectives);
  request.jobs = options.jobs;
  request.options = simulation_options(options.run);
  const plan::QuotaPlan result = plan::plan_quotas(scenario, request);
  if (options.output == "json") {
    plan::write_quota_json(text, request, result);
  } else if (options.output == "csv") {
    plan::write_quota_csv(text, request, result);
  } else {
    plan::write_quota_table(text, request, result);
  }
  return result.answer.has_value();
}

int plan(const PlanOptions& options, std::ostream& out, std::ostream& err) {
  if (options.pools.empty() == options.cluster_queues.empty()) {
    throw InputError("--pool", "",
                     "give either node pools to size (--pool) or ClusterQueues whose quota to "
                     "size (--cluster-queue)");
  }
  const Scenario scenario = load_scenario_reporting(options.file, false, err);
  if (!options.cluster_queues.empty()) {
    RenderedText text;
    const bool answered = plan_quotas(scenario, options, text);
    text.print(out);
    return answered ? 0 : 1;
  }
  std::vector<plan::PoolRange> ranges;
  for (const std::string& text : options.pools) ranges.push_back(pool_range(text, options));
  RenderedText text;
  bool answered = false;
  if (ranges.size() == 1) {
    plan::PoolPlanRequest request;
    request.pool = ranges[0].pool;
    request.min = ranges[0].min;
    request.max = ranges[0].max;
    request.objectives = parse_objectives(options.objectives);
    request.jobs = options.jobs;
    request.options = simulation_options(options.run);
    const plan::PoolPlan result = plan::plan_pool(scenario, request);
    if (options.output == "json") {
      plan::write_plan_json(text, request, result);
    } else if (options.output == "csv") {
      plan::write_plan_csv(text, result);
    } else {
      plan::write_plan_table(text, request, result);
    }
    answered = result.answer.has_value();
  } else {
    plan::MixPlanRequest request{ranges, parse_objectives(options.objectives), options.jobs,
                                 simulation_options(options.run)};
    const plan::MixPlan result = plan::plan_mix(scenario, request);
    if (options.output == "json") {
      plan::write_mix_json(text, request, result);
    } else if (options.output == "csv") {
      plan::write_mix_csv(text, request, result);
    } else {
      plan::write_mix_table(text, request, result);
    }
    answered = result.answer.has_value();
  }
  text.print(out);
  return answered ? 0 : 1;
}

}  // namespace

Command add_plan_command(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  CLI::App* command = app.add_subcommand(
      "plan",
      "Find the smallest size of a node pool that meets objectives, with several pools the "
      "cheapest mix of their sizes (by pricePerGpuHour), or the smallest nominal GPU quota of "
      "Kueue ClusterQueues, replaying sizes in parallel (exit 1 if nothing in range meets them, "
      "2 on invalid input)");
  command->add_option("SCENARIO", options->file, "Scenario file with nodePools")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--pool", options->pools,
                      "A node pool to size, NAME or NAME=MIN..MAX; repeat for the cheapest mix");
  command->add_option("--cluster-queue", options->cluster_queues,
                      "Instead of pools, a Kueue ClusterQueue whose nominalQuota of "
                      "nvidia.com/gpu to size (in every flavor, or in FLAVOR): "
                      "NAME[:FLAVOR][=MIN..MAX]; repeat to size several, one after the other");
  command
      ->add_option("--min", options->min,
                   "Smallest size of a pool (or quota of a ClusterQueue) given without its sizes")
      ->capture_default_str();
  command->add_option(
      "--max", options->max,
      "Largest size of a pool (or quota of a ClusterQueue) given without its sizes");
  add_objective_option(*command, options->objectives);
  add_jobs_option(*command, options->jobs);
  command->add_option("-o,--output", options->output, "Report format")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  add_run_options(*command, options->run);
  return {command,
          [options](std::ostream& out, std::ostream& err) { return plan(*options, out, err); }};
}

}  // namespace gpusched::cli
