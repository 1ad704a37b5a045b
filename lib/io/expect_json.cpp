#include "io/expect_json.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <string_view>

#include "io/object_json.hpp"
#include "io/time_json.hpp"

namespace gpusched::io {
namespace {

constexpr std::array<std::string_view, 6> kPhases = {"Pending", "Running", "Succeeded",
                                                     "Failed",  "Unknown", "Absent"};

std::string checked_phase(const JsonNode& node, std::string phase) {
  if (std::find(kPhases.begin(), kPhases.end(), phase) == kPhases.end()) {
    node.fail("unknown phase \"" + phase +
              "\" (known phases: Pending, Running, Succeeded, Failed, Unknown, Absent)");
  }
  return phase;
}

/// "ns/name" as written, or "name" meaning "default/name".
std::string pod_name(const JsonNode& node) {
  std::string name = node.string();
  if (name.empty()) node.fail("pod name must not be empty");
  return name.find('/') == std::string::npos ? "default/" + name : name;
}

/// A string, or null meaning "must be unset".
std::optional<std::string> optional_string(const JsonNode& parent, std::string_view key,
                                           bool& present) {
  auto it = parent.json().find(key);
  present = it != parent.json().end();
  if (!present || it->is_null()) return std::nullopt;
  return parent.get(key)->string();
}

ResourceList parse_quantities(const JsonNode& node) {
  ResourceList list;
  for (const auto& [name, entry] : node.entries()) {
    std::string text;
    std::string error;
    std::optional<Quantity> quantity = read_quantity(entry, text, &error);
    if (!quantity) entry.fail("invalid quantity \"" + text + "\": " + error);
    list.emplace(name, *quantity);
  }
  return list;
}

PodExpectation parse_pod(const JsonNode& node) {
  node.reject_unknown_keys({"at", "pod", "phase", "node", "reason", "message", "messageContains",
                            "nominatedNode", "gpus", "visibleDevices", "gpuIndex"});
  PodExpectation out;
  if (auto gpus = node.get("gpus")) {
    out.gpus.emplace();
    for (const JsonNode& gpu : gpus->elements()) {
      out.gpus->push_back(static_cast<int>(gpu.integer_in(0, 1023)));
    }
  }
  if (auto visible = node.get("visibleDevices")) out.visible_devices = visible->string();
  if (auto index = node.get("gpuIndex")) out.gpu_index = index->string();
  out.pod = pod_name(node.required("pod"));
  if (auto phase = node.get("phase")) out.phase = checked_phase(*phase, phase->string());
  bool present = false;
  std::optional<std::string> bound = optional_string(node, "node", present);
  if (present) out.node = bound;
  std::optional<std::string> nominated = optional_string(node, "nominatedNode", present);
  if (present) out.nominated_node = nominated;
  if (auto reason = node.get("reason")) out.reason = reason->string();
  if (auto message = node.get("message")) out.message = message->string();
  if (auto contains = node.get("messageContains")) out.message_contains = contains->string();
  return out;
}

PodsExpectation parse_pods(const JsonNode& node) {
  node.reject_unknown_keys({"at", "pods", "phases"});
  PodsExpectation out;
  out.pattern = pod_name(node.required("pods"));
  for (const auto& [phase, count] : node.required("phases").entries()) {
    out.phases.emplace(checked_phase(count, phase),
                       count.integer_in(0, std::numeric_limits<std::int64_t>::max()));
  }
  return out;
}

NodeExpectation parse_node(const JsonNode& node) {
  node.reject_unknown_keys({"at", "node", "capacity", "allocatable", "allocated", "labels"});
  NodeExpectation out;
  out.node = node.required("node").string();
  if (auto capacity = node.get("capacity")) out.capacity = parse_quantities(*capacity);
  if (auto labels = node.get("labels")) {
    for (const auto& [key, value] : labels->entries()) out.labels[key] = value.string();
  }
  if (auto allocatable = node.get("allocatable")) out.allocatable = parse_quantities(*allocatable);
  if (auto allocated = node.get("allocated")) out.allocated = parse_quantities(*allocated);
  return out;
}

EventExpectation parse_event(const JsonNode& node) {
  node.reject_unknown_keys({"at", "event"});
  JsonNode event = node.required("event");
  event.reject_unknown_keys({"type", "reason", "object", "message", "messageContains"});
  EventExpectation out;
  if (auto type = event.get("type")) out.type = type->string();
  if (auto reason = event.get("reason")) out.reason = reason->string();
  if (auto object = event.get("object")) out.object = object->string();
  if (auto message = event.get("message")) out.message = message->string();
  if (auto contains = event.get("messageContains")) out.message_contains = contains->string();
  return out;
}

/// A non-negative int32 count at `key`, when given.
std::optional<std::int32_t> optional_count(const JsonNode& node, std::string_view key) {
  if (auto v = node.get(key)) {
    return static_cast<std::int32_t>(v->integer_in(0, std::numeric_limits<std::int32_t>::max()));
  }
  return std::nullopt;
}

PdbExpectation parse_pdb(const JsonNode& node) {
  node.reject_unknown_keys(
      {"at", "pdb", "disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"});
  PdbExpectation out;
  out.pdb = pod_name(node.required("pdb"));
  out.disruptions_allowed = optional_count(node, "disruptionsAllowed");
  out.current_healthy = optional_count(node, "currentHealthy");
  out.desired_healthy = optional_count(node, "desiredHealthy");
  out.expected_pods = optional_count(node, "expectedPods");
  return out;
}

ConditionExpectation parse_condition(const JsonNode& condition) {
  condition.reject_unknown_keys({"type", "status", "reason", "message", "messageContains"});
  ConditionExpectation c;
  c.type = condition.required("type").string();
  if (auto status = condition.get("status")) c.status = status->string();
  if (auto reason = condition.get("reason")) c.reason = reason->string();
  if (auto message = condition.get("message")) c.message = message->string();
  if (auto contains = condition.get("messageContains")) c.message_contains = contains->string();
  return c;
}

WorkloadExpectation parse_workload(const JsonNode& node) {
  node.reject_unknown_keys(
      {"at", "workload", "admitted", "finished", "clusterQueue", "flavors", "condition"});
  WorkloadExpectation out;
  out.workload = node.required("workload").string();
  if (out.workload.empty()) node.required("workload").fail("workload name must not be empty");
  if (auto admitted = node.get("admitted")) out.admitted = admitted->boolean();
  if (auto finished = node.get("finished")) out.finished = finished->boolean();
  if (auto cq = node.get("clusterQueue")) out.cluster_queue = cq->string();
  if (auto flavors = node.get("flavors")) {
    out.flavors.emplace();
    for (const auto& [pod_set, resources] : flavors->entries()) {
      for (const auto& [resource, flavor] : resources.entries())
        (*out.flavors)[pod_set][resource] = flavor.string();
    }
  }
  if (auto condition = node.get("condition")) out.condition = parse_condition(*condition);
  return out;
}

PodGroupExpectation parse_pod_group(const JsonNode& node) {
  node.reject_unknown_keys({"at", "podGroup", "condition"});
  PodGroupExpectation out;
  out.pod_group = node.required("podGroup").string();
  if (out.pod_group.find('/') == std::string::npos)
    node.required("podGroup").fail("a PodGroup is named \"namespace/name\"");
  if (auto condition = node.get("condition")) out.condition = parse_condition(*condition);
  return out;
}

ClaimExpectation parse_claim(const JsonNode& node) {
  node.reject_unknown_keys({"at", "claim", "allocated", "node", "devices", "reservedFor"});
  ClaimExpectation out;
  out.claim = node.required("claim").string();
  const std::size_t slashes =
      static_cast<std::size_t>(std::count(out.claim.begin(), out.claim.end(), '/'));
  if (!(slashes == 1 || (slashes == 2 && out.claim.starts_with("Pod/"))))
    node.required("claim").fail("a claim is named \"namespace/name\" or \"Pod/namespace/name\"");
  if (auto allocated = node.get("allocated")) out.allocated = allocated->boolean();
  if (auto n = node.get("node")) out.node = n->json().is_null() ? std::string() : n->string();
  if (auto devices = node.get("devices")) {
    out.devices.emplace();
    for (const JsonNode& item : devices->elements()) {
      item.reject_unknown_keys({"request", "driver", "pool", "device"});
      ClaimDeviceExpectation d;
      if (auto v = item.get("request")) d.request = v->string();
      if (auto v = item.get("driver")) d.driver = v->string();
      if (auto v = item.get("pool")) d.pool = v->string();
      d.device = item.required("device").string();
      out.devices->push_back(std::move(d));
    }
  }
  if (auto reserved = node.get("reservedFor")) {
    out.reserved_for.emplace();
    for (const JsonNode& item : reserved->elements()) out.reserved_for->push_back(item.string());
  }
  return out;
}

ClusterQueueExpectation parse_cluster_queue(const JsonNode& node) {
  node.reject_unknown_keys({"at", "clusterQueue", "usage", "pendingWorkloads", "admittedWorkloads",
                            "reservingWorkloads", "weightedShare"});
  ClusterQueueExpectation out;
  out.cluster_queue = node.required("clusterQueue").string();
  if (auto usage = node.get("usage")) {
    for (const auto& [flavor, resources] : usage->entries())
      out.usage[flavor] = parse_quantities(resources);
  }
  out.pending_workloads = optional_count(node, "pendingWorkloads");
  out.admitted_workloads = optional_count(node, "admittedWorkloads");
  out.reserving_workloads = optional_count(node, "reservingWorkloads");
  if (auto share = node.get("weightedShare"))
    out.weighted_share = share->integer_in(0, std::numeric_limits<std::int64_t>::max());
  return out;
}

Expectation parse_expectation(const JsonNode& node, std::optional<TimeMs> until) {
  Expectation out;
  out.pointer = node.pointer();
  out.line = node.source().line_of(out.pointer);
  if (auto at = node.get("at")) {
    if (!(at->is_string() && at->string() == "end")) {
      out.at = parse_time(*at);
      if (until && *out.at > *until) {
        at->fail("at " + format_duration(*out.at) + " is after until " + format_duration(*until));
      }
    }
  }
  int forms = 0;
  for (std::string_view key : {"pod", "pods", "event", "pdb", "workload", "podGroup", "claim"})
    forms += node.object().contains(key);
  // A workload assertion may name its ClusterQueue; alone, "clusterQueue" is a form of its own.
  if (!node.object().contains("workload")) forms += node.object().contains("clusterQueue");
  if (forms > 1)
    node.fail(
        "an assertion has exactly one of \"pod\", \"pods\", \"event\", \"pdb\", \"workload\", "
        "\"clusterQueue\", \"podGroup\", \"claim\"");
  if (node.get("pod")) {
    out.check = parse_pod(node);
  } else if (node.get("pods")) {
    out.check = parse_pods(node);
  } else if (node.get("event")) {
    out.check = parse_event(node);
  } else if (node.get("pdb")) {
    out.check = parse_pdb(node);
  } else if (node.get("workload")) {
    out.check = parse_workload(node);
  } else if (node.get("clusterQueue")) {
    out.check = parse_cluster_queue(node);
  } else if (node.get("podGroup")) {
    out.check = parse_pod_group(node);
  } else if (node.get("claim")) {
    out.check = parse_claim(node);
  } else if (node.get("node")) {
    out.check = parse_node(node);
  } else {
    node.fail(
        "an assertion needs one of \"pod\", \"pods\", \"node\", \"event\", \"pdb\", "
        "\"workload\", \"clusterQueue\", \"podGroup\" or \"claim\"");
  }
  return out;
}

}  // namespace

std::vector<Expectation> parse_expectations(const JsonNode& node, std::optional<TimeMs> until) {
  std::vector<JsonNode> items = node.elements();
  if (items.size() > kMaxExpectations) {
    node.fail("expect has " + std::to_string(items.size()) + " assertions; the limit is " +
              std::to_string(kMaxExpectations));
  }
  std::vector<Expectation> out;
  out.reserve(items.size());
  for (const JsonNode& item : items) out.push_back(parse_expectation(item, until));
  return out;
}

namespace {

using nlohmann::json;

/// A "must be unset" check (engaged nullopt) is written as null.
void put(json& out, const char* key, const std::optional<std::optional<std::string>>& value) {
  if (!value) return;
  out[key] = *value ? json(**value) : json(nullptr);
}

void put(json& out, const char* key, const std::optional<std::string>& value) {
  if (value) out[key] = *value;
}

void put(json& out, const char* key, const std::optional<std::int32_t>& value) {
  if (value) out[key] = *value;
}

void put(json& out, const char* key, const std::optional<std::int64_t>& value) {
  if (value) out[key] = *value;
}

json check_json(const PodExpectation& e) {
  json out = {{"pod", e.pod}};
  put(out, "phase", e.phase);
  put(out, "node", e.node);
  put(out, "reason", e.reason);
  put(out, "message", e.message);
  put(out, "messageContains", e.message_contains);
  put(out, "nominatedNode", e.nominated_node);
  if (e.gpus) out["gpus"] = *e.gpus;
  put(out, "visibleDevices", e.visible_devices);
  put(out, "gpuIndex", e.gpu_index);
  return out;
}

json check_json(const PodsExpectation& e) {
  return {{"pods", e.pattern}, {"phases", e.phases}};
}

json check_json(const NodeExpectation& e) {
  json out = {{"node", e.node}};
  if (!e.capacity.empty()) out["capacity"] = resources_json(e.capacity);
  if (!e.labels.empty()) out["labels"] = e.labels;
  if (!e.allocatable.empty()) out["allocatable"] = resources_json(e.allocatable);
  if (!e.allocated.empty()) out["allocated"] = resources_json(e.allocated);
  return out;
}

json check_json(const EventExpectation& e) {
  json event = json::object();
  put(event, "type", e.type);
  put(event, "reason", e.reason);
  put(event, "object", e.object);
  put(event, "message", e.message);
  put(event, "messageContains", e.message_contains);
  return {{"event", std::move(event)}};
}

json check_json(const PdbExpectation& e) {
  json out = {{"pdb", e.pdb}};
  put(out, "disruptionsAllowed", e.disruptions_allowed);
  put(out, "currentHealthy", e.current_healthy);
  put(out, "desiredHealthy", e.desired_healthy);
  put(out, "expectedPods", e.expected_pods);
  return out;
}

json condition_json(const ConditionExpectation& e) {
  json c = {{"type", e.type}};
  put(c, "status", e.status);
  put(c, "reason", e.reason);
  put(c, "message", e.message);
  put(c, "messageContains", e.message_contains);
  return c;
}

json check_json(const WorkloadExpectation& e) {
  json out = {{"workload", e.workload}};
  if (e.admitted) out["admitted"] = *e.admitted;
  if (e.finished) out["finished"] = *e.finished;
  put(out, "clusterQueue", e.cluster_queue);
  if (e.flavors) out["flavors"] = *e.flavors;
  if (e.condition) out["condition"] = condition_json(*e.condition);
  return out;
}

json check_json(const PodGroupExpectation& e) {
  json out = {{"podGroup", e.pod_group}};
  if (e.condition) out["condition"] = condition_json(*e.condition);
  return out;
}

json check_json(const ClaimExpectation& e) {
  json out = {{"claim", e.claim}};
  if (e.allocated) out["allocated"] = *e.allocated;
  if (e.node) out["node"] = e.node->empty() ? json(nullptr) : json(*e.node);
  if (e.devices) {
    json devices = json::array();
    for (const ClaimDeviceExpectation& d : *e.devices) {
      json item = json::object();
      for (const auto& [key, value] :
           {std::pair{"request", &d.request}, {"driver", &d.driver}, {"pool", &d.pool}}) {
        if (!value->empty()) item[key] = *value;
      }
      item["device"] = d.device;
      devices.push_back(std::move(item));
    }
    out["devices"] = std::move(devices);
  }
  if (e.reserved_for) out["reservedFor"] = *e.reserved_for;
  return out;
}

json check_json(const ClusterQueueExpectation& e) {
  json out = {{"clusterQueue", e.cluster_queue}};
  if (!e.usage.empty()) {
    json usage = json::object();
    for (const auto& [flavor, resources] : e.usage) usage[flavor] = resources_json(resources);
    out["usage"] = std::move(usage);
  }
  put(out, "pendingWorkloads", e.pending_workloads);
  put(out, "admittedWorkloads", e.admitted_workloads);
  put(out, "reservingWorkloads", e.reserving_workloads);
  put(out, "weightedShare", e.weighted_share);
  return out;
}

}  // namespace

json expectation_json(const Expectation& expectation) {
  json out = {{"at", expectation.at ? format_duration(*expectation.at) : std::string("end")}};
  out.update(std::visit([](const auto& check) { return check_json(check); }, expectation.check));
  return out;
}

}  // namespace gpusched::io
