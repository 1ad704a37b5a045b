// `gpusched compare SCENARIO --config A.yaml --config B.yaml`: one workload under several
// scheduler configurations; `gpusched compare A.json B.json`: several scenarios, such as one
// pool described on the device plugin and on DRA, side by side.

#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gpusched/commands.hpp"
#include "gpusched/error.hpp"
#include "gpusched/io/scheduler_config.hpp"
#include "gpusched/plan/compare.hpp"
#include "gpusched/rendered_text.hpp"
#include "gpusched/run_options.hpp"
#include "gpusched/strict.hpp"

namespace gpusched::cli {
namespace {

struct CompareOptions {
  std::vector<std::string> files;
  std::vector<std::string> configs;
  unsigned jobs = 0;
  std::string output = "table";
  RunOptions run;
};

// Columns are headed by the files' stems, or by their paths when two stems are alike.
std::vector<std::string> column_names(const std::vector<std::string>& files,
                                      const std::string& option) {
  std::set<std::string> paths;
  std::set<std::string> stems;
  for (const std::string& file : files) {
    if (!paths.insert(file).second)
      throw InputError(option, "", "\"" + file + "\" is given twice");
    stems.insert(std::filesystem::path(file).stem().string());
  }
  std::vector<std::string> names;
  for (const std::string& file : files)
    names.push_back(stems.size() == paths.size() ? std::filesystem::path(file).stem().string()
                                                 : file);
  return names;
}

int compare(const CompareOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<plan::Variant> variants;
  if (options.files.size() == 1) {
    // One scenario, a variant per configuration.
    const Scenario scenario = load_scenario_reporting(options.files[0], false, err);
    const std::vector<std::string> names = column_names(options.configs, "--config");
    for (std::size_t i = 0; i < options.configs.size(); ++i) {
      plan::Variant variant{names[i], scenario};
      variant.scenario.scheduler = io::load_scheduler_config(options.configs[i], scenario.scheduler);
      variants.push_back(std::move(variant));
    }
  } else {
    // A variant per scenario, each under the one configuration given, if any.
    const std::vector<std::string> names = column_names(options.files, "SCENARIO");
    for (std::size_t i = 0; i < options.files.size(); ++i) {
      plan::Variant variant{names[i], load_scenario_reporting(options.files[i], false, err)};
      if (!options.configs.empty()) {
        variant.scenario.scheduler =
            io::load_scheduler_config(options.configs[0], variant.scenario.scheduler);
      }
      variants.push_back(std::move(variant));
    }
  }
  const plan::Comparison comparison =
      plan::compare(variants, options.jobs, simulation_options(options.run));
  RenderedText text;
  if (options.output == "json") {
    plan::write_comparison_json(text, comparison);
  } else if (options.output == "csv") {
    plan::write_comparison_csv(text, comparison);
  } else {
    plan::write_comparison_table(text, comparison);
  }
  text.print(out);
  return 0;
}

}  // namespace

Command add_compare_command(CLI::App& app) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand(
      "compare",
      "Replay one scenario under several KubeSchedulerConfiguration files, or several scenarios "
      "(the same workload on two cluster variants): metrics side by side and the pods whose "
      "outcome differs, with why (exit 2 on invalid input)");
  command
      ->add_option("SCENARIO", options->files,
                   "Scenario file; give two or more to compare scenarios")
      ->required()
      ->check(CLI::ExistingFile);
  command
      ->add_option("--config", options->configs,
                   "A KubeSchedulerConfiguration file (JSON or YAML); give two or more for one "
                   "scenario, or one for every scenario")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  add_jobs_option(*command, options->jobs);
  command->add_option("-o,--output", options->output, "Report format")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  add_run_options(*command, options->run);
  command->callback([options] {
    if (options->files.size() == 1 && options->configs.size() < 2)
      throw CLI::ValidationError("--config", "give at least two configurations to compare");
    if (options->files.size() > 1 && options->configs.size() > 1) {
      throw CLI::ValidationError(
          "--config", "with several scenarios, give at most one configuration (for all of them)");
    }
  });
  return {command,
          [options](std::ostream& out, std::ostream& err) { return compare(*options, out, err); }};
}

}  // namespace gpusched::cli
