// The machine-readable result (scenario-format.md §2). Keys follow the contract's order; keys
// beyond it are additions the contract allows. ordered_json keeps insertion order, so identical
// results print byte-identical documents.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "gpusched/model/time.hpp"
#include "gpusched/report/metrics.hpp"
#include "gpusched/report/queue_metrics.hpp"
#include "gpusched/report/writers.hpp"
#include "model/decimal.hpp"
#include "report/json_records.hpp"
#include "report/json_stream.hpp"

namespace gpusched::report {
namespace {

using Json = nlohmann::ordered_json;

void time_or_null(JsonStream& json, const std::optional<TimeMs>& time) {
  if (time) {
    json.string(format_duration(*time));
  } else {
    json.null();
  }
}

void resources(JsonStream& json, const ResourceList& list) {
  json.begin_object();
  for (const auto& [name, quantity] : list) json.key(name).string(quantity.to_string());
  json.end_object();
}

void write_pod(JsonStream& json, const PodRecord& record) {
  const Pod& pod = record.pod;
  json.begin_object();
  json.key("namespace").string(pod.metadata.namespace_);
  json.key("name").string(pod.metadata.name);
  json.key("phase").string(to_string(pod.status.phase));
  json.key("nodeName").string_or_null(pod.spec.node_name);
  // The kubelet's status.reason / message, else the PodScheduled condition's (null when none).
  json.key("reason");
  if (pod.reason() != nullptr) {
    json.string(*pod.reason());
  } else {
    json.null();
  }
  json.key("message");
  if (pod.message() != nullptr) {
    json.string(*pod.message());
  } else {
    json.null();
  }
  json.key("nominatedNodeName").string_or_null(pod.status.nominated_node_name);
  json.key("requests");
  resources(json, record.requests);
  json.key("terminating").boolean(record.terminating);
  time_or_null(json.key("createdAt"), record.created);
  time_or_null(json.key("scheduledAt"), record.scheduled);
  time_or_null(json.key("finishedAt"), record.finished);
  json.key("devices").begin_object();
  for (const auto& [resource, ids] : record.devices) {
    json.key(resource).begin_array();
    for (const std::string& id : ids) json.string(id);
    json.end_array();
  }
  json.end_object();
  json.key("visibleDevices").string_or_null(record.visible_devices);
  time_or_null(json.key("wait"), record.wait());
  json.key("preemptions").integer(record.preemptions);
  json.key("preemptedBy").string_or_null(record.preempted_by);
  json.end_object();
}

void strings(JsonStream& json, const std::vector<std::string>& list) {
  json.begin_array();
  for (const std::string& item : list) json.string(item);
  json.end_array();
}

void write_node(JsonStream& json, const NodeRecord& record) {
  json.begin_object();
  json.key("name").string(record.node.metadata.name);
  json.key("capacity");
  resources(json, record.node.capacity);
  json.key("allocatable");
  resources(json, record.node.allocatable);
  json.key("allocated");
  resources(json, record.allocated);
  json.key("pods");
  strings(json, record.pods);
  if (!record.gpus.empty()) {
    json.key("gpus").begin_array();
    for (const GpuRecord& gpu : record.gpus) {
      json.begin_object();
      json.key("index").integer(gpu.index);
      json.key("uuid").string(gpu.uuid);
      json.key("healthy").boolean(gpu.healthy);
      json.key("pods");
      strings(json, gpu.pods);
      json.end_object();
    }
    json.end_array();
  }
  if (!record.shared_gpus.empty()) {
    json.key("sharedGpus").begin_array();
    for (const SharedGpuRecord& gpu : record.shared_gpus) {
      json.begin_object();
      json.key("index").integer(gpu.index);
      json.key("usedMilli").integer(gpu.used_milli);
      json.key("pods").begin_array();
      for (const auto& [pod, milli] : gpu.pods) {
        json.begin_object();
        json.key("pod").string(pod);
        json.key("milli").integer(milli);
        json.end_object();
      }
      json.end_array();
      json.end_object();
    }
    json.end_array();
  }
  json.end_object();
}

void write_event(JsonStream& json, const EventRecord& event) {
  json.begin_object();
  json.key("time").string(format_duration(event.time));
  json.key("type").string(event.type);
  json.key("reason").string(event.reason);
  json.key("object").string(event.object);
  json.key("message").string(event.message);
  json.key("count").integer(event.count);
  json.key("lastTime").string(format_duration(event.last_time));
  json.end_object();
}

/// `count`: what the percentiles are over ("pods", "waits").
Json wait_json(const WaitStats& stats, const char* count = "pods") {
  Json json;
  json[count] = stats.pods;
  json["p50"] = format_duration(stats.p50);
  json["p95"] = format_duration(stats.p95);
  json["p99"] = format_duration(stats.p99);
  json["max"] = format_duration(stats.max);
  return json;
}

// Queue wait (report/metrics.hpp), per priority class and namespace.
Json queue_wait_json(const QueueWait& wait) {
  Json json = wait_json(wait.all);
  json["byPriorityClass"] = Json::object();
  for (const auto& [name, stats] : wait.by_priority_class)
    json["byPriorityClass"][name] = wait_json(stats);
  json["byNamespace"] = Json::object();
  for (const auto& [name, stats] : wait.by_namespace) json["byNamespace"][name] = wait_json(stats);
  json["neverBound"] = wait.never_bound;
  json["longestPending"] = format_duration(wait.longest_pending);
  return json;
}

// A Kueue queue's waits for quota (report/queue_metrics.hpp).
Json quota_waits_json(const QuotaWaits& waits) {
  Json json = wait_json(waits.all, "waits");
  json["reserved"] = waits.reserved;
  json["waiting"] = waits.waiting;
  json["longestWaiting"] = format_duration(waits.longest_waiting);
  return json;
}

// Per ClusterQueue its waits and quotas, per LocalQueue its waits (scenario-format.md §6).
Json queue_metrics_json(const KueueMetrics& metrics) {
  Json json;
  json["clusterQueues"] = Json::object();
  for (const auto& [name, cq] : metrics.cluster_queues) {
    Json entry = quota_waits_json(cq.waits);
    entry["quota"] = Json::array();
    for (const QuotaUse& use : cq.quota) {
      Json quota;
      quota["flavor"] = use.flavor;
      quota["resource"] = use.resource;
      quota["nominalQuota"] = use.nominal.to_string();
      quota["usageHours"] = Json::parse(fixed_text(use.usage_hours, 3));
      quota["borrowedHours"] = Json::parse(fixed_text(use.borrowed_hours, 3));
      quota["meanUsage"] =
          use.nominal.milli() > 0 ? Json::parse(fixed_text(use.mean_ratio, 4)) : Json();
      entry["quota"].push_back(std::move(quota));
    }
    json["clusterQueues"][name] = std::move(entry);
  }
  json["localQueues"] = Json::object();
  for (const auto& [name, waits] : metrics.local_queues)
    json["localQueues"][name] = quota_waits_json(waits);
  return json;
}

Json expectation_json(const ExpectationResult& expectation) {
  Json json;
  json["index"] = expectation.index;
  json["ok"] = expectation.ok;
  json["message"] = expectation.message;
  json["at"] = expectation.at;
  return json;
}

nlohmann::ordered_json conditions_json(const std::vector<Condition>& conditions) {
  Json json = Json::array();
  for (const Condition& c : conditions) {
    Json condition;
    condition["type"] = c.type;
    condition["status"] = c.status;
    condition["reason"] = c.reason;
    condition["message"] = c.message;
    condition["lastTransitionTime"] = format_duration(c.last_transition_time);
    json.push_back(std::move(condition));
  }
  return json;
}

nlohmann::ordered_json pod_group_json(const PodGroupRecord& group) {
  Json json;
  json["namespace"] = group.namespace_;
  json["name"] = group.name;
  json["minCount"] = group.min_count ? Json(*group.min_count) : Json();
  json["conditions"] = conditions_json(group.conditions);
  return json;
}

}  // namespace

nlohmann::ordered_json resource_claim_json(const ResourceClaimRecord& claim) {
  Json json;
  json["namespace"] = claim.namespace_;
  json["name"] = claim.name;
  json["owner"] = claim.owner ? Json(*claim.owner) : Json();
  json["allocated"] = claim.allocated;
  json["node"] = claim.node ? Json(*claim.node) : Json();
  json["devices"] = Json::array();
  for (const ClaimDeviceRecord& d : claim.devices) {
    Json device;
    device["request"] = d.request;
    device["driver"] = d.driver;
    device["pool"] = d.pool;
    device["device"] = d.device;
    json["devices"].push_back(std::move(device));
  }
  json["reservedFor"] = claim.reserved_for;
  return json;
}

nlohmann::ordered_json metrics_json(const std::vector<Metric>& metrics) {
  Json json = Json::object();
  for (const Metric& metric : metrics) {
    // Integral values print as integers; the others keep the decimals plain_metric rounds to.
    json[metric.name] = Json::parse(plain_metric(metric));
  }
  return json;
}

nlohmann::ordered_json string_or_null(const std::string& value) {
  return value.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(value);
}

nlohmann::ordered_json remedy_json(const Remedy& remedy) {
  nlohmann::ordered_json out;
  out["change"] = remedy.change;
  out["verified"] = remedy.verified;
  out["scheduledAt"] = remedy.scheduled_at
                           ? nlohmann::ordered_json(format_duration(*remedy.scheduled_at))
                           : nlohmann::ordered_json();
  out["node"] = string_or_null(remedy.node);
  return out;
}

nlohmann::ordered_json preemption_json(const PreemptionRecord& preemption) {
  Json json;
  json["time"] = format_duration(preemption.time);
  json["preemptor"] = preemption.preemptor;
  json["node"] = preemption.node;
  json["victims"] = Json::array();
  for (const VictimRecord& v : preemption.victims) {
    Json victim;
    victim["pod"] = v.pod;
    victim["priority"] = v.priority;
    victim["gpus"] = v.gpus;
    victim["ran"] = format_duration(v.ran);
    victim["lostGpuTime"] = format_duration(v.lost_gpu_ms());
    json["victims"].push_back(std::move(victim));
  }
  return json;
}

nlohmann::ordered_json workload_json(const WorkloadRecord& wl) {
  Json json;
  json["apiVersion"] = kueue::kApiVersion;
  json["namespace"] = wl.namespace_;
  json["name"] = wl.name;
  json["owner"] = wl.owner;
  json["queueName"] = wl.queue_name;
  json["clusterQueue"] = wl.cluster_queue ? Json(*wl.cluster_queue) : Json();
  json["priority"] = wl.priority;
  json["admitted"] = wl.admitted;
  json["admittedAt"] = wl.admitted_at ? Json(format_duration(*wl.admitted_at)) : Json();
  json["flavors"] = Json::object();
  for (const auto& [pod_set, flavors] : wl.flavors) {
    Json resources = Json::object();
    for (const auto& [resource, flavor] : flavors) resources[resource] = flavor;
    json["flavors"][pod_set] = std::move(resources);
  }
  json["conditions"] = conditions_json(wl.conditions);
  // Only for a workload with admission checks: results without them keep their keys.
  for (const kueue::AdmissionCheckState& c : wl.admission_checks) {
    Json check;
    check["name"] = c.name;
    check["state"] = c.state;
    check["message"] = c.message;
    check["lastTransitionTime"] = format_duration(c.last_transition_time);
    json["admissionChecks"].push_back(std::move(check));
  }
  return json;
}

nlohmann::ordered_json cluster_queue_json(const ClusterQueueRecord& cq) {
  Json json;
  json["name"] = cq.name;
  json["cohort"] = cq.cohort ? Json(*cq.cohort) : Json();
  json["usage"] = Json::object();
  for (const auto& [flavor, resources] : cq.usage) {
    Json usage = Json::object();
    for (const auto& [resource, q] : resources) usage[resource] = q.to_string();
    json["usage"][flavor] = std::move(usage);
  }
  json["pendingWorkloads"] = cq.pending_workloads;
  json["reservingWorkloads"] = cq.reserving_workloads;
  json["admittedWorkloads"] = cq.admitted_workloads;
  if (cq.weighted_share) json["weightedShare"] = *cq.weighted_share;
  return json;
}

void write_json(std::ostream& out, const SimulationResult& result) {
  // Streamed: pods, nodes and events, the bulk of a large result, are written as they are read;
  // the other sections are small documents. Messages quote user input; invalid UTF-8 is replaced
  // rather than allowed to throw.
  JsonStream json(out);
  json.begin_object();
  json.key("scenario").string(result.scenario);
  json.key("time").string(format_duration(result.time));
  json.key("pods").begin_array();
  for (const PodRecord& record : result.pods) write_pod(json, record);
  json.end_array();
  json.key("nodes").begin_array();
  for (const NodeRecord& record : result.nodes) write_node(json, record);
  json.end_array();
  // Kueue's objects (scenario-format.md §6), when the replay ran Kueue.
  if (!result.workloads.empty() || !result.cluster_queues.empty()) {
    json.key("workloads").begin_array();
    for (const WorkloadRecord& wl : result.workloads) json.value(workload_json(wl));
    json.end_array();
    json.key("clusterQueues").begin_array();
    for (const ClusterQueueRecord& cq : result.cluster_queues) json.value(cluster_queue_json(cq));
    json.end_array();
    json.key("queueMetrics").value(queue_metrics_json(kueue_metrics(result)));
  }
  // scheduling.k8s.io PodGroups (Kubernetes 1.36), when the scenario has any.
  if (!result.pod_groups.empty()) {
    json.key("podGroups").begin_array();
    for (const PodGroupRecord& group : result.pod_groups) json.value(pod_group_json(group));
    json.end_array();
  }
  // resource.k8s.io ResourceClaims (scenario-format.md §7), when the scenario has any.
  if (!result.resource_claims.empty()) {
    json.key("resourceClaims").begin_array();
    for (const ResourceClaimRecord& claim : result.resource_claims)
      json.value(resource_claim_json(claim));
    json.end_array();
  }
  json.key("events").begin_array();
  for (const EventRecord& event : result.events) write_event(json, event);
  json.end_array();
  json.key("preemptions").begin_array();
  std::int64_t lost = 0;
  for (const PreemptionRecord& preemption : result.preemptions) {
    json.value(preemption_json(preemption));
    for (const VictimRecord& v : preemption.victims) lost += v.lost_gpu_ms();
  }
  json.end_array();
  json.key("preemptionCount").integer(static_cast<std::int64_t>(result.preemptions.size()));
  json.key("lostGpuTime").string(format_duration(lost));
  json.key("queueWait").value(queue_wait_json(queue_wait(result)));
  json.key("metrics").value(metrics_json(summary_metrics(result)));
  json.key("expectations").begin_array();
  for (const ExpectationResult& expectation : result.expectations)
    json.value(expectation_json(expectation));
  json.end_array();
  json.key("passed").boolean(result.passed);
  json.end_object();
}

}  // namespace gpusched::report
