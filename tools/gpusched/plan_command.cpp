// `gpusched plan SCENARIO --pool NAME --min A --max B --objective EXPR`: the smallest node pool
// that meets the objectives.

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gpusched/commands.hpp"
#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/plan/plan.hpp"
#include "gpusched/run_options.hpp"

namespace gpusched::cli {
namespace {

struct PlanOptions {
  std::string file;
  std::string pool;
  std::int32_t min = 0;
  std::int32_t max = 0;
  std::vector<std::string> objectives;
  unsigned jobs = 0;
  std::string output = "table";
  RunOptions run;
};

int plan(const PlanOptions& options, std::ostream& out) {
  const Scenario scenario = io::load_scenario(options.file);
  plan::PoolPlanRequest request;
  request.pool = options.pool;
  request.min = options.min;
  request.max = options.max;
  request.objectives = parse_objectives(options.objectives);
  request.jobs = options.jobs;
  request.options = simulation_options(options.run);
  const plan::PoolPlan result = plan::plan_pool(scenario, request);
  std::ostringstream text;
  if (options.output == "json") {
    plan::write_plan_json(text, request, result);
  } else if (options.output == "csv") {
    plan::write_plan_csv(text, result);
  } else {
    plan::write_plan_table(text, request, result);
  }
  out << text.str();
  return result.answer ? 0 : 1;
}

}  // namespace

Command add_plan_command(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  CLI::App* command = app.add_subcommand(
      "plan",
      "Find the smallest size of a node pool that meets objectives, replaying sizes in parallel "
      "(exit 1 if no size in range meets them, 2 on invalid input)");
  command->add_option("SCENARIO", options->file, "Scenario file with nodePools")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--pool", options->pool, "The node pool to size")->required();
  command->add_option("--min", options->min, "Smallest size to consider")->capture_default_str();
  command->add_option("--max", options->max, "Largest size to consider")->required();
  add_objective_option(*command, options->objectives);
  add_jobs_option(*command, options->jobs);
  command->add_option("-o,--output", options->output, "Report format")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  add_run_options(*command, options->run);
  return {command, [options](std::ostream& out, std::ostream&) { return plan(*options, out); }};
}

}  // namespace gpusched::cli
