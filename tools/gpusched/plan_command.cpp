// `gpusched plan SCENARIO --pool NAME --min A --max B --objective EXPR`: the smallest node pool
// that meets the objectives; with several `--pool NAME[=A..B]`, the cheapest mix of their sizes.

#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "gpusched/commands.hpp"
#include "gpusched/error.hpp"
#include "gpusched/plan/plan.hpp"
#include "gpusched/run_options.hpp"
#include "gpusched/strict.hpp"

namespace gpusched::cli {
namespace {

struct PlanOptions {
  std::string file;
  std::vector<std::string> pools;
  std::int32_t min = 0;
  std::optional<std::int32_t> max;
  std::vector<std::string> objectives;
  unsigned jobs = 0;
  std::string output = "table";
  RunOptions run;
};

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
  const std::string_view sizes = std::string_view(text).substr(equals + 1);
  const std::size_t dots = sizes.find("..");
  const auto min = parse_unsigned(sizes.substr(0, dots));
  const auto max =
      dots == std::string_view::npos ? std::nullopt : parse_unsigned(sizes.substr(dots + 2));
  if (range.pool.empty() || !min || !max || *min > *max ||
      *max > static_cast<std::uint64_t>(kMaxPoolNodes)) {
    throw InputError("--pool", "",
                     "\"" + text + "\" is not NAME or NAME=MIN..MAX with 0 <= MIN <= MAX <= " +
                         std::to_string(kMaxPoolNodes));
  }
  range.min = static_cast<std::int32_t>(*min);
  range.max = static_cast<std::int32_t>(*max);
  return range;
}

int plan(const PlanOptions& options, std::ostream& out, std::ostream& err) {
  const Scenario scenario = load_scenario_reporting(options.file, false, err);
  std::vector<plan::PoolRange> ranges;
  for (const std::string& text : options.pools) ranges.push_back(pool_range(text, options));
  std::ostringstream text;
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
  out << text.str();
  return answered ? 0 : 1;
}

}  // namespace

Command add_plan_command(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  CLI::App* command = app.add_subcommand(
      "plan",
      "Find the smallest size of a node pool that meets objectives, or with several pools the "
      "cheapest mix of their sizes (by pricePerGpuHour), replaying sizes in parallel (exit 1 if "
      "nothing in range meets them, 2 on invalid input)");
  command->add_option("SCENARIO", options->file, "Scenario file with nodePools")
      ->required()
      ->check(CLI::ExistingFile);
  command
      ->add_option("--pool", options->pools,
                   "A node pool to size, NAME or NAME=MIN..MAX; repeat for the cheapest mix")
      ->required();
  command->add_option("--min", options->min, "Smallest size of a pool given without its sizes")
      ->capture_default_str();
  command->add_option("--max", options->max, "Largest size of a pool given without its sizes");
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
