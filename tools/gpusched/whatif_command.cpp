// `gpusched whatif --cluster snapshot.json --add job.yaml`: would these pods schedule on this
// cluster now, where, and whom would they preempt; for a Job Kueue manages, whether Kueue admits
// it now, why not, and when its quota is reserved.

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpusched/commands.hpp"
#include "gpusched/progress.hpp"
#include "gpusched/rendered_text.hpp"
#include "gpusched/report/whatif.hpp"
#include "gpusched/run_options.hpp"
#include "gpusched/sim/simulator.hpp"
#include "gpusched/snapshot_options.hpp"
#include "gpusched/strict.hpp"

namespace gpusched::cli {
namespace {

struct WhatIfOptions {
  std::vector<std::string> cluster;
  std::string output = "table";
  SnapshotArgs snapshot;
  RunOptions run;
};

int what_if(const WhatIfOptions& options, std::ostream& out, std::ostream& err) {
  const io::Snapshot snapshot = load_snapshot(options.cluster, options.snapshot, err);
  SimulationOptions simulation = simulation_options(options.run);
  std::optional<ProgressLine> line;
  if (stderr_is_terminal()) line.emplace(stderr).attach(simulation);
  Simulator replay(snapshot.scenario, simulation);
  // The snapshot's instant, the additions created: Kueue has made their Workloads and admitted
  // what fits now. The rest of the replay says when the others get quota.
  replay.run_until(0);
  const std::vector<WorkloadRecord> at_start = replay.workloads();
  const SimulationResult result = replay.finish();
  print_notices(result, err);
  std::set<std::string> added_jobs;
  for (std::size_t i = snapshot.snapshot_objects; i < snapshot.scenario.cluster.size(); ++i) {
    if (const auto* job = std::get_if<Job>(&snapshot.scenario.cluster[i])) {
      added_jobs.insert(job->metadata.namespace_ + "/" + job->metadata.name);
    }
  }
  // The snapshot's pods that were waiting for a node: the additions may take it, or preempt.
  std::set<std::string> waiting;
  for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
    const auto* pod = std::get_if<Pod>(&snapshot.scenario.cluster[i]);
    if (pod != nullptr && pod->spec.node_name.empty()) waiting.insert(pod->key());
  }
  std::vector<std::string> schedulers;
  for (const Profile& profile : snapshot.scenario.scheduler.profiles)
    schedulers.push_back(profile.scheduler_name);
  const report::WhatIf whatif =
      report::what_if(result, snapshot.scenario.description, snapshot.snapshot_pods, waiting,
                      schedulers, added_jobs, at_start);
  RenderedText text;
  if (options.output == "json") {
    report::write_whatif_json(text, whatif);
  } else {
    report::write_whatif_table(text, whatif);
  }
  text.print(out);
  return whatif.all_added_bound() ? 0 : 1;
}

}  // namespace

Command add_whatif_command(CLI::App& app) {
  auto options = std::make_shared<WhatIfOptions>();
  CLI::App* command = app.add_subcommand(
      "whatif",
      "Replay manifests against a live-cluster snapshot: where each new pod lands, why not, and "
      "whom it preempts (exit 1 if an added pod gets no node, 2 on invalid input)");
  command
      ->add_option("--cluster", options->cluster,
                   "kubectl get nodes,pods,priorityclasses,poddisruptionbudgets -A -o json (or "
                   "several dumps, such as nodes.json and pods.json, read as one)")
      ->type_name("FILE")
      ->required()
      ->check(CLI::ExistingFile);
  add_snapshot_options(*command, options->snapshot,
                       "Manifest to create (JSON or YAML; repeat for several)");
  command->get_option("--add")->required();
  command->add_option("-o,--output", options->output, "Report format")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  add_run_options(*command, options->run);
  return {command,
          [options](std::ostream& out, std::ostream& err) { return what_if(*options, out, err); }};
}

}  // namespace gpusched::cli
