// `gpusched replay FILE`: load -> simulate -> report.

#include <memory>
#include <sstream>
#include <string>

#include "gpusched/commands.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/progress.hpp"
#include "gpusched/report/metrics.hpp"
#include "gpusched/report/seam.hpp"
#include "gpusched/report/writers.hpp"
#include "gpusched/run_options.hpp"
#include "gpusched/sim/simulator.hpp"
#include "gpusched/strict.hpp"

namespace gpusched::cli {
namespace {

struct ReplayOptions {
  std::string file;
  std::string output = "table";
  bool strict = false;
  RunOptions run;
};

int replay(const ReplayOptions& options, std::ostream& out, std::ostream& err) {
  const Scenario scenario = io::load_scenario(options.file);
  if (options.strict) print_warnings(scenario, err);
  const SimulationResult result = simulate_with_progress(scenario, simulation_options(options.run));
  // Render completely before printing: a failure while writing must leave `out` untouched.
  std::ostringstream text;
  if (options.output == "json") {
    report::write_json(text, result);
  } else if (options.output == "metrics") {
    report::write_metrics_table(text, report::summary_metrics(result));
  } else if (options.output == "metrics-csv") {
    report::write_metrics_csv(text, report::summary_metrics(result));
  } else if (options.output == "seam") {
    report::write_seam_table(text, report::seam(result));
  } else if (options.output == "seam-csv") {
    report::write_seam_csv(text, report::seam(result));
  } else if (options.output == "pods-csv") {
    report::write_pods_csv(text, result);
  } else if (options.output == "gpu-steps-csv") {
    report::write_gpu_steps_csv(text, result);
  } else {
    report::write_table(text, result);
  }
  out << text.str();
  return result.passed ? 0 : 1;
}

}  // namespace

Command add_replay_command(CLI::App& app) {
  auto options = std::make_shared<ReplayOptions>();
  CLI::App* command = app.add_subcommand(
      "replay",
      "Replay a scenario and print the cluster at the end (exit 1 if an expectation "
      "fails, 2 on invalid input)");
  command->add_option("FILE", options->file, "Scenario file (JSON or YAML)")
      ->required()
      ->check(CLI::ExistingFile);
  command
      ->add_option("-o,--output", options->output,
                   "Report format: the cluster (table, json), the summary metrics (metrics, "
                   "metrics-csv), the GPU-hours of each layer over time (seam, seam-csv; "
                   "docs/metrics.md), a line per pod (pods-csv) or per change of a node's GPUs "
                   "(gpu-steps-csv)")
      ->check(CLI::IsMember({"table", "json", "metrics", "metrics-csv", "seam", "seam-csv",
                             "pods-csv", "gpu-steps-csv"}))
      ->capture_default_str();
  add_strict_flag(*command, options->strict);
  add_run_options(*command, options->run);
  return {command,
          [options](std::ostream& out, std::ostream& err) { return replay(*options, out, err); }};
}

}  // namespace gpusched::cli
