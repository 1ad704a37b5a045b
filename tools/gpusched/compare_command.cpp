// `gpusched compare SCENARIO --config A.yaml --config B.yaml`: one workload under several
// scheduler configurations.

#include <filesystem>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gpusched/commands.hpp"
#include "gpusched/error.hpp"
#include "gpusched/io/scheduler_config.hpp"
#include "gpusched/plan/compare.hpp"
#include "gpusched/run_options.hpp"
#include "gpusched/strict.hpp"

namespace gpusched::cli {
namespace {

struct CompareOptions {
  std::string file;
  std::vector<std::string> configs;
  unsigned jobs = 0;
  std::string output = "table";
  RunOptions run;
};

int compare(const CompareOptions& options, std::ostream& out, std::ostream& err) {
  const Scenario scenario = load_scenario_reporting(options.file, false, err);
  // Columns are headed by the files' stems, or by their paths when two stems are alike.
  std::set<std::string> paths;
  std::set<std::string> stems;
  for (const std::string& config : options.configs) {
    if (!paths.insert(config).second)
      throw InputError("--config", "", "\"" + config + "\" is given twice");
    stems.insert(std::filesystem::path(config).stem().string());
  }
  const bool by_stem = stems.size() == paths.size();
  std::vector<plan::Variant> variants;
  for (const std::string& config : options.configs) {
    plan::Variant variant{by_stem ? std::filesystem::path(config).stem().string() : config,
                          scenario};
    variant.scenario.scheduler = io::load_scheduler_config(config, scenario.scheduler);
    variants.push_back(std::move(variant));
  }
  const plan::Comparison comparison =
      plan::compare(variants, options.jobs, simulation_options(options.run));
  std::ostringstream text;
  if (options.output == "json") {
    plan::write_comparison_json(text, comparison);
  } else if (options.output == "csv") {
    plan::write_comparison_csv(text, comparison);
  } else {
    plan::write_comparison_table(text, comparison);
  }
  out << text.str();
  return 0;
}

}  // namespace

Command add_compare_command(CLI::App& app) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand(
      "compare",
      "Replay one scenario under several KubeSchedulerConfiguration files: metrics side by side "
      "and the pods whose outcome differs (exit 2 on invalid input)");
  command->add_option("SCENARIO", options->file, "Scenario file")
      ->required()
      ->check(CLI::ExistingFile);
  command
      ->add_option("--config", options->configs,
                   "A KubeSchedulerConfiguration file (JSON or YAML); give two or more")
      ->type_name("FILE")
      ->required()
      ->check(CLI::ExistingFile);
  add_jobs_option(*command, options->jobs);
  command->add_option("-o,--output", options->output, "Report format")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  add_run_options(*command, options->run);
  command->callback([options] {
    if (options->configs.size() < 2)
      throw CLI::ValidationError("--config", "give at least two configurations to compare");
  });
  return {command,
          [options](std::ostream& out, std::ostream& err) { return compare(*options, out, err); }};
}

}  // namespace gpusched::cli
