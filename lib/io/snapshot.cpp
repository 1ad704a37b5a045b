// `kubectl get nodes,pods,priorityclasses,poddisruptionbudgets -A -o json` (and services,
// statefulsets, Kueue's objects and resource.k8s.io's) as a starting state.

#include "gpusched/io/snapshot.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>

#include "gpusched/error.hpp"
#include "io/cluster_json.hpp"
#include "io/input_text.hpp"
#include "io/kind_filter.hpp"
#include "io/kueue_json.hpp"
#include "io/resource_json.hpp"
#include "io/snapshot_claims.hpp"
#include "io/timestamps.hpp"
#include "kueue/workload_status.hpp"
#include "model/priority_admission.hpp"

namespace gpusched::io {
namespace {

/// The modelled kinds a snapshot contributes. Controllers are left out: the pods they made are
/// in the snapshot, and a replayed controller would make them again under new names (a
/// Deployment's ReplicaSet is named by gpusched's own template hash). A StatefulSet is kept: its
/// pods' names are its ordinals, and their ownerReferences (uid) make them its own again, so it
/// replaces only what goes missing. resource.k8s.io's kinds are kept with their status: a
/// running pod's claim is allocated on its node's devices and reserved for it (the scheduler
/// wrote that, and the resourceclaim controller finds the claim through the pod's
/// status.resourceClaimStatuses rather than making another), and the slices publish what the
/// drivers have.
bool kept_kind(std::string_view kind) {
  return kind == "Node" || kind == "Pod" || kind == "PriorityClass" ||
         kind == "PodDisruptionBudget" || kind == "Namespace" || kind == "Service" ||
         kind == "StatefulSet" || is_kueue_kind(kind) || is_resource_kind(kind);
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
    // The pod garbage collector's orphan pass (pod_gc.hpp) deletes them unless the node comes.
    snapshot.notes.push_back("node \"" + name +
                             "\" is not in the snapshot: " + plural(count, "pod") +
                             " bound to it " + (count == 1 ? "runs" : "run") +
                             " nowhere (phase Unknown) and the pod garbage collector deletes " +
                             (count == 1 ? "it" : "them") + " once the node has been missing 40 s");
  }
}

/// A Workload of the snapshot that holds quota keeps it until Kueue evicts it: Kueue releases it
/// when its Job finishes, and the snapshot leaves Jobs out (kept_kind), so nothing finishes it.
/// Said in a note, since a Workload waiting for that quota may then never get it.
void note_held_quota(Snapshot& snapshot) {
  for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
    const auto* wl = std::get_if<kueue::Workload>(&snapshot.scenario.cluster[i]);
    if (wl == nullptr || !kueue::has_quota_reservation(*wl) || kueue::is_finished(*wl) ||
        !wl->admission)
      continue;
    std::string owner;
    for (const OwnerReference& o : *wl->metadata.owner_references) {
      if (o.kind == "Job") owner = " of Job " + wl->metadata.namespace_ + "/" + o.name;
    }
    snapshot.notes.push_back("Workload " + wl->metadata.namespace_ + "/" + wl->metadata.name +
                             owner + " holds quota in ClusterQueue " +
                             wl->admission->cluster_queue +
                             " until Kueue evicts it: a snapshot leaves Jobs out, so nothing "
                             "finishes it");
  }
}

/// `Kind "ns/name"` of a dumped object, the identity kubectl keys it by; empty when it has no
/// name (parse_object refuses it later, at its place).
std::string dumped_identity(const JsonNode& item, const std::string& kind) {
  const std::optional<JsonNode> metadata = item.get("metadata");
  if (!metadata || !metadata->json().is_object()) return {};
  const std::optional<JsonNode> name = metadata->get("name");
  if (!name || !name->is_string()) return {};
  std::string identity = kind + " \"";
  if (is_namespaced(kind)) {
    const std::optional<JsonNode> ns = metadata->get("namespace");
    identity += (ns && ns->is_string() && !ns->string().empty() ? ns->string() : "default") + "/";
  }
  return identity + name->string() + "\"";
}

/// An object an earlier file dumped too (`kubectl get nodes` and `kubectl get pods,nodes` run
/// one after the other): the files merged into one List hold it once when both copies are the
/// same; two different copies are two states of it at different times, and which one the
/// cluster is in is unknown. One dump never holds an object twice: a file that does is refused
/// as a scenario's cluster is (parse_cluster).
bool seen_before(const JsonNode& item, const std::string& identity,
                 std::map<std::string, JsonNode>& seen) {
  if (identity.empty()) return false;
  const auto [it, inserted] = seen.try_emplace(identity, item);
  if (inserted || it->second.source().file() == item.source().file()) return false;
  if (it->second.json() == item.json()) return true;
  const nlohmann::json diff = nlohmann::json::diff(it->second.json(), item.json());
  const std::string field = diff.empty() ? std::string() : diff[0].value("path", std::string());
  item.fail(identity + " is also at " + place_of(it->second, {}) + ", which differs" +
            (field.empty() ? std::string() : " at " + field) +
            ": the dumps were taken at different times; dump them again together, or leave it "
            "out of one");
}

/// Refuses a snapshot object created after `taken_at`: it did not exist yet at that instant, so
/// the dump cannot stand for it. A pod created by then but started after it is clock skew: the
/// API server stamps creationTimestamp, the node's kubelet status.startTime by its own clock; it
/// is read as started at `taken_at` (read_object_times clamps it), with a warning.
void check_taken_at(const std::vector<JsonNode>& items, std::int64_t taken_at) {
  for (const JsonNode& item : items) {
    const std::string identity = dumped_identity(item, item.required("kind").string());
    std::optional<JsonNode> metadata = item.get("metadata");
    if (auto created = metadata ? metadata->get("creationTimestamp") : std::nullopt;
        created && read_rfc3339(*created) > taken_at) {
      created->fail(identity + " was created at " + created->string() + ", after --taken-at " +
                    format_rfc3339(taken_at) +
                    ": it could not be in a snapshot taken then; give a time at or after its "
                    "objects' timestamps, or leave --taken-at out to use the latest");
    }
    std::optional<JsonNode> status = item.get("status");
    if (auto started = status ? status->get("startTime") : std::nullopt;
        started && read_rfc3339(*started) > taken_at) {
      started->source().warn(started->pointer(),
                             identity + " was started at " + started->string() +
                                 ", after --taken-at " + format_rfc3339(taken_at) +
                                 " though created before it (its node's clock is ahead?): read "
                                 "as started at --taken-at");
    }
  }
}

/// The snapshot of `files`, in order, each a `kubectl get -o json` (or YAML) dump.
void read_snapshot(const std::vector<const ParsedText*>& files, const SnapshotOptions& options,
                   Snapshot& snapshot) {
  if (files.empty()) throw InputError("snapshot", "", "no snapshot file given");
  Scenario& scenario = snapshot.scenario;
  scenario.source = files.front()->source().file();
  scenario.name = std::filesystem::path(scenario.source).stem().string();

  // Kinds gpusched does not model, in the snapshot or the additions, are left out as for a
  // scenario (kind_filter.hpp); of the modelled ones, the snapshot keeps kept_kind's.
  KindFilter kinds(options.strict);
  std::vector<JsonNode> items;
  std::map<std::string, std::size_t> skipped;
  std::map<std::string, JsonNode> seen;
  std::size_t terminated = 0;
  std::optional<std::int64_t> latest;
  std::string names;
  std::vector<JsonNode> dumped;  // every file's objects, in order
  for (const ParsedText* file : files) {
    names += (names.empty() ? "" : ", ") +
             std::filesystem::path(file->source().file()).filename().string();
    const std::vector<JsonNode> objects = manifest_objects(*file);
    dumped.insert(dumped.end(), objects.begin(), objects.end());
  }
  for (const JsonNode& item : kinds.kept(dumped)) {
    item.expect_type(nlohmann::json::value_t::object, "an object");
    const std::string kind = item.required("kind").string();
    if (seen_before(item, dumped_identity(item, kind), seen)) continue;
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
  // kubectl lists the kinds in the order asked (`get nodes,pods,priorityclasses` puts the pods
  // first), but in the cluster they exist at once: what a pod is admitted against and what the
  // resourceclaim controller finds for it (its PriorityClass, its claims, their templates) are
  // created before the pods, which would otherwise be refused, or given new claims.
  std::stable_partition(items.begin(), items.end(), [](const JsonNode& item) {
    const std::string kind = item.required("kind").string();
    return kind == "PriorityClass" || is_resource_kind(kind);
  });
  snapshot.snapshot_objects = items.size();
  if (options.taken_at) check_taken_at(items, *options.taken_at);

  std::deque<ManifestFile> added;
  for (const std::filesystem::path& addition : options.additions) {
    std::vector<JsonNode> objects =
        kinds.kept(added.emplace_back(addition, &scenario.warnings, &scenario.notes, options.strict)
                       .objects());
    items.insert(items.end(), objects.begin(), objects.end());
  }
  parse_cluster(items, files.front()->root(), scenario);

  // Only the snapshot's own objects carry times: the API server stamps a created object anew.
  scenario.start_time = options.taken_at ? options.taken_at : latest;
  if (scenario.start_time) {
    for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
      read_object_times(items[i], *scenario.start_time, scenario.cluster[i],
                        /*clamp_starts=*/true);
    }
  }
  // After the times, which are read from `items` by index: it may leave claims out.
  release_claims_of_absent_pods(snapshot);
  for (std::size_t i = 0; i < snapshot.snapshot_objects; ++i) {
    if (const auto* pod = std::get_if<Pod>(&scenario.cluster[i])) {
      snapshot.snapshot_pods.insert(pod->key());
    }
  }
  scenario.description =
      "snapshot " + names +
      (scenario.start_time ? " taken at " + format_rfc3339(*scenario.start_time) : std::string()) +
      " (" + plural(snapshot.snapshot_objects, "object") + ")";

  recreate_missing_priority_classes(snapshot);
  warn_unbound_nodes(snapshot);
  note_held_quota(snapshot);
  if (terminated > 0) {
    snapshot.notes.push_back(plural(terminated, "terminated pod") +
                             " (Succeeded or Failed) left out: they hold no resources");
  }
  for (const auto& [kind, count] : skipped) {
    snapshot.notes.push_back(plural(count, kind + " object") +
                             " left out: a snapshot keeps nodes, pods, PriorityClasses, "
                             "PodDisruptionBudgets, Namespaces, Services, StatefulSets, "
                             "Kueue's objects and resource.k8s.io's");
  }
  kinds.notes(scenario.notes);
}

}  // namespace

Snapshot parse_snapshot(std::string_view text, const std::string& file_name,
                        const SnapshotOptions& options) {
  Snapshot snapshot;
  // Unknown fields of the snapshot's objects, then of the additions'.
  const ParsedText file(file_name, text, &snapshot.scenario.warnings, &snapshot.scenario.notes,
                        options.strict);
  read_snapshot({&file}, options, snapshot);
  return snapshot;
}

Snapshot load_snapshot(const std::filesystem::path& path, const SnapshotOptions& options) {
  return load_snapshot(std::vector<std::filesystem::path>{path}, options);
}

Snapshot load_snapshot(const std::vector<std::filesystem::path>& paths,
                       const SnapshotOptions& options) {
  Snapshot snapshot;
  std::deque<ManifestFile> files;
  std::vector<const ParsedText*> parsed;
  for (const std::filesystem::path& path : paths) {
    parsed.push_back(&files
                          .emplace_back(path, &snapshot.scenario.warnings, &snapshot.scenario.notes,
                                        options.strict)
                          .parsed());
  }
  read_snapshot(parsed, options, snapshot);
  return snapshot;
}

}  // namespace gpusched::io
