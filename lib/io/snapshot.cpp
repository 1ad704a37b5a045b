// `kubectl get nodes,pods,priorityclasses,poddisruptionbudgets -A -o json` (and services,
// statefulsets) as a starting state.

#include "gpusched/io/snapshot.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>

#include "gpusched/error.hpp"
#include "io/cluster_json.hpp"
#include "io/input_text.hpp"
#include "io/kind_filter.hpp"
#include "io/timestamps.hpp"
#include "model/priority_admission.hpp"

namespace gpusched::io {
namespace {

/// The modelled kinds a snapshot contributes. Controllers are left out: the pods they made are
/// in the snapshot, and a replayed controller would make them again under new names (a
/// Deployment's ReplicaSet is named by gpusched's own template hash). A StatefulSet is kept: its
/// pods' names are its ordinals, and their ownerReferences (uid) make them its own again, so it
/// replaces only what goes missing.
bool kept_kind(std::string_view kind) {
  return kind == "Node" || kind == "Pod" || kind == "PriorityClass" ||
         kind == "PodDisruptionBudget" || kind == "Namespace" || kind == "Service" ||
         kind == "StatefulSet";
}

std::string plural(std::size_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

/// The latest wall-clock time `item` records: its creation, a pod's start, a condition's last
/// heartbeat or transition (a node's heartbeat is the freshest sign of when the dump was taken).
std::optional<std::int64_t> latest_time(const JsonNode& item) {
  std::optional<std::int64_t> latest;
  auto consider = [&](const std::optional<JsonNode>& node) {
    if (!node) return;
    const std::int64_t t = read_rfc3339(*node);
    latest = latest ? std::max(*latest, t) : t;
  };
  if (auto metadata = item.get("metadata")) consider(metadata->get("creationTimestamp"));
  if (auto status = item.get("status")) {
    consider(status->get("startTime"));
    if (auto conditions = status->get("conditions")) {
      for (const JsonNode& condition : conditions->elements()) {
        consider(condition.get("lastHeartbeatTime"));
        consider(condition.get("lastTransitionTime"));
      }
    }
  }
  return latest;
}

/// "Succeeded" / "Failed": the pod no longer holds anything and the scheduler ignores it.
bool terminated_pod(const JsonNode& item) {
  const std::optional<JsonNode> status = item.get("status");
  const std::optional<JsonNode> phase = status ? status->get("phase") : std::nullopt;
  if (!phase) return false;
  const std::string text = phase->string();
  return text == "Succeeded" || text == "Failed";
}

/// A dump made without priorityclasses (or after a class was deleted) has pods naming classes
/// it lacks. The pods were admitted when created; the class is recreated with the value they
/// carry, placed first, so that they are admitted again unchanged and new pods naming it get
/// the same priority.
void recreate_missing_priority_classes(Snapshot& snapshot) {
  Scenario& scenario = snapshot.scenario;
  std::set<std::string> classes;
  for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
    if (const auto* pc = std::get_if<PriorityClass>(&scenario.cluster[i]))
      classes.insert(pc->metadata.name);
  }
  std::map<std::string, std::pair<std::int32_t, std::size_t>> missing;  // value, pods
  for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
    auto* pod = std::get_if<Pod>(&scenario.cluster[i]);
    if (pod == nullptr || pod->spec.priority_class_name.empty()) continue;
    const std::string& name = pod->spec.priority_class_name;
    if (find_system_priority_class(name) != nullptr || classes.contains(name)) continue;
    if (!pod->spec.priority) {
      // Nothing tells the class's value: the pod keeps no class and gets the default priority.
      snapshot.notes.push_back("pod " + pod->key() + " names PriorityClass \"" + name +
                               "\", which is not in the snapshot, and has no spec.priority: "
                               "replayed without a class");
      pod->spec.priority_class_name.clear();
      continue;
    }
    auto [it, inserted] = missing.try_emplace(name, *pod->spec.priority, 0);
    ++it->second.second;
    if (it->second.first != *pod->spec.priority) {
      snapshot.notes.push_back("pod " + pod->key() + " has priority " +
                               std::to_string(*pod->spec.priority) + " but PriorityClass \"" +
                               name + "\" was recreated with " + std::to_string(it->second.first) +
                               " from an earlier pod");
      pod->spec.priority = it->second.first;
    }
  }
  std::vector<Object> recreated;
  for (const auto& [name, value_pods] : missing) {
    PriorityClass pc;
    pc.metadata.name = name;
    pc.value = value_pods.first;
    recreated.emplace_back(std::move(pc));
    snapshot.notes.push_back(
        "PriorityClass \"" + name + "\" is not in the snapshot: recreated with value " +
        std::to_string(value_pods.first) + " from its " + plural(value_pods.second, "pod"));
  }
  scenario.cluster.insert(scenario.cluster.begin(), recreated.begin(), recreated.end());
  scenario.cluster_pointers.insert(scenario.cluster_pointers.begin(), recreated.size(),
                                   scenario.source + ": recreated PriorityClass");
  snapshot.snapshot_objects += recreated.size();
}

void warn_unbound_nodes(Snapshot& snapshot) {
  Scenario& scenario = snapshot.scenario;
  std::set<std::string> nodes;
  for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
    if (const auto* node = std::get_if<Node>(&scenario.cluster[i]))
      nodes.insert(node->metadata.name);
  }
  std::map<std::string, std::size_t> missing;
  for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
    const auto* pod = std::get_if<Pod>(&scenario.cluster[i]);
    if (pod != nullptr && !pod->spec.node_name.empty() && !nodes.contains(pod->spec.node_name))
      ++missing[pod->spec.node_name];
  }
  for (const auto& [name, count] : missing) {
    snapshot.notes.push_back("node \"" + name + "\" is not in the snapshot: " +
                             plural(count, "pod") + " bound to it wait for it");
  }
}

}  // namespace

Snapshot parse_snapshot(std::string_view text, const std::string& file_name,
                        const SnapshotOptions& options) {
  Snapshot snapshot;
  // Unknown fields of the snapshot's objects, then of the additions'.
  const ParsedText file(file_name, text, &snapshot.scenario.warnings);
  const std::filesystem::path path(file_name);
  Scenario& scenario = snapshot.scenario;
  scenario.source = file_name;
  scenario.name = path.stem().string();

  // Kinds gpusched does not model, in the snapshot or the additions, are left out as for a
  // scenario (kind_filter.hpp); of the modelled ones, the snapshot keeps kept_kind's.
  KindFilter kinds(options.strict);
  std::vector<JsonNode> items;
  std::map<std::string, std::size_t> skipped;
  std::size_t terminated = 0;
  std::optional<std::int64_t> latest;
  for (const JsonNode& item : kinds.kept(manifest_objects(file))) {
    item.expect_type(nlohmann::json::value_t::object, "an object");
    const std::string kind = item.required("kind").string();
    if (!kept_kind(kind)) {
      ++skipped[kind];
      continue;
    }
    if (kind == "Pod" && terminated_pod(item)) {
      ++terminated;
      continue;
    }
    if (const auto t = latest_time(item)) latest = latest ? std::max(*latest, *t) : *t;
    items.push_back(item);
  }
  snapshot.snapshot_objects = items.size();

  std::deque<ManifestFile> added;
  for (const std::filesystem::path& addition : options.additions) {
    std::vector<JsonNode> objects =
        kinds.kept(added.emplace_back(addition, &scenario.warnings).objects());
    items.insert(items.end(), objects.begin(), objects.end());
  }
  parse_cluster(items, file.root(), scenario);

  // Only the snapshot's own objects carry times: the API server stamps a created object anew.
  scenario.start_time = options.taken_at ? options.taken_at : latest;
  if (scenario.start_time) {
    for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
      read_object_times(items[i], *scenario.start_time, scenario.cluster[i]);
    }
  }
  for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
    if (const auto* pod = std::get_if<Pod>(&scenario.cluster[i])) {
      snapshot.snapshot_pods.insert(pod->key());
    }
  }
  scenario.description =
      "snapshot " + path.filename().string() +
      (scenario.start_time ? " taken at " + format_rfc3339(*scenario.start_time) : std::string()) +
      " (" + plural(snapshot.snapshot_objects, "object") + ")";

  recreate_missing_priority_classes(snapshot);
  warn_unbound_nodes(snapshot);
  if (terminated > 0) {
    snapshot.notes.push_back(plural(terminated, "terminated pod") +
                             " (Succeeded or Failed) left out: they hold no resources");
  }
  for (const auto& [kind, count] : skipped) {
    snapshot.notes.push_back(plural(count, kind + " object") +
                             " left out: a snapshot keeps nodes, pods, PriorityClasses, "
                             "PodDisruptionBudgets, Namespaces, Services and StatefulSets");
  }
  kinds.notes(scenario.notes);
  return snapshot;
}

Snapshot load_snapshot(const std::filesystem::path& path, const SnapshotOptions& options) {
  return parse_snapshot(read_input_file(path, path.string()), path.string(), options);
}

}  // namespace gpusched::io
