// `gpusched snapshot FILE`: what a live-cluster snapshot holds; with --to-scenario, a scenario
// file of it (and of --add manifests) that pins today's scheduling outcome for CI.

#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>

#include "gpusched/commands.hpp"
#include "gpusched/io/scenario_writer.hpp"
#include "gpusched/model/pod_requests.hpp"
#include "gpusched/run_options.hpp"
#include "gpusched/sim/simulator.hpp"
#include "gpusched/snapshot_options.hpp"

namespace gpusched::cli {
namespace {

constexpr std::string_view kGpu = "nvidia.com/gpu";

struct SnapshotCommandOptions {
  std::vector<std::string> files;
  bool to_scenario = false;
  std::string name;
  SnapshotArgs snapshot;
  RunOptions run;
};

std::int64_t gpus_of(const ResourceList& list) {
  auto it = list.find(kGpu);
  return it == list.end() ? 0 : it->second.milli() / 1000;
}

/// Kueue's kinds, which a snapshot keeps (its Workloads are kueue.x-k8s.io's, not the
/// scheduling.k8s.io Workload of gang scheduling).
template <typename T>
constexpr bool kKueueKind =
    std::is_same_v<T, kueue::ResourceFlavor> || std::is_same_v<T, kueue::ClusterQueue> ||
    std::is_same_v<T, kueue::LocalQueue> || std::is_same_v<T, kueue::Cohort> ||
    std::is_same_v<T, kueue::WorkloadPriorityClass> || std::is_same_v<T, kueue::AdmissionCheck> ||
    std::is_same_v<T, kueue::ProvisioningRequestConfig> || std::is_same_v<T, kueue::Workload>;

/// Nodes, GPUs and pods of the snapshot as it was taken, and Kueue's objects by kind.
void write_summary(std::ostream& out, const io::Snapshot& snapshot) {
  const Scenario& scenario = snapshot.scenario;
  std::size_t nodes = 0;
  std::int64_t gpus = 0;
  std::int64_t gpus_requested = 0;
  std::map<std::string, std::size_t> pods;   // by state
  std::map<std::string, std::size_t> kueue;  // by kind
  for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
    const Object& object = scenario.cluster[i];
    std::visit(
        [&](const auto& o) {
          if constexpr (kKueueKind<std::decay_t<decltype(o)>>)
            ++kueue[std::string(kind_of(object))];
        },
        object);
    if (const auto* node = std::get_if<Node>(&object)) {
      ++nodes;
      gpus += gpus_of(node->allocatable);
    } else if (const auto* pod = std::get_if<Pod>(&object)) {
      if (pod->spec.node_name.empty()) {
        ++pods["waiting for a node"];
        continue;
      }
      ++pods[pod->metadata.deletion_ms ? "terminating" : "bound"];
      gpus_requested += gpus_of(pod_requests(pod->spec));
    }
  }
  out << scenario.description << "\n"
      << "nodes: " << nodes << ", " << kGpu << " allocatable: " << gpus
      << ", requested by bound pods: " << gpus_requested << "\n";
  for (const auto& [state, count] : pods) out << "pods " << state << ": " << count << "\n";
  if (kueue.empty()) return;
  out << "kueue:";
  const char* separator = " ";
  for (const auto& [kind, count] : kueue) {
    out << separator << count << " " << kind << (count == 1 ? "" : "s");
    separator = ", ";
  }
  out << "\n";
}

/// Expectations that pin the replay's outcome: where each pod the scheduler placed (or could
/// not place) ends up, and how many pods end in each phase.
std::vector<Expectation> outcome_expectations(const io::Snapshot& snapshot,
                                              const SimulationResult& result) {
  std::set<std::string> decided;  // pods the replay had to schedule
  for (std::size_t i = 0; i < snapshot.scenario.cluster.size(); ++i) {
    if (const auto* pod = std::get_if<Pod>(&snapshot.scenario.cluster[i]);
        pod != nullptr && pod->spec.node_name.empty()) {
      decided.insert(pod->key());
    }
  }
  std::vector<Expectation> out;
  PodsExpectation all{"*/*", {}};
  for (const PodRecord& record : result.pods) {
    const Pod& pod = record.pod;
    ++all.phases[std::string(to_string(pod.status.phase))];
    if (!decided.contains(pod.key()) && snapshot.snapshot_pods.contains(pod.key())) continue;
    PodExpectation check;
    check.pod = pod.key();
    check.phase = std::string(to_string(pod.status.phase));
    check.node = pod.spec.node_name.empty() ? std::nullopt : std::optional(pod.spec.node_name);
    if (const PodCondition* scheduled = pod.status.condition("PodScheduled");
        pod.spec.node_name.empty() && scheduled != nullptr && scheduled->status == "False") {
      check.message = scheduled->message;
    }
    out.push_back(Expectation{std::nullopt, "", std::move(check)});
  }
  out.push_back(Expectation{std::nullopt, "", std::move(all)});
  return out;
}

int snapshot_command(const SnapshotCommandOptions& options, std::ostream& out, std::ostream& err) {
  io::Snapshot snapshot = load_snapshot(options.files, options.snapshot, err);
  std::ostringstream text;
  if (!options.to_scenario) {
    write_summary(text, snapshot);
    out << text.str();
    return 0;
  }
  const SimulationOptions run = simulation_options(options.run);
  Scenario& scenario = snapshot.scenario;
  if (!options.name.empty()) scenario.name = options.name;
  // The scenario replays as this run did: same seed, version and end.
  if (run.seed) scenario.scheduler.seed = *run.seed;
  if (run.kubernetes_version) scenario.scheduler.kubernetes_version = *run.kubernetes_version;
  if (run.until) scenario.until = run.until;
  scenario.expect = outcome_expectations(snapshot, simulate(scenario));
  out << io::scenario_json_text(scenario);
  return 0;
}

}  // namespace

Command add_snapshot_command(CLI::App& app) {
  auto options = std::make_shared<SnapshotCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "snapshot",
      "Read `kubectl get nodes,pods,priorityclasses,poddisruptionbudgets -A -o json` output: "
      "a summary, or with --to-scenario a scenario pinning today's outcome (exit 2 on invalid "
      "input)");
  command
      ->add_option("FILE", options->files,
                   "The snapshot (JSON or YAML), or several dumps such as nodes.json and "
                   "pods.json, read as one")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_flag("--to-scenario", options->to_scenario,
                    "Print a scenario file whose expectations hold today's outcome");
  command->add_option("--name", options->name,
                      "The scenario's name (default: the first file's stem)");
  add_snapshot_options(*command, options->snapshot,
                       "Manifest to add to the scenario (JSON or YAML; repeat for several)");
  add_run_options(*command, options->run);
  return {command, [options](std::ostream& out, std::ostream& err) {
            return snapshot_command(*options, out, err);
          }};
}

}  // namespace gpusched::cli
