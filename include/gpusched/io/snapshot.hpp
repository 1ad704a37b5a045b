#pragma once
/// A live cluster as `kubectl get nodes,pods,priorityclasses,poddisruptionbudgets -A -o json`
/// prints it, turned into a scenario's starting state, plus manifests to try against it
/// (`gpusched whatif`, `gpusched snapshot --to-scenario`, which writes it with
/// scenario_writer.hpp).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/scenario/scenario.hpp"

namespace gpusched::io {

struct SnapshotOptions {
  /// The instant the snapshot stands for (Unix ms); default: its latest timestamp (an object
  /// created, a pod started, a node's heartbeat). An object created (or a pod started) after it
  /// is an InputError: the snapshot could not hold it.
  std::optional<std::int64_t> taken_at;
  /// Manifests added to the snapshot, in order (JSON or YAML, one object, a List or several
  /// documents), as `kubectl apply -f` would create them at the snapshot's instant.
  std::vector<std::filesystem::path> additions;
  /// As LoadOptions::strict, for the snapshot's objects and the additions'.
  bool strict = false;
};

struct Snapshot {
  /// cluster: the snapshot's objects, then the additions'; startTime: the snapshot's instant;
  /// warnings: the unknown fields of those objects (`--strict`); notes: the kinds left out, as
  /// for a scenario (LoadOptions::strict).
  Scenario scenario;
  /// What was left out of the snapshot itself or changed, and why (terminated pods, controllers,
  /// missing classes, the claims of pods it does not hold), about the snapshot's file.
  std::vector<std::string> notes;
  /// How many leading scenario.cluster objects came from the snapshot itself.
  std::size_t snapshot_objects = 0;
  /// "ns/name" of the snapshot's pods, bound or not.
  std::set<std::string> snapshot_pods;
};

/// Reads the snapshot: nodes, pods, PriorityClasses, PodDisruptionBudgets, Namespaces,
/// Services, StatefulSets, Kueue's objects and resource.k8s.io's (DeviceClasses,
/// ResourceSlices, ResourceClaims with their allocation and reservations,
/// ResourceClaimTemplates) are kept with their wall-clock times (a StatefulSet's pods stay its
/// own through their ownerReferences); pods that have terminated (Succeeded, Failed) are left
/// out, as are the other controllers (their pods are in the snapshot already, and a replayed
/// Deployment would name them anew) and the kinds gpusched does not model; a pod naming a
/// PriorityClass the snapshot lacks keeps its spec.priority; a claim reserved for a pod the
/// snapshot does not hold is released, as the resourceclaim controller would release it.
/// PriorityClasses and resource.k8s.io's objects are created before the pods, whatever
/// kubectl's order. Each omission is a note. Bad objects are InputErrors naming the file, line
/// and pointer, as for scenarios.
[[nodiscard]] Snapshot load_snapshot(const std::filesystem::path& path,
                                     const SnapshotOptions& options = {});
/// The same for a snapshot dumped in several files (`kubectl get nodes -o json > nodes.json;
/// kubectl get pods -A -o json > pods.json`), read in order as one List: an object in two files
/// with the same content is kept once; with different content it is an InputError naming both
/// places. The scenario's name and source are the first file's.
[[nodiscard]] Snapshot load_snapshot(const std::vector<std::filesystem::path>& paths,
                                     const SnapshotOptions& options = {});

/// The same for a snapshot already in memory; `file` names it in errors and decides JSON or
/// YAML. The additions are still read from their files.
[[nodiscard]] Snapshot parse_snapshot(std::string_view text, const std::string& file,
                                      const SnapshotOptions& options = {});

}  // namespace gpusched::io
