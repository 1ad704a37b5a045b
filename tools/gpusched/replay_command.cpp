// `gpusched replay FILE`: load -> simulate -> report.

#include <memory>
#include <optional>
#include <string>

#include "gpusched/commands.hpp"
#include "gpusched/explain/explain.hpp"
#include "gpusched/output_file.hpp"
#include "gpusched/progress.hpp"
#include "gpusched/rendered_text.hpp"
#include "gpusched/report/html_report.hpp"
#include "gpusched/report/metrics.hpp"
#include "gpusched/report/queue_metrics.hpp"
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
  std::string html;
  RunOptions run;
};

// The HTML page explains at most this many of the pods left unscheduled (the first by name):
// each is a scheduling cycle told in full over every node.
constexpr std::size_t kMostExplained = 200;

// The replay through a Simulator, so that the pods it leaves unscheduled are explained where
// they stand at the end (explain_now: each one's next cycle in full, its layer and diagnosis)
// before its result is taken.
SimulationResult replay_explaining(const Scenario& scenario, SimulationOptions options,
                                   std::vector<report::HtmlPendingExplanation>& explained) {
  std::optional<ProgressLine> line;
  if (stderr_is_terminal()) line.emplace(stderr).attach(options);
  options.record_pod_spans = true;  // the page's timelines
  Simulator simulator(scenario, options);
  while (simulator.step()) {
  }
  std::vector<std::string> pods;
  for (const PodRecord& r : simulator.pods()) {
    const PodPhase phase = r.pod.status.phase;
    if (pods.size() < kMostExplained && phase != PodPhase::Running && phase != PodPhase::Succeeded)
      pods.push_back(r.pod.key());
  }
  // explain_now replays nothing, so it gives no remedies: `gpusched explain` has them.
  for (const Explanation& e : explain_now(simulator, scenario, pods))
    explained.push_back({e.pod, std::string(to_string(e.layer)), e.diagnosis, {}});
  return simulator.finish();
}

int replay(const ReplayOptions& options, std::ostream& out, std::ostream& err) {
  const Scenario scenario = load_scenario_reporting(options.file, options.strict, err);
  // Opened before the replay, so that a path that cannot be written fails at once, not after a
  // long run; never over the scenario or a file it includes.
  std::optional<OutputFile> html;
  if (!options.html.empty()) {
    std::vector<std::string> inputs = scenario.included;
    inputs.push_back(options.file);
    refuse_input_as_output("--html", options.html, inputs);
    html.emplace("--html", options.html);
  }
  report::HtmlReportOptions html_options;
  const SimulationResult result =
      html ? replay_explaining(scenario, simulation_options(options.run), html_options.explanations)
           : simulate_with_progress(scenario, simulation_options(options.run));
  print_notices(result, err);
  // Render completely before printing: a failure while writing must leave `out` untouched.
  RenderedText text;
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
  } else if (options.output == "queues") {
    report::write_queues_table(text, report::kueue_metrics(result));
  } else if (options.output == "queues-csv") {
    report::write_queues_csv(text, result, report::kueue_metrics(result));
  } else if (options.output == "pods-csv") {
    report::write_pods_csv(text, result);
  } else if (options.output == "gpu-steps-csv") {
    report::write_gpu_steps_csv(text, result);
  } else {
    report::write_table(text, result);
  }
  if (html) {
    report::write_html_report(html->stream(), result, html_options);
    html->close();
  }
  text.print(out);
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
      ->check(scenario_file_validator());
  command
      ->add_option("-o,--output", options->output,
                   "Report format: the cluster (table, json), the summary metrics (metrics, "
                   "metrics-csv), the GPU-hours of each layer over time (seam, seam-csv; "
                   "docs/metrics.md), Kueue's queues: waits, borrowing and quota usage "
                   "(queues), their quota usage over time (queues-csv), a line per pod "
                   "(pods-csv) or per change of a node's GPUs (gpu-steps-csv)")
      ->check(CLI::IsMember({"table", "json", "metrics", "metrics-csv", "seam", "seam-csv",
                             "queues", "queues-csv", "pods-csv", "gpu-steps-csv"}))
      ->capture_default_str();
  add_strict_flag(*command, options->strict);
  command->add_option("--html", options->html,
                      "Also write the run as one self-contained HTML page to this file: timelines "
                      "per node and GPU, pending intervals, preemptions, allocation over time, "
                      "events and the pods still pending");
  add_run_options(*command, options->run);
  return {command,
          [options](std::ostream& out, std::ostream& err) { return replay(*options, out, err); }};
}

}  // namespace gpusched::cli
