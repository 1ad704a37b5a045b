// `gpusched explain FILE --pod NS/NAME`: why the pod is where it is, per node, per plugin and per
// layer, and which changes would schedule it (each replayed). `gpusched explain FILE
// Job/NS/NAME` (or Workload/NS/NAME): why Kueue has not admitted its Workload, per flavor and
// resource, and which quota changes would (each replayed).

#include <algorithm>
#include <memory>
#include <string>

#include "gpusched/commands.hpp"
#include "gpusched/error.hpp"
#include "gpusched/explain/explain.hpp"
#include "gpusched/rendered_text.hpp"
#include "gpusched/report/explain_writer.hpp"
#include "gpusched/run_options.hpp"
#include "gpusched/strict.hpp"

namespace gpusched::cli {
namespace {

struct ExplainCommandOptions {
  std::string file;
  std::string object;
  std::string pod;
  std::string at;
  std::string output = "text";
  bool members = false;
  bool no_remedies = false;
  bool strict = false;
  RunOptions run;
};

int run_explain(const ExplainCommandOptions& options, std::ostream& out, std::ostream& err) {
  if (options.object.empty() && options.pod.empty()) {
    throw InputError("explain", "",
                     "name what to explain: --pod NS/NAME, or Job/NS/NAME or Workload/NS/NAME");
  }
  const Scenario scenario = load_scenario_reporting(options.file, options.strict, err);
  ExplainOptions explain_options;
  explain_options.simulation = simulation_options(options.run);
  if (!options.at.empty()) {
    std::string ignored;  // --at's validator has accepted it
    explain_options.at = parse_cli_duration(options.at, &ignored);
  }
  explain_options.remedies = !options.no_remedies;
  RenderedText text;
  if (options.object.starts_with("Job/") || options.object.starts_with("Workload/")) {
    const KueueExplanation explanation =
        explain_workload(scenario, options.object, explain_options);
    if (options.output == "json") {
      report::write_kueue_explanation_json(text, explanation);
    } else {
      report::write_kueue_explanation_text(text, explanation);
    }
    text.print(out);
    return 0;
  }
  std::string named = options.pod.empty() ? options.object : options.pod;
  if (named.starts_with("Pod/")) {
    named.erase(0, 4);
  } else if (std::count(named.begin(), named.end(), '/') > 1) {
    throw InputError(named, "",
                     "explain tells a Pod (Pod/NS/NAME or NS/NAME), or a Kueue Workload "
                     "(Job/NS/NAME or Workload/NS/NAME)");
  }
  // A pod named without its namespace is in "default", as kubectl reads it.
  const std::string pod = named.find('/') == std::string::npos ? "default/" + named : named;
  const Explanation explanation = explain(scenario, pod, explain_options);
  if (options.output == "json") {
    report::write_explanation_json(text, explanation);
  } else {
    report::write_explanation_text(text, explanation, {options.members});
  }
  text.print(out);
  return 0;
}

}  // namespace

Command add_explain_command(CLI::App& app) {
  auto options = std::make_shared<ExplainCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "explain",
      "Explain why a pod is Pending (or where it runs): every Filter and Score plugin per node, "
      "preemption per node, the layer of the cause, and remedies verified by replay (exit 2 on "
      "invalid input or an unknown pod)");
  command->add_option("FILE", options->file, "Scenario file (JSON or YAML)")
      ->required()
      ->check(scenario_file_validator());
  CLI::Option* object =
      command
          ->add_option("OBJECT", options->object,
                       "What to explain: Job/NS/NAME or Workload/NS/NAME (a Kueue Workload: its "
                       "quota story per flavor and remedies), or a pod as Pod/NS/NAME or NS/NAME")
          ->type_name("OBJECT");
  command->add_option("--pod", options->pod, "The pod, as NAMESPACE/NAME (NAME alone: default)")
      ->type_name("NS/NAME")
      ->excludes(object);
  command
      ->add_option("--at", options->at,
                   "Explain the last scheduling attempt at or before this time (default: the "
                   "end of the replay)")
      ->type_name("DURATION")
      ->check(duration_validator());
  command->add_option("-o,--output", options->output, "Report format: text or json (§4)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  command->add_flag("--members", options->members,
                    "List every node of each group, and every node's verdicts");
  command->add_flag("--no-remedies", options->no_remedies,
                    "Do not look for remedies (each costs a replay)");
  add_strict_flag(*command, options->strict);
  add_run_options(*command, options->run);
  return {command, [options](std::ostream& out, std::ostream& err) {
            return run_explain(*options, out, err);
          }};
}

}  // namespace gpusched::cli
