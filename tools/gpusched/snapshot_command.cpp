// `gpusched snapshot FILE`: what a live-cluster snapshot holds; with --to-scenario, a scenario
// file of it (and of --add manifests) that pins today's scheduling outcome for CI.

#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <variant>

#include "gpusched/commands.hpp"
#include "gpusched/io/scenario_writer.hpp"
#include "gpusched/model/pod_requests.hpp"
#include "gpusched/rendered_text.hpp"
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

/// resource.k8s.io's kinds, which a snapshot keeps.
template <typename T>
constexpr bool kResourceKind =
    std::is_same_v<T, dra::DeviceClass> || std::is_same_v<T, dra::ResourceSlice> ||
    std::is_same_v<T, dra::ResourceClaim> || std::is_same_v<T, dra::ResourceClaimTemplate>;

/// `<label>: 2 ClusterQueues, 1 LocalQueue` for kinds counted; nothing when there are none.
void write_kinds(std::ostream& out, std::string_view label,
                 const std::map<std::string, std::size_t>& kinds) {
  if (kinds.empty()) return;
  out << label << ":";
  const char* separator = " ";
  for (const auto& [kind, count] : kinds) {
    out << separator << count << " " << kind << (count == 1 ? "" : "s");
    separator = ", ";
  }
  out << "\n";
}

/// Nodes, GPUs and pods of the snapshot as it was taken, Kueue's and resource.k8s.io's objects
/// by kind, and the devices the ResourceSlices publish and the claims' allocations hold.
void write_summary(std::ostream& out, const io::Snapshot& snapshot) {
  const Scenario& scenario = snapshot.scenario;
  std::size_t nodes = 0;
  std::int64_t gpus = 0;
  std::int64_t gpus_requested = 0;
  std::map<std::string, std::size_t> pods;      // by state
  std::map<std::string, std::size_t> kueue;     // by kind
  std::map<std::string, std::size_t> resource;  // resource.k8s.io's, by kind
  std::size_t devices = 0;
  std::set<dra::DeviceId> allocated;  // a shared device counts once
  for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
    const Object& object = scenario.cluster[i];
    std::visit(
        [&](const auto& o) {
          using T = std::decay_t<decltype(o)>;
          if constexpr (kKueueKind<T>) ++kueue[std::string(kind_of(object))];
          if constexpr (kResourceKind<T>) ++resource[std::string(kind_of(object))];
        },
        object);
    if (const auto* slice = std::get_if<dra::ResourceSlice>(&object)) {
      devices += slice->devices.size();
    } else if (const auto* claim = std::get_if<dra::ResourceClaim>(&object);
               claim != nullptr && claim->status.allocation) {
      for (const dra::DeviceRequestAllocationResult& result : claim->status.allocation->devices)
        allocated.insert(dra::DeviceId{result.driver, result.pool, result.device});
    } else if (const auto* node = std::get_if<Node>(&object)) {
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
  write_kinds(out, "kueue", kueue);
  write_kinds(out, "resource.k8s.io", resource);
  if (!resource.empty()) {
    out << "DRA devices published: " << devices << ", allocated to claims: " << allocated.size()
        << "\n";
  }
}

/// `{"claim": "ns/name", ...}` pinning how the run left each ResourceClaim it made or allocated:
/// a claim the snapshot held allocated keeps its devices unless deallocated, which the pods'
/// expectations then show.
void claim_expectations(const io::Snapshot& snapshot, const SimulationResult& result,
                        std::vector<Expectation>& out) {
  std::set<std::string> held;  // claims allocated in the snapshot
  for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
    if (const auto* claim = std::get_if<dra::ResourceClaim>(&snapshot.scenario.cluster[i]);
        claim != nullptr && claim->status.allocation) {
      held.insert(claim->metadata.namespace_ + "/" + claim->metadata.name);
    }
  }
  for (const ResourceClaimRecord& record : result.resource_claims) {
    ClaimExpectation check;
    check.claim = record.namespace_ + "/" + record.name;
    if (held.contains(check.claim)) continue;
    check.allocated = record.allocated;
    check.node = record.node.value_or("");
    check.devices.emplace();
    for (const ClaimDeviceRecord& d : record.devices)
      check.devices->push_back(ClaimDeviceExpectation{d.request, d.driver, d.pool, d.device});
    check.reserved_for = record.reserved_for;
    out.push_back(Expectation{std::nullopt, "", std::move(check)});
  }
}

/// Expectations that pin the replay's outcome: where each pod the scheduler placed (or could
/// not place) ends up, the devices of the claims it allocated, and how many pods end in each
/// phase.
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
  claim_expectations(snapshot, result, out);
  out.push_back(Expectation{std::nullopt, "", std::move(all)});
  return out;
}

int snapshot_command(const SnapshotCommandOptions& options, std::ostream& out, std::ostream& err) {
  io::Snapshot snapshot = load_snapshot(options.files, options.snapshot, err);
  RenderedText text;
  if (!options.to_scenario) {
    write_summary(text, snapshot);
    text.print(out);
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
